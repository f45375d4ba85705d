"""A live check against hostile servers on 127.0.0.1: what goes out (the user's headers
to the origins given only; no address that is not public), what comes in (bounded in
bytes, layers of encoding, time and disk), and that bad options or URLs never give a
traceback. Ends with a fuzz: a server whose every answer is generated."""

from __future__ import annotations

import ipaddress
import os
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("httpx", reason="a live check needs the 'live' extra (httpx, protego)")
pytest.importorskip("protego", reason="a live check needs the 'live' extra (httpx, protego)")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.live_server import Raw, Server, drip, gzip_bomb, gzip_layers  # noqa: E402
from tests.test_check_live import entry, index, urlset  # noqa: E402

from sitemap_ext import check  # noqa: E402
from sitemap_ext.cli import main  # noqa: E402
from sitemap_ext.codes import REGISTRY  # noqa: E402
from sitemap_ext.read.http import Fetcher, FetchOptions, is_public  # noqa: E402

FAST = FetchOptions(timeout=1.0, deadline=3.0, retries=1, max_wait=0.2, allow_private=True)


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


def codes(result: object) -> set[tuple[str, str | None]]:
    return {(d.code, d.file) for d in result.collector.sorted()}  # type: ignore[attr-defined]


# --- what goes out ---------------------------------------------------------------------

def test_the_users_headers_go_to_the_origins_given_only(server: Server, other: Server) -> None:
    """Across a redirect to another origin, to another origin's sitemap (named by
    robots.txt and by an index), its robots.txt and its pages: no Authorization, no
    Cookie. The origin given gets them on every request."""
    u, o = server.url, other.url
    server.add("/robots.txt", body=f"Sitemap: {u}/index.xml\nSitemap: {o}/theirs.xml\n".encode(),
               content_type="text/plain")
    server.add("/index.xml", body=index(server, ["/mine.xml", "/moved.xml"]))
    server.add("/mine.xml", body=urlset([entry(f"{u}/a/", {"en": f"{u}/a/", "de": f"{o}/de/a/"})]))
    server.add("/moved.xml", status=302, headers={"Location": f"{o}/theirs.xml"})
    server.add("/a/", body=b"<html><head></head><body></body></html>", content_type="text/html")
    other.add("/theirs.xml", body=urlset([entry(f"{o}/de/a/", {})]))
    other.add("/robots.txt", body=f"Sitemap: {u}/mine.xml\n".encode(), content_type="text/plain")
    other.add("/de/a/", body=b"<html><head></head><body></body></html>", content_type="text/html")
    options = FetchOptions(timeout=1.0, allow_private=True,
                           headers=(("Authorization", "Basic c2VjcmV0"), ("Cookie", "session=s3cret")))
    check([u + "/robots.txt"], fetch=options, pages="all")
    assert {"/theirs.xml", "/robots.txt", "/de/a/"} <= set(other.paths())  # the other origin was asked
    assert all("authorization" not in headers and "cookie" not in headers for _, headers in other.requests)
    assert server.requests and all(headers.get("authorization") == "Basic c2VjcmV0"
                                   and headers.get("cookie") == "session=s3cret" for _, headers in server.requests)


def test_a_redirect_to_another_port_and_back_carries_no_headers_there(server: Server, other: Server) -> None:
    """Same host, another port: another origin. Back on the origin given, they are sent again."""
    server.add("/s.xml", status=301, headers={"Location": f"{other.url}/s.xml"})
    other.add("/s.xml", status=302, headers={"Location": f"{server.url}/t.xml"})
    server.add("/t.xml", body=urlset([entry(f"{server.url}/a/", {})]))
    options = FetchOptions(timeout=1.0, allow_private=True, headers=(("X-Token", "t"),))
    check([server.url + "/s.xml"], fetch=options)
    assert ("/s.xml", None) in [(path, h.get("x-token")) for path, h in other.requests]
    assert all(h.get("x-token") is None for _, h in other.requests)
    assert {path: h.get("x-token") for path, h in server.requests} == {"/s.xml": "t", "/t.xml": "t",
                                                                       "/robots.txt": "t"}


