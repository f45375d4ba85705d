"""The one rule set on inputs shaped the way search engines' documentation and other
generators write them: each behaviour with its exact codes and locations."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_ext import check
from sitemap_ext.rules.config import make_policy
from sitemap_ext.cli import main

from .conftest import ROOT

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"'
HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n'
Found = list[tuple[str, str, "int | None", "str | None"]]


def judge(tmp_path: Path, files: dict[str, str | bytes], **kw: object) -> Found:
    """Write the files, check them together, and give (code, file, line, url) of each finding."""
    os.chdir(tmp_path)
    for name, body in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = body.encode() if isinstance(body, str) else body
        path.write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") and not data.startswith(b"\x1f\x8b")
                         else data)
    paths = kw.pop("paths", None) or list(files)
    result = check(paths, **kw)  # type: ignore[arg-type]
    return [(d.code, d.file or "", d.line, d.url) for d in result.collector.sorted()]


def urlset(*entries: str) -> str:
    return HEAD + "".join(entries) + "</urlset>\n"


def url(loc: str, *links: tuple[str, str], extra: str = "") -> str:
    alternates = "".join(f'<xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>' for code, href in links)
    return f"<url><loc>{loc}</loc>{extra}{alternates}</url>\n"


def cluster(pairs: list[tuple[str, str]], members: list[str] | None = None) -> list[str]:
    """Entries of a cluster: each member lists every pair."""
    return [url(loc, *pairs) for code, loc in pairs if (members is None or loc in members) and code != "x-default"]


E = "https://e.com"


# --- point 4: what search engines accept ------------------------------------------------

def test_several_regions_of_one_language_may_share_a_url(tmp_path: Path) -> None:
    pairs = [("es-MX", f"{E}/es"), ("es-AR", f"{E}/es"), ("es-CO", f"{E}/es"), ("en", f"{E}/en"),
             ("en-GB", f"{E}/en"), ("x-default", f"{E}/en")]
    assert judge(tmp_path, {"s.xml": urlset(url(f"{E}/es", *pairs), url(f"{E}/en", *pairs))}) == []


def test_two_languages_on_one_url_remain_an_error(tmp_path: Path) -> None:
    pairs = [("de", f"{E}/a"), ("fr", f"{E}/a"), ("x-default", f"{E}/a")]
    assert judge(tmp_path, {"s.xml": urlset(url(f"{E}/a", *pairs))}) == [("H107", "s.xml", 3, f"{E}/a")]


def test_partial_cluster_with_reciprocal_pairs_is_a_warning(tmp_path: Path) -> None:
    a, b, c = f"{E}/en", f"{E}/de", f"{E}/fr"
    body = urlset(url(a, ("en", a), ("de", b), ("fr", c), ("x-default", a)),
                  url(b, ("en", a), ("de", b), ("x-default", a)),
                  url(c, ("en", a), ("fr", c), ("x-default", a)))
    result = check([_write(tmp_path, "s.xml", body)])
    assert {(d.code, d.severity.value) for d in result.collector.diagnostics} == {("H110", "warning")}
    assert result.ok


def test_x_default_page_may_list_itself_as_x_default_only(tmp_path: Path) -> None:
    pairs = [("en", f"{E}/en"), ("de", f"{E}/de"), ("x-default", f"{E}/")]
    body = urlset(*(url(loc, *pairs) for loc in (f"{E}/", f"{E}/en", f"{E}/de")))
    assert judge(tmp_path, {"s.xml": body}) == []


def test_return_link_only_as_x_default_is_no_return_link(tmp_path: Path) -> None:
    en, de = f"{E}/en", f"{E}/de"
    body = urlset(url(en, ("en", en), ("de", de)), url(de, ("de", de), ("x-default", en)))
    found = judge(tmp_path, {"s.xml": body})
    assert ("H104", "s.xml", 3, en) in found
    message = [d for d in check(["s.xml"]).collector.diagnostics if d.code == "H104"][0].message
    assert "only as x-default" in message



@pytest.mark.parametrize("name", ["s.xml", "s.xml.gz"])
def test_a_missing_return_link_is_at_the_link_and_says_which_link_to_add_where(tmp_path: Path, name: str) -> None:
    """H104 stands at the xhtml:link that has no return (before: at the <url>, line 3,
    no column) and says which link to add to which entry, at which file and line."""
    en, de = f"{E}/en", f"{E}/de"
    entries = (f"<url><loc>{en}</loc>\n  <lastmod>2026-01-01</lastmod>\n"
               f'  <xhtml:link rel="alternate" hreflang="en" href="{en}"/>\n'
               f'  <xhtml:link rel="alternate" hreflang="de" href="{de}"/>\n</url>\n')
    judge(tmp_path, {name: urlset(entries), "de.xml": urlset(url(de, ("de", de)))}, paths=[name, "de.xml"])
    found = [d for d in check([name, "de.xml"]).collector.diagnostics if d.code == "H104"]
    assert [(d.file, d.line, d.column, d.url, d.hreflang) for d in found] == [(name, 6, 3, en, "de")]
    assert found[0].message.endswith(
        f'search engines ignore a pair without its return link: add <xhtml:link rel="alternate" hreflang="en" '
        f'href="{en}"/> to the entry of {de} (de.xml:3)')


def test_a_missing_return_link_in_a_page_head_says_to_add_a_link_to_the_other_head(tmp_path: Path) -> None:
    """Pages: the fix is a <link> in the other page's head (its file and line)."""
    base = "https://www.example.com/"
    head = '<!DOCTYPE html><html lang="{0}"><head>\n<link rel="alternate" hreflang="{0}" href="{1}{0}/">\n{2}</head>\n' \
           "<body></body></html>\n"
    other = f'<link rel="alternate" hreflang="de" href="{base}de/">\n'
    judge(tmp_path, {"public/en/index.html": head.format("en", base, other),
                     "public/de/index.html": head.format("de", base, ""),
                     "public/sitemap.xml": urlset(url(f"{base}en/"), url(f"{base}de/"))},
          paths=["public"], base_urls=[f"{base}=public"])
    found = [d for d in check(["public"], base_urls=[f"{base}=public"]).collector.diagnostics if d.code == "H104"]
    assert [(d.file, d.line, d.column) for d in found] == [("public/en/index.html", 3, 1)]
    assert f'add <link rel="alternate" hreflang="en" href="{base}en/"> to the head of {base}de/ ' \
           "(public/de/index.html:" in found[0].message


