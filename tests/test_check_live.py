"""check URL...: a live site served by a real HTTP server on 127.0.0.1 (tests/live_server.py),
from robots.txt down to the pages; every hostile server behaviour ends in a coded
finding within its time limit, and every finding names the URL of its file."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("httpx", reason="a live check needs the 'live' extra (httpx, protego)")
pytest.importorskip("protego", reason="a live check needs the 'live' extra (httpx, protego)")

from tests.live_server import Server, gzip_bomb, repeated, stalled  # noqa: E402

from sitemap_ext import check  # noqa: E402
from sitemap_ext.read.live import LISTED_UNFETCHED  # noqa: E402
from sitemap_ext.read.http import FetchOptions  # noqa: E402
from sitemap_ext.write.site_yaml import display_name  # noqa: E402

LOCALES = ("en", "de", "fr")
FAST = FetchOptions(timeout=1.0, deadline=3.0, retries=2, max_wait=1.0, allow_private=True)


def urlset(entries: list[str]) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + "".join(entries) + "</urlset>\n").encode()


def entry(loc: str, links: dict[str, str]) -> str:
    tags = "".join(f'    <xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>\n' for code, href in links.items())
    return f"  <url>\n    <loc>{loc}</loc>\n{tags}  </url>\n"


def page(links: dict[str, str], *, lang: str, extra: str = "") -> bytes:
    tags = "".join(f'<link rel="alternate" hreflang="{code}" href="{href}">\n' for code, href in links.items())
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n{extra}{tags}</head>\n'
            "<body><p>text</p></body>\n</html>\n").encode()


def cluster(server: Server, name: str) -> dict[str, str]:
    links = {code: f"{server.url}/{code}/{name}/" for code in LOCALES}
    return {**links, "x-default": links["en"]}


def index(server: Server, children: list[str]) -> bytes:
    items = "".join(f"  <sitemap><loc>{server.url}{child}</loc></sitemap>\n" for child in children)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + items + "</sitemapindex>\n").encode()


def serve_clean(server: Server) -> None:
    """A healthy site: robots.txt names an index, the index one sitemap, its pages agree."""
    entries = []
    for name in ("a", "b"):
        links = cluster(server, name)
        for code in LOCALES:
            entries.append(entry(links[code], links))
            server.add(f"/{code}/{name}/", body=page(links, lang=code), content_type="text/html; charset=utf-8")
    server.add("/robots.txt", body=f"User-agent: *\nDisallow: /private/\n\nSitemap: {server.url}/sitemap_index.xml\n"
               .encode(), content_type="text/plain")
    server.add("/sitemap_index.xml", body=index(server, ["/sitemap-pages.xml"]))
    server.add("/sitemap-pages.xml", body=urlset(entries), etag='"v1"')


@pytest.fixture()
def server() -> Iterator[Server]:
    running = Server()
    yield running
    running.close()


@pytest.fixture()
def other() -> Iterator[Server]:
    running = Server()  # another port of 127.0.0.1: another origin
    yield running
    running.close()


def found(result: object) -> list[tuple[str, str | None, int | None, str | None]]:
    return [(d.code, d.file, d.line, d.url) for d in result.collector.sorted()]  # type: ignore[attr-defined]


def test_a_clean_served_site_passes_from_its_home_page_with_its_pages(server: Server) -> None:
    serve_clean(server)
    result = check([server.url + "/"], fetch=FAST, pages="all")
    assert found(result) == [] and result.ok
    files = {f["file"]: f["kind"] for f in result.files}
    assert files[server.url + "/sitemap_index.xml"] == "sitemapindex"
    assert files[server.url + "/sitemap-pages.xml"] == "urlset"
    assert sum(1 for kind in files.values() if kind == "html") == 6  # every page's head was read
    assert not any("/tmp" in str(name) for name in files)  # findings and files name URLs


def test_the_command_line_exits_0_on_the_clean_site_and_1_on_a_defect(server: Server) -> None:
    serve_clean(server)
    command = [sys.executable, "-m", "sitemap_ext", "check", server.url + "/robots.txt", "--allow-private",
               "--timeout", "2", "--pages", "all", "--quiet"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    server.add("/fr/b/", status=404, body=b"gone", content_type="text/html")
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f"{server.url}/sitemap-pages.xml:" in done.stdout and "U113" in done.stdout
    assert "/tmp" not in done.stdout


def test_private_addresses_and_file_urls_are_refused_unless_allowed(server: Server) -> None:
    serve_clean(server)
    refused = check([server.url + "/robots.txt", "file:///etc/passwd"], fetch=FetchOptions(timeout=1.0))
    codes = [(code, file) for code, file, _, _ in found(refused)]
    assert ("R106", server.url + "/robots.txt") in codes and ("R106", "file:///etc/passwd") in codes
    assert not refused.ok and server.requests == []  # nothing was asked of the server


def test_planted_defects_are_each_reported_at_the_url_and_line_that_names_them(server: Server) -> None:
    serve_clean(server)
    u = server.url
    children = ["/sitemap-pages.xml", "/missing.xml", "/moved.xml", "/as-html.xml", "/loop-1.xml", "/broken.xml",
                "/private-list.xml"]
    server.add("/sitemap_index.xml", body=index(server, children))
    server.add("/missing.xml", status=404, body=b"no", content_type="text/plain")
    server.add("/moved.xml", status=301, headers={"Location": "/moved-here.xml"})
    server.add("/moved-here.xml", body=urlset([entry(f"{u}/en/a/", cluster(server, "a"))]))
    server.add("/as-html.xml", body=urlset([entry(f"{u}/en/b/", cluster(server, "b"))]),
               content_type="text/html")
    server.add("/loop-1.xml", status=302, headers={"Location": "/loop-2.xml"})
    server.add("/loop-2.xml", status=302, headers={"Location": "/loop-1.xml"})
    server.add("/broken.xml", status=500, body=b"oops", content_type="text/plain")
    server.add("/private-list.xml", body=urlset([entry(f"{u}/private/x/", {})]))
    result = check([u + "/robots.txt"], fetch=FAST)
    got = found(result)
    index_url = u + "/sitemap_index.xml"
    assert ("R102", index_url, 4, u + "/missing.xml") in got
    assert ("R103", index_url, 5, u + "/moved.xml") in got
    assert ("R105", index_url, 6, u + "/as-html.xml") in got
    assert ("R104", index_url, 7, u + "/loop-1.xml") in got
    assert ("R102", index_url, 8, u + "/broken.xml") in got
    assert ("R107", u + "/private-list.xml", 3, u + "/private/x/") in got
    assert not result.ok


def test_page_defects_over_http_are_the_built_site_cross_checks(server: Server) -> None:
    serve_clean(server)
    u = server.url
    links = cluster(server, "a")
    server.add("/de/a/", body=page(links, lang="de", extra='<meta name="robots" content="noindex">\n'),
               content_type="text/html")
    server.add("/fr/a/", body=page({"fr": links["fr"], "en": links["en"], "de": links["en"]}, lang="fr"),
               content_type="text/html")  # its de link names the en page: the methods contradict
    server.add("/en/b/", status=301, headers={"Location": "/en/b-new/"})
    server.add("/de/b/", body=page(cluster(server, "b"), lang="de"), content_type="text/html",
               headers={"X-Robots-Tag": "noindex"})
    server.add("/fr/b/", status=404, body=b"", content_type="text/html")
    result = check([u + "/robots.txt"], fetch=FAST, pages="all")
    got = [(code, (file or "").replace(u, ""), line, (url or "").replace(u, "")) for code, file, line, url in found(result)]
    assert got == [
        ("R109", "/en/b/", None, "/en/b/"),  # a listed URL that redirects (named by its own URL)
        ("H107", "/fr/a/", 7, "/fr/a/"),  # the page's own links: one URL as two languages
        ("H114", "/sitemap-pages.xml", 3, "/en/a/"),  # an alternate to a page that is noindex (de/a)
        ("U112", "/sitemap-pages.xml", 10, "/de/a/"),  # listed, and noindex in its head
        ("H116", "/sitemap-pages.xml", 17, "/fr/a/"),  # the sitemap and the page contradict (de)
        ("H114", "/sitemap-pages.xml", 24, "/en/b/"),  # an alternate to de/b, noindex by X-Robots-Tag
        ("H115", "/sitemap-pages.xml", 24, "/en/b/"),  # an alternate (fr/b) that answers 404
        ("U112", "/sitemap-pages.xml", 31, "/de/b/"),  # listed, and noindex by its X-Robots-Tag header
        ("U113", "/sitemap-pages.xml", 38, "/fr/b/"),  # listed, and answers 404
    ]
    assert not result.ok


def test_hostile_servers_end_in_coded_findings_within_their_limits(server: Server) -> None:
    u = server.url
    opening = b'<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    server.add("/stalled.xml", body=stalled(opening, 5.0))
    server.add("/trickle.xml", body=repeated(b" " * 10, 10**9), headers={})
    server.add("/bomb.xml", body=gzip_bomb(60 * 2**20), headers={"Content-Encoding": "gzip"})
    server.add("/huge.xml", body=repeated(b"<!-- " + b"x" * 65530 + b" -->", 53 * 2**20))
    server.add("/busy.xml", times=[429], status=200, headers={"Retry-After": "1"},
               body=urlset([entry(f"{u}/en/a/", {})]))
    server.add("/down.xml", status=503, headers={"Retry-After": "120"}, body=b"", content_type="text/plain")
    started = time.monotonic()
    slow = FetchOptions(timeout=1.0, deadline=2.0, retries=1, max_wait=1.0, allow_private=True)
    result = check([u + path for path in ("/stalled.xml", "/trickle.xml", "/bomb.xml", "/huge.xml", "/busy.xml",
                                          "/down.xml")], fetch=slow)
    took = time.monotonic() - started
    got = {(code, file) for code, file, _, _ in found(result)}
    assert ("R101", u + "/stalled.xml") in got  # no byte for longer than the timeout
    assert ("R101", u + "/trickle.xml") in got  # bytes, but never an end within the deadline
    assert ("X109", u + "/bomb.xml") in got  # more than 50 MiB once Content-Encoding is undone
    assert ("X109", u + "/huge.xml") in got
    assert ("R102", u + "/down.xml") in got  # 503 after its retries (Retry-After capped)
    assert not any(file == u + "/busy.xml" and code.startswith("R") for code, file in got)  # the retry was answered
    assert [path for path in server.paths() if path == "/busy.xml"] == ["/busy.xml", "/busy.xml"]
    assert took < 30


def test_a_cache_makes_the_second_run_conditional(server: Server, tmp_path: object) -> None:
    serve_clean(server)
    options = FetchOptions(timeout=2.0, allow_private=True, cache=str(tmp_path))
    first = check([server.url + "/robots.txt"], fetch=options)
    server.requests.clear()
    second = check([server.url + "/robots.txt"], fetch=options)
    assert found(first) == found(second) == []
    asked = [headers.get("if-none-match") for path, headers in server.requests if path == "/sitemap-pages.xml"]
    assert asked == ['"v1"']  # asked with its ETag, answered 304, the kept body checked again
    assert second.files == first.files


def test_a_site_without_sitemaps_is_r108_and_the_usual_places_are_tried(server: Server) -> None:
    server.add("/", body=b"<!DOCTYPE html><html><head></head><body>home</body></html>", content_type="text/html")
    result = check([server.url + "/"], fetch=FAST)
    assert [(code, file) for code, file, _, _ in found(result)] == [("R108", server.url + "/")]
    assert {"/robots.txt", "/sitemap.xml", "/sitemap_index.xml"} <= set(server.paths())
    server.add("/sitemap.xml", body=urlset([entry(f"{server.url}/en/a/", {})]))
    assert found(check([server.url + "/"], fetch=FAST)) == []


def test_headers_are_sent_the_budget_holds_and_progress_goes_to_stderr(server: Server) -> None:
    serve_clean(server)
    command = [sys.executable, "-m", "sitemap_ext", "check", server.url + "/robots.txt", "--allow-private",
               "--pages", "2", "--header", "X-Staging-Token: s3cret"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pages: 2/2 fetched in" in done.stderr
    pages = [path for path, _ in server.requests if path.startswith(("/en/", "/de/", "/fr/"))]
    assert len(pages) == 2  # the budget: two of the six pages
    assert all(headers.get("x-staging-token") == "s3cret" for _, headers in server.requests)
    assert all(headers.get("user-agent", "").startswith("sitemap-ext/") for _, headers in server.requests)
    bad = subprocess.run([*command[:-2], "--header", "no colon"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--header takes 'NAME: VALUE'" in bad.stderr


def test_robots_lines_gz_sitemaps_local_files_and_cross_submission(server: Server, tmp_path: object) -> None:
    import gzip as gz
    from pathlib import Path

    u = server.url
    other = u.replace("127.0.0.1", "localhost")  # a second host, served by the same server
    links = cluster(server, "a")
    server.add("/robots.txt", content_type="text/plain",
               body=f"Sitemap: {u}/gone.xml\nSitemap: {u}/pages.xml.gz\n".encode())
    server.add("/gone.xml", status=410, body=b"", content_type="text/plain")
    server.add("/pages.xml.gz", body=gz.compress(urlset([entry(links[code], links) for code in LOCALES])),
               content_type="application/gzip")
    server.add("/other-host.xml", body=urlset([entry(f"{other}/en/c/", {})]))
    server.add("//localhost/robots.txt", body=b"User-agent: *\nAllow: /\n", content_type="text/plain")
    local = Path(str(tmp_path)) / "local.xml"
    local.write_text(urlset([entry(links["en"], {"en": links["en"], "de": links["de"]})]).decode())
    local_name = display_name(str(local))
    result = check([u + "/robots.txt", u + "/other-host.xml", str(local)], fetch=FAST)
    got = {(code, file, line) for code, file, line, _ in found(result)}
    assert ("R102", u + "/robots.txt", 1) in got  # at the robots.txt line that names it
    assert ("U107", u + "/other-host.xml", 4) in got  # the other host's robots.txt does not list it
    kinds = {f["file"]: f["kind"] for f in result.files}
    assert kinds[u + "/pages.xml.gz"] == "urlset" and kinds[local_name] == "urlset"
    assert not any(code == "X116" for code, _, _ in got)  # a .gz URL that holds gzip is named right
    # URLs are judged across the fetched sitemap and the local file: en/a is listed in both (U104, at the local file).
    assert ("U104", local_name, 3) in got
    # Once the other host's robots.txt lists the sitemap, it may list that host's URLs.
    server.add("//localhost/robots.txt", body=f"Sitemap: {u}/other-host.xml\n".encode(), content_type="text/plain")
    result = check([u + "/other-host.xml"], fetch=FAST)
    assert "U107" not in {code for code, _, _, _ in found(result)}


def test_a_delay_spaces_the_page_requests_to_one_host(server: Server) -> None:
    serve_clean(server)
    result = check([server.url + "/robots.txt"], fetch=FAST, pages=3, delay=0.3)
    assert result.ok
    times = [when for path, when in server.times if path.startswith(("/en/", "/de/", "/fr/"))]
    assert len(times) == 3
    assert all(later - earlier >= 0.28 for earlier, later in zip(times, times[1:]))


def test_the_address_is_checked_again_when_the_connection_is_made(server: Server, monkeypatch) -> None:
    # A name that resolved to a public address when it was checked and to a local one
    # when connected to (DNS rebinding) is refused at the connection: nothing is asked.
    import sitemap_ext.read.http as fetch

    serve_clean(server)
    monkeypatch.setattr(fetch, "guard", lambda url, allow_private: None)  # as if the first answer was public
    result = check([server.url + "/sitemap-pages.xml"], fetch=FetchOptions(timeout=1.0))
    assert [(code, file) for code, file, _, _ in found(result)] == [("R106", server.url + "/sitemap-pages.xml")]
    assert server.requests == []


def test_a_robots_txt_that_answers_5xx_is_reported_once(server: Server) -> None:
    serve_clean(server)
    server.add("/robots.txt", status=500, body=b"", content_type="text/plain")
    result = check([server.url + "/sitemap-pages.xml"], fetch=FAST)
    assert [(code, file) for code, file, _, _ in found(result)] == [("R102", server.url + "/robots.txt")]


def test_a_site_that_cannot_be_reached_is_that_not_r108(server: Server) -> None:
    """Given by its root: refused by the guard (R106, naming --allow-private), or no
    connection (R101); never 'names no sitemap'."""
    import socket

    refused = check([server.url + "/"], fetch=FetchOptions(timeout=1.0))
    [finding] = refused.collector.sorted()
    assert (finding.code, finding.file) == ("R106", server.url + "/") and "--allow-private" in finding.message
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # a port where nothing listens: the connection is refused
    unreachable = check([f"http://127.0.0.1:{port}/"], fetch=FAST)
    assert [(d.code, d.file) for d in unreachable.collector.sorted()] == [("R101", f"http://127.0.0.1:{port}/")]


def test_a_long_robots_txt_is_read_to_500_kib_at_a_line_boundary(server: Server) -> None:
    u = server.url
    head = f"User-agent: *\nDisallow: /private/\nSitemap: {u}/early.xml\n".encode()
    filler = b"# " + b"x" * 997 + b"\n"  # 1,000-byte lines: line 512 straddles 500 KiB
    tail = f"Sitemap: {u}/late.xml\nDisallow: /\n".encode()
    server.add("/robots.txt", body=head + filler * 3000 + tail, content_type="text/plain")  # about 3 MB
    server.add("/early.xml", body=urlset([entry(f"{u}/private/a/", {}), entry(f"{u}/b/", {})]))
    server.add("/late.xml", body=urlset([entry(f"{u}/c/", {})]))
    result = check([u + "/robots.txt"], fetch=FAST)
    assert {f["file"] for f in result.files} == {u + "/early.xml"}  # the Sitemap: line past 500 KiB is not read
    assert [(d.code, d.url) for d in result.collector.sorted()] == [("R107", u + "/private/a/")]  # nor Disallow: /


def test_pages_that_robots_txt_disallows_are_never_fetched(server: Server, other: Server) -> None:
    """A listed URL and an alternate on another host, both disallowed: R107, no request."""
    u, o = server.url, other.url
    server.add("/robots.txt", body=f"User-agent: *\nDisallow: /de/\nSitemap: {u}/s.xml\n".encode(),
               content_type="text/plain")
    other.add("/robots.txt", body=b"User-agent: Googlebot\nDisallow: /fr/\n", content_type="text/plain")
    links = {"en": f"{u}/en/", "de": f"{u}/de/", "fr": f"{o}/fr/"}
    server.add("/s.xml", body=urlset([entry(links["en"], links), entry(links["de"], links)]))
    for path, lang in (("/en/", "en"), ("/de/", "de")):
        server.add(path, body=page(links, lang=lang), content_type="text/html")
    other.add("/fr/", body=page(links, lang="fr"), content_type="text/html")
    result = check([u + "/robots.txt"], fetch=FAST, pages="all")
    assert not any(path.startswith("/de/") for path in server.paths())
    assert not any(path.startswith("/fr/") for path in other.paths())
    r107 = {d.url for d in result.collector.sorted() if d.code == "R107"}
    assert r107 == {f"{u}/de/", f"{o}/fr/"}


def test_a_listed_sitemap_that_cannot_be_fetched_is_the_sites_defect_exit_1(server: Server) -> None:
    """404, 500 or no answer from a child an index or robots.txt lists: exit 1. The URL
    the user named unreachable: exit 3 (the check could not read its input)."""
    u = server.url
    opening = b'<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    server.add("/robots.txt", body=f"Sitemap: {u}/index.xml\nSitemap: {u}/slow.xml\n".encode(),
               content_type="text/plain")
    server.add("/index.xml", body=index(server, ["/missing.xml", "/broken.xml", "/slow.xml"]))
    server.add("/missing.xml", status=404, body=b"no", content_type="text/plain")
    server.add("/broken.xml", status=500, body=b"oops", content_type="text/plain")
    server.add("/slow.xml", body=stalled(opening, 3.0))
    command = [sys.executable, "-m", "sitemap_ext", "check", "--allow-private", "--timeout", "1", "--quiet",
               "--format", "json"]
    done = subprocess.run([*command, u + "/robots.txt"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert {"R102", LISTED_UNFETCHED} <= {d["code"] for d in __import__("json").loads(done.stdout)["diagnostics"]}
    done = subprocess.run([*command, u + "/slow.xml"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stdout + done.stderr


def test_a_cached_second_run_judges_the_pages_again(server: Server, tmp_path: object) -> None:
    """The cache keeps whole sitemaps only: a page's head (and a robots.txt's first 500
    KiB) is fetched anew, so a second run with --cache finds what the first found."""
    serve_clean(server)
    links = cluster(server, "a")
    server.add("/de/a/", body=page(links, lang="de", extra='<meta name="robots" content="noindex">\n'),
               content_type="text/html", headers={"ETag": '"p1"'})
    options = FetchOptions(timeout=2.0, allow_private=True, cache=str(tmp_path))
    first = check([server.url + "/robots.txt"], fetch=options, pages="all")
    second = check([server.url + "/robots.txt"], fetch=options, pages="all")
    assert {"U112", "H114"} <= {code for code, *_ in found(first)}
    assert found(second) == found(first) and not second.ok
