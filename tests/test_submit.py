"""sitemap-ext submit --indexnow (issue 29): the URLs a build added or changed, sent once
by the IndexNow protocol to an endpoint on 127.0.0.1 that answers every status the
protocol names; a 429 survived, a kill survived, nothing sent on a rerun."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("httpx", reason="submit uses the live extra's client (httpx)")

from sitemap_ext import FetchOptions, build, state_rows, submit
from sitemap_ext.cli import main
from sitemap_ext.folder import STATE

from .conftest import ROOT

KEY = "0123456789abcdef"


@dataclass
class Engine:
    """An IndexNow endpoint (POST /indexnow) and a site's key file (GET /KEY.txt)."""

    answers: list[tuple[int, dict[str, str]]] = field(default_factory=list)  # for the next POSTs, then 200
    key_file: tuple[int, bytes] = (200, KEY.encode() + b"\n")
    posts: list[dict[str, object]] = field(default_factory=list)
    gets: list[str] = field(default_factory=list)
    error_body: tuple[bytes, dict[str, str]] | None = None  # (body, headers) of a refusal, else "status N"
    key_paths: tuple[str, ...] = (f"/{KEY}.txt",)  # where the key file is served (on any host name)
    asked: list[tuple[str, str]] = field(default_factory=list)  # (Host, path) of each GET
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def engine() -> Iterator[Engine]:
    state = Engine()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            state.gets.append(self.path)
            state.asked.append((self.headers.get("Host", ""), self.path))
            if self.path in state.key_paths:
                self._send(*state.key_file)
            else:
                self._send(404, b"not here")

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            status, headers = state.answers.pop(0) if state.answers else (200, {})
            state.posts.append({**body, "answered": status, "type": self.headers.get("Content-Type")})
            if status >= 300 and state.error_body is not None:
                self._send(status, state.error_body[0], {**headers, **state.error_body[1]})
                return
            self._send(status, b"" if status < 300 else f"status {status}".encode(), headers)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


LOCAL = FetchOptions(allow_private=True, max_wait=2.0)


def site(tmp_path: Path, engine: Engine, pages: int = 5, changed: str = "") -> Path:
    """A built site served by the engine's host, dated by content."""
    public = tmp_path / "public"
    for i in range(pages):
        target = public / f"p{i}" / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        text = f"Page {i}" + (" changed" if f"p{i}" == changed else "")
        target.write_text(f"<html><head><title>{i}</title></head><body><main>{text}</main></body></html>",
                          encoding="utf-8")
    description = tmp_path / "site.yaml"
    description.write_text(f"site:\n  base_url: {engine.url}/\nsources:\n  - site: public/\n    lastmod: content\n",
                           encoding="utf-8")
    return description


def sent(engine: Engine) -> list[str]:
    return [url for post in engine.posts if post["answered"] in (200, 202) for url in post["urlList"]]  # type: ignore[attr-defined]


def test_submit_sends_exactly_the_changed_urls_once(tmp_path: Path, engine: Engine) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out), now="2026-01-01T00:00:00Z").ok
    first = submit(KEY, site=described, out_dir=out, endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    assert first.ok and (first.pending, first.accepted, first.requests) == (5, 5, 1)
    assert engine.gets == [f"/{KEY}.txt"]
    assert engine.posts == [{"host": f"127.0.0.1:{engine.port}", "key": KEY, "answered": 200,
                             "type": "application/json; charset=utf-8",
                             "urlList": [f"{engine.url}/p{i}/" for i in range(5)]}]
    again = submit(KEY, site=described, out_dir=out, endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    assert (again.pending, again.requests, len(engine.posts)) == (0, 0, 1)  # nothing on a rerun
    site(tmp_path, engine, changed="p3")
    assert build(str(described), str(out), now="2026-02-01T00:00:00Z").ok
    assert [row.url for row in state_rows(out / STATE, pending=True)] == [f"{engine.url}/p3/"]
    third = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    assert third.accepted == 1 and sent(engine)[5:] == [f"{engine.url}/p3/"]
    assert not list(state_rows(out / STATE, pending=True))


def test_batches_of_one_host_at_most_the_batch_size(tmp_path: Path, engine: Engine) -> None:
    described, out = site(tmp_path, engine, pages=7), tmp_path / "out"
    assert build(str(described), str(out)).ok
    result = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL, batch=3)
    assert [len(post["urlList"]) for post in engine.posts] == [3, 3, 1]  # type: ignore[arg-type]
    assert result.accepted == 7 and len(set(sent(engine))) == 7
    with pytest.raises(ValueError, match="10,000"):
        submit(KEY, state=out / STATE, batch=10_001)
    with pytest.raises(ValueError, match="8 to 128"):
        submit("short", state=out / STATE)


def test_429_is_retried_after_retry_after(tmp_path: Path, engine: Engine) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    engine.answers = [(429, {"Retry-After": "1"}), (503, {}), (200, {})]
    started = time.monotonic()
    result = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    assert time.monotonic() - started >= 1.0 + 2.0  # Retry-After: 1, then 2 s (the second retry, no header)
    assert result.ok and result.accepted == 5 and [p["answered"] for p in engine.posts] == [429, 503, 200]


def test_429_past_the_retries_is_r113_and_the_urls_stay_pending(tmp_path: Path, engine: Engine) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    engine.answers = [(429, {"Retry-After": "0"})] * 4
    result = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    assert [d.code for d in result.collector.sorted()] == ["R113"] and not result.ok
    assert "after 3 retries" in result.collector.sorted()[0].message and len(engine.posts) == 4
    assert len(list(state_rows(out / STATE, pending=True))) == 5
    assert submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL).accepted == 5


