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
    rows, entries, languages = 0, [], set()
    for first in listed:
        page = first
        while page is not None:  # follow the "next page" links through every page of this sitemap
            doc = html.parse(str(out / page)).getroot()
            rows += len(doc.findall(".//tbody/tr"))
            entries += [a.get("href") for a in doc.find_class("entry")]
            languages |= {td.get("data-label") for td in doc.findall(".//tbody/tr/td[@data-label]")}
            back = [a.get("href") for a in doc.iter("a") if a.text == "all sitemaps"]
            assert os.path.normpath(os.path.join(os.path.dirname(page), back[0])) == "sitemaps.html"
            pages = [a.get("href") for a in doc.iter("a") if (a.text or "").startswith("page ")]
            numbers = [int(a.text.split()[1]) for a in doc.iter("a") if (a.text or "").startswith("page ")]
            current = doc.find(".//nav/span")
            following = [href for href, n in zip(pages, numbers)
                         if current is not None and n == int(current.text.split()[1]) + 1]
            page = urljoin(page, following[0]) if following else None
    # each <url> is shown once, in its page's row (a row per page, a column per language)
    assert len(entries) == len(set(entries)) == sum(f.urls for f in sitemaps) == result.urls
    assert 0 < rows < result.urls
    assert {"en", "de-DE", "fr-CH", "x-default"} <= languages, languages
    report = check([str(out)])  # the views are no sitemaps: skipped, and the check still passes
    assert report.ok and all(name.endswith((".html", ".xsl")) for name in report.skipped) and report.skipped


def test_media_and_news_show_in_the_view(tmp_path: Path) -> None:
    site = _copy_example("media", tmp_path, "  html: true\n")
    out = tmp_path / "out"
    assert build(site, out, now="2026-11-21T12:00:00Z").ok
    text = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*.html") if p.name != "sitemaps.html")
    assert "video: " in text and "cdn" in text


# --- the default view (issue 28: browsers are removing XSLT) ---------------------------

SMALL = "site:\n  base_url: https://e.com/\n  now: 2026-01-01\npages:\n  - loc: /a\n  - loc: /b\n"


def test_the_html_view_is_the_default_and_output_html_false_leaves_it_out(tmp_path: Path) -> None:
    site = tmp_path / "site.yaml"
    site.write_text(SMALL, encoding="utf-8")
    default = build(str(site), str(tmp_path / "default"))
    assert sorted((f.name, f.kind) for f in default.files) == [
        ("sitemap.html", "html"), ("sitemap.xml", "urlset"), ("sitemaps.html", "html")]
    assert b"sitemap.xsl" not in (tmp_path / "default" / "sitemap.xml").read_bytes()  # (the XSL view: opt-in)
    site.write_text(SMALL + "output:\n  html: false\n", encoding="utf-8")
    old = build(str(site), str(tmp_path / "old"))
    assert [f.name for f in old.files] == ["sitemap.xml"]
    assert (tmp_path / "old" / "sitemap.xml").read_bytes() == (tmp_path / "default" / "sitemap.xml").read_bytes()


def test_a_page_of_the_site_named_as_a_view_is_never_replaced(tmp_path: Path) -> None:
    site = tmp_path / "site.yaml"
    site.write_text(SMALL, encoding="utf-8")
    out = tmp_path / "public"
    out.mkdir()
    (out / "sitemap.html").write_text("<p>our sitemap for people</p>", encoding="utf-8")
    refused = build(str(site), str(out))
    assert [(d.code, "sitemap.html" in d.message, "output.html: false" in d.message)
            for d in refused.collector.diagnostics] == [("O105", True, True)]
    assert sorted(os.listdir(out)) == ["sitemap.html"]
    assert (out / "sitemap.html").read_text(encoding="utf-8") == "<p>our sitemap for people</p>"
    site.write_text(SMALL + "output:\n  html: false\n", encoding="utf-8")
    assert build(str(site), str(out)).ok and sorted(os.listdir(out))[-1] == "sitemap.xml"


def test_a_check_of_a_built_folder_takes_the_views_for_no_pages(tmp_path: Path) -> None:
    """The views lie beside the sitemaps; checked with --base-url over that folder, they are
    no pages of the site (else the folder would be a built site whose listed URLs have no
    file: U113 for each). A page of the site that only looks like a view is still read."""
    site = tmp_path / "site.yaml"
    site.write_text(SMALL, encoding="utf-8")
    out = tmp_path / "out"
    assert build(str(site), str(out)).ok
    result = check([str(out)], base_urls=[f"https://e.com/={out}"])
    assert result.collector.sorted() == [] and [f for f in result.files if f.get("kind") == "html"] == []
    (out / "a.html").write_text('<html><head><meta name="generator" content="sitemap-ext output.html">'
                                "</head></html>", encoding="utf-8")  # (no sitemap a.xml beside it)
    result = check([str(out)], base_urls=[f"https://e.com/={out}"])
    # a.html serves /a (and is listed as /a.html nowhere: U114); /b has no page: U113.
    assert sorted((d.code, d.url) for d in result.collector.sorted()) == [("U113", "https://e.com/b"),
                                                                          ("U114", "https://e.com/a.html")]
    assert [os.path.basename(str(f["file"])) for f in result.files if f.get("kind") == "html"] == ["a.html"]