def test_a_relative_loc_says_what_it_would_resolve_to(tmp_path: Path) -> None:
    """U101 of a relative loc says that a sitemap needs absolute URLs; where the sitemap's
    own URL is known (--base-url) it gives the absolute form as the fix (before: "'/en/a'
    is relative; give an absolute http(s) URL", no suggestion)."""
    body = urlset("<url><loc>/en/a</loc></url>\n", "<url><loc>b.html</loc></url>\n")
    judge(tmp_path, {"site/sitemap.xml": body})
    mapped = check(["site"], base_urls=["https://www.example.com/docs/=site"]).collector.sorted()
    assert [(d.code, d.line, d.url, d.suggestion) for d in mapped] == [
        ("U101", 3, "/en/a", "https://www.example.com/en/a"), ("U101", 4, "b.html", "https://www.example.com/docs/b.html")]
    assert mapped[1].message == ("loc 'b.html' is relative: a sitemap must give absolute URLs, and search engines "
                                 "resolve none; against this sitemap's URL it is https://www.example.com/docs/b.html: "
                                 "write that")
    alone = check(["site/sitemap.xml"]).collector.sorted()
    assert [(d.code, d.suggestion) for d in alone] == [("U101", None), ("U101", None)]
    assert "write it with its scheme and host (https://HOST/en/a)" in alone[0].message