@pytest.mark.parametrize(("status", "meaning"), [(400, "bad request"), (403, "the key is not valid"),
                                                 (422, "not of the host")])
def test_refusals_are_r112_with_their_meaning(tmp_path: Path, engine: Engine, status: int, meaning: str) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    engine.answers = [(status, {})]
    result = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL, batch=2)
    found = result.collector.sorted()
    assert [d.code for d in found] == ["R112"] and meaning in found[0].message
    assert found[0].url == f"{engine.url}/p0/" and f"status {status}" in found[0].message
    # After a 403 the host's other batches are not sent; after a 400 or 422 they are.
    assert len(engine.posts) == (1 if status == 403 else 3)
    assert len(list(state_rows(out / STATE, pending=True))) == (5 if status == 403 else 2)


def test_202_counts_as_taken_with_an_info(tmp_path: Path, engine: Engine) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    engine.answers = [(202, {})]
    result = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    assert result.ok and [d.code for d in result.collector.sorted()] == ["R114"] and result.accepted == 5


@pytest.mark.parametrize("key_file", [(404, b"not here"), (200, b"another-key-123")])
def test_a_missing_or_wrong_key_file_is_r111_and_nothing_is_sent(tmp_path: Path, engine: Engine,
                                                                 key_file: tuple[int, bytes]) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    engine.key_file = key_file
    result = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    found = result.collector.sorted()
    assert [d.code for d in found] == ["R111"] and found[0].url == f"{engine.url}/{KEY}.txt"
    assert engine.posts == [] and result.accepted == 0


def test_an_endpoint_that_cannot_be_reached_is_r113(tmp_path: Path, engine: Engine) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    result = submit(KEY, state=out / STATE, endpoint="http://127.0.0.1:9/indexnow", fetch=LOCAL)
    assert [d.code for d in result.collector.sorted()] == ["R113"]
    refused = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow")  # loopback, not allowed
    assert [d.code for d in refused.collector.sorted()] == ["R111"]  # (the key file is refused first: R106's guard)


def test_dry_run_lists_and_sends_nothing(tmp_path: Path, engine: Engine, capsys: pytest.CaptureFixture[str]) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    code = main(["submit", str(described), "-o", str(out), "--indexnow", KEY, "--endpoint", f"{engine.url}/indexnow",
                 "--dry-run", "--allow-private", "-q"])
    assert code == 0 and capsys.readouterr().out.splitlines() == [f"{engine.url}/p{i}/" for i in range(5)]
    assert engine.posts == [] and engine.gets == []
    assert len(list(state_rows(out / STATE, pending=True))) == 5


