"""Checking existing sitemaps: planted defects, every file rule, hostile input."""

from __future__ import annotations

import gzip
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from sitemap_ext import check
from sitemap_ext.cli import main

from .conftest import ROOT, hang_guard

PLANTED = ROOT / "tests" / "data" / "planted"
HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n')
TAIL = "</urlset>\n"


def found(paths: list[str], **kw: object) -> list[tuple[str, str | None, int | None, str | None]]:
    result = check(paths, **kw)  # type: ignore[arg-type]
    return [(d.code, d.file, d.line, d.url) for d in result.collector.sorted()]


def write(tmp_path: Path, name: str, body: str, *, head: str = HEAD, tail: str = TAIL) -> str:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (head + body + tail).encode()
    path.write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
    return name


def test_planted_hreflang_defects_each_reported_with_url_and_fix() -> None:
    result = check([str(PLANTED / "de.xml"), str(PLANTED / "fr.xml")])
    de, fr = "https://www.example.de", "https://www.example.fr"
    got = [(d.code, Path(d.file or "").name, d.line, d.url, d.suggestion) for d in result.collector.sorted()
           if d.code != "H112"]
    assert got == [
        ("H104", "de.xml", 12, f"{de}/hosen", None),  # at the link that has no return
        ("H105", "de.xml", 15, f"{de}/jacken", "fr-FR"),
        ("H103", "de.xml", 20, f"{de}/socken", None),
        ("H111", "de.xml", 24, f"{de}/muetzen", None),
        ("H106", "de.xml", 26, f"{de}/muetzen", None),
        ("H107", "de.xml", 27, f"{de}/muetzen", None),
        ("H108", "de.xml", 29, f"{de}/muetzen", None),
        # A tag that is an error (en_GB, en-UK, jp, iw, us, us-en) counts as nothing: search
        # engines ignore the link, so it names no URL twice and asks no return link; only
        # es-419 (L107) and EN-gb (L108), which engines read, are unverifiable (H111).
        *[("H111", "de.xml", 32, f"{de}/tags", None)] * 2,
        ("L101", "de.xml", 34, f"{de}/tags", "en-GB"),
        ("L102", "de.xml", 35, f"{de}/tags", "en-GB"),
        ("L103", "de.xml", 36, f"{de}/tags", "ja"),
        ("L104", "de.xml", 37, f"{de}/tags", "he"),
        ("L105", "de.xml", 38, f"{de}/tags", "en-US"),
        ("L106", "de.xml", 39, f"{de}/tags", "en-US"),
        ("L107", "de.xml", 40, f"{de}/tags", "es"),
        ("L108", "de.xml", 41, f"{de}/tags", "en-GB"),
        # A relative href is H102 once, with the URL it is read as; that URL is then judged
        # (no sitemap lists it: unverifiable).
        ("H111", "de.xml", 44, f"{de}/links", None),
        ("H102", "de.xml", 46, f"{de}/links", f"{de}/fr/liens"),
        ("H101", "de.xml", 47, f"{de}/links", None),
        ("H109", "de.xml", 54, f"{de}/b", None),
        ("H110", "fr.xml", 24, f"{fr}/p", None),
        ("H111", "fr.xml", 24, f"{fr}/p", None),
    ]
    by_code = {d.code: d for d in reversed(result.collector.sorted())}  # the first of each code
    assert [r.url for r in by_code["H104"].related] == [f"{fr}/pantalons"]
    assert by_code["H104"].related[0].line == 8 and by_code["H104"].hreflang == "fr"
    assert "German" in by_code["H106"].message and "it" in by_code["H107"].message
    # The clean cluster (schuhe / chaussures) and the reciprocal one (a / x) say nothing.
    assert not [d for d in result.collector.diagnostics if d.url in (f"{de}/schuhe", f"{fr}/chaussures", f"{de}/a")
                and d.code != "H112"]
    assert main(["check", str(PLANTED / "de.xml"), str(PLANTED / "fr.xml"), "--quiet"]) == 1


