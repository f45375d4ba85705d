"""check on a built site (a first part of "The built site"): the hreflang links in
each page's head are judged by the rules that judge a sitemap's, with their file and
line; pages are skipped with --html off or when no --base-url gives their URL."""

from __future__ import annotations

from pathlib import Path

from sitemap_ext import check

BASE = "https://e.com/"
LOCALES = {"en": "en/", "de": "de/", "fr": "fr/"}


def page(links: dict[str, str], *, lang: str = "en") -> str:
    """A head as themes write it: the hreflang links, then a feed's autodiscovery, og:locale,
    an icon and a stylesheet; a language menu in the body (links, not annotations)."""
    tags = "\n".join(f'  <link rel="alternate" hreflang="{code}" href="{href}">' for code, href in links.items())
    menu = "".join(f'<a href="/{code}/" hreflang="{code}">{code}</a>' for code in LOCALES)
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n  <meta charset="utf-8">\n{tags}\n'
            f'  <link rel="alternate" type="application/rss+xml" href="/{lang}/index.xml" title="Feed">\n'
            f'  <meta property="og:locale" content="{lang}_{lang.upper()}">\n  <link rel="icon" href="/favicon.ico">\n'
            f'  <link rel="stylesheet" href="/site.css">\n</head>\n<body><nav>{menu}</nav><p>text</p></body>\n</html>\n')


def site(folder: Path, pages: dict[str, dict[str, str]]) -> Path:
    """A built site: each page's file and the alternates its head gives."""
    public = folder / "public"
    for name, links in pages.items():
        target = public / name
        target.parent.mkdir(parents=True, exist_ok=True)
        lang = name.split("/")[0] if name.split("/")[0] in LOCALES else "en"  # each page in its own language
        target.write_text(page(links, lang=lang), encoding="utf-8")
    (public / "site.css").write_text("p { color: black }\n")
    return public


def full(path: str = "") -> dict[str, str]:
    return {**{code: f"{BASE}{prefix}{path}" for code, prefix in LOCALES.items()}, "x-default": f"{BASE}en/{path}"}


def findings(result: object) -> list[tuple[str, str | None, int | None, str | None]]:
    return [(d.code, d.file, d.line, d.url) for d in result.collector.sorted()]  # type: ignore[attr-defined]


def test_a_clean_built_site_passes(tmp_path: Path) -> None:
    public = site(tmp_path, {f"{prefix}index.html": full() for prefix in LOCALES.values()}
                  | {f"{prefix}about.html": full("about.html") for prefix in LOCALES.values()})
    result = check([str(public)], base_urls=[f"{BASE}={public}"])
    assert result.ok and findings(result) == []
    assert sorted(f["kind"] for f in result.files) == ["html"] * 6
    assert "public/site.css" in result.skipped


def test_a_missing_return_link_and_self_reference_are_found_in_the_page(tmp_path: Path) -> None:
    pages = {f"{prefix}index.html": full() for prefix in LOCALES.values()}
    pages["de/index.html"] = {code: href for code, href in full().items() if code != "fr"}  # no link to fr
    pages["en/about.html"] = {"de": f"{BASE}de/about.html"}  # lists de, not itself
    pages["de/about.html"] = {"de": f"{BASE}de/about.html", "en": f"{BASE}en/about.html"}
    public = site(tmp_path, pages)
    result = check([str(public)], base_urls=[f"{BASE}={public}"])
    got = findings(result)
    # fr lists de; de does not list fr back: reported at fr's link to de (line 6: en is on
    # line 5), where the mistake is, not at the head's first link.
    assert ("H104", "public/fr/index.html", 6, f"{BASE}fr/") in got
    # en/about.html gives alternates but not itself (line 5: its first link).
    assert ("H103", "public/en/about.html", 5, f"{BASE}en/about.html") in got
    assert not result.ok


