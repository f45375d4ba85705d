"""An attack on the rules across files judged in shares of the URL keys
(``rules/cluster_shards.py``): sites made to be hard for the shares (a URL listed in
several files and kinds with different alternates, a page holding a list that does not
name it, alternates listed only in a text sitemap or feed, other spellings, codes that
are errors, max-per-code 1), each judged by one index and in shares, which must agree."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy", reason="the shares match keys with numpy, which the dask extra brings")

from sitemap_ext.checker import on_dask
from sitemap_ext.codes import REGISTRY
from sitemap_ext.diagnostics import Collector
from sitemap_ext.rules.cluster_shards import in_shares, merge_shares, owner
from sitemap_ext.rules.config import Policy
from sitemap_ext.urls import url_key

from .test_cluster_shards import HEAD, POLICIES, _both, _logs, _seen

E = "https://e.com"


def _entry(loc: str, *links: tuple[str, str]) -> str:
    return f"<url><loc>{loc}</loc>" + "".join(
        f'<xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>' for code, href in links) + "</url>\n"


def _xml(path: Path, *entries: str) -> str:
    path.write_text(HEAD + "".join(entries) + "</urlset>\n", encoding="utf-8")
    return str(path)


def _apart(*urls: str) -> int:
    """A number of shares that gives each of these URLs a share of its own."""
    keys = [url_key(one) for one in urls]
    return next(n for n in range(2, 200) if len({owner(key, n) for key in keys}) == len(keys))


def test_a_page_holding_a_whole_list_it_is_not_in_is_examined_alike(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """/a and /k give the alternates of /en and /de, which name neither; /k is listed again
    in a text sitemap, so one index examines that list (a URL listed twice with other
    alternates) and says H104 at /a too. The share owning /a holds no listing of /k (its
    list does not name /k): it finds the list whole and says nothing at /a."""
    links = (("en", f"{E}/en"), ("de", f"{E}/de"))
    xml = _xml(tmp_path / "s.xml", _entry(f"{E}/en", *links), _entry(f"{E}/de", *links), _entry(f"{E}/a", *links),
               _entry(f"{E}/k", *links))
    (tmp_path / "t.txt").write_text(f"{E}/k\n", encoding="utf-8")
    logs = _logs([xml, str(tmp_path / "t.txt")], monkeypatch)
    one, many, _, _ = _both(logs, _apart(f"{E}/a", f"{E}/k"), None)
    assert [row[:6] for row in one[0] if row[5] == f"{E}/a"], one[0]  # (one index says something at /a)
    _show(one, many)
    assert many == one


def test_h111_is_said_where_one_index_says_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/a is listed twice, with list M (web sitemap) then list L (a second sitemap); /e holds
    L too. L names /h, which nothing lists. One index says H111 of (L, /h) while it
    examines /e, at L's first entry: /a in the second sitemap. The share owning /e takes its
    own entry as L's first (its owned entries come before those it asked for)."""
    m_links = (("en", f"{E}/a"), ("es", f"{E}/g"))
    l_links = (("en", f"{E}/a"), ("de", f"{E}/e"), ("fr", f"{E}/h"))
    first = _xml(tmp_path / "s1.xml", _entry(f"{E}/a", *m_links))
    second = _xml(tmp_path / "s2.xml", _entry(f"{E}/a", *l_links), _entry(f"{E}/e", *l_links))
    logs = _logs([first, second], monkeypatch)
    one, many, _, _ = _both(logs, _apart(f"{E}/a", f"{E}/e"), None)
    _show(one, many)
    assert many == one


def _show(one: object, many: object) -> None:
    if one != many:
        for name, seen in (("one index", one), ("shares", many)):
            print(f"--- {name}: counts {seen[1]}")  # type: ignore[index]
            for row in seen[0]:  # type: ignore[index]
                print("  ", row[:8])


# --- generated sites -----------------------------------------------------------------------

PATHS = [f"/p{number}" for number in range(6)]
SPELLINGS = ["https://e.com{}", "https://e.com{}/", "http://e.com{}"]
LINK_CODES = ["en", "de", "fr", "en-GB", "x-default", "en_US"]
NEWS = ("<news:news><news:publication><news:name>E</news:name><news:language>en</news:language></news:publication>"
        "<news:publication_date>2026-11-20</news:publication_date><news:title>T</news:title></news:news>")
