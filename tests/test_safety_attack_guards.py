"""Guards that an attacker (a server, a planted config, a poisoned build state) must not
defeat: what was not read whole is never judged as if it were, a hidden finding that an
input was not read still fails the run, a value is judged by ASCII digits only, and a
damaged build state is a finding, never a traceback."""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import redirect_stderr, redirect_stdout

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext.cli import main

NOW = "2026-11-21T00:00:00Z"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def text_sitemap(base: str, count: int) -> bytes:
    return "".join(f"{base}/page/{n}\n" for n in range(count)).encode()


# --- 1. A compressed answer cut off before its end is not read whole --------------------


@pytest.fixture()
def server() -> Iterator[object]:
    pytest.importorskip("httpx", reason="a live check needs the 'live' extra")
    pytest.importorskip("protego", reason="a live check needs the 'live' extra")
    from tests.live_server import Server

    served = Server()
    yield served
    served.close()


def cut(body: bytes) -> Callable[[], Iterable[bytes]]:
    """A body sent without Content-Length, then the connection closed: the end of the
    stream is where the server stopped."""
    return lambda: [body]


def deflate(data: bytes) -> bytes:
    return zlib.compress(data)


ENCODED = {  # Content-Encoding -> how the body is encoded
    "gzip": gzip.compress,
    "deflate": deflate,
    "gzip, gzip": lambda data: gzip.compress(gzip.compress(data)),
}


def serve_cut(server: object, encoding: str, *, whole: bool = False) -> tuple[str, str]:
    """OLD: a 2,000-URL text sitemap, whole; NEW: the same, ``encoding``-encoded and its
    bytes cut in half (unless ``whole``). Their URLs."""
    body = text_sitemap(server.url, 2000)  # type: ignore[attr-defined]
    encoded = ENCODED[encoding](body)
    sent = encoded if whole else encoded[:len(encoded) // 2]
    server.add("/old.txt", body=body, content_type="text/plain")  # type: ignore[attr-defined]
    server.add("/new.txt", body=cut(sent), content_type="text/plain",  # type: ignore[attr-defined]
               headers={"Content-Encoding": encoding})
    url = server.url  # type: ignore[attr-defined]
    return url + "/old.txt", url + "/new.txt"


@pytest.mark.parametrize("encoding", sorted(ENCODED))
def test_a_compressed_answer_cut_short_stops_the_diff(server: object, encoding: str) -> None:
    old, new = serve_cut(server, encoding)
    code, out, err = run("diff", old, new, "--allow-private", "--now", NOW, "-q")
    assert (code, out) == (3, ""), err
    assert f"{new}: error X114 " in err and "ends before its end" in err, err
    assert "sitemap-ext diff: NEW" in err


@pytest.mark.parametrize("encoding", sorted(ENCODED))
def test_a_compressed_answer_cut_short_is_x114_and_none_of_it_is_judged(server: object, encoding: str) -> None:
    from sitemap_ext import check
    from sitemap_ext.read.http import FetchOptions

    _, new = serve_cut(server, encoding)
    result = check([new], fetch=FetchOptions(timeout=2.0, deadline=5.0, allow_private=True), now=NOW)
    found = [(d.code, d.file or d.url) for d in result.collector.sorted()]
    assert found == [("X114", new)], found
    assert result.counts.entries == 0  # the half that came is not judged as if it were the file
    code, _, err = run("check", new, "--allow-private", "--now", NOW)
    assert code == 1 and f"{new}: error X114 " in err + _, err


@pytest.mark.parametrize("encoding", sorted(ENCODED))
def test_a_whole_compressed_answer_is_read(server: object, encoding: str) -> None:
    old, new = serve_cut(server, encoding, whole=True)
    code, out, err = run("diff", old, new, "--allow-private", "--now", NOW, "-q", "--format", "json")
    assert code == 0, err
    summary = json.loads(out)["summary"]
    assert (summary["added"], summary["removed"], summary["ok"]) == (0, 0, True)


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=300_000), cut_at=st.floats(0, 1, exclude_max=True), step=st.integers(1, 70_000),
       encoding=st.sampled_from(sorted(ENCODED)))
def test_every_layer_must_reach_its_end(data: bytes, cut_at: float, step: int, encoding: str) -> None:
    """Whole, a body decodes to itself in any chunking (output the inflater still holds
    at the end of its input included); any non-empty prefix of it is ``Truncated``."""
    from sitemap_ext.read.http_encoding import Truncated, decoded

    encoded = ENCODED[encoding](data)

    def chunks(raw: bytes) -> Iterator[bytes]:
        return iter([raw[at:at + step] for at in range(0, len(raw), step)])

    assert b"".join(decoded(chunks(encoded), encoding, 1 << 30)) == data
    prefix = encoded[:max(1, int(len(encoded) * cut_at))]
    with pytest.raises(Truncated):
        b"".join(decoded(chunks(prefix), encoding, 1 << 30))
    assert b"".join(decoded(iter([b""]), encoding, 1 << 30)) == b""  # an empty body is read as empty
