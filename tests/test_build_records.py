"""The records a build judges are the records the reader makes of what it writes.

A build hands each entry to the engine as ``write/records.py`` makes it from the page
(no XML parsed); ``check OUT`` reads the same entry from its bytes with
``read/xml.read_xml``. For generated pages (clusters, layouts, x-default, lastmods
per version, a URL shared by two codes, images, videos, news; values with the
characters XML escapes, line ends and tabs), the two are equal field by field, lines
aside.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext.codes import REGISTRY
from sitemap_ext.dates import Lastmod
from sitemap_ext.diagnostics import Collector, Where
from sitemap_ext.ext import image, news, video
from sitemap_ext.read.normalised import Layout
from sitemap_ext.read.normalised import NormalisedPage as Page
from sitemap_ext.read.record import FileFacts, Media, UrlEntry, Value
from sitemap_ext.read.xml import read_xml
from sitemap_ext.rules import engine, values
from sitemap_ext.rules.cluster_log import ClusterLog
from sitemap_ext.rules.context import Context
from sitemap_ext.write.judge import BuildJudge
from sitemap_ext.write.page_flow import PageFlow
from sitemap_ext.write.xml import URLSET_TAIL, Renderer, urlset_head

TEXT = st.text(alphabet="ab &<>\"'\r\n\t\u00e9\u4e2d", min_size=1, max_size=8)
PATH = st.text(alphabet="abc-/&'\u00e9", max_size=8)
CODES = ["en", "de", "fr-CA", "x-y"]
LASTMOD = st.sampled_from([None, Lastmod("2026-01-05", 1.0), Lastmod("2026-03-01T10:00:00+01:00", 2.0)])


def _listed() -> Any:
    return st.builds(video.Listed, st.sampled_from(["allow", "deny"]), st.lists(TEXT, max_size=2).map(tuple))


VIDEO = st.builds(
    video.Video, TEXT, TEXT, TEXT, st.none() | TEXT, st.none() | TEXT,
    st.sampled_from([(), (("allow_embed", "yes"),), (("allow_embed", "no"), ("autoplay", "a\tb"))]),
    st.none() | st.integers(1, 28800), LASTMOD, st.none() | st.just("4.5"), st.none() | st.integers(0, 9),
    LASTMOD, st.lists(TEXT, max_size=3).map(tuple), st.none() | TEXT, st.none() | st.booleans(),
    st.none() | _listed(), st.none() | st.tuples(TEXT, st.just((("title", "g&t"),))),
    st.lists(st.tuples(TEXT, st.just((("currency", "EUR"), ("type", "rent")))), max_size=2).map(tuple),
    st.none() | st.booleans(), st.none() | st.tuples(TEXT, st.none() | TEXT), st.none() | _listed(),
    st.none() | st.booleans(),
    st.lists(st.sampled_from([("content_segment_loc", (("duration", "30"),), "https://e.com/s&1"),
                              ("content_segment_loc", (), "https://e.com/s2"), ("id", (("type", "url"),), "a\tb")]),
             max_size=3).map(lambda items: tuple(sorted(items, key=lambda item: item[0]))))
IMAGE = st.builds(image.Image, TEXT, st.none() | TEXT, st.none() | TEXT, st.none() | TEXT, st.none() | TEXT)
NEWS = st.builds(news.News, st.builds(news.Publication, TEXT, st.just("en")), LASTMOD.filter(bool), TEXT,
                 st.sampled_from([(), (("access", "Subscription"), ("keywords", "a, b & c"))]))
EXTENSIONS = st.lists(st.one_of(
    st.lists(IMAGE, min_size=1, max_size=2).map(lambda images: ("image", tuple(images))),
    st.lists(VIDEO, min_size=1, max_size=2).map(lambda videos: ("video", tuple(videos))),
    NEWS.map(lambda article: ("news", article))), max_size=2, unique_by=lambda pair: pair[0])


@st.composite
def pages(draw: Any) -> Page:
    rest = draw(PATH)
    shape = draw(st.sampled_from(["one", "cluster", "layout"]))
    lastmod = draw(LASTMOD)
    core = {"lastmod": lastmod, "changefreq": draw(st.none() | st.just("daily")),
            "priority": draw(st.none() | st.just("0.8")), "extensions": tuple(draw(EXTENSIONS)),
            "where": Where("site.yaml", 3)}
    if shape == "one":
        return Page((f"https://e.com/{rest}",), **core)
    count = draw(st.integers(1, len(CODES)))
    codes = tuple(CODES[:count])
    x_default = draw(st.none() | st.integers(0, count - 1))
    if shape == "layout":
        bases = tuple(f"https://e.com/{code}/" for code in codes)
        layout = Layout(codes, bases, x_default)
        return Page(tuple(base + rest for base in bases), codes, x_default=None if x_default is None
                    else bases[x_default] + rest, layout=layout, rest=rest, **core)
    locs = tuple(draw(st.sampled_from([f"https://e.com/{code}/{rest}", "https://e.com/shared"])) for code in codes)
    lastmods = draw(st.none() | st.lists(LASTMOD, min_size=count, max_size=count).map(tuple))
    if lastmods is not None:
        core["lastmod"] = max((one for one in lastmods if one is not None), key=lambda one: one.instant,
                              default=None)
    return Page(locs, codes, x_default=None if x_default is None else locs[x_default], lastmods=lastmods, **core)


def _lines_aside(entry: UrlEntry) -> dict[str, Any]:
    """An entry's fields with every line left out."""
    def value(found: Any) -> Any:
        return None if found is None else found.text

    def media(item: Media) -> tuple[Any, ...]:
        return item.kind, item.fields, tuple(sorted(item.lines)), item.order

    return {"locs": tuple(value(one) for one in entry.locs), "lastmod": value(entry.lastmod),
            "changefreq": value(entry.changefreq), "priority": value(entry.priority), "links": entry.links,
            "links_count": len(entry.link_lines), "link_columns": entry.link_columns,
            "media": tuple(media(item) for item in entry.media), "order": entry.order, "unknown": entry.unknown,
            "source": entry.source}