KINDS = ["web", "web", "web", "news", "text", "rss"]

urls = st.builds(lambda path, spelling: spelling.format(path), st.sampled_from(PATHS),
                 st.sampled_from(SPELLINGS[:1] * 4 + SPELLINGS))  # (the plain spelling most often)
link_lists = st.lists(st.tuples(st.sampled_from(LINK_CODES), urls), max_size=4)


@st.composite
def sites(draw: st.DrawFn) -> list[tuple[str, list[tuple[str, list[tuple[str, str]]]]]]:
    """Files (a kind, its entries: a loc and its alternates). Lists are drawn from a few
    shared ones most often (clusters whole or not, held by members and non-members)."""
    shared = draw(st.lists(link_lists, min_size=1, max_size=3))
    files = []
    for kind in draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=5)):
        entries = []
        for loc in draw(st.lists(urls, max_size=6)):
            links = draw(st.one_of(st.sampled_from(shared), link_lists)) if kind in ("web", "news") else []
            entries.append((loc, links))
        files.append((kind, entries))
    return files


def _write_site(folder: Path, site: list[tuple[str, list[tuple[str, list[tuple[str, str]]]]]]) -> list[str]:
    paths = []
    for number, (kind, entries) in enumerate(site):
        if kind == "text":
            path = folder / f"urls-{number}.txt"
            path.write_text("".join(f"{loc}\n" for loc, _ in entries) or "\n", encoding="utf-8")
        elif kind == "rss":
            path = folder / f"feed-{number}.rss"
            path.write_text('<?xml version="1.0"?>\n<rss version="2.0"><channel><title>E</title>'
                            "<link>https://e.com/</link>\n" + "".join(
                                f"<item><title>T</title><link>{loc}</link></item>\n" for loc, _ in entries)
                            + "</channel></rss>\n", encoding="utf-8")
        else:
            head = HEAD if kind == "web" else HEAD.replace(
                "<urlset ", '<urlset xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" ')
            path = folder / f"{kind}-{number}.xml"
            path.write_text(head + "".join(
                _entry(loc, *links).replace("</url>", NEWS + "</url>" if kind == "news" else "</url>")
                for loc, links in entries) + "</urlset>\n", encoding="utf-8")
        paths.append(str(path))
    return paths


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(site=sites(), shards=st.integers(1, 13), limit=st.sampled_from([None, 1]),
       policy=st.sampled_from(POLICIES))
