"""Multilingual builds: locales, clusters, hosts; diagnostics; generated sites round-trip."""

from __future__ import annotations

import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from sitemap_ext import build, check
from sitemap_ext.diagnostics import Severity

from .conftest import ROOT, XSD, canonical, read_xml_bytes

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
GOLDEN = ROOT / "tests" / "golden" / "multilingual"
HEAD = "site:\n  base_url: https://e.com/\nlocales:\n  en: /en/\n  de: /de/\n"


def found(result: Any) -> list[tuple[str, str | None, int | None, int | None]]:
    return [(d.code, d.file, d.line, d.column) for d in result.collector.sorted()]


def clusters(folder: Path) -> dict[str, frozenset[tuple[str, str]]]:
    """loc -> the (hreflang, href) pairs its <url> lists, over every urlset written."""
    out: dict[str, frozenset[tuple[str, str]]] = {}
    for path in sorted(folder.rglob("*.xml*")):
        root = etree.fromstring(read_xml_bytes(path))
        for url in root.iter(f"{SM}url"):
            loc = url.findtext(f"{SM}loc") or ""
            out[loc] = frozenset((link.get("hreflang") or "", link.get("href") or "")
                                 for link in url.iter(f"{XHTML}link"))
    return out


def test_golden_multilingual(tmp_path: Path, assert_valid: Callable[[Path], None]) -> None:
    result = build(str(GOLDEN / "input" / "site.yaml"), str(tmp_path / "out"))
    assert result.ok, result.collector.sorted()
    expected = sorted(str(p.relative_to(GOLDEN / "expected")) for p in (GOLDEN / "expected").rglob("*.xml"))
    assert sorted(f.name for f in result.files if f.name.endswith(".xml")) == expected
    for name in expected:
        got = (tmp_path / "out" / name).read_bytes()
        assert canonical(got) == canonical((GOLDEN / "expected" / name).read_bytes()), name
        assert_valid(tmp_path / "out" / name)
    # The HTML views (output.html, on by default): each host's, the same bytes.
    views = sorted(str(p.relative_to(GOLDEN / "expected")) for p in (GOLDEN / "expected").rglob("*.html"))
    assert sorted(f.name for f in result.files if f.name.endswith(".html")) == views
    assert views == ["www.example.com/sitemap.html", "www.example.com/sitemaps.html", "www.example.fr/sitemap.html",
                     "www.example.fr/sitemaps.html"]
    for name in views:
        assert (tmp_path / "out" / name).read_bytes() == (GOLDEN / "expected" / name).read_bytes(), name