ADDRESSES = [  # (address, public)
    ("8.8.8.8", True), ("2606:4700:4700::1111", True), ("::ffff:8.8.8.8", True), ("64:ff9b::808:808", True),
    ("2002:808:808::1", True),
    ("127.0.0.1", False), ("10.1.2.3", False), ("172.16.0.1", False), ("192.168.1.1", False),
    ("100.64.0.1", False), ("100.127.255.254", False),  # carrier-grade NAT (RFC 6598)
    ("169.254.169.254", False),  # link-local: the cloud metadata service
    ("0.0.0.0", False), ("255.255.255.255", False), ("224.0.0.1", False), ("240.0.0.1", False),
    ("192.0.2.1", False), ("198.18.0.1", False), ("198.51.100.1", False), ("203.0.113.1", False),
    ("::1", False), ("::", False), ("fe80::1", False), ("fc00::1", False), ("fd12:3456::1", False),
    ("ff02::1", False), ("2001:db8::1", False), ("100::1", False),
    ("::ffff:127.0.0.1", False), ("::ffff:10.0.0.1", False), ("::ffff:100.64.0.1", False),  # IPv4-mapped
    ("::127.0.0.1", False),  # IPv4-compatible (deprecated)
    ("64:ff9b::7f00:1", False), ("64:ff9b::a9fe:a9fe", False),  # NAT64 to loopback, to link-local
    ("2002:7f00:1::1", False), ("2002:a00:1::1", False),  # 6to4 of loopback, of 10.0.0.1
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", False),  # Teredo
]


@pytest.mark.parametrize(("text", "public"), ADDRESSES)
def test_the_one_address_predicate(text: str, public: bool) -> None:
    assert is_public(ipaddress.ip_address(text)) is public


