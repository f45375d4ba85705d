"""What CMSs and documentation tools write around their hreflang clusters, judged as
Google reads it: pages canonicalised elsewhere that carry their canonical's
annotations, and the error routes they build beside their pages."""

from __future__ import annotations

import os
from pathlib import Path

from sitemap_ext import check

BASE = "https://e.com/"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"'
Found = list[tuple[str, str | None, int | None, str | None, str | None]]


def head(links: dict[str, str], *, canonical: str | None = None, lang: str = "en") -> str:
    """A page as a CMS writes it: its canonical (when given) on line 4, then one hreflang
    link a line."""
    tags = "".join(f'<link rel="alternate" hreflang="{code}" href="{href}">\n' for code, href in links.items())
    own = f'<link rel="canonical" href="{canonical}">\n' if canonical else "<title>t</title>\n"
    return f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n{own}{tags}</head>\n<body><p>text</p></body>\n</html>\n'


def built(tmp_path: Path, pages: dict[str, str], sitemap: list[tuple[str, dict[str, str]]]) -> Found:
    """The built site and its sitemap checked together: (code, file, line, url, hreflang)."""
    public = tmp_path / "public"
    for name, text in pages.items():
        (public / name).parent.mkdir(parents=True, exist_ok=True)
        (public / name).write_text(text, encoding="utf-8")
    entries = "".join(f"<url><loc>{BASE}{loc}</loc>" + "".join(
        f'<xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>' for code, href in links.items())
        + "</url>\n" for loc, links in sitemap)
    (public / "sitemap.xml").write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n{entries}</urlset>\n')
    os.chdir(tmp_path)
    result = check(["public"], base_urls=[f"{BASE}=public"])
    return [(d.code, d.file, d.line, d.url, d.hreflang) for d in result.collector.sorted()]


HOME = {"en": f"{BASE}en/", "de": f"{BASE}de/", "x-default": f"{BASE}en/"}
GUIDE = {"en": f"{BASE}en/guide/", "fr": f"{BASE}fr/guide/", "x-default": f"{BASE}en/guide/"}
TERM = {"en": f"{BASE}en/term/", "x-default": f"{BASE}en/term/"}


def test_a_page_canonicalised_elsewhere_carries_its_canonicals_annotations(tmp_path: Path) -> None:
    pages = {
        "en/index.html": head(HOME), "de/index.html": head(HOME, lang="de"),
        # A CMS's home alias beside /en/, with its canonical's set (an older template: no x-default).
        "en/home/index.html": head({"en": f"{BASE}en/", "de": f"{BASE}de/"}, canonical=f"{BASE}en/"),
        # A page's old alias, with the set an older template wrote (no x-default).
        "en/guide/index.html": head(GUIDE), "fr/guide/index.html": head(GUIDE, lang="fr"),
        "en/manual/index.html": head({"en": f"{BASE}en/guide/", "fr": f"{BASE}fr/guide/"},
                                     canonical=f"{BASE}en/guide/"),
        # An untranslated term shown under /de/ in English, canonical to the English term.
        "en/term/index.html": head(TERM),
        "de/begriff/index.html": head(TERM, canonical="/en/term/"),
        # A page naming the alias: H114 (name the canonical), and nothing about its return link.
        "de/neu/index.html": head({"de": f"{BASE}de/neu/", "en": f"{BASE}en/home/",
                                   "x-default": f"{BASE}en/home/"}, lang="de"),
    }
    sitemap = [("en/", HOME), ("de/", HOME), ("en/term/", TERM), ("de/neu/", {}), ("en/guide/", {}),
               ("fr/guide/", {})]
    got = built(tmp_path, pages, sitemap)
    # Before: H103 at each canonicalised page (line 5, its first link), H104 at each alias's
    # links (the canonical pages list each other, not the alias), H109 at de/neu's link to
    # the alias. Google reads hreflang from canonical pages only.
    assert got == [
        ("H114", "public/de/neu/index.html", 5, f"{BASE}de/neu/", "en"),
        ("H114", "public/de/neu/index.html", 5, f"{BASE}de/neu/", "x-default"),
    ]


def test_a_sitemap_entry_has_no_canonical_its_self_reference_is_asked(tmp_path: Path) -> None:
    """The alias listed in the sitemap: U112 (list the canonical), and the entry's own H103:
    a sitemap entry does not say where its canonical is."""
    pages = {"en/index.html": head(HOME), "de/index.html": head(HOME, lang="de"),
             "en/home/index.html": head(HOME, canonical=f"{BASE}en/")}
    got = built(tmp_path, pages, [("en/", HOME), ("de/", HOME), ("en/home/", HOME)])
    assert got == [("H103", "public/sitemap.xml", 5, f"{BASE}en/home/", None),
                   ("U112", "public/sitemap.xml", 5, f"{BASE}en/home/", None)]


def test_error_routes_of_every_language_are_no_pages_to_list(tmp_path: Path) -> None:
    """A CMS's error routes, as files or folders (Drupal's system/401 and system/4xx, a
    host's 404.html, a 5xx page), in each language: served with an error status, never
    pages to list (no U114). A page whose name only starts with a status is a page, and
    so is a numbered folder of a pagination (page/404/)."""
    errors = ["404.html", "en/404.html", "de/system/401/index.html", "system/403/index.html", "system/4xx/index.html",
              "en/system/4xx.html", "500/index.html", "de/5xx/index.html", "fr/503.html", "pt-br/404/index.html",
              "en/latest/404.html"]
    pages = {"en/index.html": head({}), **{name: head({}) for name in errors},
             "en/404-faq/index.html": head({}), "en/4000/index.html": head({}), "en/system/index.html": head({}),
             "en/page/404/index.html": head({})}
    got = built(tmp_path, pages, [("en/", {})])
    assert got == [("U114", "public/en/4000/index.html", 1, f"{BASE}en/4000/", None),
                   ("U114", "public/en/404-faq/index.html", 1, f"{BASE}en/404-faq/", None),
                   ("U114", "public/en/page/404/index.html", 1, f"{BASE}en/page/404/", None),
                   ("U114", "public/en/system/index.html", 1, f"{BASE}en/system/", None)]
