"""A lastmod per version of a page: ``urls: {fr: {url: /fr/x, lastmod: 2026-10-03}}`` in
a description, ``Alternate(lastmod=...)`` in the public model. Each entry is written
with its version's own lastmod (the others take the page's), judged as a page's
lastmod is, at the version's key; where they all agree the page is written exactly as
with one page-level lastmod."""

from __future__ import annotations

import datetime as dt
import json
import textwrap
from collections.abc import Callable
from pathlib import Path

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from sitemap_ext import Alternate, Locale, Page, Site, build, check, render
from sitemap_ext.codes import REGISTRY
from sitemap_ext.diagnostics import Collector
from sitemap_ext.read.yaml_doc import load_yaml
from sitemap_ext.write.page_locales import VERSION_KEYS

from .conftest import ROOT

NOW = "2026-11-21T12:00:00Z"
HEAD = """\
site:
  base_url: https://www.example.com/
  now: 2026-11-21T12:00:00Z
locales:
  en: /en/
  fr: /fr/
  de: /de/
x_default: en
"""

DATED = HEAD + """\
pages:
  - urls:
      en: /en/x
      fr: {url: /fr/x, lastmod: 2026-10-03}
      de:
        url: /de/x
        lastmod: 2026-11-01
    lastmod: 2026-11-01
  - path: /y
    urls:
      fr: {url: /fr/y, lastmod: "2026-09-30T08:00:00+02:00"}
"""

LINKS = ('<xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/{p}"/>'
         '<xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/{p}"/>'
         '<xhtml:link rel="alternate" hreflang="fr" href="https://www.example.com/fr/{p}"/>'
         '<xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.com/en/{p}"/>')


def entry(loc: str, lastmod: str | None, page: str) -> str:
    dated = f"<lastmod>{lastmod}</lastmod>" if lastmod else ""
    return f"<url><loc>https://www.example.com/{loc}</loc>{dated}{LINKS.format(p=page)}</url>\n"


GOLDEN = ("<?xml version='1.0' encoding='UTF-8'?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
          "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n"
          + entry("de/x", "2026-11-01", "x") + entry("en/x", "2026-11-01", "x") + entry("fr/x", "2026-10-03", "x")
          + entry("de/y", None, "y") + entry("en/y", None, "y") + entry("fr/y", "2026-09-30T08:00:00+02:00", "y")
          + "</urlset>\n").encode()