def test_no_x_default_is_an_info_per_cluster(tmp_path: Path) -> None:
    body = ('<url><loc>https://e.com/en</loc>'
            '<xhtml:link rel="alternate" hreflang="en" href="https://e.com/en"/>'
            '<xhtml:link rel="alternate" hreflang="de" href="https://e.com/de"/></url>\n'
            '<url><loc>https://e.com/de</loc>'
            '<xhtml:link rel="alternate" hreflang="de" href="https://e.com/de"/>'
            '<xhtml:link rel="alternate" hreflang="en" href="https://e.com/en"/></url>\n')
    assert found([write(tmp_path, "s.xml", body)]) == [("H112", "s.xml", 3, "https://e.com/en")]


URL = "<url><loc>{}</loc></url>\n"
CASES = [
    ("relative loc", URL.format("/a"), [("U101", 3, "/a")]),
    ("ftp loc", URL.format("ftp://e.com/a"), [("U102", 3, "ftp://e.com/a")]),
    ("loc of 2,048 characters", URL.format("https://e.com/" + "a" * 2034), [("U103", 3, "https://e.com/" + "a" * 2034)]),
    ("duplicate loc", URL.format("https://e.com/a") * 2, [("U104", 4, "https://e.com/a")]),
    ("whitespace around loc", "<url><loc> https://e.com/a </loc></url>\n", [("U115", 3, "https://e.com/a")]),
    ("whitespace inside loc", "<url><loc>https://e.com/a b</loc></url>\n", [("U105", 3, "https://e.com/a b")]),
    ("double-escaped ampersand", URL.format("https://e.com/?a=1&amp;amp;b=2"),
     [("U106", 3, "https://e.com/?a=1&amp;b=2")]),
    ("second host", URL.format("https://e.com/a") + URL.format("https://other.com/b"),
     [("U107", 4, "https://other.com/b")]),
    ("malformed host", URL.format("https://e.com:0/a"), [("U109", 3, "https://e.com:0/a")]),
    ("fragment", URL.format("https://e.com/a#top"), [("U110", 3, "https://e.com/a#top")]),
    ("raw IRI", URL.format("https://e.com/café"), [("U111", 3, "https://e.com/café")]),
    ("impossible lastmod", "<url><loc>https://e.com/a</loc><lastmod>2026-02-30</lastmod></url>\n",
     [("D101", 3, "https://e.com/a")]),
    ("lastmod the XSD rejects", "<url><loc>https://e.com/a</loc><lastmod>2026-02</lastmod></url>\n",
     [("D108", 3, "https://e.com/a")]),
    ("lastmod without zone", "<url><loc>https://e.com/a</loc><lastmod>2026-02-01T10:00:00</lastmod></url>\n",
     [("D107", 3, "https://e.com/a")]),
    ("uniform lastmods", "".join(f"<url><loc>https://e.com/{n}</loc><lastmod>2026-02-01</lastmod></url>\n"
                                 for n in "abcde"), [("D103", None, None)]),
    ("uniform lastmods of a few pages", "".join(f"<url><loc>https://e.com/{n}</loc><lastmod>2026-02-01</lastmod>"
                                               "</url>\n" for n in "abcd"), []),
    ("changefreq", "<url><loc>https://e.com/a</loc><changefreq>Daily</changefreq></url>\n",
     [("D104", 3, "https://e.com/a")]),
    ("priority", "<url><loc>https://e.com/a</loc><priority>1.5</priority></url>\n",
     [("D105", 3, "https://e.com/a")]),
    ("order", "<url><loc>https://e.com/a</loc><priority>0.5</priority><lastmod>2026-01-01</lastmod></url>\n",
     [("X106", 3, None)]),
    ("extension before lastmod", "<url><loc>https://e.com/a</loc>"
     '<xhtml:link rel="alternate" hreflang="en" href="https://e.com/a"/><lastmod>2026-01-01</lastmod></url>\n',
     [("X106", 3, None)]),
    ("no loc", "<url><lastmod>2026-01-01</lastmod></url>\n", [("X107", 3, None)]),
    ("two locs", "<url><loc>https://e.com/a</loc><loc>https://e.com/b</loc></url>\n", [("X107", 3, None)]),
    ("unknown element", "<url><loc>https://e.com/a</loc><title>A</title></url>\n",
     [("X112", 3, "https://e.com/a")]),
    ("empty urlset", "", [("X115", None, None)]),
]


