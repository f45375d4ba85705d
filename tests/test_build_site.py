"""Building from a built site (a source ``site: public/``): each indexable,
self-canonical page once, its alternates from its hreflang links, lastmod from where
the page says it; every defect reported at its page's file, line and column; and the
sitemap built passes its own check together with the pages."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from sitemap_ext import build, check

from .conftest import ROOT, hang_guard
from .reference_xml import reference_build

BASE = "https://e.com/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
DESCRIPTION = "site:\n  base_url: https://e.com/\nsources:\n  - site: public/\n"


def write_page(public: Path, name: str, head: str, body: str = "<p>text</p>") -> Path:
    target = public / name
    target.parent.mkdir(parents=True, exist_ok=True)
    # (a page under de/ says it is German: else L113, which the build reports as the check does)
    first = name.split("/")[0]
    lang = first if first in ("de", "fr", "es", "it", "pt-br", "zh-hant", "ja") else "en"
    target.write_text(f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n  <meta charset="utf-8">\n{head}</head>\n'
                      f"<body>\n{body}\n</body>\n</html>\n", encoding="utf-8")
    return target


def links(cluster: dict[str, str], x_default: str | None = None) -> str:
    out = "".join(f'  <link rel="alternate" hreflang="{code}" href="{BASE}{path}">\n' for code, path in cluster.items())
    if x_default is not None:
        out += f'  <link rel="alternate" hreflang="x-default" href="{BASE}{x_default}">\n'
    return out


def entries(path: Path) -> dict[str, tuple[str | None, list[tuple[str, str]]]]:
    """Each <url>: its lastmod and its (hreflang, href) alternates."""
    doc = etree.parse(str(path))
    found = {}
    for url in doc.getroot().findall("s:url", NS):
        lastmod = url.find("s:lastmod", NS)
        found[url.findtext("s:loc", namespaces=NS)] = (
            lastmod.text if lastmod is not None else None,
            [(link.get("hreflang"), link.get("href")) for link in url.findall("x:link", NS)])
    return found


def findings(result: object) -> list[tuple[str, str | None, int | None, int | None]]:
    return [(d.code, d.file, d.line, d.column) for d in result.collector.sorted()]  # type: ignore[attr-defined]


TRIO = {"en": "en/", "de": "de/", "fr": "fr/"}


def test_each_page_once_with_its_alternates_and_the_excluded_left_out(tmp_path: Path) -> None:
    public = tmp_path / "public"
    for code, path in TRIO.items():
        write_page(public, f"{path}index.html", links(TRIO, x_default="en/"))
    write_page(public, "imprint.html", "")  # one page, no alternates
    write_page(public, "search/index.html", '  <meta name="robots" content="noindex,follow">\n')
    write_page(public, "old/index.html", f'  <link rel="canonical" href="{BASE}imprint.html">\n')
    write_page(public, "404.html", "")  # the error page: left out by default
    write_page(public, ".drafts/index.html", "")  # hidden: never read
    (public / "feed.xml").write_text("<rss/>")  # not a page
    (tmp_path / "site.yaml").write_text(DESCRIPTION)
    result = build("site.yaml", "out")
    assert result.ok and findings(result) == []
    found = entries(tmp_path / "out" / "sitemap.xml")
    cluster = sorted([(code, BASE + path) for code, path in TRIO.items()]) + [("x-default", f"{BASE}en/")]
    assert found == {f"{BASE}de/": (None, cluster), f"{BASE}en/": (None, cluster), f"{BASE}fr/": (None, cluster),
                     f"{BASE}imprint.html": (None, [])}


def test_lastmod_from_meta_time_or_nothing_never_the_mtime(tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_page(public, "a.html", '  <meta property="article:modified_time" content="2026-11-02T10:00:00+01:00">\n')
    write_page(public, "b.html", "", '<time datetime="2026-01-01">x</time><time class="updated" '
                                     'datetime="2026-10-05">y</time>')
    write_page(public, "c.html", "", '<time id="changed" datetime="2026-09-09">z</time>')
    write_page(public, "d.html", "")  # says nothing: no lastmod, whatever its mtime
    os.utime(public / "d.html", (1_700_000_000, 1_700_000_000))
    (tmp_path / "site.yaml").write_text(DESCRIPTION + "    lastmod: [meta:article:modified_time, time.updated, "
                                        "time#changed]\n")
    result = build("site.yaml", "out")
    assert result.ok
    found = entries(tmp_path / "out" / "sitemap.xml")
    assert {loc: lastmod for loc, (lastmod, _) in found.items()} == {
        f"{BASE}a.html": "2026-11-02T10:00:00+01:00", f"{BASE}b.html": "2026-10-05",
        f"{BASE}c.html": "2026-09-09", f"{BASE}d.html": None}


def test_each_version_keeps_its_own_lastmod_and_the_reference_agrees(tmp_path: Path) -> None:
    public = tmp_path / "public"
    dates = {"en": "2026-11-20", "de": "2026-11-01", "fr": None}
    for code, path in TRIO.items():
        meta = f'  <meta property="article:modified_time" content="{dates[code]}">\n' if dates[code] else ""
        write_page(public, f"{path}index.html", meta + links(TRIO))
    (tmp_path / "site.yaml").write_text(DESCRIPTION)
    assert build("site.yaml", "fast").ok and reference_build("site.yaml", "ref").ok
    found = entries(tmp_path / "fast" / "sitemap.xml")
    assert {loc: lastmod for loc, (lastmod, _) in found.items()} == {
        f"{BASE}en/": "2026-11-20", f"{BASE}de/": "2026-11-01", f"{BASE}fr/": None}
    canonical = [etree.tostring(etree.parse(str(tmp_path / name / "sitemap.xml")), method="c14n")
                 for name in ("fast", "ref")]
    assert canonical[0] == canonical[1]


def test_every_defect_is_reported_at_its_place_in_the_page(tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_page(public, "en/index.html", links({"en": "en/", "de": "de/", "fr": "fr/", "it": "it/", "es": "es/"}))
    write_page(public, "de/index.html", links({"en": "en/", "de": "de/"}))
    write_page(public, "fr/index.html", '  <meta name="robots" content="noindex">\n' + links(TRIO))
    # it/ has no file at all (a 404 after deploying); es/ is canonicalised elsewhere
    write_page(public, "es/index.html", f'  <link rel="canonical" href="{BASE}en/">\n')
    write_page(public, "solo.html", links({"de": "de/"}))  # names de, not itself
    write_page(public, "twice.html", links({"en": "twice.html"}) + '  <link rel="alternate" hreflang="en" '
               f'href="{BASE}zother.html">\n')
    write_page(public, "zother.html", "")
    write_page(public, "x/index.html", links({"en": "x/", "de": "y/"}))
    write_page(public, "y/index.html", links({"en": "x/", "de": "y/", "fr": "zother.html"}))
    write_page(public, "late.html", links({"en": "late.html", "de": "de/"}))  # de/ is in en/'s cluster already
    write_page(public, "bad.html", links({"en_GB": "bad.html"})
               + '  <meta property="article:modified_time" content="2026-02-30">\n')
    (tmp_path / "site.yaml").write_text(DESCRIPTION)
    result = build("site.yaml", "out")
    got = findings(result)
    # The heads' verdicts are the engine's, as the check of the pages places them (a
    # cluster's finding at its list's first link, a pair's at the link)
    assert ("H114", "public/en/index.html", 5, None) in got  # fr/ is noindex, es/ names another canonical
    assert ("H115", "public/en/index.html", 5, None) in got  # it/ has no file
    assert ("H103", "public/solo.html", 5, None) in got
    assert ("H106", "public/twice.html", 6, None) in got
    # (es/ is canonicalised elsewhere: no return link is asked of it, H114 says what is wrong)
    assert not [f for f in got if f[0] == "H104" and f[1] == "public/en/index.html" and f[2] == 9]
    assert ("H110", "public/x/index.html", 6, None) in got  # y/ gives another set than x/
    # Every finding of the check of the pages is the build's; the build also judges the
    # sitemap it would write beside the heads (H116 where they differ), though its errors
    # keep it from writing one.
    check_of_pages = check([str(public)], base_urls=[f"{BASE}={public}"], jobs=1)
    built = {(d.code, d.severity, d.url) for d in result.collector.diagnostics}
    assert {(d.code, d.severity, d.url) for d in check_of_pages.collector.diagnostics} <= built
    assert ("L101", "public/bad.html", 5, None) in got  # en_GB: the language tag rules, at the link
    assert ("D101", "public/bad.html", 6, 3) in got
    assert not result.ok  # (errors: nothing written)
    codes = {code for code, *_ in got}
    assert codes >= {"H103", "H104", "H106", "H114", "H115", "D101"}


def test_the_written_sitemap_leaves_the_defective_pairs_out(tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_page(public, "en/index.html", links({"en": "en/", "de": "de/", "fr": "fr/"}))
    write_page(public, "de/index.html", links({"en": "en/", "de": "de/"}))
    write_page(public, "fr/index.html", '  <meta name="robots" content="noindex">\n' + links(TRIO))
    (tmp_path / "site.yaml").write_text(DESCRIPTION)
    result = build("site.yaml", "out", strict=False)
    assert not result.ok
    # H114 (en/ names fr/, which is noindex) and H104 (fr/'s head names de/, which does
    # not name it back), as the check of the pages says
    assert sorted(d.code for d in build("site.yaml", "out", dry_run=True).collector.diagnostics
                  if d.severity.value == "error") == ["H104", "H114"]
    write_page(public, "en/index.html", links({"en": "en/", "de": "de/"}))  # the defects mended
    write_page(public, "fr/index.html", '  <meta name="robots" content="noindex">\n')
    assert build("site.yaml", "out").ok
    pair = [("de", f"{BASE}de/"), ("en", f"{BASE}en/")]
    assert entries(tmp_path / "out" / "sitemap.xml") == {f"{BASE}de/": (None, pair), f"{BASE}en/": (None, pair)}


def test_drop_ext_url_and_exclude(tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_page(public, "about.html", "")
    write_page(public, "docs/index.html", "")
    write_page(public, "drafts/wip.html", "")
    write_page(public, "404.html", "")
    (tmp_path / "site.yaml").write_text(
        "site:\n  base_url: https://e.com/\nsources:\n  - site: public/\n    url: https://e.com/guide\n"
        "    drop_ext: true\n    exclude: ['drafts/*']\n")
    result = build("site.yaml", "out")
    assert result.ok, findings(result)
    assert set(entries(tmp_path / "out" / "sitemap.xml")) == {
        "https://e.com/guide/about", "https://e.com/guide/docs/", "https://e.com/guide/404"}


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_lastmod_from_git_is_the_last_commit_and_only_when_asked(tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_page(public, "a.html", "")
    write_page(public, "b.html", "")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}

    def git(*args: str, date: str | None = None) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True,
                       env={**env, **({"GIT_COMMITTER_DATE": date} if date else {})})

    git("init", "-q")
    git("add", "public")
    git("commit", "-qm", "first", date="2026-03-01T10:00:00+01:00")
    (public / "b.html").write_text((public / "b.html").read_text() + "<!-- changed -->\n")
    git("commit", "-qam", "second", date="2026-04-02T08:30:00Z")
    (tmp_path / "site.yaml").write_text(DESCRIPTION)
    assert build("site.yaml", "plain").ok  # not asked: no lastmod
    assert {lastmod for lastmod, _ in entries(tmp_path / "plain" / "sitemap.xml").values()} == {None}
    (tmp_path / "site.yaml").write_text(DESCRIPTION + "    lastmod: [meta:article:modified_time, git]\n")
    assert build("site.yaml", "dated").ok
    assert {loc: lastmod for loc, (lastmod, _) in entries(tmp_path / "dated" / "sitemap.xml").items()} == {
        f"{BASE}a.html": "2026-03-01T10:00:00+01:00", f"{BASE}b.html": "2026-04-02T08:30:00+00:00"}


def test_git_asked_outside_a_repository_is_a_warning_with_its_place(tmp_path: Path) -> None:
    write_page(tmp_path / "public", "a.html", "")
    (tmp_path / "site.yaml").write_text(DESCRIPTION + "    lastmod: git\n")
    env = {"GIT_CEILING_DIRECTORIES": str(tmp_path.parent)}
    old = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        result = build("site.yaml", "out")
    finally:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    assert result.ok
    assert ("S110", "site.yaml", 4, 11) in findings(result)


def test_a_built_site_source_is_judged_like_any_source(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "site.yaml").write_text(
        "site:\n  base_url: https://e.com/\nsources:\n  - site: missing/\n  - site: ../elsewhere\n"
        "  - {site: public/, lastmod: [meta:x, time.a.b c]}\n  - {site: public/, drop_ext: maybe}\n"
        "  - {site: public/, layout: x}\n")
    write_page(tmp_path / "public", "a.html", "")
    result = build("site.yaml", "out")
    got = findings(result)
    assert ("S101", "site.yaml", 4, 11) in got
    assert ("S108", "site.yaml", 5, 11) in got
    assert ("C103", "site.yaml", 6, 39) in got  # the bad place, at its item
    assert ("C103", "site.yaml", 7, 31) in got
    assert ("C102", "site.yaml", 8, 21) in got


def test_a_head_that_does_not_end_is_reported_and_the_page_left_out(tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_page(public, "a.html", "")
    (public / "huge.html").write_bytes(b"<html><head>" + b"<script>var a = 1;</script>\n" * 60_000 +
                                       b"</head><body></body></html>")
    with open(public / "sparse.html", "wb") as handle:
        handle.write(b"<html><head><title>x</title>")
        handle.truncate(1 << 30)  # 1 GB, the rest NUL bytes (sparse)
    (tmp_path / "site.yaml").write_text(DESCRIPTION + "    lastmod: [time]\n")  # (a <time> is looked for in bodies)
    with hang_guard(60):
        result = build("site.yaml", "out")
    assert findings(result) == [("H117", "public/huge.html", 1, None), ("H117", "public/sparse.html", 1, None)]
    assert set(entries(tmp_path / "out" / "sitemap.xml")) == {f"{BASE}a.html"}


def test_the_example_builds_from_its_pages_and_passes_with_them(tmp_path: Path) -> None:
    example = ROOT / "examples" / "static-site"
    result = build(str(example / "site.yaml"), "out", now="2026-11-24T00:00:00Z")
    assert result.ok and findings(result) == []
    found = entries(tmp_path / "out" / "sitemap.xml")
    assert len(found) == 9 and "https://www.trail-guides.example/en/search/" not in found
    assert found["https://www.trail-guides.example/de/trails/matterhorn/"][0] == "2026-11-19T17:40:00+01:00"
    assert found["https://www.trail-guides.example/fr/about/"][0] == "2026-10-02"
    shutil.copytree(example / "public", tmp_path / "out", dirs_exist_ok=True)
    together = check(["out"], base_urls=["https://www.trail-guides.example/=out"], now="2026-11-24T00:00:00Z")
    assert together.ok and findings(together) == []


# A generated built site: clusters of pages (reciprocal by construction), single pages,
# noindex pages and pages canonicalised elsewhere. Built from its HTML, its sitemap lists
# each indexable page once and passes its own check together with the pages.
CODES = ["en", "de", "fr", "es", "it", "pt-BR", "zh-Hant", "ja"]
cluster_strategy = st.lists(st.sampled_from(CODES), min_size=1, max_size=5, unique=True)
site_strategy = st.tuples(st.lists(cluster_strategy, min_size=1, max_size=6),
                          st.integers(min_value=0, max_value=3), st.integers(min_value=0, max_value=2),
                          st.booleans())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(site_strategy)
def test_a_generated_built_site_builds_a_sitemap_that_passes_with_its_pages(tmp_path: Path, shape) -> None:
    clusters, singles, hidden, x_default = shape
    case = tmp_path / f"case-{abs(hash(repr(shape)))}"
    if case.exists():
        shutil.rmtree(case)
    public = case / "public"
    indexable = set()
    for n, codes in enumerate(clusters):
        cluster = {code: f"{code.lower()}/page-{n}/" for code in codes}
        for code in codes:
            write_page(public, f"{cluster[code]}index.html", links(cluster, x_default=cluster[codes[0]]
                                                                   if x_default else None))
            indexable.add(BASE + cluster[code])
    for n in range(singles):
        write_page(public, f"single-{n}.html", "")
        indexable.add(f"{BASE}single-{n}.html")
    for n in range(hidden):
        write_page(public, f"hidden-{n}.html", '  <meta name="robots" content="none">\n')
        write_page(public, f"copy-{n}.html", f'  <link rel="canonical" href="{BASE}hidden-{n}.html">\n')
    (case / "site.yaml").write_text(DESCRIPTION)
    result = build(str(case / "site.yaml"), str(case / "out"))
    # (H112, an info, for each cluster without x-default: the engine's verdict on what is written)
    assert result.ok and [f for f in findings(result) if f[0] != "H112"] == []
    assert {f[0] for f in findings(result)} == ({"H112"} if any(len(c) > 1 for c in clusters) and not x_default
                                                 else set())
    assert set(entries(case / "out" / "sitemap.xml")) == indexable
    shutil.copytree(public, case / "out", dirs_exist_ok=True)
    together = check([str(case / "out")], base_urls=[f"{BASE}={case / 'out'}"])
    assert together.ok and [d.code for d in together.collector.sorted() if d.severity != "info"] == []


# (as MkDocs and Sphinx write them: the file c++/index.html, its canonical c%2B%2B/)
ENCODED = {"c++/": "c%2B%2B/", "q&a/": "q%26a/", "what's-new/": "what%27s-new/", "a(b)/": "a%28b%29/",
           "x,y;z/": "x%2Cy%3Bz/"}


def test_a_canonical_that_percent_encodes_its_own_path_names_the_page_itself(tmp_path: Path) -> None:
    public = tmp_path / "public"
    write_page(public, "index.html", "".join(f'  <a href="{encoded}">x</a>\n' for encoded in ENCODED.values()))
    for path, encoded in ENCODED.items():
        write_page(public, f"{path}index.html", f'  <link rel="canonical" href="{BASE}{encoded}">\n')
    (tmp_path / "site.yaml").write_text(DESCRIPTION)
    result = build("site.yaml", "out")
    assert result.ok and findings(result) == []
    # each page at the URL its canonical names (the one search engines index), none left out
    assert set(entries(tmp_path / "out" / "sitemap.xml")) == {BASE} | {BASE + encoded for encoded in ENCODED.values()}
    checked = check([str(tmp_path / "out" / "sitemap.xml"), str(public)], base_urls=[f"{BASE}={public}"],
                    now="2026-11-21T12:00:00Z", jobs=1)
    assert findings(checked) == []
