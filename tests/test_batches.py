"""The engine judges entries in batches (rules/engine.py): the verdict on a file is the
same whatever the batch's size. Files are generated with repeated and distinct values
(lastmods, links, images, element orders) and a few bad ones at random places; each is
checked with batches of 1, 2, 7 and 4,096 entries, and the findings (codes, lines,
columns, URLs, messages, in the order reported) and the cluster log must not differ."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_ext import codes
from sitemap_ext.checker import judge_file
from sitemap_ext.checker.judge_file import Options, Task, check_file
from sitemap_ext.read.sniff import sniff
from sitemap_ext.rules import engine

NOW = 1_780_000_000.0  # 2026-05-28
SIZES = (1, 2, 7, 4096)

LASTMODS = ["2026-01-05", "2026-01-05", "2026-02-01T10:00:00Z", "2026-13-01", "2099-01-01", "2026-01-05T10:00",
            " ", "2026"]
CHANGEFREQS = [None, None, "daily", "Daily", "sometimes"]
PRIORITIES = [None, None, "0.5", "2", "0.8"]
IMAGES = ["https://e.com/i/a.jpg", "https://cdn.e.net/b.jpg", "https://e.com/i/$ID.jpg", "/rel.jpg",
          "https://e.com/doc.pdf"]
CODES = ["en", "de", "fr", "en_US", "x-default", "uk"]


@st.composite
def clusters(draw: Any) -> list[tuple[str, str]]:
    """A set of alternates: (hreflang, path), some shared by several entries."""
    size = draw(st.integers(1, 4))
    return [(draw(st.sampled_from(CODES)), draw(st.sampled_from(["/a", "/b", "/c", "b", "/a/"])))
            for _ in range(size)]


@st.composite
def entries(draw: Any) -> list[str]:
    links_pool = draw(st.lists(clusters(), min_size=1, max_size=3))
    count = draw(st.integers(1, 24))
    out = []
    for number in range(count):
        loc = draw(st.sampled_from([f"https://e.com/p{number}", f"https://e.com/p{number}",
                                    f"/p{number}", "https://other.org/x", "", "https://e.com/a b"]))
        lines = [f"<loc>{loc}</loc>"] if draw(st.integers(0, 12)) else []  # (now and then none)
        lastmod = draw(st.sampled_from([None, *LASTMODS]))
        if lastmod is not None:
            lines.insert(draw(st.integers(0, 1)) if lines else 0, f"<lastmod>{lastmod}</lastmod>")
        for name, pool in (("changefreq", CHANGEFREQS), ("priority", PRIORITIES)):
            value = draw(st.sampled_from(pool))
            if value is not None:
                lines.append(f"<{name}>{value}</{name}>")
        if draw(st.booleans()):
            for code, path in draw(st.sampled_from(links_pool)):
                href = f"https://e.com{path}" if path.startswith("/") else path
                lines.append(f'<xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>')
        if draw(st.booleans()):
            image = draw(st.sampled_from(IMAGES))
            lines.append(f"<image:image>\n<image:loc>{image}</image:loc>\n</image:image>")
        out.append("<url>\n" + "\n".join(lines) + "\n</url>")
    return out


def _sitemap(path: Path, items: list[str]) -> None:
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
                    'xmlns:xhtml="http://www.w3.org/1999/xhtml" '
                    'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
                    + "\n".join(items) + "\n</urlset>\n", encoding="utf-8")


def _verdict(path: Path, size: int, monkeypatch: pytest.MonkeyPatch, per_code: int | None) -> tuple[Any, ...]:
    monkeypatch.setattr(judge_file, "BATCH", size)
    options = Options(codes.REGISTRY, now=NOW, max_per_code=per_code)
    task = Task(str(path), "https://e.com/sitemap.xml", False, sniff(str(path)))
    result = check_file(task, options, noted=set())
    found = [(d.code, d.line, d.column, d.url, d.hreflang, d.suggestion, d.message) for d in result.diagnostics]
    log = result.log
    assert log is not None
    packed = (list(log.keys), list(log.lines), list(log.lists), list(log.kinds), list(log.members), bytes(log.loc_bytes),
              list(log.firsts), list(log.digests), list(log.named), list(log.item_keys), bytes(log.href_bytes))
    return found, packed, result.record["urls"], sorted(result.suppressed.items())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=entries(), per_code=st.sampled_from([None, 2]))
def test_the_verdict_on_a_file_is_the_same_whatever_the_batch_size(
        items: list[str], per_code: int | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "sitemap.xml"
    _sitemap(path, items)
    verdicts = [_verdict(path, size, monkeypatch, per_code) for size in SIZES]
    assert all(verdict == verdicts[0] for verdict in verdicts[1:])


def test_a_repeated_value_is_judged_once_in_a_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forty entries sharing one lastmod and one changefreq: each judged once while it says
    nothing; every entry's lastmod still counted (D103 sees forty)."""
    items = [f"<url>\n<loc>https://e.com/p{n}</loc>\n<lastmod>2026-01-05</lastmod>\n<changefreq>daily</changefreq>\n"
             "</url>" for n in range(40)]
    path = tmp_path / "sitemap.xml"
    _sitemap(path, items)
    judged: list[str] = []
    rules = []
    for rule in engine.ENTRY_RULES:
        if rule.name in ("lastmod", "changefreq"):
            def counted(entry: Any, ctx: Any, check: Any = rule.check, name: str = rule.name) -> Any:
                judged.append(name)
                return check(entry, ctx)
            rule = type(rule)(rule.name, rule.scope, rule.codes, counted, rule.reads, rule.key, rule.tally)
        rules.append(rule)
    monkeypatch.setattr(engine, "ENTRY_RULES", tuple(rules))
    found, _, urls, _ = _verdict(path, 4096, monkeypatch, None)
    assert urls == 40
    assert sorted(judged) == ["changefreq", "lastmod"]
    assert [(code, line) for code, line, *_ in found] == [("D103", None)]


