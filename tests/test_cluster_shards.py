"""The rules across files judged in shares of the URL keys (``rules/cluster_shards.py``),
each share on its own, give the findings one index of every file gives: the same
codes, places, URLs, messages and related places, the same counts, and past a small
``max_per_code`` the same findings kept. Generated sitemaps: clusters whole and broken
across files and hosts, pairs without their return link, another spelling of a URL
(trailing slash, http), URLs listed twice, x-default missing, a text sitemap."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy", reason="the shares match keys with numpy, which the dask extra brings")

from sitemap_ext.checker.given import check
from sitemap_ext.codes import REGISTRY
from sitemap_ext.diagnostics import Collector, Severity
from sitemap_ext.rules import cluster_shards
from sitemap_ext.rules.cluster_log import ClusterLog
from sitemap_ext.rules.cluster_shards import in_shares, merge_shares, owner
from sitemap_ext.rules.cluster_store import ClusterStore
from sitemap_ext.rules.clusters import ClusterIndex
from sitemap_ext.rules.config import Policy

NOW = "2026-11-21T12:00:00Z"
CODES = ["en", "de", "fr", "es", "en-GB", "x-default"]
HOSTS = ["https://e.com", "https://f.org"]
HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n')


def _site(seed: int, clusters: int, files: int) -> tuple[list[list[str]], list[str]]:
    """XML files of entries and a text sitemap's lines."""
    rng = random.Random(seed)
    out: list[list[str]] = [[] for _ in range(files)]
    text: list[str] = []
    for cluster in range(clusters):
        host = rng.choice(HOSTS)
        links = [(code, f"{host}/{code}/p{cluster}/") for code in rng.sample(CODES, rng.randint(1, 4))]
        broken = rng.random() < 0.4
        for _, loc in links:
            own = list(links)
            if broken and rng.random() < 0.5:
                at = rng.randrange(len(own))
                spoilt = rng.choice([f"{host}/gone/p{cluster}", own[at][1].rstrip("/"),
                                     own[at][1].replace("https:", "http:"), own[0][1]])
                own[at] = (rng.choice([own[at][0], "fr-CA"]), spoilt)
            if broken and rng.random() < 0.2:
                own = own[:-1]
            if rng.random() < 0.1:
                own = []
            if rng.random() < 0.05:
                text.append(loc)
                continue
            entry = f"<url><loc>{loc}</loc>\n" + "".join(
                f'<xhtml:link rel="alternate" hreflang="{c}" href="{h}"/>\n' for c, h in own) + "</url>"
            number = rng.randrange(files)
            out[number].append(entry)
            if rng.random() < 0.06:
                out[rng.randrange(files)].append(entry)  # listed twice (U104, within a file or across)
    return out, text


def _write(folder: Path, site: tuple[list[list[str]], list[str]]) -> list[str]:
    paths = []
    for number, entries in enumerate(site[0]):
        path = folder / f"sitemap-{number}.xml"
        path.write_text(HEAD + "\n".join(entries) + "\n</urlset>\n", encoding="utf-8")
        paths.append(str(path))
    if site[1]:
        path = folder / "urls.txt"
        path.write_text("\n".join(site[1]) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths


def _logs(paths: list[str], monkeypatch: pytest.MonkeyPatch) -> list[tuple[str | None, ClusterLog]]:
    """The logs a check adds to its cluster index, in the order added."""
    added: list[tuple[str | None, ClusterLog]] = []
    real = ClusterStore.add

    def add(store: ClusterStore, display: str | None, log: ClusterLog) -> None:
        added.append((display, pickle.loads(pickle.dumps(log))))
        real(store, display, log)

    with monkeypatch.context() as patched:
        patched.setattr(ClusterStore, "add", add)
        check(paths, now=NOW, jobs=1)
    return added


def _seen(collector: Collector) -> tuple[Any, ...]:
    rows = [(d.code, d.severity.value, d.file, d.line, d.column, d.url, d.hreflang, d.suggestion, d.message,
             [(r.message, r.file, r.line, r.url) for r in d.related]) for d in collector.diagnostics]  # (in order)
    return rows, dict(+collector.counts), dict(+collector.suppressed), dict(+collector.ignored)


POLICIES = [None, Policy(ignore=("H112",)), Policy(severity=(("H1", Severity.ERROR),)),
            Policy(per_path=(("*sitemap-1.xml", ("H11", "U104")),))]


def _both(logs: list[tuple[str | None, ClusterLog]], shards: int, limit: int | None, policy: Policy | None = None
          ) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[int, int], tuple[int, int]]:
    one = Collector(REGISTRY, limit=limit, policy=policy)
    index = ClusterIndex(one)
    for display, log in logs:
        index.add(display, pickle.loads(pickle.dumps(log)))
    index.finish()
    many = Collector(REGISTRY, limit=limit, policy=policy)
    whole = [pickle.loads(pickle.dumps(log)).of_file(display) if display is not None else log
             for display, log in logs]
    shares = in_shares(whole, shards, {"registry": REGISTRY, "limit": limit, "policy": policy})
    shares = [pickle.loads(pickle.dumps(share)) for share in shares]  # (they cross from the workers)
    listed = merge_shares(many, shares)
    return _seen(one), _seen(many), index.listed(), listed


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), clusters=st.integers(1, 60), files=st.integers(1, 4),
       shards=st.integers(1, 9), limit=st.sampled_from([None, 1, 3]), policy=st.sampled_from(POLICIES))
