"""Issue "Real sites, judged right": the classes of false and missed findings seen on
what generators write, each on a case shaped like their output (tests/shapes.py), with
the code and place of every finding. The real sites themselves are judged in
tests/test_realworld.py."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from sitemap_ext import check
from sitemap_ext.cli import main

from .shapes import BASE, LANGS, PAGES, head_links, hugo_site, page, sitemap, url

Finding = tuple[str, str, "int | None", "str | None"]


def findings(result: object, *, infos: bool = True) -> list[Finding]:
    return [(d.code, d.file or "", d.line, d.url) for d in result.collector.sorted()  # type: ignore[attr-defined]
            if infos or d.severity.value != "info"]


def run(public: Path, *extra: str) -> object:
    return check([str(public)], base_urls=[f"{BASE}={public}"], **({"html": extra[0]} if extra else {}))


def test_a_clean_hugo_site_passes_with_its_pages_feeds_and_error_pages(tmp_path: Path) -> None:
    # Feed autodiscovery on every page, an Atom link, a language menu in the body, a root
    # index of one sitemap per language, a feed per section listing the same posts as the
    # home feed, a 404 page in every language folder, x-default given by the pages only.
    public = hugo_site(tmp_path)
    result = run(public)
    assert findings(result) == []
    kinds = sorted(f["kind"] for f in result.files)  # type: ignore[attr-defined]
    assert kinds.count("html") == len(LANGS) * len(PAGES) and kinds.count("rss") == 2 * len(LANGS)
    assert main(["check", str(public), "--base-url", f"{BASE}={public}", "--quiet"]) == 0


def test_the_root_index_of_language_sitemaps_is_no_index_listing_itself(tmp_path: Path) -> None:
    public = hugo_site(tmp_path)
    for given in ([str(public / "sitemap.xml")], [str(public)]):  # without --base-url
        result = check(given)
        assert not [f for f in findings(result) if f[0] in ("X118", "X111")], given
        assert {f["file"] for f in result.files} >= {f"public/{code}/sitemap.xml" for code in LANGS}  # type: ignore[attr-defined]
    # An index that does list its own URL still says so.
    own = public / "sitemap.xml"
    own.write_text(own.read_text().replace(f"{BASE}de/sitemap.xml", f"{BASE}sitemap.xml"))
    result = check([str(public)], base_urls=[f"{BASE}={public}"])
    assert [f[:3] for f in findings(result) if f[0] == "X118"] == [("X118", "public/sitemap.xml", 7)]


def test_one_method_giving_more_versions_or_none_is_no_conflict(tmp_path: Path) -> None:
    public = hugo_site(tmp_path)
    # The sitemaps give no alternates at all; the heads give them (and x-default): no H116.
    for lang in LANGS:
        (public / lang / "sitemap.xml").write_text(sitemap(lang, [(path, (lang,)) for path in PAGES]))
    assert findings(run(public)) == []
    # A code that names another URL in the page than in the sitemap is a conflict.
    de_first = public / "de" / "posts" / "first" / "index.html"
    (public / "de" / "sitemap.xml").write_text(sitemap("de", [(path, LANGS) for path in PAGES]))
    de_first.write_text(page("posts/first/", "de", links=head_links("posts/first/", "de").replace(
        url("fr", "posts/first/"), url("fr", "posts/second/"))))
    got = [f for f in findings(run(public)) if f[0] == "H116"]
    assert got == [("H116", "public/de/sitemap.xml", 42, url("de", "posts/first/"))]


def test_feeds_and_sitemaps_listing_one_url_are_no_duplicates(tmp_path: Path) -> None:
    public = hugo_site(tmp_path)
    result = run(public)
    assert not [f for f in findings(result) if f[0] == "U104"]
    # Twice in one web sitemap is still a duplicate.
    en = public / "en" / "sitemap.xml"
    text = en.read_text()
    first = text.index("  <url>")
    en.write_text(text[:first] + text[first:text.index("</url>") + 7] + "\n" + text[first:])
    assert [f[0] for f in findings(run(public)) if f[0] == "U104"] == ["U104"]


@pytest.mark.parametrize("html", ["on", "drop-ext"])
def test_error_pages_in_every_language_folder_are_no_pages(tmp_path: Path, html: str) -> None:
    public = hugo_site(tmp_path)
    for name in ("es/404.html", "es/404/index.html", "fr/500.html"):
        target = public / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page("404.html", "en", links=""))
    got = findings(run(public, html))
    assert not [f for f in got if "404" in (f[3] or "") or "500" in (f[3] or "")], got


def test_relative_hrefs_are_one_finding_each_and_the_cluster_behind_them_is_judged(tmp_path: Path) -> None:
    public = hugo_site(tmp_path)
    # A theme writing root-relative hrefs, and naming an en/ folder the site does not have:
    # the site is de and fr only, its pages still name /en/...
    shutil.rmtree(public / "en")
    (public / "sitemap.xml").write_text((public / "sitemap.xml").read_text().replace(
        f"\n  <sitemap>\n    <loc>{BASE}en/sitemap.xml</loc>\n    <lastmod>2024-05-01T10:00:00+02:00</lastmod>\n"
        "  </sitemap>", ""))
    for lang in ("de", "fr"):
        (public / lang / "sitemap.xml").write_text(sitemap(lang, [(path, (lang,)) for path in PAGES]))
        for path in PAGES:
            (public / lang / path / "index.html").write_text(page(path, lang, links=head_links(path, lang,
                                                                                               relative=True)))
    result = run(public)
    got = findings(result)
    de_home = "public/de/index.html"
    # Each relative href once (4 links a page: en, de, fr, x-default), where it is, with its fix.
    h102 = [f for f in got if f[0] == "H102"]
    assert len(h102) == 2 * len(PAGES) * 4
    assert ("H102", de_home, 17, url("de", "")) in h102
    fixes = {d.suggestion for d in result.collector.diagnostics if d.code == "H102"}  # type: ignore[attr-defined]
    assert url("en", "about/") in fixes
    # What lies behind them: the en/ versions are 404s (H115 once per page and target).
    h115 = [f for f in got if f[0] == "H115"]
    assert ("H115", de_home, 17, url("de", "")) in h115 and len(h115) == 2 * len(PAGES)
    assert not [f for f in got if f[0] in ("H104", "H116", "H103")]
    assert not result.ok  # type: ignore[attr-defined]


def test_a_language_menu_linking_each_home_page_misses_its_return_links(tmp_path: Path) -> None:
    public = hugo_site(tmp_path)
    # A theme whose hreflang links are its language menu: every page names each home page.
    for lang in LANGS:
        for path in PAGES[1:]:
            menu = "\n    ".join(f'<link rel="alternate" hreflang="{code}" href="{url(code, "")}">' for code in LANGS)
            (public / lang / path / "index.html").write_text(page(path, lang, links=menu))
        (public / lang / "sitemap.xml").write_text(sitemap(lang, [(path, (lang,)) for path in PAGES]))
    got = findings(run(public))
    de_first = "public/de/posts/first/index.html"
    # de/posts/first names en's home page (line 17), which does not name it back; it does
    # not name itself either (H103, at its first link).
    assert ("H104", de_first, 17, url("de", "posts/first/")) in got
    assert ("H103", de_first, 17, url("de", "posts/first/")) in got


def test_whitespace_around_a_url_is_an_info_and_an_empty_path_is_slash(tmp_path: Path) -> None:
    body = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            "  <url>\n    <loc>\n      https://www.example.org/a\n    </loc>\n  </url>\n"
            "  <url><loc>https://www.example.org</loc></url>\n</urlset>\n")
    (tmp_path / "sitemap.xml").write_text(body)
    result = check([str(tmp_path)], base_urls=[f"{BASE}={tmp_path}"])
    assert findings(result) == [("U115", "sitemap.xml", 4, "https://www.example.org/a")]
    assert result.ok  # type: ignore[attr-defined]


@pytest.mark.parametrize("name, data", [("sitemap.xml", b""), ("sitemap.txt", b""), ("sitemap.txt", b"\n  \n"),
                                        ("sitemap.xml.gz", gzip.compress(b"", mtime=0))])
def test_an_empty_sitemap_is_an_error(tmp_path: Path, name: str, data: bytes) -> None:
    (tmp_path / name).write_bytes(data)
    result = check([str(tmp_path / name)])
    assert findings(result) == [("X115", name, None, None)]
    assert main(["check", str(tmp_path / name), "--quiet"]) == 1
    assert not check(data).ok  # type: ignore[attr-defined]


VIDEO = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
         'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n<url><loc>https://e.com/v</loc>\n'
         "<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc>"
         "<video:title>Title</video:title><video:description>placeholder</video:description>"
         "<video:content_loc>https://e.com/v.mp4</video:content_loc>\n{extra}\n</video:video></url>\n</urlset>\n")


@pytest.mark.parametrize("extra, code, fix", [
    ("<video:platform>web mobile</video:platform>", "V109", None),
    ('<video:restriction relationship="allow">UK</video:restriction>', "V108", "GB"),
    ('<video:restriction relationship="deny">XX ZZ</video:restriction>', "V108", None),
    ('<video:restriction relationship="allow">EU</video:restriction>', "V108", None),
])
def test_video_restrictions_and_platforms_are_judged_by_their_own_codes(tmp_path: Path, extra: str, code: str,
                                                                        fix: str | None) -> None:
    (tmp_path / "v.xml").write_text(VIDEO.format(extra=extra))
    result = check([str(tmp_path / "v.xml")])
    got = [(d.code, d.line, d.suggestion) for d in result.collector.sorted()]  # type: ignore[attr-defined]
    assert got == [(code, 5, fix)]  # at the element's own line
    assert "mapping" not in result.collector.sorted()[0].message  # type: ignore[attr-defined]
    (tmp_path / "v.xml").write_text(VIDEO.format(extra='<video:restriction relationship="allow">GB US'
                                                 '</video:restriction><video:platform relationship="deny">tv'
                                                 "</video:platform>"))
    assert findings(check([str(tmp_path / "v.xml")])) == []


def test_uk_beside_english_is_a_hint_and_ukrainian_alone_passes(tmp_path: Path) -> None:
    def links(*pairs: tuple[str, str]) -> str:
        return "".join(f'<xhtml:link rel="alternate" hreflang="{c}" href="{h}"/>' for c, h in pairs)

    def urlset(*pairs: tuple[str, str]) -> str:
        entries = "".join(f"<url><loc>{h}</loc>{links(*pairs)}</url>\n" for c, h in pairs if c != "x-default")
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
                f'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n{entries}</urlset>\n')

    (tmp_path / "s.xml").write_text(urlset(("en-GB", "https://e.com/gb/"), ("uk", "https://e.com/uk/"),
                                           ("x-default", "https://e.com/gb/")))
    got = [(d.code, d.line, d.hreflang) for d in check([str(tmp_path / "s.xml")]).collector.sorted()]
    assert got == [("L114", 3, "uk"), ("L114", 4, "uk")]
    (tmp_path / "s.xml").write_text(urlset(("uk", "https://e.com/uk/"), ("ru", "https://e.com/ru/"),
                                           ("x-default", "https://e.com/uk/")))
    assert findings(check([str(tmp_path / "s.xml")])) == []


def test_h109_says_where_the_other_cluster_comes_from(tmp_path: Path) -> None:
    body = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
            '<url><loc>https://e.com/a</loc><xhtml:link rel="alternate" hreflang="de" href="https://e.com/a"/>'
            '<xhtml:link rel="alternate" hreflang="fr" href="https://e.com/x"/></url>\n'
            '<url><loc>https://e.com/x</loc><xhtml:link rel="alternate" hreflang="fr" href="https://e.com/x"/>'
            '<xhtml:link rel="alternate" hreflang="en" href="https://e.com/y"/></url>\n'
            '<url><loc>https://e.com/y</loc><xhtml:link rel="alternate" hreflang="fr" href="https://e.com/x"/>'
            '<xhtml:link rel="alternate" hreflang="en" href="https://e.com/y"/></url>\n</urlset>\n')
    (tmp_path / "s.xml").write_text(body)
    h109 = [d for d in check([str(tmp_path / "s.xml")]).collector.sorted() if d.code == "H109"]
    assert len(h109) == 1 and "lists itself" not in h109[0].message and "own listing" in h109[0].message


def test_a_bare_ampersand_says_write_amp(tmp_path: Path) -> None:
    (tmp_path / "s.xml").write_text('<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/'
                                    '0.9"><url><loc>https://e.com/?a=1&b=2</loc></url></urlset>\n')
    (diag,) = check([str(tmp_path / "s.xml")]).collector.sorted()
    assert diag.code == "X101" and diag.line == 2 and "&amp;" in diag.message


def test_site_description_mistakes_are_placed_at_their_cause(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text(
        "site:\n  base_url: https://e.com/\nlocales:\n  en: {prefix: /en/}\n  de: {prefix: /de/}\n"
        "pages:\n  - path: /a\n    locales: [en, xx]\nsources:\n  - pages.csv\n")
    (tmp_path / "pages.csv").write_text("loc,loc\nhttps://e.com/en/b,https://e.com/en/c\n")
    got = [(d.code, Path(d.file or "").name, d.line, d.column) for d in check([str(tmp_path / "site.yaml")])
           .collector.sorted() if d.code in ("C112", "S102")]
    # C112 at the code 'xx' (line 8, column 19), not at the list's '['; the CSV header's
    # mistake at line 1, once, not at each row.
    assert got == [("S102", "pages.csv", 1, None), ("C112", "site.yaml", 8, 19)]


@pytest.mark.parametrize("where", ["loc", "alternate", "index", "page"])
def test_a_nul_escape_in_any_url_is_judged_not_a_traceback(tmp_path: Path, where: str) -> None:
    """%00 decodes to a byte no file name holds: the URL names no file (a 404 for a built
    site, a child not found for an index), and nothing raises."""
    sitemap_of = ('<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
                  'xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>{loc}</loc>{link}</url></urlset>\n')
    public = tmp_path / "public"
    (public / "de").mkdir(parents=True)
    if where == "index":
        (public / "sitemap.xml").write_text('<?xml version="1.0"?>\n<sitemapindex xmlns="http://www.sitemaps.org/'
                                            'schemas/sitemap/0.9"><sitemap><loc>https://e.com/x%00.xml</loc>'
                                            "</sitemap></sitemapindex>\n")
        expected = "X111"
    elif where == "page":
        (public / "de" / "index.html").write_text('<html><head><link rel="alternate" hreflang="de" '
                                                  'href="https://e.com/de/"><link rel="alternate" hreflang="en" '
                                                  'href="/%00x"></head></html>')
        expected = "H115"
    else:
        link = '<xhtml:link rel="alternate" hreflang="de" href="https://e.com/%00"/>' if where == "alternate" else ""
        (public / "sitemap.xml").write_text(sitemap_of.format(loc="https://e.com/a%00b", link=link))
        (public / "de" / "index.html").write_text("<html><head></head></html>")  # (a built site: U113 is judged)
        expected = "H103" if where == "alternate" else "U113"
    result = check([str(public)], base_urls=[f"https://e.com/={public}"])
    assert expected in {d.code for d in result.collector.diagnostics}