GOOGLE_EXAMPLE = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
  xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>https://www.example.com/english/page.html</loc>
    <xhtml:link
               rel="alternate"
               hreflang="de"
               href="https://www.example.de/deutsch/page.html"/>
    <xhtml:link
               rel="alternate"
               hreflang="de-ch"
               href="https://www.example.de/schweiz-deutsch/page.html"/>
    <xhtml:link
               rel="alternate"
               hreflang="en"
               href="https://www.example.com/english/page.html"/>
  </url>
  <url>
    <loc>https://www.example.de/deutsch/page.html</loc>
    <xhtml:link
               rel="alternate"
               hreflang="de"
               href="https://www.example.de/deutsch/page.html"/>
    <xhtml:link
               rel="alternate"
               hreflang="de-ch"
               href="https://www.example.de/schweiz-deutsch/page.html"/>
    <xhtml:link
               rel="alternate"
               hreflang="en"
               href="https://www.example.com/english/page.html"/>
  </url>
  <url>
    <loc>https://www.example.de/schweiz-deutsch/page.html</loc>
    <xhtml:link
               rel="alternate"
               hreflang="de"
               href="https://www.example.de/deutsch/page.html"/>
    <xhtml:link
               rel="alternate"
               hreflang="en"
               href="https://www.example.com/english/page.html"/>
    <xhtml:link
               rel="alternate"
               hreflang="de-ch"
               href="https://www.example.de/schweiz-deutsch/page.html"/>
  </url>
</urlset>
"""


def test_googles_own_hreflang_example_has_no_error(tmp_path: Path) -> None:
    """Two hosts in one file: a warning that says how to prove cross-submission; the
    links' case (de-ch) is style. Start tags over several lines are located where they start."""
    result = check([_write(tmp_path, "sitemap.xml", GOOGLE_EXAMPLE)])
    found = [(d.code, d.severity.value, d.line) for d in result.collector.sorted()]
    assert found == [("H112", "info", 4), ("L108", "info", 10), ("U107", "warning", 20), ("L108", "info", 25),
                     ("U107", "warning", 35), ("L108", "info", 44)]
    assert result.ok
    crossed = check(["sitemap.xml"], cross_submitted=["www.example.de"])
    assert "U107" not in {d.code for d in crossed.collector.diagnostics}
    assert "--cross-submitted https://www.example.de" in [d for d in result.collector.diagnostics
                                                          if d.code == "U107"][0].message


def test_robots_txt_with_known_host_shows_cross_submission(tmp_path: Path) -> None:
    (tmp_path / "de").mkdir()
    (tmp_path / "de" / "robots.txt").write_text("Sitemap: https://www.example.com/sitemap.xml\n")
    found = judge(tmp_path, {"sitemap.xml": GOOGLE_EXAMPLE}, paths=["sitemap.xml", "de/robots.txt"],
                  base_urls=["https://www.example.de/=de"])
    assert "U107" not in {code for code, *_ in found}


def test_other_alternate_annotations_are_no_hreflang(tmp_path: Path) -> None:
    extra = ('<xhtml:link rel="alternate" media="only screen and (max-width: 640px)" href="https://m.e.com/a"/>'
             '<xhtml:link rel="alternate" href="android-app://com.example/https/e.com/a"/>'
             '<xhtml:link rel="amphtml" href="https://e.com/amp/a"/>')
    assert judge(tmp_path, {"s.xml": urlset(url(f"{E}/a", extra=extra))}) == []


@pytest.mark.parametrize("tag,code,suggestion", [("kr", "L103", "ko"), ("vn", "L103", "vi"), ("se", "L112", "sv"),
                                                  ("se-SE", "L112", "sv-SE")])
def test_country_codes_as_languages(tmp_path: Path, tag: str, code: str, suggestion: str) -> None:
    body = urlset(url(f"{E}/a", (tag, f"{E}/a"), ("en", f"{E}/b"), ("x-default", f"{E}/b")),
                  url(f"{E}/b", (tag, f"{E}/a"), ("en", f"{E}/b"), ("x-default", f"{E}/b")))
    result = check([_write(tmp_path, "s.xml", body)])
    got = {(d.code, d.severity.value, d.suggestion) for d in result.collector.diagnostics}
    assert got == {(code, "error" if code == "L103" else "warning", suggestion)}  # and no cluster finding