def test_shares_find_what_one_index_finds(seed: int, clusters: int, files: int, shards: int, limit: int | None,
                                          policy: Policy | None, tmp_path_factory: pytest.TempPathFactory,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path_factory.mktemp("site")
    logs = _logs(_write(folder, _site(seed, clusters, files)), monkeypatch)
    one, many, listed_one, listed_many = _both(logs, shards, limit, policy)
    assert many == one
    assert listed_many == listed_one


def test_a_site_with_every_cluster_finding_is_judged_alike_in_many_shares(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    logs = _logs(_write(tmp_path, _site(7, 400, 3)), monkeypatch)
    one, many, listed_one, listed_many = _both(logs, 7, None)
    codes = {row[0] for row in one[0]}
    assert {"H104", "H112", "H113", "U104", "H111"} <= codes, codes  # (the site has what the test is about)
    assert many == one
    assert listed_many == listed_one


def test_an_entry_goes_to_the_share_of_each_url_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page A lists B, B does not list A back (B in two clusters: H109 at A): the share owning A gets B's
    entry, though nothing B lists names A."""
    (tmp_path / "s.xml").write_text(
        HEAD + '<url><loc>https://e.com/a</loc><xhtml:link rel="alternate" hreflang="en" href="https://e.com/a"/>'
        '<xhtml:link rel="alternate" hreflang="de" href="https://e.com/b"/></url>\n'
        '<url><loc>https://e.com/b</loc><xhtml:link rel="alternate" hreflang="de" href="https://e.com/b"/>'
        '<xhtml:link rel="alternate" hreflang="fr" href="https://e.com/c"/></url>\n</urlset>\n', encoding="utf-8")
    logs = _logs([str(tmp_path / "s.xml")], monkeypatch)
    keys = logs[0][1].keys
    shards = next(n for n in range(2, 64) if owner(keys[0], n) != owner(keys[1], n))
    one, many, _, _ = _both(logs, shards, None)
    assert "H109" in {row[0] for row in one[0]}  # (b is in two clusters)
    assert many == one


def test_owner_cuts_the_keys_in_equal_ranges() -> None:
    assert owner(-(1 << 63), 4) == 0
    assert owner((1 << 63) - 1, 4) == 3
    assert [owner(key, 4) for key in (-(1 << 62) - 1, -(1 << 62), -1, 0, (1 << 62) - 1, 1 << 62)] == [0, 1, 1, 2, 2, 3]
    assert cluster_shards.owner(12345, 1) == 0


@pytest.mark.parametrize("policy", POLICIES[1:])
def test_a_policy_is_applied_once_to_what_the_shares_say(policy: Policy, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Findings two shares may both say are kept past the policy in each share and shown,
    hidden or given their severity once merged: the same as one index with the policy."""
    logs = _logs(_write(tmp_path, _site(11, 300, 3)), monkeypatch)
    plain = _both(logs, 5, None)[0]
    one, many, _, _ = _both(logs, 5, None, policy)
    assert many == one
    assert one != plain  # (the policy changes what is said)


REALWORLD = Path(__file__).parent / "data" / "realworld" / "sitemaps"


@pytest.mark.parametrize("name", sorted(path.name for path in REALWORLD.iterdir() if path.is_dir()))
def test_real_sitemaps_are_judged_alike_in_shares(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sitemaps of the real-world corpus (generators, CMSs, news sites): in 3 and 5
    shares as by one index, findings, order and counts."""
    logs = _logs([str(REALWORLD / name)], monkeypatch)
    for shards in (3, 5):
        one, many, listed_one, listed_many = _both(logs, shards, None)
        assert many == one
        assert listed_many == listed_one