def test_pages_take_their_urls_from_base_url_and_the_conventions(tmp_path: Path) -> None:
    links = {**{code: f"{BASE}{p}about" for code, p in LOCALES.items()}, "x-default": f"{BASE}en/about"}
    public = site(tmp_path, {f"{prefix}about.html": links for prefix in LOCALES.values()})
    kept = check([str(public)], base_urls=[f"{BASE}={public}"], html="drop-ext")
    assert kept.ok and findings(kept) == []  # /de/about is de/about.html served without .html
    # Without drop-ext each page names itself without .html, a URL its file also serves:
    # the page is taken at the URL it names (as Docusaurus and Nuxt sites name theirs).
    as_written = check([str(public)], base_urls=[f"{BASE}={public}"])
    assert as_written.ok and findings(as_written) == []
    # A page that names no spelling of its own file's URL still lacks its self-reference.
    other = {code: href.replace("about", "other") for code, href in links.items()}
    public = site(tmp_path / "2", {f"{prefix}about.html": other for prefix in LOCALES.values()})
    own = [code for code, *_ in findings(check([str(public)], base_urls=[f"{BASE}={public}"])) if code == "H103"]
    assert own == ["H103"] * 3


def test_a_page_without_alternates_named_by_another_misses_its_return_link(tmp_path: Path) -> None:
    public = site(tmp_path, {"en/index.html": {"en": f"{BASE}en/", "de": f"{BASE}de/", "x-default": f"{BASE}en/"},
                             "de/index.html": {}})
    got = findings(check([str(public)], base_urls=[f"{BASE}={public}"]))
    assert ("H104", "public/en/index.html", 6, f"{BASE}en/") in got  # at its link to de


def test_html_off_or_no_base_url_skips_the_pages(tmp_path: Path) -> None:
    pages = {"de/index.html": {"en": f"{BASE}en/"}}  # a defect, if the page were read
    public = site(tmp_path, pages)
    for result in (check([str(public)], base_urls=[f"{BASE}={public}"], html="off"), check([str(public)])):
        assert "public/de/index.html" in result.skipped
        assert [d.code for d in result.collector.diagnostics] == ["F104"]  # nothing else to check