def test_se_suggests_nothing_the_cluster_has_already(tmp_path: Path) -> None:
    pairs = [("se", f"{E}/a"), ("sv", f"{E}/b"), ("x-default", f"{E}/b")]
    result = check([_write(tmp_path, "s.xml", urlset(*cluster(pairs)))])
    assert [(d.code, d.suggestion) for d in result.collector.diagnostics] == [("L112", None), ("L112", None)]


def test_reserved_region_is_one_finding_and_still_counts(tmp_path: Path) -> None:
    pairs = [("en-UK", f"{E}/uk"), ("de", f"{E}/de"), ("x-default", f"{E}/de")]
    assert judge(tmp_path, {"s.xml": urlset(*cluster(pairs))}) == [
        ("L102", "s.xml", 3, f"{E}/uk"), ("L102", "s.xml", 4, f"{E}/de")]



def test_two_findings_on_one_page_s_codes_propose_one_replacement(tmp_path: Path) -> None:
    """en-UK: L102 proposes en-GB; the H105 that the same page's codes give (it lists
    itself as en-UK and en, and is named en-GB) proposes no other replacement (before:
    H105 proposed en, L102 en-GB)."""
    de, uk = f"{E}/de", f"{E}/uk"
    body = urlset(url(de, ("de", de), ("en-GB", uk), ("x-default", de)),
                  url(uk, ("de", de), ("en-UK", uk), ("en", uk), ("x-default", de)))
    found = check([_write(tmp_path, "s.xml", body)]).collector.sorted()
    assert [(d.code, d.url, d.suggestion) for d in found] == [("H105", de, None), ("L102", uk, "en-GB")]
    assert {d.suggestion for d in found} - {None} == {"en-GB"}
    assert "with a code that is an error: write the code its L finding gives there" in found[0].message
    # With no error among the page's own codes, H105 still proposes the page's own code.
    body = urlset(url(de, ("de", de), ("en-GB", uk), ("x-default", de)),
                  url(uk, ("de", de), ("en", uk), ("x-default", de)))
    found = check([_write(tmp_path, "s.xml", body)]).collector.sorted()
    assert [(d.code, d.suggestion) for d in found] == [("H105", "en")]

def test_return_target_only_in_a_text_sitemap_is_unverifiable(tmp_path: Path) -> None:
    en, de = f"{E}/en", f"{E}/de"
    found = judge(tmp_path, {"s.xml": urlset(url(en, ("en", en), ("de", de), ("x-default", en))),
                             "t.txt": f"{de}\n"})
    assert found == [("H111", "s.xml", 3, en)]
    assert "text sitemap" in check(["s.xml", "t.txt"]).collector.diagnostics[0].message


@pytest.mark.parametrize("element,code", [("<lastmod/>", "D101"), ("<lastmod></lastmod>", "D101"),
                                          ("<changefreq/>", "D104"), ("<priority/>", "D105")])
def test_empty_elements_are_reported(tmp_path: Path, element: str, code: str) -> None:
    body = urlset(f"<url><loc>{E}/a</loc>{element}</url>\n")
    assert judge(tmp_path, {"s.xml": body}) == [(code, "s.xml", 3, f"{E}/a")]


def test_whitespace_in_image_loc_like_in_loc(tmp_path: Path) -> None:
    head = HEAD.replace("<urlset ", '<urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" ')
    body = head + f"<url><loc>{E}/a</loc><image:image><image:loc> {E}/a.jpg\n</image:loc></image:image></url>\n" \
        + "</urlset>\n"
    assert judge(tmp_path, {"s.xml": body}) == [("U115", "s.xml", 3, f"{E}/a")]


@pytest.mark.parametrize("namespace", ["http://www.google.com/schemas/sitemap/0.84",
                                       "https://www.sitemaps.org/schemas/sitemap/0.9/"])
