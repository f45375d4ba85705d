"""Checking existing sitemaps: the canonical-shape path reports what libxml2's path reports.

Urlsets are generated in the one-entry-per-line shape (the shape the canonical path
reads), with defects of every kind in the values: duplicate and foreign URLs, bad
dates, bad language tags, missing return links, entities, images on other hosts.
Each is checked with the canonical path on and off; the findings must be the same.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sitemap_ext.checker.canonical as canonical
from sitemap_ext import check
from sitemap_ext.xmlesc import escape

URLS = ["https://e.com/a", "https://e.com/b", "https://e.com/de/a", "https://e.com/c?x=1&y=2", " https://e.com/d",
        "https://E.com/e", "https://other.org/f", "relative", "", "https://e.com/caf\u00e9", "https://e.com/a&amp;b"]
CODES = ["en", "de", "fr-CH", "en_GB", "se", "x-default", "EN", "zz", "", "iw"]
IMAGES = ["https://e.com/i.jpg", "https://cdn.example.com/i.jpg", "/relative.jpg", "ftp://x/y.jpg", ""]
CLUSTER = [("en", "https://e.com/a"), ("de", "https://e.com/de/a"), ("x-default", "https://e.com/a")]


@st.composite
def entry(draw: Any) -> str:
    loc = draw(st.sampled_from(URLS))
    out = f"<url><loc>{escape(loc)}</loc>"
    if draw(st.booleans()):
        out += f"<lastmod>{draw(st.sampled_from(['2026-01-02', '2026-02-30', '', '2030-01-01', '2026']))}</lastmod>"
    if draw(st.booleans()):
        out += f"<changefreq>{draw(st.sampled_from(['daily', 'Daily', '']))}</changefreq>"
    if draw(st.booleans()):
        out += f"<priority>{draw(st.sampled_from(['0.5', '2', '']))}</priority>"
    if draw(st.booleans()):  # a healthy cluster's links (often the same as the entry before)
        links = list(CLUSTER)
    else:
        links = draw(st.lists(st.tuples(st.sampled_from(CODES), st.sampled_from(URLS)), max_size=4))
    for code, href in links:
        rel = "alternate" if draw(st.integers(0, 9)) else "next"
        out += f'<xhtml:link rel="{rel}" hreflang="{escape(code)}" href="{escape(href)}"/>'
    for image in draw(st.lists(st.sampled_from(IMAGES), max_size=2)):
        out += f"<image:image><image:loc>{escape(image)}</image:loc></image:image>"
    return out + "</url>\n"


HEAD = ("<?xml version='1.0' encoding='UTF-8'?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
        "xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n")


def findings(paths: list[str]) -> list[tuple[Any, ...]]:
    result = check(paths, now="2026-06-01T00:00:00Z", base_urls=["https://e.com/=" + str(Path(paths[0]).parent)])
    return [(d.code, Path(d.file or "").name, d.line, d.column, d.url, d.hreflang, d.message, d.suggestion)
            for d in result.collector.sorted()]


@settings(max_examples=150, deadline=None)
@given(files=st.lists(st.lists(entry(), min_size=1, max_size=12), min_size=1, max_size=2),
       sabotage=st.sampled_from([None, "comment", "newline", "tail"]))
def test_the_canonical_path_reports_what_the_element_path_reports(files: list[list[str]], sabotage: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as monkeypatch:
        paths = []
        for number, entries in enumerate(files):
            body = "".join(entries)
            if sabotage == "comment":  # another shape: the element path for this file
                body = "<!-- x -->\n" + body
            elif sabotage == "newline":
                body = body.replace("</loc>", "</loc>\n", 1)
            text = HEAD + body + ("</urlset>\n" if sabotage != "tail" else "</urlset>\n<!-- end -->\n")
            path = Path(tmp) / f"s{number}.xml"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        used: list[bool] = []
        original = canonical.check

        def spy(path: str, state: Any) -> bool:
            used.append(original(path, state))
            return used[-1]
        monkeypatch.setattr(canonical, "check", spy)
        fast = findings(paths)
        assert all(used) == (sabotage is None)  # the path taken is the one meant
        monkeypatch.setattr(canonical, "check", lambda path, state: False)
        assert fast == findings(paths)


def test_a_gzipped_canonical_file_and_one_over_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gzip

    body = "".join(f"<url><loc>https://e.com/p{i}</loc></url>\n" for i in range(30))
    (tmp_path / "a.xml.gz").write_bytes(gzip.compress((HEAD + body + "</urlset>\n").encode(), mtime=0))
    assert canonical._read(str(tmp_path / "a.xml.gz")) == (HEAD + body + "</urlset>\n").encode()
    monkeypatch.setattr(canonical, "MAX_BYTES_PER_FILE", 100)
    assert canonical._read(str(tmp_path / "a.xml.gz")) is None  # the element path reports X109


def test_a_file_in_another_shape_is_not_read_whole_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def whole(path: str) -> bytes:
        raise AssertionError(f"{path} read whole by the canonical path")
    monkeypatch.setattr(canonical, "_read", whole)
    pretty = HEAD + "<url>\n  <loc>https://e.com/a</loc>\n</url>\n</urlset>\n"
    (tmp_path / "s.xml").write_text(pretty, encoding="utf-8")
    assert findings([str(tmp_path / "s.xml")]) == []
