"""The third hreflang method: Link headers (RFC 8288), read from a fetched URL's answer
and from a built site's _headers or vercel.json, judged with the sitemaps and the
pages' heads by the same cluster rules; and written by a build (output.headers)."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext import build, check
from sitemap_ext.read.link_header import read_links
from sitemap_ext.read.static_headers import host_matcher, netlify_matcher, vercel_matcher
from sitemap_ext.write.headers import injected, link_values, render

BASE = "https://e.com/"
NOW = "2026-11-21T12:00:00Z"


def link(href: str, code: str) -> str:
    return f'<{href}>; rel="alternate"; hreflang="{code}"'


def page(links: dict[str, str], lang: str) -> str:
    tags = "\n".join(f'  <link rel="alternate" hreflang="{code}" href="{href}">' for code, href in links.items())
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n  <meta charset="utf-8">\n{tags}\n</head>\n'
            "<body><p>text</p></body>\n</html>\n")


def clean_links(base: str) -> dict[str, list[str]]:
    """The Link values of each file: the PDFs carry their cluster (with x-default, one as
    a relative target, one over two Link lines)."""
    pdfs = [link(f"{base}en/guide.pdf", "en"), link(f"{base}de/leitfaden.pdf", "de")]
    return {"/en/guide.pdf": [", ".join(pdfs), link("/en/guide.pdf", "x-default")],
            "/de/leitfaden.pdf": [", ".join([*pdfs, link(f"{base}en/guide.pdf", "x-default")])]}


def headers_text(rules: dict[str, list[str]]) -> str:
    """A _headers file: a comment, then each rule with its Link lines and another header."""
    lines = ["# hreflang of the PDFs (Netlify, Cloudflare Pages)"]
    for path, values in rules.items():
        lines += [path, *[f"  Link: {value}" for value in values], "  Cache-Control: public, max-age=3600", ""]
    return "\n".join(lines)


def vercel_text(rules: dict[str, list[str]]) -> str:
    return json.dumps({"headers": [{"source": path, "headers": [{"key": "Link", "value": value} for value in values]}
                                   for path, values in rules.items()]}, indent=2)


def site(root: Path, base: str = BASE) -> Path:
    """A built site: two pages whose heads give their cluster, two PDFs, a sitemap that
    lists all four (the PDFs without alternates: their Link headers give them)."""
    public = root / "public"
    pages = {"en": f"{base}en/", "de": f"{base}de/", "x-default": f"{base}en/"}
    for code in ("en", "de"):
        (public / code).mkdir(parents=True, exist_ok=True)
        (public / code / "index.html").write_text(page(pages, code), encoding="utf-8")
    (public / "en" / "guide.pdf").write_bytes(b"%PDF-1.4\n% the guide\n")
    (public / "de" / "leitfaden.pdf").write_bytes(b"%PDF-1.4\n% der Leitfaden\n")
    (public / "sitemap.xml").write_text(sitemap(base), encoding="utf-8")
    return public


def sitemap(base: str) -> str:
    urls = "".join(f"  <url><loc>{base}{path}</loc></url>\n" for path in ("en/", "de/", "en/guide.pdf",
                                                                          "de/leitfaden.pdf"))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + urls + "</urlset>\n")


def found(result: object) -> list[tuple[str, str | None, int | None, int | None, str | None]]:
    return [(d.code, d.file, d.line, d.column, d.url) for d in result.collector.sorted()]  # type: ignore[attr-defined]


@pytest.fixture()
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- the reader -------------------------------------------------------------------------


@pytest.mark.parametrize(("values", "links", "problems"), [
    ([('<https://e.com/a>; rel="alternate"; hreflang="en", <https://e.com/b>; rel=alternate; hreflang=de', 1, 9)],
     [("alternate", "en", "https://e.com/a", None, 9), ("alternate", "de", "https://e.com/b", None, 60)], []),
    # rel with several types; a relative target resolved against the URL; parameters in any case and order
    ([('</de/b.pdf>;HREFLANG="de" ; REL="nofollow alternate"', 2, 1)],
     [("alternate", "de", "https://e.com/de/b.pdf", None, 1)], []),
    # not an hreflang alternate: canonical, no hreflang, a translated feed
    ([('<https://e.com/a>; rel="canonical", <https://e.com/b>; rel="alternate", '
       '<https://e.com/f.xml>; rel="alternate"; hreflang="de"; type="application/rss+xml"', 1, 1)], [], []),
    # several values (several headers); a comma and a ; inside a quoted value and a target
    ([('<https://e.com/a,b>; rel="alternate"; title="x, y; z"; hreflang="en"', 3, 9), (link("/c", "fr"), 4, 9)],
     [("alternate", "en", "https://e.com/a,b", None, 9), ("alternate", "fr", "https://e.com/c", None, 9)], []),
    # malformed parts: reading goes on at the next link; the first rel counts (RFC 8288 3.3)
    ([('garbage, <https://e.com/a>; rel="alternate"; rel="x"; hreflang="en", <https://e.com/b; rel=x', 5, 9)],
     [("alternate", "en", "https://e.com/a", None, 18)],
     [("H118", 5, 9), ("H118", 5, 78)]),
    ([('<https://e.com/a>; rel="alternate"; hreflang="en', 6, 1)], [], [("H118", 6, 46)]),
    ([('<https://e.com/a> rel="alternate"', 7, 1), ('<https://e.com/a>; ="x"', 8, 1)], [],
     [("H118", 7, 19), ("H118", 8, 20)]),
])
def test_link_values_are_read_as_rfc_8288_says(values: list[tuple[str, int, int]],
                                               links: list[tuple[str, str, str, str | None, int]],
                                               problems: list[tuple[str, int, int]]) -> None:
    read = read_links(values, "https://e.com/en/a.pdf")
    assert [(*one, column) for one, column in zip(read.links, read.columns, strict=True)] == links
    assert [(code, line, column) for code, _, line, column in read.problems] == problems


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["en", "de", "fr-CA", "zh-Hant", "x-default"]),
                          st.from_regex(r"https://e\.com/[a-z0-9/,;._-]{0,40}", fullmatch=True)),
                min_size=1, max_size=40))
def test_what_the_build_writes_the_reader_reads_back(pairs: list[tuple[str, str]]) -> None:
    values = link_values(pairs)
    read = read_links([(value, number, 1) for number, value in enumerate(values, 1)], "https://e.com/x.pdf")
    assert [(code, href) for _, code, href, _ in read.links] == pairs and read.problems == []


@pytest.mark.parametrize(("pattern", "path", "matches"), [
    ("/en/*", "/en/docs/guide.pdf", True), ("/*.pdf", "/de/leitfaden.pdf", True), ("/:lang/guide.pdf", "/en/guide.pdf",
                                                                                   True),
    ("/:lang/guide.pdf", "/en/x/guide.pdf", False), ("/en/guide.pdf", "/en/guide.pdfx", False),
    ("/a.b", "/axb", False),
])
def test_headers_patterns_match_as_the_hosts_document(pattern: str, path: str, matches: bool) -> None:
    assert bool(netlify_matcher(pattern).fullmatch(path)) is matches


@pytest.mark.parametrize(("pattern", "path", "matches"), [
    (r"/(.*)\.pdf", "/en/guide.pdf", True), (r"/(.*)\.pdf", "/en/guidexpdf", False),
    ("/docs/:path*", "/docs/a/b", True), ("/docs/:slug", "/docs/a/b", False),
    ("/:lang/guide.pdf", "/de/guide.pdf", True),
])
def test_vercel_sources_match_as_path_to_regexp(pattern: str, path: str, matches: bool) -> None:
    matcher = vercel_matcher(pattern)
    assert matcher is not None and bool(matcher.fullmatch(path)) is matches


def test_a_vercel_source_that_could_backtrack_for_ever_is_not_run() -> None:
    assert vercel_matcher("/(a*)(a*)(a*)(a*)b") is None and vercel_matcher("/([)") is None


@pytest.mark.parametrize(("pattern", "host", "matches"), [
    (":project.pages.dev", "my-site.pages.dev", True), (":project.pages.dev", "www.my-site.com", False),
    (":ref.:project.pages.dev", "0a1b2c3d.my-site.pages.dev", True), (":ref.:project.pages.dev", "my-site.pages.dev",
                                                                      False),
    ("WWW.E.com", "www.e.com", True), ("*.e.com", "docs.e.com", True), ("e.com:443", "e.com", True),
    ("e.com", "e.comx", False),
])
def test_the_host_of_a_whole_url_pattern_matches_as_cloudflare_documents(pattern: str, host: str,
                                                                         matches: bool) -> None:
    matcher = host_matcher(pattern)
    assert matcher is not None and bool(matcher.fullmatch(host)) is matches
    assert host_matcher("*a*a*a*a.e.com") is None  # (four splats: not run)
    assert host_matcher(":a.:b.:c.:d.e.com") is None  # (four placeholders: not run either)


def test_placeholders_run_together_in_one_label_are_text_and_quick() -> None:
    """':p0:p1...' in one label was [^.]+ repeated: exponential backtracking on a host it
    does not match (13 s for one line of 17). A placeholder is a whole label; anything
    else is text."""
    matcher = host_matcher("".join(f":p{i}" for i in range(17)) + ".zz")
    assert matcher is not None and "+" not in matcher.pattern and "*" not in matcher.pattern  # (nothing to backtrack)
    assert matcher.fullmatch("my-awesome-documentation-site-x.pages.dev") is None
    assert matcher.fullmatch("".join(f":p{i}" for i in range(17)) + ".zz")  # (taken as written)


# --- a built site -------------------------------------------------------------------------


def test_a_built_site_whose_pdfs_carry_alternates_in_headers_checks_clean(here: Path) -> None:
    public = site(here)
    (public / "_headers").write_text(headers_text(clean_links(BASE)).replace("\n", "\r\n"), encoding="utf-8-sig")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    assert found(result) == [] and result.ok
    assert [(f["file"], f["kind"], f["urls"]) for f in result.files if f["kind"] == "headers"] == \
        [("public/_headers", "headers", 2)]
    # The header file is a file checked; its entries are no URL entries, its links are alternates.
    assert result.counts.as_dict() == {"files_checked": 4, "url_entries": 4, "distinct_urls": 4,
                                         "sitemaps_listed": 0, "pages": 2, "alternates": 12}


def planted(base: str) -> dict[str, list[str]]:
    """The defects: leitfaden.pdf does not link back to guide.pdf; the de page's Link header
    names it as fr where its head says de; a rule names no file."""
    return {"/en/guide.pdf": [", ".join([link(f"{base}en/guide.pdf", "en"), link(f"{base}de/leitfaden.pdf", "de"),
                                         link(f"{base}en/guide.pdf", "x-default")])],
            "/de/leitfaden.pdf": [", ".join([link(f"{base}de/leitfaden.pdf", "de"),
                                             link(f"{base}en/guide.pdf", "x-default")])],
            "/de/": [", ".join([link(f"{base}de/", "fr"), link(f"{base}en/", "en"),
                                link(f"{base}en/", "x-default")])],
            "/en/guide-2025.pdf": [link(f"{base}en/guide-2025.pdf", "en")]}


PLANTED = [  # (code, line, column, URL): the file's own lines, as headers_text writes them
    ("H104", 3, 71, "en/guide.pdf"),  # guide.pdf lists leitfaden.pdf, which does not list it back
    ("H120", 14, 1, None),  # the rule names no file of the site
]


def test_planted_defects_in_headers_are_each_reported_at_their_line(here: Path) -> None:
    public = site(here)
    (public / "_headers").write_text(headers_text(planted(BASE)), encoding="utf-8")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    got = [(code, line, column, (url or "").replace(BASE, "") or None)
           for code, file, line, column, url in found(result) if file == "public/_headers"]
    assert got == PLANTED
    # The missing return link names where leitfaden.pdf gives its alternates: its own Link line.
    assert [(r.file, r.line) for d in result.collector.diagnostics if d.code == "H104" for r in d.related] == \
        [("public/_headers", 7)]
    h116 = [d for d in result.collector.sorted() if d.code == "H116"]
    # The de page's head and its Link header contradict: all places named.
    assert [(d.file, d.line, d.url, [(r.file, r.line) for r in d.related]) for d in h116] == [
        ("public/de/index.html", 5, f"{BASE}de/", [("public/_headers", 11)])]
    assert "its Link header gives 3 alternates (en, fr, x-default)" in h116[0].message
    assert not result.ok


def test_vercel_json_gives_the_same_findings_at_its_own_lines(here: Path) -> None:
    public = site(here)
    (public / "vercel.json").write_text(vercel_text(clean_links(BASE)), encoding="utf-8")
    assert found(check(["public"], base_urls=[f"{BASE}=public"], now=NOW)) == []
    (public / "vercel.json").write_text(vercel_text(planted(BASE)), encoding="utf-8")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    got = [(code, line, (url or "").replace(BASE, "") or None) for code, file, line, _, url in found(result)
           if file == "public/vercel.json"]
    assert got == [("H104", 8, "en/guide.pdf"), ("H120", 31, None)]
    # The column of the link to leitfaden.pdf in the JSON text, its escaped quotes counted.
    line = (public / "vercel.json").read_text(encoding="utf-8").splitlines()[7]
    assert [d.column for d in result.collector.diagnostics if d.code == "H104"] == \
        [line.index("<https://e.com/de/leitfaden.pdf>") + 1]
    assert {d.code for d in result.collector.diagnostics} == {"H104", "H116", "H120"}


def test_a_rule_whose_link_headers_give_no_alternate_is_no_h120(here: Path) -> None:
    """Real files give Link headers of other relations for paths a build may not have:
    preloads for '/contact' where Hugo writes contact/index.html (served at /contact/; a
    Hugo blog's file showed it), a service-doc for '/' (cloudflare-docs-
    headers; this site has no root page). They carry no hreflang, so none is lost: no H120;
    a rule that gives an alternate and matches no file still is."""
    public = site(here)
    (public / "_headers").write_text(
        "/contact\n    Link: </contact.css>; rel=preload; as=stylesheet\n"
        "    Link: </fonts/body-italic.woff2>; rel=preload; as=font; type=font/woff2;\n"
        '/\n\tLink: </api/>; rel="service-doc"\n'
        f"/en/guide-2025.pdf\n  Link: {link('/en/guide-2025.pdf', 'en')}\n", encoding="utf-8")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    assert [(code, file, line, column) for code, file, line, column, _ in found(result)] == \
        [("H120", "public/_headers", 6, 1)]
    (public / "_headers").write_text("/contact\n    Link: </contact.css>; rel=preload; as=stylesheet\n",
                                     encoding="utf-8")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    assert found(result) == [] and "public/_headers" in result.skipped


def test_a_whole_url_rule_for_another_host_is_not_the_site_s(here: Path) -> None:
    """Real files set headers for the preview host only (https://:project.pages.dev/*,
    https://:ref.:project.pages.dev/*: tests/data/realworld/sites/hugo-animmouse-headers).
    Such a rule is the site's only where it is served at that host: its Link values are
    not applied to the production site (no finding from them, no H120), and are where
    --base-url names a pages.dev host."""
    public = here / "public"
    public.mkdir()
    (public / "index.html").write_text(page({}, "en"), encoding="utf-8")
    (public / "_headers").write_text("https://:project.pages.dev/*\n  X-Robots-Tag: none\n"
                                     f"  Link: {link('/', 'en')}, {link('/de/', 'de')}\n", encoding="utf-8")
    assert found(check(["public"], base_urls=["https://www.e.com/=public"], now=NOW)) == []
    preview = "https://my-site.pages.dev/"
    result = check(["public"], base_urls=[f"{preview}=public"], now=NOW)
    got = [(d.code, d.file, d.line, d.url) for d in result.collector.sorted() if d.severity.value != "info"]
    assert got == [("H115", "public/_headers", 3, preview)]  # (the page names /de/, which no file serves)
    (public / "_headers").write_text("https://*a*a*a*a.pages.dev/*\n  X-Robots-Tag: none\n", encoding="utf-8")
    assert [(code, line, column) for code, _, line, column, _ in
            found(check(["public"], base_urls=[f"{preview}=public"], now=NOW))] == [("H121", 1, 1)]


def test_a_headers_file_it_cannot_read_is_h121_at_its_line(here: Path) -> None:
    public = site(here)
    (public / "_headers").write_text("/en/guide.pdf\n  Link " + link(f"{BASE}en/guide.pdf", "en") + "\nen/*\n"
                                     "  X-Frame-Options: DENY\n", encoding="utf-8")
    got = [(code, file, line, column) for code, file, line, column, _ in
           found(check(["public"], base_urls=[f"{BASE}=public"], now=NOW))]
    assert got == [("H121", "public/_headers", 2, 3), ("H121", "public/_headers", 3, 1)]
    (public / "_headers").unlink()
    (public / "vercel.json").write_text('{"headers": [{"source": "/x",\n "headers": 3}]', encoding="utf-8")
    got = [(code, line) for code, _, line, _, _ in found(check(["public"], base_urls=[f"{BASE}=public"], now=NOW))]
    assert got == [("H121", 2)]


def test_hostile_headers_are_bounded(here: Path) -> None:
    """A Link line of 1 MB, 3,000 links for one file, a CR inside a value: coded, quick."""
    public = site(here)
    huge = ", ".join([link(f"{BASE}en/guide.pdf", "en")] * 20_000)
    many = [", ".join(link(f"{BASE}x/{n}.pdf", "en") for n in range(start, start + 200)) for start in
            range(0, 3_000, 200)]
    text = headers_text({"/en/guide.pdf": [huge], "/de/leitfaden.pdf": many}).replace(
        "Cache-Control", "X-Note: a\rb\n  Cache-Control", 1)
    (public / "_headers").write_text(text, encoding="utf-8")
    started = time.monotonic()
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    assert time.monotonic() - started < 20
    h119 = [(d.line, d.column) for d in result.collector.sorted() if d.code == "H119"]
    assert h119 == [(3, 9), (13, 9)]  # the 1 MB value; the 1,001st link of leitfaden.pdf (its sixth line)
    assert all(d.code not in ("H118", "H121") for d in result.collector.diagnostics)


# --- a live site ----------------------------------------------------------------------------


def test_a_live_site_sending_the_same_headers_gives_the_same_findings(here: Path) -> None:
    pytest.importorskip("httpx", reason="a live check needs the 'live' extra (httpx, protego)")
    pytest.importorskip("protego", reason="a live check needs the 'live' extra (httpx, protego)")
    from sitemap_ext.read.http import FetchOptions
    from tests.live_server import Server

    server = Server()
    try:
        base = server.url + "/"
        public = site(here, base)
        for rules, expected in ((clean_links(base), []), (planted(base), None)):
            for path in ("/en/", "/de/", "/en/guide.pdf", "/de/leitfaden.pdf", "/sitemap.xml"):
                file = public / (path.strip("/") + ("/index.html" if path.endswith("/") else ""))
                kind = "text/html" if path.endswith("/") else "application/pdf" if path.endswith(".pdf") else \
                    "application/xml"
                values = rules.get(path)
                server.add(path, body=file.read_bytes(), content_type=kind,
                           headers={"Link": ", ".join(values)} if values else {})
            options = FetchOptions(timeout=1.0, deadline=3.0, retries=0, allow_private=True)
            live = check([base + "sitemap.xml"], fetch=options, pages="all", now=NOW)
            (public / "_headers").write_text(headers_text(rules), encoding="utf-8")
            built = check(["public"], base_urls=[f"{base}=public"], now=NOW)

            def codes(result: object, cut: str) -> list[tuple[str, str | None]]:
                return sorted((code, (url or "").replace(cut, "")) for code, _, _, _, url in found(result)
                              if code != "H120")  # (a rule naming no file: the built site's own file)

            assert codes(live, base) == codes(built, base) == (expected if expected is not None else codes(built,
                                                                                                           base))
            if expected is None:
                assert {code for code, _ in codes(live, base)} == {"H104", "H116"}
                assert ("H104", "en/guide.pdf") in codes(live, base)
                pdf = [server_path for server_path, _ in server.requests if server_path.endswith(".pdf")]
                assert pdf  # the PDFs were fetched: their Link headers read
    finally:
        server.close()


# --- the build ----------------------------------------------------------------------------

SITE = """\
site:
  base_url: https://e.com/
locales:
  en: /en/
  de: /de/
x_default: en
pages:
  - path: /
  - urls:
      en: /en/guide.pdf
      de: /de/leitfaden.pdf
output:
  headers: {host}
"""


@pytest.mark.parametrize(("host", "name"), [("netlify", "_headers"), ("vercel", "vercel.json")])
def test_the_build_writes_the_headers_and_its_output_checks_clean(here: Path, host: str, name: str) -> None:
    (here / "site.yaml").write_text(SITE.format(host=host), encoding="utf-8")
    result = build("site.yaml", "out", now=NOW)
    assert result.ok and [(f.name, f.kind, f.urls) for f in result.files] == [
        ("sitemap.xml", "urlset", 4), ("sitemap.html", "html", 0), ("sitemaps.html", "html", 0), (name, "headers", 2)]
    first = (here / "out" / name).read_bytes()
    assert build("site.yaml", "out", now=NOW).ok and (here / "out" / name).read_bytes() == first  # deterministic
    if host == "netlify":
        assert first.decode().splitlines()[1:3] == [
            "/de/leitfaden.pdf", '  Link: <https://e.com/de/leitfaden.pdf>; rel="alternate"; hreflang="de", '
            '<https://e.com/en/guide.pdf>; rel="alternate"; hreflang="en", <https://e.com/en/guide.pdf>; '
            'rel="alternate"; hreflang="x-default"']
    else:
        assert [rule["source"] for rule in json.loads(first)["headers"]] == ["/de/leitfaden.pdf", "/en/guide.pdf"]
    built = site(here / "generator")  # the site generator's output beside the sitemaps
    for path in built.rglob("*"):
        if path.is_file() and path.name != "sitemap.xml":
            target = here / "out" / path.relative_to(built)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    checked = check(["out"], base_urls=[f"{BASE}=out"], now=NOW)
    assert found(checked) == [] and any(f["kind"] == "headers" for f in checked.files)


def test_the_build_never_replaces_a_headers_file_it_did_not_write(here: Path) -> None:
    (here / "site.yaml").write_text(SITE.format(host="netlify"), encoding="utf-8")
    (here / "out").mkdir()
    (here / "out" / "_headers").write_text("/*\n  X-Frame-Options: DENY\n", encoding="utf-8")
    result = build("site.yaml", "out", now=NOW)
    assert not result.ok and [d.code for d in result.collector.diagnostics] == ["O107"]
    assert (here / "out" / "_headers").read_text(encoding="utf-8") == "/*\n  X-Frame-Options: DENY\n"
    assert not (here / "out" / "sitemap.xml").exists()  # nothing committed


def test_a_bad_output_headers_value_is_c109_at_its_key(here: Path) -> None:
    (here / "site.yaml").write_text(SITE.format(host="apache"), encoding="utf-8")
    result = build("site.yaml", "out", now=NOW)
    assert [(d.code, d.line) for d in result.collector.diagnostics] == [("C109", 13)]


@pytest.mark.parametrize("bad", ["/en/a\r\nSet-Cookie: x=1.pdf", "/en/a\x00.pdf"])
def test_header_injection_is_refused(bad: str) -> None:
    files = {bad: ("https://e.com/en/a%0D%0A.pdf", [("en", "https://e.com/en/a%0D%0A.pdf")])}
    assert injected(files)[:2] == ("https://e.com/en/a%0D%0A.pdf", bad)
    assert injected({"/en/a.pdf": ("https://e.com/en/a.pdf", [("en\n", "https://e.com/en/a.pdf")])})[:2] == \
        ("https://e.com/en/a.pdf", "en\n")
    assert render("netlify", {"/a.pdf": ("https://e.com/a.pdf", [("en", "https://e.com/a.pdf")])}).count("\n") == 3


@pytest.mark.parametrize("path", ["/en/x/*.pdf", "/en/x/%2A.pdf", "/en/:lang/a.pdf", "/en/a%20b.pdf",
                                  "/en/a%E2%80%A8b.pdf"])
def test_a_path_headers_would_read_as_a_pattern_is_o106_for_netlify(here: Path, path: str) -> None:
    """_headers has no escape: '*', ':name' and whitespace in a path are patterns, which
    would give this file's Link headers to others (and a line separator ends the line).
    vercel.json escapes them and is written."""
    (here / "site.yaml").write_text(SITE.format(host="netlify").replace("/de/leitfaden.pdf", path),
                                    encoding="utf-8")
    result = build("site.yaml", "out", now=NOW)
    assert [d.code for d in result.collector.diagnostics if d.code == "O106"] == ["O106"]
    assert not (here / "out" / "_headers").exists()
    if "%E2%80%A8" not in path:
        (here / "site.yaml").write_text(SITE.format(host="vercel").replace("/de/leitfaden.pdf", path),
                                        encoding="utf-8")
        assert build("site.yaml", "out2", now=NOW).ok and (here / "out2" / "vercel.json").exists()


def test_a_url_whose_path_decodes_to_a_line_break_is_o106_and_nothing_is_written(here: Path) -> None:
    (here / "site.yaml").write_text(SITE.format(host="netlify").replace("/de/leitfaden.pdf", "/de/a%0D%0Ab.pdf"),
                                    encoding="utf-8")
    result = build("site.yaml", "out", now=NOW)
    assert "O106" in [d.code for d in result.collector.diagnostics] and not result.ok
    assert not os.path.exists(here / "out" / "_headers") and not os.path.exists(here / "out" / "sitemap.xml")


def test_several_link_fields_of_one_answer_are_read_as_one(here: Path) -> None:
    """A server that sends two Link fields for a PDF (RFC 8288: several headers): both are read."""
    pytest.importorskip("httpx", reason="a live check needs the 'live' extra (httpx, protego)")
    pytest.importorskip("protego", reason="a live check needs the 'live' extra (httpx, protego)")
    from sitemap_ext.read.http import FetchOptions
    from tests.live_server import Raw

    def answer(request: bytes) -> list[tuple[bytes, float]]:
        path = request.split(b" ", 2)[1].decode()
        fields: list[str] = []
        body, kind, status = b"%PDF-1.4\n", "application/pdf", "200 OK"
        if path == "/sitemap.xml":
            body = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                    f"<url><loc>{raw.url}/guide.pdf</loc></url><url><loc>{raw.url}/leitfaden.pdf</loc></url></urlset>\n"
                    ).encode()
            kind = "application/xml"
        elif path == "/guide.pdf":
            fields = [link(raw.url + "/guide.pdf", "en"), link("/leitfaden.pdf", "de")]
        elif path == "/leitfaden.pdf":
            fields = [link(raw.url + "/leitfaden.pdf", "de")]
        else:
            body, kind, status = b"", "text/plain", "404 Not Found"
        head = f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n"
        head += "".join(f"Link: {value}\r\n" for value in fields)
        return [(head.encode() + b"\r\n" + body, 0)]

    raw = Raw(answer)
    try:
        options = FetchOptions(timeout=1.0, deadline=3.0, retries=0, allow_private=True)
        result = check([raw.url + "/sitemap.xml"], fetch=options, pages="all", now=NOW)
        got = [(code, file, line, url) for code, file, line, _, url in found(result) if code != "R108"]
        assert got == [("H104", raw.url + "/guide.pdf", None, raw.url + "/guide.pdf"),
                       ("H112", raw.url + "/guide.pdf", None, raw.url + "/guide.pdf")]
    finally:
        raw.close()


def test_header_files_without_links_or_without_a_base_url_are_skipped(here: Path) -> None:
    public = site(here)
    (public / "_headers").write_text("/*\n  X-Frame-Options: DENY\n  ! Access-Control-Allow-Origin\n",
                                     encoding="utf-8")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    assert found(result) == [] and "public/_headers" in result.skipped
    (public / "_headers").write_text(headers_text(planted(BASE)), encoding="utf-8")
    alone = check(["public/sitemap.xml"], now=NOW)  # (no folder walked: no header rules applied)
    assert [d.code for d in alone.collector.diagnostics] == []
    unplaced = check(["public"], now=NOW)  # (no --base-url: the files have no URL, as the pages)
    assert "public/_headers" in unplaced.skipped and not any(d.code.startswith("H") for d in
                                                              unplaced.collector.diagnostics)


def test_hostile_header_files_are_bounded(here: Path) -> None:
    """A minified vercel.json of 20,000 rules on one line, its values spelt with escapes
    JSON does not need; a _headers of 300 pattern rules and 5,000 exact ones over 3,000
    files; a _headers past 4 MiB: each read within its limits, quickly."""
    public = site(here)
    for number in range(3_000):
        (public / "en" / f"f{number}.txt").write_text("x", encoding="utf-8")
    rules = [{"source": f"/en/f{n}.txt", "headers": [{"key": "Link", "value": link(f"/en/f{n}.txt", "en")}]}
             for n in range(20_000)]
    (public / "vercel.json").write_text(json.dumps({"headers": rules}, separators=(",", ":")).replace("/", "\\/"),
                                        encoding="utf-8")
    lines = [f"/x{n}/*\n  Link: {link(f'/x{n}/a', 'en')}" for n in range(300)]
    lines += [f"/en/f{n}.txt\n  Link: {link(f'/en/f{n}.txt', 'en')}" for n in range(5_000)]
    (public / "_headers").write_text("\n".join(lines) + "\n", encoding="utf-8")
    started = time.monotonic()
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW, max_per_code=None)
    assert time.monotonic() - started < 60
    h121 = [(d.file, d.line) for d in result.collector.sorted() if d.code == "H121"]
    assert h121 == [("public/_headers", 201)]  # the 101st pattern rule: it and the next are not read
    h120 = [d for d in result.collector.diagnostics if d.code == "H120"]
    assert len([d for d in h120 if d.file == "public/vercel.json"]) == 17_000  # (rules for files that are not there)
    assert len([d for d in h120 if d.file == "public/_headers"]) == 100 + 2_000
    assert all(d.line == 1 for d in h120 if d.file == "public/vercel.json")  # (escapes JSON does not write: line 1)
    (public / "vercel.json").unlink()
    (public / "_headers").write_bytes(b"#" * (4 << 20) + b"\n/a\n")
    again = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    assert [(d.code, d.file, d.line) for d in again.collector.sorted()] == [("H121", "public/_headers", 1)]


def test_a_sitemap_and_a_link_header_that_contradict_are_h116_without_pages(here: Path) -> None:
    """No HTML at all: the sitemap gives the PDFs' alternates, the header of one gives
    another URL for de. H116 at the sitemap entry, with the header's line."""
    public = here / "public"
    (public / "en").mkdir(parents=True)
    (public / "de").mkdir()
    (public / "en" / "guide.pdf").write_bytes(b"%PDF-1.4\n")
    (public / "de" / "leitfaden.pdf").write_bytes(b"%PDF-1.4\n")
    pdfs = {"en": f"{BASE}en/guide.pdf", "de": f"{BASE}de/leitfaden.pdf"}
    entries = "".join(f"<url><loc>{href}</loc>" + "".join(
        f'<xhtml:link rel="alternate" hreflang="{c}" href="{h}"/>' for c, h in pdfs.items()) + "</url>\n"
        for href in pdfs.values())
    (public / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + entries + "</urlset>\n", encoding="utf-8")
    (public / "_headers").write_text(headers_text({"/en/guide.pdf": [", ".join([
        link(pdfs["en"], "en"), link(f"{BASE}de/guide.pdf", "de")])]}), encoding="utf-8")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    h116 = [(d.file, d.line, d.url, [(r.file, r.line) for r in d.related]) for d in result.collector.sorted()
            if d.code == "H116"]
    assert h116 == [("public/sitemap.xml", 3, pdfs["en"], [("public/_headers", 3)])]


def test_the_python_objects_take_output_headers(here: Path) -> None:
    from sitemap_ext import Alternate, Output, Page, Site

    site = Site(base_url=BASE, now=NOW, output=Output(headers="vercel"))
    pages = [Page(alternates=(Alternate(code="en", url="/en/guide.pdf"),
                              Alternate(code="de", url="/de/leitfaden.pdf")))]
    result = build(site, "out", pages=pages)
    assert result.ok and [f.name for f in result.files] == ["sitemap.xml", "sitemap.html", "sitemaps.html", "vercel.json"]
    assert [rule["source"] for rule in json.loads((here / "out" / "vercel.json").read_text())["headers"]] == \
        ["/de/leitfaden.pdf", "/en/guide.pdf"]


def test_a_link_s_own_findings_are_at_its_line_and_column_once_per_rule(here: Path) -> None:
    """A code Google does not take, in a rule that applies to both PDFs: L102 once, at the link."""
    public = site(here)
    value = ", ".join([link("/en/guide.pdf", "en"), link("/de/leitfaden.pdf", "de"), link("/en/guide.pdf", "en-UK")])
    (public / "_headers").write_text(f"/*.pdf\n  Link: {value}\n", encoding="utf-8")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    l102 = [(d.file, d.line, d.column, d.suggestion) for d in result.collector.sorted() if d.code == "L102"]
    assert l102 == [("public/_headers", 2, 9 + value.index('</en/guide.pdf>; rel="alternate"; hreflang="en-UK"'),
                     "en-GB")]


@pytest.mark.parametrize("name", ["_headers", "vercel.json"])
def test_a_header_file_that_is_a_link_is_not_followed(here: Path, name: str) -> None:
    """A built folder (from a pull request, say) whose _headers links to another file of
    the machine: the link is not opened, so nothing of that file is read or echoed."""
    public = site(here)
    secret = here / "secret.txt"
    secret.write_text("/*\n  Link: TOKEN=ghp_secret_value\n", encoding="utf-8")
    (public / name).symlink_to(secret)
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    said = [(d.code, d.message) for d in result.collector.diagnostics if d.where.file.endswith(name)]
    assert [code for code, _ in said] == ["H121"] and "cannot be read" in said[0][1]
    assert all("ghp_secret_value" not in d.message for d in result.collector.diagnostics)


def test_a_headers_line_is_a_path_or_a_header_by_how_it_starts_not_its_indent(here: Path) -> None:
    """Netlify's and Cloudflare's parsers both take a line that starts with '/' (or a
    URL) for a path and any other for a header: headers written flush left, or a path
    indented, are read as the hosts read them (before: H121 for each line)."""
    public = site(here)
    text = headers_text(clean_links(BASE))
    flush = "\n".join(line.strip() for line in text.splitlines())
    indented = "\n".join(("    " + line) if line.startswith("/") else line for line in text.splitlines())
    for variant in (flush, indented):
        (public / "_headers").write_text(variant, encoding="utf-8")
        result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
        assert found(result) == [] and result.ok, variant
        assert [(f["file"], f["urls"]) for f in result.files if f["kind"] == "headers"] == [("public/_headers", 2)]
    (public / "_headers").write_text("Link: " + link(f"{BASE}en/guide.pdf", "en") + "\n", encoding="utf-8")
    got = [(code, line, column) for code, _, line, column, _ in
           found(check(["public"], base_urls=[f"{BASE}=public"], now=NOW))]
    assert got == [("H121", 1, 1)]  # a header before any path belongs to no rule