def test_the_command_line(tmp_path: Path, engine: Engine, capsys: pytest.CaptureFixture[str]) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    assert main(["submit", "--indexnow", "bad key", "--state", str(out / STATE)]) == 2
    assert main(["submit", "--indexnow", KEY]) == 2  # neither SITE.yaml nor --state
    assert main(["submit", "--indexnow", KEY, "--state", str(tmp_path / "site.yaml")]) == 3  # F105
    capsys.readouterr()
    assert main(["submit", str(described), "-o", str(out), "--indexnow", KEY, "--endpoint",
                 f"{engine.url}/indexnow", "--allow-private", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["pending"], report["accepted"], report["ok"]) == (5, 5, True)
    engine.key_file = (404, b"")
    site(tmp_path, engine, changed="p1")
    assert build(str(described), str(out)).ok
    assert main(["submit", str(described), "-o", str(out), "--indexnow", KEY, "--endpoint",
                 f"{engine.url}/indexnow", "--allow-private"]) == 1  # R111


def test_a_state_of_another_description_is_o108(tmp_path: Path, engine: Engine) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    other = tmp_path / "other.yaml"
    other.write_text(described.read_text() + "output:\n  state: out/" + STATE + "\n", encoding="utf-8")
    result = submit(KEY, site=other, out_dir=out, endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    assert [d.code for d in result.collector.sorted()] == ["O108"] and engine.posts == []


_KILLER = """
import os, sys
sys.path.insert(0, {root!r})
from sitemap_ext import FetchOptions, submit
from sitemap_ext.state import State
real = State.mark_sent
def mark_sent(self, urls, when):
    real(self, urls, when)
    os._exit(9)  # killed once the first batch is recorded: no cleanup, no finally
State.mark_sent = mark_sent
submit({key!r}, state={state!r}, endpoint={endpoint!r}, fetch=FetchOptions(allow_private=True), batch=2)
"""


def test_a_killed_submission_sends_only_what_is_left(tmp_path: Path, engine: Engine) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    script = _KILLER.format(root=str(ROOT), key=KEY, state=str(out / STATE), endpoint=f"{engine.url}/indexnow")
    done = subprocess.run([sys.executable, "-c", script], check=False, timeout=120,
                          env={**os.environ, "TMPDIR": str(tmp_path)})  # (what a killed run leaves, left here)
    assert done.returncode == 9 and sent(engine) == [f"{engine.url}/p0/", f"{engine.url}/p1/"]
    rest = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL, batch=2)
    assert rest.accepted == 3 and sent(engine) == [f"{engine.url}/p{i}/" for i in range(5)]
    assert submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL).requests == 0


def test_the_examples_makefile_commands_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The sitemap-ext lines of examples/between-deploys/Makefile, run in a copy of the
    example (the submission as a dry run: the example's host is not reached)."""
    import shlex
    import shutil

    example = tmp_path / "example"
    shutil.copytree(ROOT / "examples" / "between-deploys", example)
    lines = [line.strip() for line in (example / "Makefile").read_text(encoding="utf-8").splitlines()
             if line.strip().startswith("sitemap-ext ")]
    assert len(lines) == 3
    for line in lines:
        argv = shlex.split(line.replace("$(OUT)", "public").replace("$(INDEXNOW_KEY)", KEY))[1:]
        if argv[0] == "submit" and "--dry-run" not in argv:
            continue
        argv = [str(example / a) if a in ("site.yaml", "public") or a.startswith(".cache/") else a for a in argv]
        (example / ".cache").mkdir(exist_ok=True)
        assert main([*argv, "-q"]) == 0, line
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith("https://")] == [
        "https://www.trail-notes.example/", "https://www.trail-notes.example/about/",
        "https://www.trail-notes.example/guides/first-steps/", "https://www.trail-notes.example/guides/maps/"]