def test_html_served_as_a_sitemap_is_still_the_wrong_root(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(page({"en": f"{BASE}en/"}), encoding="utf-8")
    # Judged as the sitemap it is named as (HTML is no well-formed XML), not skipped as a page.
    assert [d.code for d in check([str(path)]).collector.diagnostics] == ["X102"]


def excluded_site(tmp_path: Path) -> Path:
    """de is noindex; fr names the en page as its canonical; the sitemap lists all three
    with their alternates, and the en page's head names them too."""
    public = site(tmp_path, {"en/index.html": full()})
    (public / "de").mkdir()
    (public / "de" / "index.html").write_text(
        '<html lang="de"><head>\n<meta name="robots" content="noindex, follow">\n</head><body></body></html>\n')
    (public / "fr").mkdir()
    (public / "fr" / "index.html").write_text(
        f'<html lang="fr"><head>\n<link rel="canonical" href="/en/">\n</head><body></body></html>\n')
    links = "".join(f'<xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>' for code, href in full().items())
    entries = "".join(f"<url><loc>{BASE}{prefix}</loc>{links}</url>\n" for prefix in LOCALES.values())
    (public / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        f'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n{entries}</urlset>\n')
    return public


def test_a_listed_page_that_keeps_itself_out_of_the_index_is_u112(tmp_path: Path) -> None:
    public = excluded_site(tmp_path)
    result = check([str(public)], base_urls=[f"{BASE}={public}"])
    u112 = [(d.file, d.line, d.url, d.related[0].file) for d in result.collector.sorted() if d.code == "U112"]
    assert u112 == [("public/sitemap.xml", 4, f"{BASE}de/", "public/de/index.html"),
                    ("public/sitemap.xml", 5, f"{BASE}fr/", "public/fr/index.html")]
    messages = " ".join(d.message for d in result.collector.diagnostics if d.code == "U112")
    assert "is noindex" in messages and f"sends search engines to {BASE}en/ (its canonical" in messages


def test_an_alternate_to_such_a_page_is_h114_wherever_it_is_named(tmp_path: Path) -> None:
    public = excluded_site(tmp_path)
    result = check([str(public)], base_urls=[f"{BASE}={public}"])
    h114 = [d for d in result.collector.sorted() if d.code == "H114"]
    # The sitemap's entries and the en page's head give one and the same list of
    # alternates: judged once, where it is first given (the cluster index keeps lists once).
    assert sorted((d.hreflang, d.related[0].url) for d in h114) == [("de", f"{BASE}de/"), ("fr", f"{BASE}fr/")]
    assert all(d.file in ("public/sitemap.xml", "public/en/index.html") for d in h114)
    assert not result.ok
    # Without the pages nothing is known of them: neither code.
    alone = check([str(public / "sitemap.xml")])
    assert not {"U112", "H114"} & {d.code for d in alone.collector.diagnostics}


def test_a_listed_url_or_an_alternate_no_built_file_serves_is_a_404(tmp_path: Path) -> None:
    links = {**full(), "es": f"{BASE}es/"}  # es/ was never built
    public = site(tmp_path, {f"{prefix}index.html": links for prefix in LOCALES.values()})
    (public / "files").mkdir()
    (public / "files" / "guide.pdf").write_bytes(b"%PDF-1.4\n")
    extra = [f"{BASE}files/guide.pdf", f"{BASE}gone/", f"{BASE}en/"]  # a file, a 404, a page
    (public / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + "".join(f"<url><loc>{url}</loc></url>\n" for url in extra) + "</urlset>\n")
    result = check([str(public)], base_urls=[f"{BASE}={public}"])
    got = [(d.code, d.file, d.line, d.url) for d in result.collector.sorted() if d.code in ("U113", "H115")]
    assert ("U113", "public/sitemap.xml", 4, f"{BASE}gone/") in got
    assert [g for g in got if g[0] == "U113"] == [("U113", "public/sitemap.xml", 4, f"{BASE}gone/")]
    assert [(d.hreflang, d.message.split(" names ")[1].split(" as ")[0]) for d in result.collector.sorted()
            if d.code == "H115"] == [("es", f"{BASE}es/")]  # one list, judged once
    # Without the built pages (the sitemap alone), nothing is known of what is built.
    alone = check([str(public / "sitemap.xml")], base_urls=[f"{BASE}={public}"])
    assert not {"U113", "H115"} & {d.code for d in alone.collector.diagnostics}


def test_an_indexable_page_in_no_sitemap_is_u114_once_some_sitemap_is_checked(tmp_path: Path) -> None:
    public = site(tmp_path, {f"{prefix}index.html": full() for prefix in LOCALES.values()})
    (public / "de" / "old.html").write_text('<html lang="de"><head><meta name="robots" content="noindex">'
                                            "</head></html>\n")  # noindex: not expected in a sitemap
    (public / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"<url><loc>{BASE}en/</loc></url>\n<url><loc>{BASE}de/</loc></url>\n</urlset>\n")
    result = check([str(public)], base_urls=[f"{BASE}={public}"])
    assert [(d.file, d.line, d.url) for d in result.collector.sorted() if d.code == "U114"] == [
        ("public/fr/index.html", 5, f"{BASE}fr/")]
    (public / "sitemap.xml").unlink()  # no sitemap at all: nothing to compare with
    assert "U114" not in {d.code for d in check([str(public)], base_urls=[f"{BASE}={public}"]).collector.diagnostics}


def test_html_lang_that_contradicts_the_page_own_hreflang_is_l113(tmp_path: Path) -> None:
    public = site(tmp_path, {f"{prefix}index.html": full() for prefix in LOCALES.values()})
    text = (public / "fr" / "index.html").read_text(encoding="utf-8")
    (public / "fr" / "index.html").write_text(text.replace('<html lang="fr">', '<html lang="en-GB">'), encoding="utf-8")
    result = check([str(public)], base_urls=[f"{BASE}={public}"])
    found = [(d.code, d.severity.value, d.file, d.line, d.hreflang) for d in result.collector.sorted()]
    assert found == [("L113", "info", "public/fr/index.html", 2, "fr")]
    assert result.ok  # an info


def test_a_sitemap_entry_and_its_page_that_give_different_alternates_are_h116(tmp_path: Path) -> None:
    public = site(tmp_path, {f"{prefix}index.html": full() for prefix in LOCALES.values()})
    other = {**full(), "fr": f"{BASE}fr/autre/"}
    (public / "en" / "index.html").write_text(page(other, lang="en"), encoding="utf-8")  # fr names another URL

    def entry(prefix: str) -> str:
        links = "".join(f'<xhtml:link rel="alternate" hreflang="{c}" href="{h}"/>' for c, h in full().items())
        return f"<url><loc>{BASE}{prefix}</loc>{links}</url>\n"
    (public / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + "".join(entry(p) for p in LOCALES.values()) + "</urlset>\n")
    result = check([str(public)], base_urls=[f"{BASE}={public}"])
    h116 = [d for d in result.collector.sorted() if d.code == "H116"]
    assert [(d.file, d.line, d.url, d.related[0].file) for d in h116] == [
        ("public/sitemap.xml", 3, f"{BASE}en/", "public/en/index.html")]
    assert h116[0].message.count("4 alternates (de, en, fr, x-default)") == 2
    # A page that gives fewer versions (no fr) adds up with the sitemap: no conflict.
    fewer = {code: href for code, href in full().items() if code != "fr"}
    (public / "en" / "index.html").write_text(page(fewer, lang="en"), encoding="utf-8")
    assert not [d for d in check([str(public)], base_urls=[f"{BASE}={public}"]).collector.diagnostics
                if d.code == "H116"]


def test_the_static_site_example_passes_with_its_pages_and_a_planted_defect_does_not(tmp_path: Path) -> None:
    import shutil

    from sitemap_ext import build

    from .conftest import ROOT

    example = ROOT / "examples" / "static-site"
    out = tmp_path / "out"
    assert build(str(example / "site.yaml"), str(out), now="2026-11-21T12:00:00Z").ok
    shutil.copytree(example / "public", out, dirs_exist_ok=True)  # the site generator's output beside it
    host = "https://www.trail-guides.example/"
    clean = check([str(out)], base_urls=[f"{host}={out}"], now="2026-11-21T12:00:00Z")
    assert clean.ok and findings(clean) == []
    assert sum(1 for f in clean.files if f["kind"] == "html") == 10  # (and 404.html, the error page, is no page)
    about = out / "de" / "about" / "index.html"
    about.write_text(about.read_text(encoding="utf-8").replace(f'hreflang="fr" href="{host}fr/about/"',
                                                               f'hreflang="fr" href="{host}fr/a-propos/"'),
                     encoding="utf-8")
    broken = check([str(out)], base_urls=[f"{host}={out}"], now="2026-11-21T12:00:00Z")
    codes = {d.code for d in broken.collector.diagnostics}
    assert not broken.ok and {"H115", "H116"} <= codes  # a 404 alternate, and the page differs from its sitemap entry
    assert all(d.file in ("out/de/about/index.html", "out/sitemap.xml") for d in broken.collector.diagnostics
               if d.code in ("H115", "H116"))


def test_hostile_pages_are_bounded_and_reported(tmp_path: Path) -> None:
    """A head that never ends (H117, read to 1 MiB only), a sparse 1 GB page, a UTF-16
    page and the error page: each judged or skipped within bounds, nothing else lost."""
    from .conftest import hang_guard

    public = site(tmp_path, {"en/index.html": {"en": f"{BASE}en/", "de": f"{BASE}de/"},
                             "de/index.html": {"en": f"{BASE}en/", "de": f"{BASE}de/"}})
    (public / "scripts.html").write_bytes(b"<html><head>" + b"<script>var a = 1;</script>\n" * 60_000)
    with open(public / "huge.html", "wb") as handle:
        handle.write(b"<!DOCTYPE HTML>\n<HTML><HEAD><TITLE>x</TITLE>")
        handle.truncate(1 << 30)  # 1 GB, the rest NUL bytes (sparse): no head end in sight
    utf16 = page({"fr": f"{BASE}fr/", "en": f"{BASE}en/"}, lang="fr").replace('<meta charset="utf-8">', "")
    (public / "fr").mkdir()
    (public / "fr" / "index.html").write_bytes(utf16.encode("utf-16"))
    (public / "404.html").write_text(page({}), encoding="utf-8")
    with hang_guard(60):
        result = check([str(public)], base_urls=[f"{BASE}={public}"])
    got = findings(result)
    assert ("H117", "public/scripts.html", 1, f"{BASE}scripts.html") in got
    assert ("H117", "public/huge.html", 1, f"{BASE}huge.html") in got
    # The UTF-16 page was read, at its lines: fr names en (line 6), whose own cluster is en and de.
    assert [finding for finding in got if finding[1] == "public/fr/index.html"] == [
        ("H112", "public/fr/index.html", 5, f"{BASE}fr/"), ("H109", "public/fr/index.html", 6, f"{BASE}fr/")]
    assert not any(url == f"{BASE}404.html" for _, _, _, url in got)  # the error page is no page


URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n'
          '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
          '  <url><loc>{loc}</loc></url>\n</urlset>\n')