@pytest.mark.parametrize("body,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_sitemap_rule_code_and_location(tmp_path: Path, body: str,
                                        expected: list[tuple[str, int | None, str | None]]) -> None:
    name = write(tmp_path, "s.xml", body)
    got = [(code, line, url) for code, _, line, url in found([name])]
    assert got == expected


def test_future_lastmod_with_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = write(tmp_path, "s.xml", "<url><loc>https://e.com/a</loc><lastmod>2026-12-01</lastmod></url>\n")
    assert found([name], now="2026-12-02T00:00:00Z") == []
    assert found([name], now="2026-11-21T00:00:00Z") == [("D102", "s.xml", 3, "https://e.com/a")]
    # Without --now: SOURCE_DATE_EPOCH (the test suite's 2026-11-21T12:00:00Z).
    assert found([name]) == [("D102", "s.xml", 3, "https://e.com/a")]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")  # 2027-01-01
    assert found([name]) == []


def test_out_of_folder_needs_the_files_url(tmp_path: Path) -> None:
    name = write(tmp_path, "maps/s.xml", URL.format("https://e.com/maps/a") + URL.format("https://e.com/b"))
    assert found([name]) == []
    assert found([name], base_urls=["https://e.com/=."]) == [("U108", "maps/s.xml", 4, "https://e.com/b")]


def test_misspelt_namespaces(tmp_path: Path) -> None:
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:xhtml="https://www.w3.org/1999/xhtml">\n')
    body = ('<url><loc>https://e.com/a</loc>'
            '<xhtml:link rel="alternate" hreflang="en" href="https://e.com/a"/></url>\n')
    result = check([write(tmp_path, "s.xml", body, head=head)])
    assert [(d.code, d.line, d.suggestion) for d in result.collector.sorted()] == [
        ("X105", 2, "http://www.w3.org/1999/xhtml")]


def test_wrong_root(tmp_path: Path) -> None:
    name = write(tmp_path, "s.xml", "<p/>", head='<?xml version="1.0"?>\n<html>', tail="</html>")
    assert found([name]) == [("X104", "s.xml", 2, None)]