def write(tmp_path: Path, text: str, name: str = "site.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_each_version_is_written_with_its_own_lastmod_and_the_output_checks_clean(tmp_path: Path) -> None:
    result = build(write(tmp_path, DATED), tmp_path / "out")
    assert result.ok and result.collector.sorted() == []
    written = (tmp_path / "out" / "sitemap.xml").read_bytes()
    assert written == GOLDEN
    checked = check(str(tmp_path / "out" / "sitemap.xml"), now=NOW)
    assert checked.ok and [(d.code, d.message) for d in checked.collector.sorted()] == []


def test_the_output_is_valid_against_the_schemas(tmp_path: Path, assert_valid: Callable[[Path], None]) -> None:
    assert build(write(tmp_path, DATED), tmp_path / "out").ok
    assert_valid(tmp_path / "out" / "sitemap.xml")


BAD = HEAD + """\
pages:
  - urls:
      en: {url: /en/a, lastmod: 2026-02-30}
      fr:
        url: /fr/a
        lastmod: "2026-10-03T10:00"
        lastmdo: 2026-10-01
      de: {lastmod: 2026-10-01}
  - urls:
      en: /en/b
      fr: {url: /fr/b, lastmod: [2026]}
    lastmod: 2026-11-02
"""


def test_a_versions_lastmod_has_a_pages_findings_at_its_own_key(tmp_path: Path) -> None:
    result = build(write(tmp_path, BAD), tmp_path / "out")
    assert not result.ok
    found = [(d.code, d.file, d.line, d.column) for d in result.collector.sorted() if d.code != "H112"]
    assert found == [
        ("D101", "site.yaml", 11, 24),  # the impossible date, at en's lastmod key
        ("D106", "site.yaml", 14, 9),  # written with seconds, at fr's lastmod key
        ("D107", "site.yaml", 14, 9),  # no zone
        ("C102", "site.yaml", 15, 9),  # a key a version does not have, with the fix
        ("C104", "site.yaml", 16, 7),  # a version without its url: left out
        ("C103", "site.yaml", 19, 24),  # a lastmod that is no date
    ]
    messages = {d.code: d for d in result.collector.sorted()}
    assert messages["C102"].suggestion == "lastmod"
    assert "urls.de needs a url" in messages["C104"].message


def test_a_future_version_lastmod_is_judged_as_a_pages_is(tmp_path: Path) -> None:
    # D102 is the engine's, said of the entry written with it (only fr's), at the page
    text = HEAD + "pages:\n  - urls:\n      en: /en/a\n      fr: {url: /fr/a, lastmod: 2027-01-01}\n" \
                  "    lastmod: 2026-11-01\n"
    result = build(write(tmp_path, text), tmp_path / "out")
    assert [(d.code, d.url, d.line) for d in result.collector.sorted()] == [
        ("D102", "https://www.example.com/fr/a", 10)]


def site_objects() -> Site:
    return Site(base_url="https://www.example.com/", now=NOW, x_default="en",
                locales=(Locale(code="en", prefix="/en/"), Locale(code="fr", prefix="/fr/"),
                         Locale(code="de", prefix="/de/")))


def test_the_python_api_gives_each_version_its_lastmod_as_the_yaml_does(tmp_path: Path) -> None:
    page = Page(alternates=(Alternate(code="en", url="/en/x"),
                            Alternate(code="fr", url="/fr/x", lastmod=dt.date(2026, 10, 3)),
                            Alternate(code="de", url="/de/x", lastmod="2026-11-01")),
                lastmod=dt.date(2026, 11, 1))
    other = Page(path="/y", alternates=(
        Alternate(code="fr", url="/fr/y", lastmod=dt.datetime(2026, 9, 30, 8, tzinfo=dt.timezone(dt.timedelta(
            hours=2)))),))
    assert page.as_yaml() == {"urls": {"en": "/en/x", "fr": {"url": "/fr/x", "lastmod": dt.date(2026, 10, 3)},
                                       "de": {"url": "/de/x", "lastmod": "2026-11-01"}},
                              "lastmod": dt.date(2026, 11, 1)}
    result = build(site_objects(), tmp_path / "out", pages=[page, other])
    assert result.ok and result.collector.sorted() == []
    assert (tmp_path / "out" / "sitemap.xml").read_bytes() == GOLDEN
    bad = build(site_objects(), tmp_path / "bad", pages=[Page(alternates=(
        Alternate(code="en", url="/en/x"), Alternate(code="fr", url="/fr/x", lastmod="2026-02-30")))])
    assert [(d.code, d.file, d.line) for d in bad.collector.sorted() if d.code != "H112"] == [
        ("D101", "<pages>", 1)]


DATES = st.one_of(
    st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2026, 11, 20)),
    st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2026, 11, 20)).map(dt.date.isoformat),
    st.datetimes(min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2026, 11, 20),
                 timezones=st.just(dt.timezone.utc)).map(lambda moment: moment.replace(microsecond=0)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lastmod=DATES, own=st.sets(st.sampled_from(("en", "fr", "de"))), path=st.booleans())
def test_versions_that_give_the_pages_lastmod_write_the_bytes_of_the_page_level_lastmod(
        lastmod: object, own: set[str], path: bool) -> None:
    urls = {"en": "/en/p", "fr": "/fr/p", "de": "/de/p"}
    plain = Page(path="/p", lastmod=lastmod) if path else \
        Page(alternates=tuple(Alternate(code=code, url=url) for code, url in urls.items()), lastmod=lastmod)
    dated = Page(path="/p" if path else None, lastmod=lastmod, alternates=tuple(
        Alternate(code=code, url=url, lastmod=lastmod if code in own else None) for code, url in urls.items()
        if not path or code in own))
    expected = render(site_objects(), [plain])
    got = render(site_objects(), [dated])
    assert expected.ok and got.ok
    assert got.files == expected.files


CONTENT = HEAD + """\
pages:
  - urls:
      en: /en/x
      fr: {url: /fr/x, lastmod: content}
    lastmod: 2026-11-01
    digest: "{digest}"
"""


SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def dates_of(path: Path) -> dict[str, str | None]:
    """Each entry's lastmod (None: it has none), by its URL below the host."""
    root = etree.parse(str(path)).getroot()
    return {(url.findtext(f"{SM}loc") or "").removeprefix("https://www.example.com/"): url.findtext(f"{SM}lastmod")
            for url in root.iter(f"{SM}url")}


def test_a_version_dated_by_content_is_dated_by_the_build_state_the_others_keep_theirs(tmp_path: Path) -> None:
    # (a description that asks for lastmod: content in a version keeps the state unasked, as one in a page does)
    first = build(write(tmp_path, CONTENT.replace("{digest}", "r1")), tmp_path / "out", now="2026-11-20T00:00:00Z")
    assert first.ok and (tmp_path / "out" / ".sitemap-ext-state.sqlite").is_file()
    assert dates_of(tmp_path / "out" / "sitemap.xml") == {"en/x": "2026-11-01", "fr/x": "2026-11-20T00:00:00Z"}
    again = build(write(tmp_path, CONTENT.replace("{digest}", "r2")), tmp_path / "out", now="2026-11-21T00:00:00Z")
    assert again.ok and again.collector.sorted() == []
    assert dates_of(tmp_path / "out" / "sitemap.xml") == {"en/x": "2026-11-01", "fr/x": "2026-11-21T00:00:00Z"}