def test_a_view_is_told_the_same_from_the_walks_listing_as_by_looking(tmp_path: Path) -> None:
    """The folder walk hands each file the names beside it (so a check of a large built
    site looks for no sitemap beside each page); the verdict is the one the files give."""
    from sitemap_ext.folder import is_view
    from sitemap_ext.safeio import walk_listed

    mark = '<html><head><meta name="generator" content="sitemap-ext output.html"></head></html>'
    (tmp_path / "sitemap.xml").write_text("<urlset/>", encoding="utf-8")
    (tmp_path / "sitemap.html").write_text(mark, encoding="utf-8")  # a view: its sitemap beside it
    (tmp_path / "sitemap.2.html").write_text(mark, encoding="utf-8")  # its second page
    (tmp_path / "news.html").write_text(mark, encoding="utf-8")  # the mark, but no news.xml: a page
    (tmp_path / "plain.html").write_text("<html></html>", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "sitemap.html").write_text(mark, encoding="utf-8")  # its sitemap is elsewhere
    (tmp_path / "sub" / "linked.html").symlink_to(tmp_path / "sitemap.html")
    listed = {os.path.relpath(path, tmp_path): (real, siblings) for path, real, siblings in walk_listed(str(tmp_path))}
    assert listed["sitemap.html"][1] == {"sitemap.xml", "sitemap.html", "sitemap.2.html", "news.html", "plain.html"}
    assert listed[os.path.join("sub", "linked.html")][1] is None  # a link: its real folder is another one
    verdicts = {name: is_view(str(real), siblings) for name, (real, siblings) in listed.items()}
    assert verdicts == {name: is_view(str(real)) for name, (real, _) in listed.items()}
    assert sorted(name for name, view in verdicts.items() if view) == sorted([
        os.path.join("sub", "linked.html"), "sitemap.2.html", "sitemap.html"])


def test_a_host_of_more_than_50000_urls_gets_no_views_unless_asked(tmp_path: Path) -> None:
    """Where output.html is not set, the views are written for a host of at most 50,000
    URLs; above that they are left out (O109, an info at the description) unless
    output.html: true asks for them. output.html: false says nothing."""
    def site(count: int, output: str = "") -> str:
        folder = tmp_path / f"s{count}{output.strip().replace(' ', '').replace(':', '')}"
        folder.mkdir()
        (folder / "p.csv").write_text("loc\n" + "".join(f"/p/{i}\n" for i in range(count)), encoding="utf-8")
        (folder / "site.yaml").write_text("site:\n  base_url: https://e.com/\nsources:\n  - p.csv\n" + output,
                                          encoding="utf-8")
        return str(folder / "site.yaml")

    def views(result: object) -> list[str]:
        return sorted(f.name for f in result.files if f.kind == "html")  # type: ignore[attr-defined]

    at_limit = build(site(50_000), str(tmp_path / "a"))
    assert views(at_limit) == sorted(["sitemap.html", *[f"sitemap.{n}.html" for n in range(2, 51)], "sitemaps.html"])
    assert [d.code for d in at_limit.collector.diagnostics] == []
    over = build(site(50_001), str(tmp_path / "b"))
    assert views(over) == [] and over.ok
    assert [(d.code, d.severity.value, d.where.file, d.where.line) for d in over.collector.diagnostics] == [
        ("O109", "info", over.collector.diagnostics[0].where.file, None)]  # (the description, no key to point at)
    assert over.collector.diagnostics[0].where.file.endswith("site.yaml")
    asked = build(site(50_001, "output:\n  html: true\n"), str(tmp_path / "c"))
    assert "sitemap-1.html" in views(asked) and "sitemaps.html" in views(asked)
    assert [d.code for d in asked.collector.diagnostics] == []
    refused = build(site(50_001, "output:\n  html: false\n"), str(tmp_path / "d"))
    assert views(refused) == [] and [d.code for d in refused.collector.diagnostics] == []