def test_a_submission_and_a_build_never_use_one_state_at_once(tmp_path: Path, engine: Engine) -> None:
    from sitemap_ext.write.output import lock_folder

    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out), state=tmp_path / "cache" / "state.sqlite").ok  # its folder made
    held = lock_folder(str(tmp_path / "cache"))  # as a submission (or a build) holds it
    try:
        busy = submit(KEY, state=tmp_path / "cache" / "state.sqlite", endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
        assert [d.code for d in busy.collector.sorted()] == ["F103"] and engine.posts == []
        blocked = build(str(described), str(out), state=tmp_path / "cache" / "state.sqlite")
        assert [d.code for d in blocked.collector.sorted()] == ["F103"]
    finally:
        os.close(held)  # type: ignore[arg-type]
    missing = submit(KEY, state=tmp_path / "nowhere" / "state.sqlite", endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    assert [d.code for d in missing.collector.sorted()] == ["F105"]


def test_no_state_yet_says_to_build_first(tmp_path: Path, engine: Engine) -> None:
    described = site(tmp_path, engine)
    result = submit(KEY, site=described, out_dir=tmp_path / "out", endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    found = result.collector.sorted()
    assert [d.code for d in found] == ["F105"] and "build first" in found[0].message and engine.gets == []


def test_submit_as_a_real_process(tmp_path: Path, engine: Engine) -> None:
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    done = subprocess.run([sys.executable, "-m", "sitemap_ext", "submit", str(described), "-o", str(out),
                           "--indexnow", KEY, "--endpoint", f"{engine.url}/indexnow", "--allow-private"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "5 URLs of 5 pending accepted; 0 errors, 0 warnings, 0 infos" in done.stderr
    assert len(sent(engine)) == 5


@pytest.mark.parametrize("how", ["IMMEDIATE", "EXCLUSIVE"])
def test_a_state_locked_by_another_program_is_f103_and_left_pending(tmp_path: Path, engine: Engine, how: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Another connection writing the state (IMMEDIATE: it may still be read, not
    written; EXCLUSIVE: not even read): F103 with no advice to remove it, never F105."""
    import sqlite3

    monkeypatch.setattr("sitemap_ext.state.STATE_BUSY_SECONDS", 0.2)
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    other = sqlite3.connect(out / STATE, isolation_level=None)
    other.execute(f"BEGIN {how}")
    other.execute("UPDATE meta SET value = value WHERE key = 'build'")
    try:
        result = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    finally:
        other.execute("ROLLBACK")
        other.close()
    found = result.collector.sorted()
    assert [d.code for d in found] == ["F103"]
    assert "locked by another program" in found[0].message and "remove" not in found[0].message
    assert len(list(state_rows(out / STATE, pending=True))) == 5  # nothing recorded: all still pending
    assert submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL).accepted == 5


PLANTED = {
    "trigger": "CREATE TRIGGER planted AFTER UPDATE ON urls BEGIN INSERT OR REPLACE INTO meta VALUES ('marker', "
               "'ran'); END",
    "view": "CREATE VIEW planted AS SELECT url FROM urls",
    "index": "CREATE INDEX planted ON urls (sent)",
    "table": "CREATE TABLE planted (x TEXT)",
}


@pytest.mark.parametrize("what", list(PLANTED))
def test_a_state_with_a_schema_object_of_anothers_is_f105_and_nothing_of_it_runs(tmp_path: Path, engine: Engine,
                                                                                 what: str) -> None:
    """A state restored from a CI cache with a trigger on its rows: submit's UPDATE
    would run it. Refused before anything is sent or recorded; the file unchanged."""
    import sqlite3

    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    with sqlite3.connect(out / STATE) as other:
        other.execute(PLANTED[what])
    other.close()
    before = (out / STATE).read_bytes()
    result = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    found = result.collector.sorted()
    assert [d.code for d in found] == ["F105"] and engine.posts == [] and engine.gets == []
    assert "not a sitemap-ext state of this version" in found[0].message and f"{what} 'planted'" in found[0].message
    assert (out / STATE).read_bytes() == before
    with sqlite3.connect(out / STATE) as other:
        assert other.execute("SELECT count(*) FROM meta WHERE key = 'marker'").fetchone() == (0,)
    other.close()
    rebuilt = build(str(described), str(out))
    assert [d.code for d in rebuilt.collector.sorted()] == ["F105"] and (out / STATE).read_bytes() == before


def two_hosts(tmp_path: Path, engine: Engine) -> Path:
    """A site on two hosts (127.0.0.1 and localhost, both the engine's), built."""
    description = tmp_path / "site.yaml"
    description.write_text(
        f"site:\n  base_url: {engine.url}/\nlocales:\n  en: {{host: {engine.url}}}\n"
        f"  fr: {{host: http://localhost:{engine.port}}}\ndefaults:\n  lastmod: content\n"
        "pages:\n  - path: /a/\n    digest: v1\n", encoding="utf-8")
    assert build(str(description), str(tmp_path / "out")).ok
    return description


@pytest.mark.parametrize("given", ["/keys/{KEY}.txt", "keys/{KEY}.txt", "http://localhost:{port}/keys/{KEY}.txt"])
def test_each_hosts_key_location_is_on_that_host(tmp_path: Path, engine: Engine, given: str) -> None:
    """--key-location PATH: that path on every host; a URL: for its own host only, any
    other host's key file at its root. Never one host's keyLocation in another's batch."""
    described = two_hosts(tmp_path, engine)
    engine.key_paths = (f"/keys/{KEY}.txt", f"/{KEY}.txt")
    location = given.format(KEY=KEY, port=engine.port)
    if not location.startswith(("/", "http")):
        with pytest.raises(ValueError, match="key location"):
            submit(KEY, site=described, out_dir=tmp_path / "out", endpoint=f"{engine.url}/indexnow", fetch=LOCAL,
                    key_location=location)
        assert main(["submit", str(described), "--indexnow", KEY, "--key-location", location, "-q"]) == 2
        return
    result = submit(KEY, site=described, out_dir=tmp_path / "out", endpoint=f"{engine.url}/indexnow", fetch=LOCAL,
                    key_location=location)
    assert result.ok and result.accepted == 2
    local = f"localhost:{engine.port}"
    where = {post["host"]: post.get("keyLocation") for post in engine.posts}
    assert where[local] == f"http://{local}/keys/{KEY}.txt"
    if location.startswith("/"):
        assert where[f"127.0.0.1:{engine.port}"] == f"{engine.url}/keys/{KEY}.txt"
        assert sorted(engine.asked) == sorted([(f"127.0.0.1:{engine.port}", f"/keys/{KEY}.txt"),
                                               (local, f"/keys/{KEY}.txt")])
    else:  # the URL names localhost: 127.0.0.1 sends none and has its file at its root
        assert where[f"127.0.0.1:{engine.port}"] is None
        assert sorted(engine.asked) == sorted([(f"127.0.0.1:{engine.port}", f"/{KEY}.txt"),
                                               (local, f"/keys/{KEY}.txt")])


def test_the_help_says_where_the_key_location_applies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["submit", "--help"]) == 0
    assert "on every host" in " ".join(capsys.readouterr().out.split())


def gzip_of_gzip(mebibytes: int) -> bytes:
    """gzip(gzip(MEBIBYTES MiB of zeros)): a few KB that inflate to that much. After a
    full flush deflate starts afresh, so each MiB compresses to the same bytes: the
    inner stream is made of one MiB's, repeated (its CRC computed), in well under 1 s."""
    import struct
    import zlib

    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = bytes(1 << 20)
    first = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)
    again = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(mebibytes):
        crc = zlib.crc32(block, crc)
    inner = (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + first + again * (mebibytes - 1) + deflate.flush()
             + struct.pack("<II", crc, (mebibytes << 20) & 0xFFFFFFFF))
    return zlib.compress(inner, 9, wbits=31)


def test_an_answer_is_read_bounded_whatever_its_content_encoding(tmp_path: Path, engine: Engine) -> None:
    """A refusal whose body is 'gzip, gzip' of 4 GiB in under 10 KB: read by the check's
    own bounded decoder, a chunk a layer; R112, in bounded memory (the process may not
    map 1 GiB), no traceback."""
    import resource

    bomb = gzip_of_gzip(4096)
    assert len(bomb) < 12_000
    described, out = site(tmp_path, engine), tmp_path / "out"
    assert build(str(described), str(out)).ok
    engine.answers = [(400, {})]
    engine.error_body = (bomb, {"Content-Encoding": "gzip, gzip", "Content-Type": "text/plain"})

    def bounded() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run([sys.executable, "-m", "sitemap_ext", "submit", "--state", str(out / STATE), "--indexnow",
                           KEY, "--endpoint", f"{engine.url}/indexnow", "--allow-private", "--format", "json"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT, preexec_fn=bounded)
    assert "Traceback" not in done.stderr and done.returncode == 1, done.stderr[-2000:]
    found = json.loads(done.stdout)["diagnostics"]
    assert [d["code"] for d in found] == ["R112"] and "answered 400 for 5 URLs" in found[0]["message"]
    assert len(list(state_rows(out / STATE, pending=True))) == 5
    engine.answers, engine.error_body = [(400, {})], (bomb[:200], {"Content-Encoding": "gzip, gzip"})
    cut = submit(KEY, state=out / STATE, endpoint=f"{engine.url}/indexnow", fetch=LOCAL)
    assert [d.code for d in cut.collector.sorted()] == ["R112"]  # a body cut short: still R112, its status said