def test_generated_hard_sites_are_judged_alike_in_shares(site: list[Any],
                                                        shards: int, limit: int | None, policy: Policy | None,
                                                        tmp_path_factory: pytest.TempPathFactory,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path_factory.mktemp("site")
    logs = _logs(_write_site(folder, site), monkeypatch)
    one, many, listed_one, listed_many = _both(logs, shards, limit, policy)
    _show(one, many)
    assert many == one
    assert listed_many == listed_one


# --- on a Dask cluster ---------------------------------------------------------------------

def test_a_built_folder_without_pages_read_still_says_u113_on_dask(tmp_path: Path) -> None:
    """A built folder (--base-url) whose one HTML file holds a sitemap: it is read as a
    sitemap, so no page's head is read, yet the folder is the built site's and U113 says
    which listed URL no file serves. On Dask the join runs on the workers (no page read),
    and the built site's rules, which the client's ``site.judge`` says, are not said."""
    distributed = pytest.importorskip("distributed", reason="a check on Dask needs dask and distributed")
    from sitemap_ext.checker.given import check

    (tmp_path / "sitemap.xml").write_text(HEAD + f"<url><loc>{E}/a.html</loc></url>\n"
                                          f"<url><loc>{E}/gone.html</loc></url>\n</urlset>\n", encoding="utf-8")
    (tmp_path / "a.html").write_text(HEAD + f"<url><loc>{E}/b</loc></url>\n</urlset>\n", encoding="utf-8")
    base = [f"{E}/={tmp_path}"]
    one = check([str(tmp_path)], base_urls=base, now="2026-11-21T12:00:00Z", jobs=1)
    made = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0")
    with distributed.Client(made) as client:
        many = check([str(tmp_path)], base_urls=base, now="2026-11-21T12:00:00Z", client=client)
    made.close()
    assert "U113" in {d.code for d in one.collector.diagnostics}  # (the built site's rule says something)
    assert [(d.code, d.file, d.line, d.url) for d in many.collector.diagnostics] == \
        [(d.code, d.file, d.line, d.url) for d in one.collector.diagnostics]


def test_u104_of_long_urls_in_the_order_one_index_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two URLs past 2,100 characters, each listed twice: a finding shows a URL that long
    shortened, and the merge orders U104 by the key of the URL the finding shows (the
    same for both), not by the URL's key: with one share too, the order is the files',
    not one index's (the order of the keys), and past max-per-code 1 the other is kept."""
    prefix = f"{E}/{'x' * 2_100}"
    first, second = sorted((prefix + "a", prefix + "b"), key=url_key, reverse=True)  # (the larger key first)
    xml = _xml(tmp_path / "s.xml", *(_entry(loc) for loc in (first, second, first, second)))
    logs = _logs([xml], monkeypatch)
    for limit in (None, 1):
        one, many, _, _ = _both(logs, 1, limit)
        _show(one, many)
        assert [row[0] for row in one[0]] == ["U104"] * (2 if limit is None else 1)
        assert many == one


class _Done:
    """A fake client's future: the value it stands for, pickled once as it crosses."""

    def __init__(self, value: object) -> None:
        self.value = pickle.loads(pickle.dumps(value))

    def result(self) -> object:
        return self.value


def _resolved(value: object) -> object:
    if isinstance(value, _Done):
        return value.value
    if isinstance(value, (list, tuple)):
        return type(value)(_resolved(one) for one in value)
    if isinstance(value, dict):
        return {key: _resolved(one) for key, one in value.items()}
    return value


class _Client:
    """What ``on_dask.across`` asks of a ``distributed.Client``, each task run at once here."""

    def __init__(self, threads: int) -> None:
        self.threads = threads

    def nthreads(self) -> dict[str, int]:
        return {"worker": self.threads}

    def submit(self, function: Any, *args: object, pure: bool = True, key: object = None) -> _Done:
        return _Done(function(*(_resolved(arg) for arg in args)))

    def scatter(self, values: list[object], hash: bool = True, broadcast: bool = False) -> list[_Done]:
        return [_Done(value) for value in values]

    def gather(self, futures: list[_Done]) -> list[object]:
        return [future.value for future in futures]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(site=sites(), threads=st.integers(1, 7), group=st.integers(1, 3), limit=st.sampled_from([None, 1]),
       futures=st.booleans())
def test_the_task_graph_gives_what_every_step_in_process_gives(site: list[Any], threads: int, group: int,
                                                              limit: int | None, futures: bool,
                                                              tmp_path_factory: pytest.TempPathFactory,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``on_dask.across`` (split groups of ``group`` logs: a share owns a part of each;
    logs as futures or as this process's) merges to what ``in_shares`` merges to."""
    logs = _logs(_write_site(tmp_path_factory.mktemp("site"), site), monkeypatch)
    whole = [pickle.loads(pickle.dumps(log)).of_file(display or "") for display, log in logs]
    settings_: dict[str, Any] = {"policy": None, "limit": limit, "errors_kept": False, "redactions": {}, "budget": None}
    alone = Collector(REGISTRY, limit=limit)
    listed_alone = merge_shares(alone, in_shares(whole, threads, dict(settings_, registry=REGISTRY)))
    monkeypatch.setattr(on_dask, "SPLIT_GROUP", group)
    on_graph = Collector(REGISTRY, limit=limit)
    given_logs: list[Any] = [_Done(log) if futures else log for log in whole]
    listed_graph = merge_shares(on_graph, on_dask.across(_Client(threads), REGISTRY, given_logs, settings_))
    assert _seen(on_graph) == _seen(alone)
    assert listed_graph == listed_alone