def test_a_version_dated_by_content_in_a_build_without_state_is_named_by_c120(tmp_path: Path) -> None:
    page = Page(alternates=(Alternate(code="en", url="/en/x"), Alternate(code="fr", url="/fr/x", lastmod="content")),
                lastmod="2026-11-01")
    result = build(site_objects(), tmp_path / "out", pages=[page])
    assert [(d.code, d.url, d.file, d.line) for d in result.collector.sorted() if d.code != "H112"] == [
        ("C120", "https://www.example.com/fr/x", "<pages>", 1)]
    assert dates_of(tmp_path / "out" / "sitemap.xml") == {"en/x": "2026-11-01", "fr/x": None}


def test_the_json_schema_takes_a_versions_lastmod_and_names_the_keys_the_normaliser_takes() -> None:
    schema = json.loads((ROOT / "specs" / "site.schema.json").read_text(encoding="utf-8"))
    doc = load_yaml(DATED, "site.yaml", Collector(REGISTRY), {})
    assert doc is not None
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(doc.data)) == []
    version = schema["$defs"]["page"]["properties"]["urls"]["additionalProperties"]["oneOf"][1]
    assert set(version["properties"]) == set(VERSION_KEYS)
    wrong = load_yaml(BAD, "site.yaml", Collector(REGISTRY), {})
    assert wrong is not None and list(jsonschema.Draft202012Validator(schema).iter_errors(wrong.data))


ROWS = """\
path,lastmod,lastmod:fr,url:en,url:fr
/a,2026-11-01,2026-10-03,,
,2026-11-01,2026-10-04,/en/b,/fr/b
/c,2026-11-01,,,
"""


def test_lastmod_code_columns_give_a_source_rows_versions_their_own_lastmod(tmp_path: Path) -> None:
    (tmp_path / "rows.csv").write_text(ROWS, encoding="utf-8")
    (tmp_path / "rows.jsonl").write_text(
        '{"urls": {"en": "/en/j", "fr": "/fr/j"}, "lastmod": "2026-11-01", "lastmod:fr": "2026-10-06"}\n'
        '{"urls": {"en": "/en/k", "fr": {"url": "/fr/k", "lastmod": "2026-10-07"}}, "lastmod": "2026-11-01"}\n',
        encoding="utf-8")
    result = build(write(tmp_path, HEAD.replace("  de: /de/\n", "") + "sources: [rows.csv, rows.jsonl]\n"),
                   tmp_path / "out")
    assert result.ok and result.collector.sorted() == []  # (lastmod:<code> is a page field: no S104)
    assert dates_of(tmp_path / "out" / "sitemap.xml") == {
        "en/a": "2026-11-01", "fr/a": "2026-10-03", "en/b": "2026-11-01", "fr/b": "2026-10-04",
        "en/c": "2026-11-01", "fr/c": "2026-11-01", "en/j": "2026-11-01", "fr/j": "2026-10-06",
        "en/k": "2026-11-01", "fr/k": "2026-10-07"}


def test_a_lastmod_code_column_is_judged_at_its_row(tmp_path: Path) -> None:
    (tmp_path / "rows.csv").write_text(ROWS + ",2026-11-01,2026-02-30,/en/d,/fr/d\n,2026-11-01,2026-10-05,/en/e,\n",
                                       encoding="utf-8")
    result = build(write(tmp_path, HEAD.replace("  de: /de/\n", "") + "sources: [rows.csv]\n"), tmp_path / "out")
    assert [(d.code, d.file, d.line) for d in result.collector.sorted()] == [
        ("D101", "rows.csv", 5), ("C104", "rows.csv", 6)]
    assert "add a url:fr column, or a path" in result.collector.sorted()[1].message


def test_a_version_its_path_gives_may_name_only_its_lastmod(tmp_path: Path) -> None:
    text = HEAD + "pages:\n  - path: /p\n    lastmod: 2026-11-01\n    urls:\n      fr: {lastmod: 2026-10-03}\n"
    result = build(write(tmp_path, text), tmp_path / "out")
    assert result.ok and result.collector.sorted() == []
    assert dates_of(tmp_path / "out" / "sitemap.xml") == {"de/p": "2026-11-01", "en/p": "2026-11-01",
                                                          "fr/p": "2026-10-03"}