def test_files_named_as_pages_that_hold_something_else_are_judged_as_their_content(tmp_path: Path) -> None:
    # A page's content is read by the worker that reads its head; a file named .html
    # that holds a sitemap, an index or a text sitemap is still judged as one.
    public = site(tmp_path, {f"{prefix}index.html": full() for prefix in LOCALES.values()})
    (public / "urls.html").write_text(URLSET.format(loc="https://other.example/x"), encoding="utf-8")
    (public / "list.htm").write_text(f"{BASE}en/\n{BASE}de/\nnot a url\n", encoding="utf-8")
    (public / "index-of-sitemaps.html").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f'  <sitemap><loc>{BASE}missing.xml</loc></sitemap>\n</sitemapindex>\n', encoding="utf-8")
    (public / "notes.html").write_text("just some notes\n", encoding="utf-8")
    for jobs in (1, 2):
        result = check([str(public)], base_urls=[f"{BASE}={public}"], jobs=jobs)
        kinds = {f["file"]: f["kind"] for f in result.files}
        assert kinds["public/urls.html"] == "urlset"
        assert kinds["public/list.htm"] == "text"
        assert kinds["public/index-of-sitemaps.html"] == "sitemapindex"
        assert "public/notes.html" in result.skipped
        got = findings(result)
        assert ("U107", "public/urls.html", 3, "https://other.example/x") in got  # another host
        assert ("X113", "public/list.htm", 3) in [(c, f, l) for c, f, l, _ in got]  # a line that is no URL
        assert ("X111", "public/index-of-sitemaps.html", 3, f"{BASE}missing.xml") in got
        assert sorted(kind for kind in kinds.values() if kind == "html") == ["html"] * 3


def test_many_pages_give_the_same_findings_in_one_process_and_in_workers(tmp_path: Path) -> None:
    # Pages go to the workers in batches that share one cluster log: each finding must
    # still name its own page, in the same order, whatever the number of jobs.
    pages: dict[str, dict[str, str]] = {}
    for n in range(150):
        for prefix in LOCALES.values():
            pages[f"{prefix}p{n:03}/index.html"] = full(f"p{n:03}/")
    pages["de/p077/index.html"] = {code: href for code, href in full("p077/").items() if code != "fr"}
    public = site(tmp_path, pages)
    one = check([str(public)], base_urls=[f"{BASE}={public}"], jobs=1)
    two = check([str(public)], base_urls=[f"{BASE}={public}"], jobs=2)
    assert findings(one) == findings(two)
    assert ("H104", "public/fr/p077/index.html", 6, f"{BASE}fr/p077/") in findings(one)  # its link to de
    assert [f["file"] for f in one.files] == [f["file"] for f in two.files]
    assert len(one.files) == 450 and not one.ok