@settings(max_examples=300, deadline=None)
@given(pages())
def test_the_records_a_build_judges_are_those_read_back_from_what_it_writes(page: Page) -> None:
    findings = Collector(REGISTRY)
    record = PageFlow(findings, None, Renderer())(page)
    assert record is not None
    data = urlset_head(record.prefixes) + bytes(record.blob) + URLSET_TAIL
    read = [entry for entry in read_xml(iter((data,)), FileFacts(""), findings.report)
            if isinstance(entry, UrlEntry)]
    assert not findings.diagnostics
    assert [_lines_aside(entry) for entry in record.entries] == [_lines_aside(entry) for entry in read]
    assert all(entry.line == 3 for entry in record.entries)


def test_a_plain_page_gives_one_record_without_extras() -> None:
    page = Page(("https://e.com/a&b",), lastmod=Lastmod("2026-01-05", 1.0), where=Where("s.yaml", 7))
    record = PageFlow(Collector(REGISTRY), None, Renderer())(page)
    assert record is not None
    (entry,) = record.entries
    assert dataclasses.astuple(entry.locs[0]) == ("https://e.com/a&b", 7)
    assert entry.order == ("loc", "lastmod") and entry.links == () and entry.media == ()


# --- what judging a page's entries costs: each distinct value judged once ---------------

FIVE = ("de", "en", "es", "fr", "ja")


def _five_versions(image_url: str) -> Page:
    """A page in five versions by prefix, one image and a lastmod: five entries that
    share their alternates, their image and their lastmod."""
    bases = tuple(f"https://e.com/{code}/" for code in FIVE)
    locs = tuple(base + "p" for base in bases)
    return Page(locs, FIVE, layout=Layout(FIVE, bases, None), rest="p", lastmod=Lastmod("2026-01-05", 1.0),
                extensions=(("image", (image.Image(image_url),)),), where=Where("s.yaml", 4))


def _judged(page: Page) -> tuple[BuildJudge, list[str]]:
    """The page's entries through a build's judge; the URLs its file was asked for by."""
    record = PageFlow(Collector(REGISTRY), None, Renderer())(page)
    assert record is not None and len(record.entries) == 5
    judge = BuildJudge(Collector(REGISTRY, limit=None), None)
    asked: list[str] = []

    def key_of(loc: str, news: bool) -> tuple[str, bool, int]:
        asked.append(loc)
        return ("https://e.com", news, 1)
    judge.page(record.entries, record.where, record.news, key_of, record.placed)
    judge.settle()  # (the build gathers entries into batches for the engine)
    return judge, asked