def test_carrier_grade_nat_is_refused_at_the_url_and_at_the_connection(server: Server, monkeypatch) -> None:
    import socket

    import sitemap_ext.read.http as fetch

    real = socket.getaddrinfo
    asked: list[str] = []

    def resolve(host, port, *args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(host)
        if host == "cgnat.test":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("100.64.0.1", port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    result = check(["http://cgnat.test/sitemap.xml"], fetch=FetchOptions(timeout=1.0))
    assert codes(result) == {("R106", "http://cgnat.test/sitemap.xml")}
    # A redirect hop to it is refused too (the guard at every hop), before any connection.
    monkeypatch.setattr(fetch, "public_addresses", lambda host, port: [host] if host == "127.0.0.1" else
                        (_ for _ in ()).throw(fetch.Refusal(f"{host} is not public")))
    server.add("/s.xml", status=302, headers={"Location": "http://cgnat.test/s.xml"})
    result = check([server.url + "/s.xml"], fetch=FetchOptions(timeout=1.0))
    assert ("R106", server.url + "/s.xml") in codes(result)


# --- what comes in ---------------------------------------------------------------------

def test_stacked_encodings_are_undone_by_one_bounded_decoder(server: Server) -> None:
    bomb = gzip_bomb(1 << 30)  # 1 GiB of XML in about 1 MB; gzipped again: about 2 KB
    server.add("/two.xml", body=gzip_layers(bomb, 1), headers={"Content-Encoding": "gzip, gzip"})
    server.add("/three.xml", body=gzip_layers(bomb, 2), headers={"Content-Encoding": "gzip, gzip, gzip"})
    server.add("/split.xml", body=gzip_layers(bomb, 1), headers={"Content-Encoding": "gzip,identity , GZIP"})
    plain = urlset([entry(f"{server.url}/a/", {})])
    server.add("/fine.xml", body=gzip_layers(plain, 2), headers={"Content-Encoding": "gzip, gzip"})
    server.add("/brotli.xml", body=plain, headers={"Content-Encoding": "br"})
    server.add("/deep.xml", body=gzip_layers(plain, 5), headers={"Content-Encoding": ", ".join(["gzip"] * 5)})
    started = time.monotonic()
    result = check([server.url + p for p in ("/two.xml", "/three.xml", "/split.xml", "/fine.xml", "/brotli.xml",
                                              "/deep.xml")], fetch=FAST)
    got = codes(result)
    assert {("X109", server.url + p) for p in ("/two.xml", "/three.xml", "/split.xml")} <= got
    assert {("R101", server.url + "/brotli.xml"), ("R101", server.url + "/deep.xml")} <= got  # refused, named
    assert not any(file == server.url + "/fine.xml" for _, file in got)  # two honest layers: read
    assert time.monotonic() - started < 15


@pytest.mark.parametrize("where", ["status line", "headers", "body"])
def test_a_server_that_drips_is_cut_off_at_the_deadline(where: str) -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: 100000\r\n\r\n"
    if where == "status line":
        answer = lambda request: drip(head, 0.1)  # noqa: E731
    elif where == "headers":
        answer = lambda request: [(head[:17], 0), *drip(b"X-Pad: " + b"a" * 400 + b"\r\n", 0.05)]  # noqa: E731
    else:
        answer = lambda request: [(head, 0), *drip(b"<?xml version='1.0'?>" + b" " * 1000, 0.05)]  # noqa: E731
    raw = Raw(answer)
    try:
        started = time.monotonic()
        result = check([raw.url + "/s.xml"], fetch=FetchOptions(timeout=1.0, deadline=1.5, allow_private=True))
        took = time.monotonic() - started
    finally:
        raw.close()
    [finding] = result.collector.sorted()
    assert finding.code == "R101" and "did not end within 1.5 s" in finding.message
    assert took < 4  # the deadline (1.5 s) and no more than a read's worth after it


def test_the_deadline_holds_across_redirects_and_retries(server: Server) -> None:
    """Each hop answers in time; together they would not: the URL's deadline ends them."""
    for hop in range(5):
        server.add(f"/hop{hop}.xml", status=302, headers={"Location": f"/hop{hop + 1}.xml", "Retry-After": "1"},
                   times=[503])
    server.add("/hop5.xml", body=urlset([entry(f"{server.url}/a/", {})]))
    started = time.monotonic()
    options = FetchOptions(timeout=1.0, deadline=2.0, retries=1, max_wait=1.0, allow_private=True)
    result = check([server.url + "/hop0.xml"], fetch=options)
    assert time.monotonic() - started < 5
    assert {code for code, _ in codes(result)} & {"R101", "R102"}


def test_an_index_s_children_are_freed_once_judged(server: Server, monkeypatch) -> None:
    """Forty children that inflate to 1 MiB each: on disk at once at most a window of
    them (not 40 MiB), every one judged, and every file gone at the end."""
    from sitemap_ext.read.live import CHILD_WINDOW

    padded = urlset([entry(f"{server.url}/a/", {})]).replace(b"</urlset>", b" " * (1 << 20) + b"</urlset>")
    child = gzip_layers(padded, 1)
    names = [f"/c{n}.xml" for n in range(40)]
    for name in names:
        server.add(name, body=child, headers={"Content-Encoding": "gzip"})
    server.add("/index.xml", body=index(server, names))
    peak, folders = [0], []
    body = Fetcher._body

    def watched(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        folders.append(self.folder)
        path = body(self, *args, **kwargs)
        peak[0] = max(peak[0], self.on_disk())
        return path

    monkeypatch.setattr(Fetcher, "_body", watched)
    result = check([server.url + "/index.xml"], fetch=FAST)
    assert sum(1 for f in result.files if f["kind"] == "urlset") == 40
    assert peak[0] <= (CHILD_WINDOW + 1) * ((1 << 20) + 4096)
    assert not os.path.exists(folders[0])


def test_the_disk_budget_is_a_finding_not_a_full_disk(server: Server) -> None:
    big = b" " * (3 << 20)
    server.add("/a.xml", body=urlset([entry(f"{server.url}/a/", {})]).replace(b"</urlset>", big + b"</urlset>"))
    server.add("/b.xml", body=urlset([entry(f"{server.url}/b/", {})]).replace(b"</urlset>", big + b"</urlset>"))
    options = FetchOptions(timeout=1.0, allow_private=True, disk_limit=4 << 20)
    result = check([server.url + "/a.xml", server.url + "/b.xml"], fetch=options)
    [finding] = [d for d in result.collector.sorted() if d.code == "R101"]
    assert "on disk at once" in finding.message


# --- no traceback ----------------------------------------------------------------------

@pytest.mark.parametrize(("option", "value", "says"), [
    ("--timeout", "inf", "--timeout must be a finite number"), ("--timeout", "nan", "--timeout must be"),
    ("--timeout", "-1", "--timeout must be"), ("--timeout", "0", "above 0"),
    ("--delay", "inf", "--delay must be a finite"), ("--delay", "nan", "--delay must be"),
    ("--delay", "-0.5", "--delay must be"), ("--cache", "FILE", "--cache"),
])
def test_bad_options_are_usage_errors(option: str, value: str, says: str, tmp_path, capsys) -> None:
    if value == "FILE":
        value = str(tmp_path / "a-file")
        open(value, "w").close()
    assert main(["check", "http://127.0.0.1:9/", "--allow-private", option, value]) == 2
    assert says in capsys.readouterr().err


def test_the_api_refuses_bad_fetch_options() -> None:
    for bad in ({"timeout": float("inf")}, {"deadline": float("nan")}, {"timeout": -1}, {"retries": -1},
                {"per_host": 0}, {"max_wait": True}, {"headers": (("X", "a\r\nInjected: 1"),)}):
        with pytest.raises(ValueError):
            FetchOptions(**bad)  # type: ignore[arg-type]


def test_urls_that_cannot_be_requested_are_findings(server: Server) -> None:
    u = server.url
    odd = [f"{u}/a%00.xml", f"{u}/b\x00.xml", "http://127.0.0.1:99999/c.xml", "http://[::1/d.xml",
           "http://exa mple.test/e.xml", "http:///f.xml", f"{u}/{'g' * 70000}.xml", "http://.../h.xml"]
    server.add("/index.xml", body=index(server, []).replace(
        b"</sitemapindex>", b"".join(f"<sitemap><loc>{x.replace(chr(0), '%00')}</loc></sitemap>".encode()
                                     for x in odd) + b"</sitemapindex>"))
    result = check([u + "/index.xml", *odd], fetch=FAST)
    assert all(d.code in REGISTRY for d in result.collector.diagnostics)
    named = {d.file for d in result.collector.diagnostics}
    assert all(url in named or url[:2100] in str(named) for url in odd[:4])


# --- fuzz: a server whose answers are generated ------------------------------------------

_STATUS = st.sampled_from([200, 200, 200, 204, 206, 301, 302, 303, 307, 308, 304, 400, 401, 403, 404, 410, 429,
                           500, 503, 999, 100, 199])
_ENCODING = st.lists(st.sampled_from(["gzip", "deflate", "identity", "br", "x-gzip", "GZIP", "", "zstd"]),
                     max_size=6).map(", ".join)
_HEADER_VALUE = st.one_of(st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40),
                          st.sampled_from(["-1", "99999999999999999999", "Wed, 99 Foo 2026", "²", "1e9", "0"]))


@st.composite
def answers(draw):  # type: ignore[no-untyped-def]
    status = draw(_STATUS)
    encoding = draw(_ENCODING)
    payload = draw(st.sampled_from([b"", b"<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/"
                                    b"sitemap/0.9'><url><loc>http://127.0.0.1:1/a</loc></url></urlset>",
                                    b"<html><head></head>", b"\x1f\x8b\x08\x00garbage", b"\x00" * 64]))
    payload = draw(st.one_of(st.just(payload), st.binary(max_size=200)))
    layers = draw(st.integers(0, 3))
    body = gzip_layers(payload, layers) if draw(st.booleans()) else payload
    headers = [("Content-Type", draw(st.sampled_from(["application/xml", "text/html", "text/plain", "", "x/y"])))]
    if encoding or draw(st.booleans()):
        headers.append(("Content-Encoding", encoding))
    length = draw(st.sampled_from(["right", "short", "long", "none", "junk"]))
    if length != "none":
        headers.append(("Content-Length", {"right": str(len(body)), "short": str(max(len(body) - 3, 0)),
                                           "long": str(len(body) + 1000), "junk": "12abc"}[length]))
    if draw(st.booleans()):
        headers.append(("Location", draw(st.sampled_from(["/s.xml", "/t.xml", "http://127.0.0.1:1/", "",
                                                          "http://[bad", "//127.0.0.1:1/x", "/s.xml?%00"]))))
    if draw(st.booleans()):
        headers.append(("Retry-After", draw(_HEADER_VALUE)))
    if draw(st.booleans()):
        headers.append(("X-Big", "a" * draw(st.sampled_from([10, 70000]))))
    if draw(st.booleans()):
        headers.append(draw(st.sampled_from([("X-Robots-Tag", "noindex"), ("ETag", '"x"'), ("Transfer-Encoding",
                                                                                            "chunked")])))
    pause = draw(st.sampled_from([0.0, 0.0, 0.0, 0.3]))
    return status, headers, body, pause


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.lists(answers(), min_size=1, max_size=4))
def test_fuzz_a_generated_server_gives_coded_findings_in_bounded_time(script) -> None:  # type: ignore[no-untyped-def]
    """Whatever a server answers: no traceback, every finding coded, an exit code of
    0, 1 or 3, and an end within the limits."""
    from sitemap_ext.report.formats import exit_code

    turn = [0]

    def answer(request: bytes):  # type: ignore[no-untyped-def]
        status, headers, body, pause = script[turn[0] % len(script)]
        turn[0] += 1
        head = f"HTTP/1.1 {status} X\r\n".encode() + b"".join(f"{k}: {v}\r\n".encode("latin-1", "replace")
                                                            for k, v in headers) + b"Connection: close\r\n\r\n"
        return [(head, pause), (body, 0)]

    raw = Raw(answer)
    try:
        started = time.monotonic()
        options = FetchOptions(timeout=0.5, deadline=1.5, retries=1, max_wait=0.2, allow_private=True)
        result = check([raw.url + "/s.xml", raw.url + "/"], fetch=options, pages=3)
        took = time.monotonic() - started
    finally:
        raw.close()
    assert all(d.code in REGISTRY for d in result.collector.diagnostics)
    assert exit_code(result.collector, False) in (0, 1, 3)
    assert took < 20