def test_legacy_or_misspelt_namespace_is_one_finding(tmp_path: Path, namespace: str) -> None:
    body = (f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{namespace}">\n'
            f"<url><loc>{E}/a</loc><lastmod>2026-13-01</lastmod></url>\n</urlset>\n")
    assert judge(tmp_path, {"s.xml": body}) == [("X105", "s.xml", 2, None), ("D101", "s.xml", 3, f"{E}/a")]


def test_element_order_is_a_warning(tmp_path: Path) -> None:
    body = urlset(f"<url><priority>0.5</priority><loc>{E}/a</loc></url>\n")
    result = check([_write(tmp_path, "s.xml", body)])
    assert [(d.code, d.severity.value) for d in result.collector.diagnostics] == [("X106", "warning")]
    assert main(["check", "s.xml", "--quiet"]) == 0 and main(["check", "s.xml", "--quiet", "--strict"]) == 1


# --- duplicates and identity ---------------------------------------------------------------

def test_a_url_in_the_web_and_the_news_sitemap_is_no_duplicate(tmp_path: Path) -> None:
    news_ns = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'
    article = ("<news:news><news:publication><news:name>E</news:name><news:language>en</news:language>"
               "</news:publication><news:publication_date>2026-11-20</news:publication_date>"
               "<news:title>T</news:title></news:news>")
    news = HEAD.replace("<urlset ", f"<urlset {news_ns} ") + f"<url><loc>{E}/a</loc>{article}</url>\n</urlset>\n"
    assert judge(tmp_path, {"web.xml": urlset(url(f"{E}/a"), url(f"{E}/b")), "news.xml": news}) == []


def test_a_duplicate_names_where_the_first_copy_is(tmp_path: Path) -> None:
    found = judge(tmp_path, {"a.xml": urlset(url(f"{E}/a"), url(f"{E}/b")),
                             "b.xml": urlset(url(f"{E}/c"), url("https://E.com/%61"))})
    # (An upper-case host is the same URL: no U111 since 0.4.)
    assert found == [("U104", "b.xml", 4, "https://E.com/%61")]
    duplicate = [d for d in check(["a.xml", "b.xml"]).collector.diagnostics if d.code == "U104"][0]
    assert [(r.file, r.line, r.url) for r in duplicate.related] == [("a.xml", 3, f"{E}/a")]


def test_gzipped_twin_is_one_sitemap(tmp_path: Path) -> None:
    body = urlset(url(f"{E}/a"), url(f"{E}/b"))
    found = judge(tmp_path, {"sitemap.xml": body, "sitemap.xml.gz": body}, paths=["."])
    assert found == [("X117", "sitemap.xml.gz", None, None)]


@pytest.mark.parametrize("spelling", ["https://E.COM/caf%c3%a9", "https://e.com/café", "https://e.com:443/caf%C3%A9"])
def test_one_url_spelt_two_ways_is_one_url_in_clusters(tmp_path: Path, spelling: str) -> None:
    en, fr = f"{E}/en", f"{E}/caf%C3%A9"
    body = urlset(url(en, ("en", en), ("fr", spelling), ("x-default", en)),
                  url(fr, ("en", en), ("fr", fr), ("x-default", en)))
    assert {code for code, *_ in judge(tmp_path, {"s.xml": body})} <= {"U111"}


@pytest.mark.parametrize("other", [f"{E}/de/", "http://e.com/de"])
def test_trailing_slash_or_scheme_mismatch_is_named_as_such(tmp_path: Path, other: str) -> None:
    en, de = f"{E}/en", f"{E}/de"
    body = urlset(url(en, ("en", en), ("de", other), ("x-default", en)),
                  url(de, ("en", en), ("de", de), ("x-default", en)))
    result = check([_write(tmp_path, "s.xml", body)])
    variant = [d for d in result.collector.diagnostics if d.code == "H113"]
    assert len(variant) == 1 and other in variant[0].message and de in variant[0].message
    assert not {"H109", "H104"} & {d.code for d in result.collector.diagnostics}