def test_text_sitemap(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_bytes(b"https://e.com/a\nhttps://e.com/b extra\n/relative\nhttps://e.com/a\n\nhttps://e.com/\xe9\n")
    assert found(["s.txt"]) == [
        ("X113", "s.txt", 2, None), ("U101", "s.txt", 3, "/relative"), ("U104", "s.txt", 4, "https://e.com/a"),
        ("X103", "s.txt", 6, None),
    ]


def test_too_many_urls(tmp_path: Path) -> None:
    body = "".join(URL.format(f"https://e.com/{i}") for i in range(50_001))
    assert found([write(tmp_path, "s.xml.gz", body)]) == [("X108", "s.xml.gz", 50_003, None)]


# --- indexes -------------------------------------------------------------------------

INDEX_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
ENTRY = "<sitemap><loc>{}</loc></sitemap>\n"


def test_index_children_are_found_and_checked(tmp_path: Path) -> None:
    write(tmp_path, "site/parts/a.xml.gz", URL.format("https://e.com/parts/a") + URL.format("https://e.com/parts/x"))
    write(tmp_path, "site/parts/b.xml", URL.format("https://e.com/parts/b") + URL.format("https://e.com/parts/x"))
    index = write(tmp_path, "site/sitemap.xml", ENTRY.format("https://e.com/parts/a.xml.gz")
                  + ENTRY.format("https://e.com/parts/b.xml") + ENTRY.format("https://e.com/parts/gone.xml"),
                  head=INDEX_HEAD, tail="</sitemapindex>\n")
    result = check([index])
    assert [(d.code, d.file, d.line, d.url) for d in result.collector.sorted()] == [
        ("U104", "site/parts/b.xml", 4, "https://e.com/parts/x"),
        ("X111", "site/sitemap.xml", 5, "https://e.com/parts/gone.xml"),
    ]
    assert [(f["file"], f["kind"], f["urls"]) for f in result.files] == [
        ("site/sitemap.xml", "sitemapindex", 3), ("site/parts/a.xml.gz", "urlset", 2),
        ("site/parts/b.xml", "urlset", 2)]


def test_folder_and_base_url_mapping(tmp_path: Path) -> None:
    write(tmp_path, "pub/x/a.xml", URL.format("https://e.com/x/a") + URL.format("https://e.com/elsewhere"))
    write(tmp_path, "pub/sitemap.xml", ENTRY.format("https://e.com/x/a.xml"), head=INDEX_HEAD,
          tail="</sitemapindex>\n")
    assert found(["pub"], base_urls=["https://e.com=pub"]) == [("U108", "pub/x/a.xml", 4, "https://e.com/elsewhere")]


def test_robots_submission_allows_urls_outside_the_folder(tmp_path: Path) -> None:
    write(tmp_path, "pub/parts/a.xml", URL.format("https://e.com/a"))
    write(tmp_path, "pub/sitemap.xml", ENTRY.format("https://e.com/parts/a.xml"), head=INDEX_HEAD,
          tail="</sitemapindex>\n")
    assert found(["pub/sitemap.xml"]) == [("U108", "pub/parts/a.xml", 3, "https://e.com/a")]
    (tmp_path / "pub" / "robots.txt").write_text("User-agent: *\nDisallow:\n\nSitemap: https://e.com/sitemap.xml\n")
    assert found(["pub"], base_urls=["https://e.com/=pub"]) == []


def test_nested_index(tmp_path: Path) -> None:
    write(tmp_path, "inner.xml", ENTRY.format("https://e.com/a.xml"), head=INDEX_HEAD, tail="</sitemapindex>\n")
    outer = write(tmp_path, "sitemap.xml", ENTRY.format("https://e.com/inner.xml"), head=INDEX_HEAD,
                  tail="</sitemapindex>\n")
    assert found([outer]) == [("X110", "sitemap.xml", 3, "https://e.com/inner.xml")]


def test_index_listing_another_host(tmp_path: Path) -> None:
    write(tmp_path, "a.xml", URL.format("https://e.com/a"))
    index = write(tmp_path, "sitemap.xml", ENTRY.format("https://e.com/a.xml") + ENTRY.format("https://cdn.e.com/b.xml"),
                  head=INDEX_HEAD, tail="</sitemapindex>\n")
    codes = found([index])
    assert ("U107", "sitemap.xml", 4, "https://cdn.e.com/b.xml") in codes


# --- hostile input ----------------------------------------------------------------------

def test_billion_laughs_is_refused_unread(tmp_path: Path) -> None:
    lol = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
           + "".join(f' <!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">\n' for i in range(1, 10))
           + ']>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&lol9;</loc></url></urlset>\n')
    (tmp_path / "lol.xml").write_text(lol)
    with hang_guard():  # an expansion would never end
        assert found(["lol.xml"]) == [("X102", "lol.xml", 2, None)]


def test_external_entity_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    xxe = (f'<?xml version="1.0"?>\n<!DOCTYPE u [<!ENTITY x SYSTEM "file://{secret}">]>\n'
           '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&x;</loc></url></urlset>\n')
    (tmp_path / "xxe.xml").write_text(xxe)
    result = check(["xxe.xml"])
    assert [d.code for d in result.collector.diagnostics] == ["X102"]
    assert "SECRET" not in str([d.message for d in result.collector.diagnostics])


def _bomb(path: Path, megabytes: int) -> None:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    with open(path, "wb") as out:
        out.write(compressor.compress(HEAD.encode()))
        block = b"<!---->\n" * (1 << 17)  # 1 MiB of empty comments: cheap to parse, so the size limit is met
        for _ in range(megabytes):
            out.write(compressor.compress(block))
        out.write(compressor.compress(TAIL.encode()))
        out.write(compressor.flush())