def test_a_pages_entries_on_one_host_are_put_in_their_file_once() -> None:
    judge, asked = _judged(_five_versions("https://e.com/i/one-host.jpg"))
    assert asked == ["https://e.com/de/p"]  # (five entries, one host: one file, asked once)
    assert judge.contexts[("https://e.com", False, 1)].facts.entries == 5
    assert not judge.collector.diagnostics


def test_an_image_url_shared_by_a_pages_entries_is_judged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    url = "https://e.com/i/judged-once.jpg"
    seen: list[str] = []
    clean = image.is_clean

    def counted(text: str) -> bool:
        seen.append(text)
        return clean(text)
    monkeypatch.setattr(image, "is_clean", counted)
    judge, _ = _judged(_five_versions(url))
    assert seen.count(url) == 1  # (the writer's says_nothing and the five entries' image rule: one verdict)
    assert not judge.collector.diagnostics


def test_a_valid_lastmod_is_looked_up_not_judged_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    judge_date = values.judge_date

    def counted(text: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(text)
        return judge_date(text, *args, **kwargs)
    monkeypatch.setattr(values, "judge_date", counted)
    judge, _ = _judged(_five_versions("https://e.com/i/dated.jpg"))
    assert calls == []  # (its parse is memoised; a date with nothing to say needs no judgement)
    facts = judge.contexts[("https://e.com", False, 1)].facts
    assert (facts.lastmod_count, facts.first_lastmod) == (5, "2026-01-05")


def test_the_alternates_a_pages_entries_share_are_judged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str | None] = []
    judge_links = engine.judge_links

    def counted(links: Any, loc: str | None) -> Any:
        asked.append(loc)
        return judge_links(links, loc)
    monkeypatch.setattr(engine, "judge_links", counted)
    judge, _ = _judged(_five_versions("https://e.com/i/alternates.jpg"))
    assert asked == ["https://e.com/de/p"]  # (one tuple of links in five entries: one verdict, no lookup)
    assert [d.code for d in judge.collector.diagnostics] == []


def test_relative_alternates_are_judged_for_each_url_that_holds_them(monkeypatch: pytest.MonkeyPatch) -> None:
    links = (("alternate", "en", "/en/p", None), ("alternate", "de", "/de/p", None))
    asked: list[str | None] = []
    judge_links = engine.judge_links

    def counted(given: Any, loc: str | None) -> Any:
        asked.append(loc)
        return judge_links(given, loc)
    monkeypatch.setattr(engine, "judge_links", counted)
    collector = Collector(REGISTRY, limit=None)
    def report(code: str, message: str, line: int | None, column: int | None = None, **extra: Any) -> None:
        collector.report(code, message, Where("s.xml", line, column), **extra)
    ctx = Context(FileFacts("s.xml", kind="urlset"), report)
    log = ClusterLog()
    for loc in ("https://e.com/en/p", "https://e.com/de/p", "https://e.com/de/p"):
        engine.judge_entry(UrlEntry(1, (Value(loc, 1),), links=links, link_lines=(1, 1)), ctx, log)
    assert asked == ["https://e.com/en/p", "https://e.com/de/p"]  # (resolved against each: the last kept)
    assert [d.suggestion for d in collector.diagnostics if d.code == "H102"] == ["https://e.com/en/p",
                                                                                "https://e.com/de/p"] * 3


def test_a_pages_entries_on_other_hosts_are_put_in_their_own_files() -> None:
    codes = ("de", "en", "fr")
    locs = ("https://e.de/p", "https://e.com/p", "https://e.fr/p")
    record = PageFlow(Collector(REGISTRY), None, Renderer())(Page(locs, codes, where=Where("s.yaml", 2)))
    assert record is not None
    judge = BuildJudge(Collector(REGISTRY, limit=None), None)
    asked: list[str] = []

    def key_of(loc: str, news: bool) -> tuple[str, bool, int]:
        asked.append(loc)
        return (loc[:loc.index("/", 8)], news, 1)
    judge.page(record.entries, record.where, record.news, key_of, record.placed)
    judge.settle()
    assert asked == list(locs)
    assert {key[0]: ctx.facts.entries for key, ctx in judge.contexts.items()} == {
        "https://e.de": 1, "https://e.com": 1, "https://e.fr": 1}