# --- readers -----------------------------------------------------------------------------

RSS = """<?xml version="1.0"?>
<rss version="2.0"><channel><title>E</title><link>https://e.com/</link>
<item><title>A</title><link>https://e.com/a</link><pubDate>Sat, 21 Nov 2026 09:00:00 +0100</pubDate></item>
<item><title>B</title><link>/b</link></item>
</channel></rss>
"""
ATOM = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>E</title>
<entry><title>A</title><link href="https://e.com/a"/><updated>2026-11-21T09:00:00Z</updated></entry>
<entry><title>B</title><link rel="alternate" href="https://e.com/b"/><updated>21 Nov 2026</updated></entry>
</feed>
"""


def test_feeds_are_read_as_sitemaps(tmp_path: Path) -> None:
    assert judge(tmp_path, {"feed.rss": RSS}) == [("U101", "feed.rss", 4, "/b")]
    assert judge(tmp_path, {"atom.xml": ATOM}) == [("D101", "atom.xml", 4, "https://e.com/b")]
    assert [f["kind"] for f in check(["feed.rss", "atom.xml"]).files] == ["rss", "atom"]


def test_kind_from_content_not_name(tmp_path: Path) -> None:
    found = judge(tmp_path, {"sitemap.txt": urlset(url(f"{E}/a"), url("/b"))})
    assert found == [("X116", "sitemap.txt", 1, None), ("U101", "sitemap.txt", 4, "/b")]


def test_folder_skips_and_counts_what_is_no_sitemap(tmp_path: Path) -> None:
    os.chdir(tmp_path)
    (tmp_path / "pub").mkdir()
    (tmp_path / "pub" / "index.html").write_text("<!doctype html><html><body>hi</body></html>")
    (tmp_path / "pub" / "data.json").write_text('{"a": 1}')
    (tmp_path / "pub" / "sitemap.xml").write_text(urlset(url(f"{E}/a")))
    result = check(["pub"])
    assert result.ok and not result.collector.diagnostics
    assert result.skipped == [os.path.join("pub", "data.json"), os.path.join("pub", "index.html")]
    assert [f["file"] for f in result.files] == [os.path.join("pub", "sitemap.xml")]


# --- users choose what they see ---------------------------------------------------------------

def test_select_ignore_and_severity(tmp_path: Path) -> None:
    body = urlset(f"<url><priority>2</priority><loc>{E}/a</loc><changefreq>Daily</changefreq></url>\n")
    _write(tmp_path, "s.xml", body)
    codes = lambda **kw: sorted(d.code for d in check(["s.xml"], policy=make_policy(**kw)).collector.diagnostics)  # noqa: E731
    assert codes(select=[], ignore=[], severity={}) == ["D104", "D105", "X106"]
    assert codes(select=["D"], ignore=[], severity={}) == ["D104", "D105"]
    assert codes(select=["D"], ignore=["D105"], severity={}) == ["D104"]
    result = check(["s.xml"], policy=make_policy(select=[], ignore=["D1"], severity={"X106": "error"}))
    assert result.collector.ignored == {"D104": 1, "D105": 1} and result.collector.errors == 1


def test_config_file_and_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = urlset(f"<url><priority>2</priority><loc>{E}/a</loc></url>\n")
    _write(tmp_path, "s.xml", body)
    (tmp_path / "pyproject.toml").write_text('[tool.sitemap-ext]\nignore = ["D105"]\n[tool.sitemap-ext.severity]\n'
                                             'X106 = "error"\n')
    (tmp_path / "sub").mkdir()
    os.chdir(tmp_path / "sub")  # found from the working folder upward
    assert main(["check", "../s.xml", "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert [d["code"] for d in document["diagnostics"]] == ["X106"]
    assert document["summary"]["ignored"] == {"D105": 1}
    assert main(["check", "../s.xml", "--no-config", "--ignore", "X", "--quiet"]) == 1  # D105 is an error
    assert main(["check", "../s.xml", "--select", "Q9"]) == 2
    (tmp_path / "pyproject.toml").write_text('[tool.sitemap-ext]\nignor = ["D105"]\n')
    assert main(["check", "../s.xml"]) == 2



@pytest.mark.parametrize("content, place", [
    ('[tool.sitemap-ext]\nselect = [\n', "pyproject.toml:3:1: not valid TOML: Invalid value at the end of the file"),
    ('[project\nname = "x"\n', "pyproject.toml:1:9: not valid TOML: Expected ']' at the end of a table"),
])
def test_a_pyproject_that_is_no_toml_says_its_place_and_that_settings_are_unknown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], content: str,
        place: str) -> None:
    """Found upward, a pyproject.toml that is no TOML is exit 2 at its line and column (the
    end of the file where TOML says "end of document": before, 1:1), saying that it may
    hold settings of ours and how to get past it; a valid one without our table is
    passed over."""
    _write(tmp_path, "s.xml", urlset(f"<url><loc>{E}/a</loc></url>\n"))
    (tmp_path / "pyproject.toml").write_text(content)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "s.xml", "-q"]) == 2
    err = capsys.readouterr().err
    assert f"sitemap-ext check: {tmp_path / place}" in err
    assert ("sitemap-ext looks for [tool.sitemap-ext] in it and cannot tell whether it holds settings: mend it, "
            "name a config with --config FILE, or pass --no-config") in err
    assert main(["check", "s.xml", "-q", "--no-config"]) == 0
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert main(["check", "s.xml", "-q"]) == 0

# --- the same findings, however the work is spread ---------------------------------------------

def test_findings_do_not_depend_on_jobs_or_hash_seed(tmp_path: Path) -> None:
    files = {}
    for n in range(4):
        pairs = [("en", f"{E}/en/{n}"), ("de", f"{E}/de/{n}"), ("fr", f"{E}/fr/{n}")]
        body = [url(f"{E}/en/{n}", *pairs), url(f"{E}/de/{n}", *pairs[:2]), url(f"{E}/x/{n % 2}"),
                url(f"{E}/fr/{n}", ("fr", f"{E}/fr/{n}"), ("xx", f"{E}/en/{n}"))]
        files[f"part{n}.xml"] = urlset(*body)
    one = judge(tmp_path, files, jobs=1)
    assert one == judge(tmp_path, files, jobs=3) and one
    outputs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        proc = subprocess.run([sys.executable, "-m", "sitemap_ext", "check", *files, "--format", "json"],
                              capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
        outputs.add(proc.stdout)
    assert len(outputs) == 1


def _write(tmp_path: Path, name: str, body: str) -> str:
    os.chdir(tmp_path)
    (tmp_path / name).write_text(body)
    return name


def test_invalid_codes_conflict_with_nothing(tmp_path: Path) -> None:
    """en_US and us-en both 'mean' en-US: search engines ignore both links, so they name
    no URL twice (no H106); each says its own error only."""
    body = urlset(url(f"{E}/a", ("en", f"{E}/a"), ("en_US", f"{E}/us"), ("us-en", f"{E}/us2"), ("x-default", f"{E}/a")))
    assert judge(tmp_path, {"s.xml": body}) == [("L101", "s.xml", 3, f"{E}/a"), ("L106", "s.xml", 3, f"{E}/a")]


def test_a_guessed_code_is_compared_with_no_other(tmp_path: Path) -> None:
    """B lists itself as pt_BR (L101): it does not 'list itself as pt-BR' against A's pt
    (no H105 from the guess); the link still names B, so B has its self-reference."""
    a, b = f"{E}/a", f"{E}/b"
    body = urlset(url(a, ("en", a), ("pt", b), ("x-default", a)), url(b, ("en", a), ("pt_BR", b), ("x-default", a)))
    assert judge(tmp_path, {"s.xml": body}) == [("L101", "s.xml", 4, b)]
