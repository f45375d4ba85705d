"""Images, videos, news: golden output, every rule with its code and location, splits."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest
from lxml import etree

from sitemap_ext import build, check
from sitemap_ext.cli import main

from .conftest import ROOT, canonical

GOLDEN = ROOT / "tests" / "golden" / "media"
PLANTED = ROOT / "tests" / "data" / "planted" / "media.xml"
NOW = "2026-11-21T12:00:00Z"
HEAD = "site:\n  base_url: https://e.com/\n"


def found(result: Any) -> list[tuple[str, str | None, int | None, int | None]]:
    return [(d.code, d.file, d.line, d.column) for d in result.collector.sorted()]


def test_golden_media(tmp_path: Path, assert_valid: Callable[[Path], None]) -> None:
    result = build(str(GOLDEN / "input" / "site.yaml"), str(tmp_path / "out"), now=NOW)
    assert result.ok, result.collector.sorted()
    names = sorted(p.name for p in (GOLDEN / "expected").iterdir())
    assert sorted(f.name for f in result.files) == names
    for name in names:
        got, want = (tmp_path / "out" / name).read_bytes(), (GOLDEN / "expected" / name).read_bytes()
        if name.endswith(".html"):  # the HTML views (output.html, on by default): the same bytes
            assert got == want, name
            continue
        assert canonical(got) == canonical(want), name
        assert_valid(tmp_path / "out" / name)
    news = etree.parse(str(tmp_path / "out" / "news-1.xml")).getroot()
    assert sorted(map(str, news.nsmap)) == ["None", "image", "news", "video", "xhtml"]
    plain = etree.parse(str(tmp_path / "out" / "sitemap-1.xml")).getroot()
    assert sorted(map(str, plain.nsmap)) == ["None", "image", "video"]  # only what the file uses


VIDEO = ("    videos:\n      - thumbnail_loc: https://e.com/t.jpg\n        title: T\n        description: D\n"
         "        content_loc: https://e.com/v.mp4\n")
PAGE = HEAD + "pages:\n  - loc: /p\n"
NEWS_HEAD = HEAD + "news:\n  publication: {name: P, language: en}\n"
CASES = [
    ("image without loc", PAGE + "    images:\n      - {caption: x}\n", [("I101", 6, 9)]),
    ("deprecated image field", PAGE + "    images:\n      - loc: /a.jpg\n        title: A\n", [("I103", 7, 9)]),
    ("image on a CDN, once per host", PAGE + "    images: [https://cdn.e.com/a.jpg, https://cdn.e.com/b.jpg]\n",
     [("I104", 5, 14)]),
    ("video without thumbnail", PAGE + VIDEO.replace("      - thumbnail_loc: https://e.com/t.jpg\n        title", "      - title"),
     [("V101", 6, 9)]),
    ("video without media", PAGE + VIDEO.replace("        content_loc: https://e.com/v.mp4\n", ""),
     [("V102", 6, 9)]),
    ("video content_loc is the page", PAGE + VIDEO.replace("https://e.com/v.mp4", "/p"), [("V103", 9, 9)]),
    ("description too long", PAGE + VIDEO.replace("description: D", "description: " + "d" * 2049),
     [("V104", 8, 9)]),
    ("title too long", PAGE + VIDEO.replace("title: T", "title: " + "t" * 101), [("V105", 7, 9)]),
    ("duration 0", PAGE + VIDEO + "        duration: 0\n", [("V106", 10, 9)]),
    ("duration too long", PAGE + VIDEO + "        duration: 28801\n", [("V106", 10, 9)]),
    ("rating", PAGE + VIDEO + "        rating: 5.5\n", [("V107", 10, 9)]),
    ("restriction lower case", PAGE + VIDEO + "        restriction: {relationship: allow, countries: us}\n",
     [("V108", 10, 9)]),
    ("platform token", PAGE + VIDEO + "        platform: {relationship: deny, platforms: [tv, car]}\n",
     [("V109", 10, 9)]),
    ("yes/no", PAGE + VIDEO + "        live: sometimes\n", [("V110", 10, 9)]),
    ("uploader info off the domain", PAGE + VIDEO + "        uploader: {name: U, info: https://other.org/u}\n",
     [("V111", 10, 9)]),
    ("33 tags", PAGE + VIDEO + "        tag: [" + ", ".join(f"t{i}" for i in range(33)) + "]\n", [("V112", 10, 9)]),
    ("bad date", PAGE + VIDEO + "        publication_date: yesterday\n", [("V113", 10, 9)]),
    ("expired", PAGE + VIDEO + "        expiration_date: 2026-01-01\n", [("V114", 10, 9)]),
    ("deprecated video field", PAGE + VIDEO + "        gallery_loc: https://e.com/g\n", [("V115", 10, 9)]),
    ("negative view count", PAGE + VIDEO + "        view_count: -1\n", [("V117", 10, 9)]),
    ("unknown video field", PAGE + VIDEO + "        colour: red\n", [("C102", 10, 9)]),
    ("news without publication", PAGE + "    news: {title: T, publication_date: 2026-11-21}\n", [("N101", 5, 5)]),
    ("news language", PAGE + "    news:\n      title: T\n      publication_date: 2026-11-21\n"
     "      publication: {name: P, language: en-GB}\n", [("N102", 8, 7)]),
    ("news date", NEWS_HEAD + "pages:\n  - loc: /p\n    news: {title: T, publication_date: soon}\n",
     [("N103", 7, 22)]),
    ("news old", NEWS_HEAD + "pages:\n  - loc: /p\n    news: {title: T, publication_date: 2026-11-18}\n",
     [("N104", 7, 22)]),
    ("news future", NEWS_HEAD + "pages:\n  - loc: /p\n    news: {title: T, publication_date: 2026-11-22}\n",
     [("N105", 7, 22)]),
    ("news undocumented", NEWS_HEAD + "pages:\n  - loc: /p\n    news: {title: T, publication_date: 2026-11-21, "
     "genres: Blog}\n", [("N107", 7, 52)]),
    ("two articles for one page", NEWS_HEAD + "pages:\n  - loc: /p\n    news:\n      - {title: T, publication_date: "
     "2026-11-21}\n      - {title: U, publication_date: 2026-11-21}\n", [("N108", 7, 5)]),
    ("old news left out", NEWS_HEAD + "pages:\n  - loc: /p\n    news: {title: T, publication_date: 2026-11-18}\n"
     "output:\n  drop_old_news: true\n", [("N110", 7, 22)]),
]


@pytest.mark.parametrize("text,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_media_rule_code_and_location(make_site: Callable[..., Path], text: str,
                                      expected: list[tuple[str, int, int]]) -> None:
    result = build(str(make_site(text)), dry_run=True, now=NOW)
    assert [(code, line, column) for code, _, line, column in found(result)] == expected
    assert all(d.url == "https://e.com/p" for d in result.collector.diagnostics)


def test_more_than_1000_images(make_site: Callable[..., Path], tmp_path: Path) -> None:
    row = {"loc": "/p", "images": [f"/img/{i}.jpg" for i in range(1001)]}
    site = make_site(HEAD + "sources:\n  - p.jsonl\n", **{"p.jsonl": json.dumps(row) + "\n"})
    result = build(str(site), str(tmp_path / "out"))
    assert found(result) == [("I102", "p.jsonl", 1, None)]
    assert not (tmp_path / "out" / "sitemap.xml").exists()  # an error: nothing is written
    row["images"] = row["images"][:1000]
    (tmp_path / "p.jsonl").write_text(json.dumps(row) + "\n")
    assert build(str(site), str(tmp_path / "out")).ok


def test_csv_image_column(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(HEAD + "sources:\n  - p.csv\n", **{"p.csv": "loc,image\n/a,/img/a.jpg\n/b,\n"})
    result = build(str(site), str(tmp_path / "out"))
    assert result.ok
    xml = (tmp_path / "out" / "sitemap.xml").read_text()
    assert xml.count("<image:image>") == 1 and "https://e.com/img/a.jpg" in xml


def test_drop_deprecated_leaves_fields_out(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(PAGE + "    images:\n      - {loc: /a.jpg, caption: C}\n" + VIDEO
                     + "        category: X\n        player_loc: {loc: https://e.com/pl, autoplay: ap}\n"
                     + "output:\n  drop_deprecated: true\n")
    result = build(str(site), str(tmp_path / "out"))
    assert result.ok and sorted(d.code for d in result.collector.diagnostics) == ["I103", "V115", "V115"]
    xml = (tmp_path / "out" / "sitemap.xml").read_text()
    assert "caption" not in xml and "category" not in xml and "autoplay" not in xml
    assert "<video:player_loc>https://e.com/pl</video:player_loc>" in xml


def test_yaml_booleans_are_written_yes_no(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(PAGE + VIDEO + "        family_friendly: true\n        requires_subscription: no\n"
                     "        live: No\n")
    assert build(str(site), str(tmp_path / "out")).ok
    xml = (tmp_path / "out" / "sitemap.xml").read_text()
    assert "<video:family_friendly>yes</video:family_friendly>" in xml
    assert "<video:requires_subscription>no</video:requires_subscription>" in xml
    assert "<video:live>no</video:live>" in xml


def test_1001_articles_make_two_news_files(make_site: Callable[..., Path], tmp_path: Path,
                                           assert_valid: Callable[[Path], None]) -> None:
    rows = "".join(json.dumps({"loc": f"/a/{i}", "news": {"title": f"A{i}", "publication_date": "2026-11-21"}})
                   + "\n" for i in range(1001))
    site = make_site(NEWS_HEAD + "pages:\n  - loc: /\nsources:\n  - a.jsonl\n", **{"a.jsonl": rows})
    result = build(str(site), str(tmp_path / "out"), now=NOW)
    assert result.ok
    stats = {f.name: f.urls for f in result.files if f.kind != "html"}
    assert stats == {"sitemap-1.xml": 1, "news-1.xml": 1000, "news-2.xml": 1, "sitemap.xml": 3}
    assert sorted(f.name for f in result.files if f.kind == "html") == ["news-1.html", "news-2.html",
                                                                         "sitemap-1.html", "sitemaps.html"]
    for name in stats:
        assert_valid(tmp_path / "out" / name)
    report = check([str(tmp_path / "out")], now=NOW)
    assert report.ok and not report.collector.diagnostics


def test_planted_media_defects_in_existing_sitemaps() -> None:
    result = check([str(PLANTED)], now=NOW)
    base = "https://www.example.com"
    got = [(d.code, d.line, d.url) for d in result.collector.sorted()]
    assert got == [
        ("I101", 4, f"{base}/images"), ("U101", 5, f"{base}/images"),
        ("V101", 8, f"{base}/video-1"), ("V102", 8, f"{base}/video-1"), ("V106", 11, f"{base}/video-1"),
        ("V107", 12, f"{base}/video-1"), ("V110", 13, f"{base}/video-1"), ("V108", 14, f"{base}/video-1"),
        ("V109", 15, f"{base}/video-1"),
        ("V116", 19, f"{base}/video-2"), ("V103", 23, f"{base}/video-2"), ("V114", 24, f"{base}/video-2"),
        ("V111", 25, f"{base}/video-2"), ("V115", 26, f"{base}/video-2"),
        ("N102", 31, f"{base}/news-1"), ("N104", 32, f"{base}/news-1"), ("N107", 34, f"{base}/news-1"),
        ("N108", 36, f"{base}/news-1"),
        ("N109", 41, f"{base}/news-2"), ("N105", 44, f"{base}/news-2"),
    ]
    suggestions = {d.code: d.suggestion for d in result.collector.diagnostics}
    assert suggestions["N102"] == "en" and suggestions["V108"] == "US CA"
    assert main(["check", str(PLANTED), "--now", NOW, "--quiet"]) == 1


def test_a_written_media_finding_is_the_engine_s_of_each_entry_at_the_value_s_key(
        make_site: Callable[..., Path], tmp_path: Path) -> None:
    """I103 of a caption written: the engine's verdict on each entry written (two
    locales, two entries), placed at the caption's key, said by no one else."""
    site = make_site(HEAD + "locales:\n  en: /en/\n  de: /de/\nx_default: en\npages:\n  - path: /p\n"
                     "    images:\n      - loc: /a.jpg\n        caption: C\n")
    result = build(str(site), str(tmp_path / "out"))
    assert [(d.code, d.line, d.column, d.url) for d in result.collector.sorted()] == [
        ("I103", 11, 9, "https://e.com/de/p"), ("I103", 11, 9, "https://e.com/en/p")]


def test_a_media_finding_on_a_value_not_written_is_the_build_s_at_its_key(
        make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(PAGE + "    images:\n      - loc: /a.jpg\n        caption: C\noutput:\n  drop_deprecated: true\n")
    result = build(str(site), str(tmp_path / "out"))
    assert [(d.code, d.line, d.column) for d in result.collector.sorted()] == [("I103", 7, 9)]
    assert "left out" in result.collector.diagnostics[0].message
