"""output.html: a static HTML view of every sitemap, paged, linked, with no script."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urljoin

import pytest
from lxml import html

from sitemap_ext import build, check
from sitemap_ext.write import htmlview

from .conftest import ROOT


def _copy_example(name: str, folder: Path, extra: str) -> Path:
    target = folder / name
    target.mkdir(parents=True)
    for path in (ROOT / "examples" / name).iterdir():
        if path.is_file():
            (target / path.name).write_bytes(path.read_bytes())
    site = target / "site.yaml"
    text = site.read_text(encoding="utf-8")
    site.write_text(text.replace("output:\n", "output:\n" + extra, 1) if "output:\n" in text
                    else text + "output:\n" + extra, encoding="utf-8")
    return site


def test_every_sitemap_gets_linked_pages_of_its_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(htmlview, "ROWS_PER_PAGE", 7)
    site = _copy_example("international", tmp_path, "  html: true\n  max_urls: 20\n")
    out = tmp_path / "out"
    result = build(site, out, now="2026-11-21T12:00:00Z")
    assert result.ok, result.collector.sorted()
    sitemaps = [f for f in result.files if f.kind == "urlset"]
    views = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))
    assert "sitemaps.html" in views and len(sitemaps) > 1
    index = html.parse(str(out / "sitemaps.html")).getroot()
    assert "<script" not in (out / "sitemaps.html").read_text()
    listed = [a.get("href") for a in index.iter("a")]
    assert len(listed) == len(sitemaps)
    rows = alternates = 0
    for first in listed:
        page = first
        while page is not None:  # follow the "next page" links through every page of this sitemap
            doc = html.parse(str(out / page)).getroot()
            rows += len(doc.findall(".//tbody/tr"))
            alternates += len(doc.findall(".//tbody/tr/td[4]//li"))
            back = [a.get("href") for a in doc.iter("a") if a.text == "all sitemaps"]
            assert os.path.normpath(os.path.join(os.path.dirname(page), back[0])) == "sitemaps.html"
            pages = [a.get("href") for a in doc.iter("a") if (a.text or "").startswith("page ")]
            numbers = [int(a.text.split()[1]) for a in doc.iter("a") if (a.text or "").startswith("page ")]
            current = doc.find(".//nav/span")
            following = [href for href, n in zip(pages, numbers)
                         if current is not None and n == int(current.text.split()[1]) + 1]
            page = urljoin(page, following[0]) if following else None
    assert rows == sum(f.urls for f in sitemaps) == result.urls
    assert alternates > 0
    report = check([str(out)])  # the views are no sitemaps: skipped, and the check still passes
    assert report.ok and all(name.endswith((".html", ".xsl")) for name in report.skipped) and report.skipped


def test_media_and_news_show_in_the_view(tmp_path: Path) -> None:
    site = _copy_example("media", tmp_path, "  html: true\n")
    out = tmp_path / "out"
    assert build(site, out, now="2026-11-21T12:00:00Z").ok
    text = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*.html") if p.name != "sitemaps.html")
    assert "video: " in text and "cdn" in text