def test_links_between_views_are_percent_encoded_paths(tmp_path: Path) -> None:
    """A view links to the others by their file names, which output.pattern gives: each is
    percent-encoded, so none reads as a scheme (javascript:), a query or a fragment."""
    site = tmp_path / "site.yaml"
    site.write_text("site:\n  base_url: https://e.com/\noutput:\n  pattern: 'javascript:alert(1)#é {n}.xml'\n"
                    "  max_urls: 1\n  index: always\npages:\n  - loc: /a\n  - loc: /b\n", encoding="utf-8")
    result = build(str(site), str(tmp_path / "out"))
    assert result.ok, result.collector.sorted()
    listing = (tmp_path / "out" / "sitemaps.html").read_text(encoding="utf-8")
    assert 'href="javascript%3Aalert%281%29%23%C3%A9%201.html"' in listing
    assert 'href="javascript:' not in listing


def test_a_view_counts_one_url_and_one_sitemap_in_the_singular(tmp_path: Path) -> None:
    """The titles say "1 URL" and "1 sitemap", "2 URLs" and "2 sitemaps" (as the CLI does)."""
    (tmp_path / "one.yaml").write_text("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n", encoding="utf-8")
    assert build(str(tmp_path / "one.yaml"), str(tmp_path / "one")).ok
    titles = {p.name: html.parse(str(p)).findtext(".//title") for p in (tmp_path / "one").rglob("*.html")}
    assert titles["sitemaps.html"] == "https://e.com/: 1 sitemap, 1 URL"  # (named by the site)
    assert [t for name, t in titles.items() if name != "sitemaps.html"] == ["https://e.com/sitemap.xml: 1 URL"]


def test_a_video_shows_its_thumbnail_duration_and_date_and_an_article_its_publication(tmp_path: Path) -> None:
    """Issue "Ready for strangers", the views: a video is shown by its thumbnail, title,
    duration and date; a news article by its title, publication (name, language) and date."""
    media, newsroom = _copy_example("media", tmp_path, "  html: true\n"), _copy_example("newsroom", tmp_path, "")
    assert build(media, tmp_path / "m", now="2026-11-21T12:00:00Z").ok
    assert build(newsroom, tmp_path / "n", now="2026-11-21T12:00:00Z").ok
    videos = [li for li in html.parse(str(tmp_path / "m" / "sitemap.html")).iter("li") if "video:" in li.text_content()]
    first = videos[0]
    assert first.find("img").get("src") == "https://cdn.hearthkitchen.example/thumbs/sourdough.jpg"
    assert first.find("img").get("loading") == "lazy" and first.find("img").get("referrerpolicy") == "no-referrer"
    assert first.text_content() == "video: Sourdough from scratch · 40:15 · 2026-10-02T09:00:00+01:00"
    articles = [li.text_content() for li in html.parse(str(tmp_path / "n" / "news-1.html")).iter("li")
                if li.text_content().startswith("news:")]
    assert articles[0] == "news: Flood warning for the lower valley · The Valley Courier (en) · 2026-11-21T07:30:00Z"


def test_a_cluster_is_one_row_with_a_column_per_language(tmp_path: Path) -> None:
    """The versions of one page share a row, each in its language's column with its lastmod;
    a version listed in another sitemap is named there, and each <url> is shown once."""
    site = tmp_path / "site.yaml"
    site.write_text("site:\n  base_url: https://e.com/\n  now: 2026-01-01\nlocales:\n  en: /en/\n  fr: /fr/\n"
                    "x_default: en\noutput:\n  max_urls: 3\npages:\n  - path: /a\n    lastmod: 2025-05-01\n"
                    "  - path: /b\n", encoding="utf-8")
    result = build(str(site), str(tmp_path / "out"))
    assert result.ok, result.collector.sorted()
    first = html.parse(str(tmp_path / "out" / "sitemap-1.html")).getroot()
    assert [th.text_content() for th in first.findall(".//thead/tr/th")] == ["#", "page", "en", "fr", "x-default",
                                                                             "media"]
    rows = first.findall(".//tbody/tr")
    assert [row.find("th").text_content() for row in rows] == ["/en/a", "/en/b"]
    cells = {td.get("data-label"): td.text_content() for td in rows[0].findall("td[@data-label]")}
    assert cells["en"] == "/en/a 2025-05-01" and cells["fr"] == "/fr/a 2025-05-01"
    assert cells["x-default"] == "/en/a"  # (the entry shown under en: its URL again, no second entry)
    second = rows[1].findall("td[@data-label]")
    assert [td.text_content() for td in second][:2] == ["/en/b", "/fr/b not in this sitemap"]
    shown = [a.get("href") for p in (tmp_path / "out").glob("sitemap-*.html")
             for a in html.parse(str(p)).getroot().find_class("entry")]
    assert sorted(shown) == ["https://e.com/en/a", "https://e.com/en/b", "https://e.com/fr/a", "https://e.com/fr/b"]