def test_a_finding_on_a_repeated_value_is_said_at_each_entry(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad value repeated: judged at each entry holding it, each finding at its own line."""
    items = [f"<url>\n<loc>https://e.com/p{n}</loc>\n<priority>2</priority>\n</url>" for n in range(3)]
    path = tmp_path / "sitemap.xml"
    _sitemap(path, items)
    found, _, _, _ = _verdict(path, 4096, monkeypatch, None)
    assert [(code, line, url) for code, line, _, url, *_ in found] == [
        ("D105", 5, "https://e.com/p0"), ("D105", 9, "https://e.com/p1"), ("D105", 13, "https://e.com/p2")]


@settings(max_examples=100, deadline=None)
@given(seconds=st.lists(st.sampled_from([0.0, 0.4, 1.0, 1.5, 2.0, 3.0, 60.0, 3600.0]), min_size=1, max_size=30),
       order=st.randoms(use_true_random=False))
def test_lastmods_counted_at_once_are_counted_as_one_by_one(seconds: list[float], order: Any) -> None:
    """A batch counts the entries sharing a lastmod at once (Rule.tally), after the rest:
    the facts the file rules read are those of counting each entry in turn."""
    from sitemap_ext.dates import DateCache
    from sitemap_ext.read.record import FileFacts
    from sitemap_ext.rules.context import Context
    from sitemap_ext.rules.values import count_lastmod

    dates = DateCache()
    found = [dates.parse(f"2026-01-05T{int(s // 3600):02d}:{int(s % 3600 // 60):02d}:{s % 60:04.1f}Z")[0]
             for s in seconds]
    one = Context(FileFacts("a", kind="urlset"), print)
    for lastmod in found:
        count_lastmod(lastmod, one)
    grouped = Context(FileFacts("a", kind="urlset"), print)
    count_lastmod(found[0], grouped)  # (the first is judged, and counted, first)
    rest: dict[float, tuple[Any, int]] = {}
    for lastmod in found[1:]:
        assert lastmod is not None
        rest[lastmod.instant] = (lastmod, rest.get(lastmod.instant, (None, 0))[1] + 1)
    groups = list(rest.values())
    order.shuffle(groups)
    for lastmod, times in groups:
        count_lastmod(lastmod, grouped, times)
    kept = ("lastmod_count", "first_lastmod", "lastmod_newest", "lastmod_at_newest", "lastmod_oldest",
            "lastmod_bucket", "lastmod_in_bucket", "lastmod_in_bucket_before")
    assert [getattr(grouped.facts, name) for name in kept] == [getattr(one.facts, name) for name in kept]
    assert len(grouped.facts.lastmods) == len(one.facts.lastmods)


HOSTS = """site:
  base_url: https://www.example.com/
locales:
  en: {host: "https://www.example.com/"}
  de: {host: "https://www.example.de/"}
  fr: {host: "https://www.example.fr/"}
x_default: en
sources:
  - file: rows.csv
output:
  html: false
"""


def test_a_build_with_a_host_per_locale_hands_the_engine_full_batches(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Each page's versions go to three files (one per host): the build gathers a batch per
    file, where cutting a batch at each change of file handed the engine one entry at a time."""
    from sitemap_ext.cli import main
    from sitemap_ext.write import judge

    pages = 3 * engine.BATCH
    (tmp_path / "rows.csv").write_text("path\n" + "".join(f"/p/{n}\n" for n in range(pages)))
    (tmp_path / "site.yaml").write_text(HOSTS)
    sizes: list[int] = []
    real = judge.judge_entries

    def counted(entries: Any, *args: Any, **kwargs: Any) -> None:
        sizes.append(len(entries))
        real(entries, *args, **kwargs)

    monkeypatch.setattr(judge, "judge_entries", counted)
    monkeypatch.chdir(tmp_path)
    assert main(["build", "site.yaml", "-o", "out", "-q", "--jobs", "1"]) == 0
    assert sum(sizes) == 3 * pages
    assert sorted(sizes)[-9:] == [engine.BATCH] * 9
    assert len(sizes) == 9
    written = sorted(path.read_text().count("<url>") for path in (tmp_path / "out").rglob("*.xml"))
    assert written[-3:] == [pages] * 3  # (one file per host, each with every page's version)