def test_cluster_shape(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(HEAD + "  fr: {host: https://e.fr}\nx_default: en\npages:\n  - path: /a\n"
                     "  - path: /b\n    locales: [de, fr]\n  - loc: /imprint\n")
    result = build(str(site), str(tmp_path / "out"))
    assert result.ok, result.collector.sorted()
    got = clusters(tmp_path / "out")
    a = frozenset({("de", "https://e.com/de/a"), ("en", "https://e.com/en/a"), ("fr", "https://e.fr/a"),
                   ("x-default", "https://e.com/en/a")})
    b = frozenset({("de", "https://e.com/de/b"), ("fr", "https://e.fr/b")})  # no en: no x-default
    assert got == {"https://e.com/de/a": a, "https://e.com/en/a": a, "https://e.fr/a": a,
                   "https://e.com/de/b": b, "https://e.fr/b": b, "https://e.com/imprint": frozenset()}
    assert sorted(f.name for f in result.files) == ["e.com/sitemap.html", "e.com/sitemap.xml", "e.com/sitemaps.html",
                                                    "e.fr/sitemap.html", "e.fr/sitemap.xml", "e.fr/sitemaps.html"]


def test_canonical_case_is_written(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site("site:\n  base_url: https://e.com/\nlocales:\n  en-us: /us/\n  zh-hant-tw: /tw/\n"
                     "pages:\n  - path: /\n")
    result = build(str(site), str(tmp_path / "out"))
    assert [(d.code, d.line, d.suggestion) for d in result.collector.sorted()] == [
        ("L108", 4, "en-US"), ("L108", 5, "zh-Hant-TW"), ("H112", 7, None)]  # (no x-default: the engine's H112)
    assert {code for pairs in clusters(tmp_path / "out").values() for code, _ in pairs} == {"en-US", "zh-Hant-TW"}


CASES = [
    ("underscore in a locale key", "site:\n  base_url: https://e.com/\nlocales:\n  en_GB: /uk/\npages:\n"
     "  - path: /\n", {}, [("L101", "site.yaml", 4, 3)]),
    ("country code as language in urls", HEAD + "pages:\n  - urls: {en: /en/a, jp: /jp/a}\n", {},
     [("L103", "site.yaml", 7, 23)]),
    ("loc and path together", HEAD + "pages:\n  - loc: /a\n    path: /a\n", {}, [("C111", "site.yaml", 7, 10)]),
    ("page locale not defined", HEAD + "pages:\n  - path: /a\n    locales: [en, fr]\n", {},
     [("C112", "site.yaml", 8, 19)]),  # at fr, not at the list's [
    ("x_default neither locale nor URL", HEAD + "x_default: fr\npages:\n  - path: /a\n", {},
     [("C112", "site.yaml", 6, 12), ("H112", "site.yaml", 8, None)]),
    ("page x_default names a missing locale", HEAD + "pages:\n  - path: /a\n    locales: [de]\n"
     "    x_default: en\n", {}, [("C112", "site.yaml", 9, 16)]),
    ("same URL for two codes", HEAD + "pages:\n  - urls: {en: /x, de: /x}\n", {}, [("H107", "site.yaml", 7, 5)]),
    ("bad code in a url: column, reported once", HEAD + "sources:\n  - p.csv\n",
     {"p.csv": "url:en,url:en_GB\n/en/a,/uk/a\n/en/b,/uk/b\n"}, [("L101", "p.csv", 2, None)]),
    ("path column with a locales column", HEAD + "sources:\n  - p.csv\n",
     {"p.csv": "path,locales\n/a,en de\n/b,de fr\n"},
     [("H112", "p.csv", 2, None), ("C112", "p.csv", 3, None)]),
]


def _ids(cases: list[Any]) -> list[str]:
    return [c[0] for c in cases]


import pytest  # noqa: E402


@pytest.mark.parametrize("text,files,expected", [c[1:] for c in CASES], ids=_ids(CASES))
def test_multilingual_diagnostics(make_site: Callable[..., Path], text: str, files: dict[str, str],
                                  expected: list[tuple[str, str, int | None, int | None]]) -> None:
    result = build(str(make_site(text, **files)), dry_run=True)
    assert found(result) == expected


def test_json_lines_urls_and_csv_columns_agree(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(HEAD + "sources:\n  - a.csv\n  - b.jsonl\n",
                     **{"a.csv": "url:en,url:de\n/en/a,/de/a\n",
                        "b.jsonl": '{"urls": {"en": "/en/b", "de": "/de/b"}}\n'})
    result = build(str(site), str(tmp_path / "out"))
    got = clusters(tmp_path / "out")
    assert result.ok and got["https://e.com/en/a"] == {("en", "https://e.com/en/a"), ("de", "https://e.com/de/a")}
    assert got["https://e.com/de/b"] == {("en", "https://e.com/en/b"), ("de", "https://e.com/de/b")}


# --- generated multilingual sites -------------------------------------------------------

CODES = ["en", "en-GB", "de", "de-AT", "fr", "fr-CH", "ja", "zh-Hant", "pt-BR", "es"]
SLUG = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=8)


@st.composite
def sites(draw: Any) -> tuple[dict[str, Any], dict[str, set[tuple[str, str]]]]:
    codes = draw(st.lists(st.sampled_from(CODES), min_size=1, max_size=5, unique=True))
    hosts = {code: draw(st.sampled_from(["https://e.com", "https://e.de", "https://e.fr"])) for code in codes}
    locales = {code: {"prefix": f"/{code.lower()}/", "host": hosts[code]} for code in codes}
    x_default = draw(st.sampled_from(codes + ["none"]))
    pages = []
    expected: dict[str, set[tuple[str, str]]] = {}
    for i, slug in enumerate(draw(st.lists(SLUG, min_size=1, max_size=8, unique=True))):
        chosen = draw(st.lists(st.sampled_from(codes), min_size=1, max_size=len(codes), unique=True))
        page: dict[str, Any] = {"path": f"/{slug}-{i}"}
        if set(chosen) != set(codes):
            page["locales"] = chosen
        pages.append(page)
        urls = {code: f"{hosts[code]}/{code.lower()}/{slug}-{i}" for code in chosen}
        pairs = set(urls.items())
        if x_default in urls:
            pairs.add(("x-default", urls[x_default]))
        for url in urls.values():
            expected[url] = pairs
    description = {"site": {"base_url": "https://e.com/"}, "locales": locales, "x_default": x_default,
                   "pages": pages, "output": {"max_urls": draw(st.integers(1, 20)), "index": "always"}}
    return description, expected


@settings(max_examples=40, deadline=None)
@given(sites())
def test_generated_multilingual_sites_pass_their_own_check(case: tuple[dict[str, Any], dict[str, Any]]) -> None:
    description, expected = case
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "site.yaml").write_text(yaml.safe_dump(description), encoding="utf-8")
        result = build(str(folder / "site.yaml"), str(folder / "out"))
        assert result.ok, result.collector.sorted()
        got = clusters(folder / "out")
        assert got == {url: frozenset(pairs) for url, pairs in expected.items()}
        report = check([str(folder / "out")])
        serious = [d for d in report.collector.sorted() if d.severity is not Severity.INFO]
        assert not serious, serious
        schema = etree.XMLSchema(etree.parse(str(XSD)))  # (tests/data/xsd: always there)
        for path in (folder / "out").rglob("*.xml"):
            assert schema.validate(etree.parse(str(path))), schema.error_log


def test_every_host_gets_its_own_files() -> None:
    by_host: dict[str, int] = defaultdict(int)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "site.yaml").write_text(HEAD + "  fr: {host: https://e.fr}\npages:\n  - path: /a\n  - path: /b\n")
        result = build(str(folder / "site.yaml"), str(folder / "out"))
        for f in result.files:
            by_host[f.name.split("/")[0]] += f.urls
        for loc in clusters(folder / "out"):
            assert loc.startswith("https://e.fr/") == (loc in clusters(folder / "out" / "e.fr"))
    assert dict(by_host) == {"e.com": 4, "e.fr": 2}


def test_every_problem_of_a_bad_column_tag_is_reported_once(make_site: Callable[..., Path]) -> None:
    site = make_site("site:\n  base_url: https://e.com/\nsources:\n  - p.csv\n",
                     **{"p.csv": "url:FIL,url:en\n/a,/b\n/c,/d\n"})
    # L108 (the spelling) once, at the column's first row; L109 ('fil', as written) is
    # the engine's of each entry written, at its row, as check says it of the output.
    result = build(str(site), dry_run=True)
    assert [(code, line) for code, _, line, _ in found(result) if code != "H112"] == [
        ("L108", 2), ("L109", 2), ("L109", 2), ("L109", 3), ("L109", 3)]
    assert {d.url for d in result.collector.diagnostics if d.code == "L109"} == {
        "https://e.com/a", "https://e.com/b", "https://e.com/c", "https://e.com/d"}