def test_gzip_bomb_stops_at_the_limit_in_bounded_memory(tmp_path: Path) -> None:
    _bomb(tmp_path / "bomb.xml.gz", 1024)  # 1 GiB inflated, about 1 MiB on disk
    assert (tmp_path / "bomb.xml.gz").stat().st_size < 2 << 20
    # The peak of this process's own memory: VmHWM, where /proc has it (ru_maxrss keeps the
    # forking parent's peak across exec, and a test runner grows past the bound itself).
    code = ("import os, re, resource; from sitemap_ext import check; r = check(['bomb.xml.gz']);"
            "print([d.code for d in r.collector.diagnostics]);"
            "status = open('/proc/self/status').read() if os.path.exists('/proc/self/status') else '';"
            "found = re.search(r'VmHWM:\\s+(\\d+) kB', status);"
            "print(found.group(1) if found else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    codes, peak_kib = proc.stdout.splitlines()
    assert codes == "['X109']", proc.stderr
    assert int(peak_kib) < 300 * 1024, f"peak {int(peak_kib) // 1024} MiB"


def test_truncated_and_corrupt_files(tmp_path: Path) -> None:
    (tmp_path / "cut.xml").write_text(HEAD + "<url><loc>https://e.com/a</loc></url>\n<url><loc>https://e.com/b")
    data = gzip.compress((HEAD + URL.format("https://e.com/a") + TAIL).encode())
    (tmp_path / "cut.xml.gz").write_bytes(data[: len(data) // 2])
    (tmp_path / "latin.xml").write_bytes(HEAD.replace("UTF-8", "ISO-8859-1").encode()
                                         + b"<url><loc>https://e.com/caf\xe9</loc></url>\n" + TAIL.encode())
    (tmp_path / "bad.xml").write_bytes(HEAD.encode() + b"<url><loc>https://e.com/\xff</loc></url>\n" + TAIL.encode())
    got = found(["cut.xml", "cut.xml.gz", "latin.xml", "bad.xml"])
    assert ("X101", "cut.xml", 4, None) in got
    assert ("X114", "cut.xml.gz", None, None) in got
    assert ("X103", "latin.xml", 1, None) in got
    assert ("X103", "bad.xml", 3, None) in got


def test_missing_input_is_an_io_failure(tmp_path: Path) -> None:
    assert main(["check", "nope.xml", "--quiet"]) == 3


def test_misspelt_namespace_declared_on_an_entry(tmp_path: Path) -> None:
    body = ('<url xmlns:img="http://www.google.com/schemas/sitemap-image/1.1/"><loc>https://e.com/a</loc>'
            '<img:image><img:loc>https://e.com/a.jpg</img:loc></img:image></url>\n'
            '<url><loc>https://e.com/b</loc></url>\n')
    result = check([write(tmp_path, "s.xml", body)])
    assert [(d.code, d.line, d.suggestion) for d in result.collector.sorted()] == [
        ("X105", 3, "http://www.google.com/schemas/sitemap-image/1.1")]


def test_the_sitemaps_hook_takes_sitemaps_and_passes_over_robots_lines() -> None:
    """The hook's own patterns (pre-commit matches them with re.search on the path): the
    build's robots-sitemap.txt names sitemaps and is none (it failed with F104)."""
    import re

    import yaml

    hooks = {hook["id"]: hook for hook in yaml.safe_load((Path(__file__).parents[1] / ".pre-commit-hooks.yaml")
                                                         .read_text(encoding="utf-8"))}
    hook = hooks["sitemap-ext-sitemaps"]

    def taken(path: str) -> bool:
        return re.search(hook["files"], path) is not None and re.search(hook.get("exclude", "^$"), path) is None

    assert [p for p in ("public/sitemap.xml", "sitemap-1.xml.gz", "out/en/sitemap.txt", "robots-sitemap.txt",
                        "public/robots.txt", "out/robots-sitemap.txt", "notes.txt") if taken(p)] == [
        "public/sitemap.xml", "sitemap-1.xml.gz", "out/en/sitemap.txt"]
