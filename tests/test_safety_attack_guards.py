"""Guards that an attacker (a server, a planted config, a poisoned build state) must not
defeat: what was not read whole is never judged as if it were, a hidden finding that an
input was not read still fails the run, a value is judged by ASCII digits only, and a
damaged build state is a finding, never a traceback."""

from __future__ import annotations

import gzip
import io
import json
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

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


# --- 2. A finding hidden by --select, --ignore or a config still fails the run ----------

CUT_XML = (f'<?xml version="1.0"?>\n<urlset {NS}>\n<url><loc>https://www.example.com/a</loc></url>\n'
           "<url><loc>https://www.exa").encode()
HIDDEN = re.compile(r"findings? not shown by --select/--ignore, [0-9]+ of them saying an input was not read "
                    r"\(([A-Z0-9, ]+)\): the exit code counts")


@pytest.fixture()
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.xml").write_bytes(CUT_XML)
    (tmp_path / "empty").mkdir()
    return tmp_path


@pytest.mark.parametrize(("argv", "code", "shown"), [
    (["nothere.xml"], 3, "F101"),  # an input that does not exist: I/O
    (["bad.xml"], 1, "X101"),  # not well-formed: an error, as when shown
    (["empty"], 1, "F104"),  # a check with nothing to check fails
])
@pytest.mark.parametrize("hide", [["--select", "H"], ["--ignore", "F,X,R"], ["--ignore", "F101,X101,F104"]])
def test_a_hidden_finding_that_an_input_was_not_read_still_sets_the_exit_code(
        inputs: Path, argv: list[str], code: int, shown: str, hide: list[str]) -> None:
    plain, out, _ = run("check", *argv, "--no-config", "--now", NOW)
    assert plain == code and f" {shown} " in out  # what plain check gives ...
    exit_code, out, err = run("check", *argv, "--no-config", "--now", NOW, *hide)
    assert (exit_code, out) == (code, ""), err  # ... it gives with the finding hidden
    said = HIDDEN.search(err)
    assert said is not None and shown in said[1].split(", "), err


def test_a_config_that_ignores_every_reading_code_does_not_pass_the_check(inputs: Path) -> None:
    (inputs / "sitemap-ext.toml").write_text('ignore = ["F", "X", "R"]\n', encoding="utf-8")
    assert run("check", "bad.xml", "--now", NOW)[0] == 1
    assert run("check", "nothere.xml", "--now", NOW)[0] == 3
    exit_code, out, err = run("check", "bad.xml", "--now", NOW, "--format", "json")
    assert exit_code == 1 and json.loads(out)["ok"] is False, err


def test_exit_zero_keeps_its_meaning_for_hidden_findings(inputs: Path) -> None:
    """--exit-zero exits 0 with errors, but 3 still says the command could not run."""
    assert run("check", "bad.xml", "--no-config", "--select", "H", "--exit-zero", "--now", NOW)[0] == 0
    assert run("check", "nothere.xml", "--no-config", "--select", "H", "--exit-zero", "--now", NOW)[0] == 3


def test_a_hidden_finding_of_another_kind_is_only_counted(inputs: Path) -> None:
    (inputs / "date.xml").write_bytes(f'<?xml version="1.0"?>\n<urlset {NS}>\n<url><loc>https://www.example.com/a'
                                      '</loc><lastmod>2026-13-01</lastmod></url>\n</urlset>\n'.encode())
    assert run("check", "date.xml", "--no-config", "--now", NOW)[0] == 1  # D101, an error: hidden, it is not
    exit_code, _, err = run("check", "date.xml", "--no-config", "--select", "H", "--now", NOW)
    assert exit_code == 0 and not HIDDEN.search(err) and "1 finding not shown by --select/--ignore" in err


def test_a_build_whose_source_is_missing_fails_and_writes_nothing_under_ignore(inputs: Path) -> None:
    (inputs / "site.yaml").write_text("site:\n  base_url: https://e.com/\npages:\n  - path: /a\nsources:\n"
                                      "  - p.csv\n", encoding="utf-8")
    for hide in (["--ignore", "S"], ["--select", "D"]):
        exit_code, out, err = run("build", "site.yaml", "-o", "out", "--no-config", "--now", NOW, *hide)
        assert (exit_code, out) == (1, ""), err
        assert not (inputs / "out").exists() or not list((inputs / "out").glob("sitemap*.xml")), err
        said = HIDDEN.search(err)
        assert said is not None and said[1] == "S101" and "nothing written" in err, err
    from sitemap_ext import build
    from sitemap_ext.rules.config import Policy

    assert not build("site.yaml", "out", now=NOW, policy=Policy(ignore=("S",))).ok


def test_one_predicate_says_what_was_not_read() -> None:
    from sitemap_ext.codes import REGISTRY
    from sitemap_ext.report.baseline import never_baselined

    for code, entry in REGISTRY.items():
        assert entry.not_read == (entry.io or entry.unread) == never_baselined(code)


# --- 3. Values are judged by ASCII digits ------------------------------------------------

VIDEO_NS = 'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"'
VIDEO = ("<video:video><video:thumbnail_loc>https://www.example.com/k.jpg</video:thumbnail_loc><video:title>K"
         "</video:title><video:description>K.</video:description><video:content_loc>https://www.example.com/k.mp4"
         "</video:content_loc>{}</video:video>")


@pytest.mark.parametrize(("element", "code"), [
    ("<lastmod>\uff12\uff10\uff12\uff16-01-01</lastmod>", "D101"),  # full-width digits
    ("<lastmod>2026-01-01T\uff11\uff10:00:00Z</lastmod>", "D101"),
    ("<lastmod>2026-\u0660\u0661-01</lastmod>", "D101"),  # Arabic-Indic digits
    ("<priority>\uff10.\uff15</priority>", "D105"),
    ("<priority>0_5</priority>", "D105"),  # float() takes it; xsd:decimal does not
    ("<priority>1e-1</priority>", "D105"),
    ("<priority>nan</priority>", "D105"),
    (VIDEO.format("<video:rating>\uff14.\uff15</video:rating>"), "V107"),
    (VIDEO.format("<video:rating>4_5</video:rating>"), "V107"),
    (VIDEO.format("<video:duration>\u00b2</video:duration>"), "V106"),  # a digit to isdigit, no number to int
    (VIDEO.format("<video:duration>\uff11\uff12\uff10</video:duration>"), "V106"),
])
def test_a_value_written_in_other_digits_is_invalid_at_its_line(tmp_path: Path, element: str, code: str) -> None:
    from sitemap_ext import check

    path = tmp_path / "sitemap.xml"
    path.write_bytes(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS} {VIDEO_NS}>\n<url>\n'
                     f"<loc>https://www.example.com/a</loc>\n{element}\n</url>\n</urlset>\n".encode())
    result = check([str(path)], now=NOW)
    assert [(d.code, d.line) for d in result.collector.sorted()] == [(code, 5)]


@pytest.mark.parametrize("good", ["<priority>.5</priority>", "<priority>+1.</priority>",
                                  VIDEO.format("<video:rating>4.5e0</video:rating>")])
def test_ascii_numbers_of_every_form_the_xsd_takes_still_pass(tmp_path: Path, good: str) -> None:
    from sitemap_ext import check

    path = tmp_path / "sitemap.xml"
    path.write_bytes(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS} {VIDEO_NS}>\n<url>\n'
                     f"<loc>https://www.example.com/a</loc>\n{good}\n</url>\n</urlset>\n".encode())
    assert check([str(path)], now=NOW).collector.sorted() == []


def test_a_description_value_in_other_digits_is_a_finding_not_a_traceback(inputs: Path) -> None:
    (inputs / "site.yaml").write_text(
        "site:\n  base_url: https://e.com/\npages:\n  - path: /a\n    lastmod: '\uff12\uff10\uff12\uff16-01-01'\n"
        "    videos:\n      - thumbnail_loc: https://e.com/t.jpg\n        title: T\n        description: D\n"
        "        content_loc: https://e.com/v.mp4\n        duration: '\u00b2'\n", encoding="utf-8")
    exit_code, out, err = run("build", "site.yaml", "-o", "out", "--no-config", "--now", NOW)
    assert exit_code == 1 and "Traceback" not in err, err
    assert {line.split()[2] for line in out.splitlines() if ": error " in line} == {"D101", "V106"}, out


# --- 4. A poisoned build state is a finding, never a traceback ---------------------------

STATE_FILE = ".sitemap-ext-state.sqlite"


def built_state(inputs: Path) -> Path:
    """A site built with a build state (``--state``); the state's path."""
    (inputs / "site.yaml").write_text("site:\n  base_url: https://www.example.com/\npages:\n  - path: /a\n"
                                      "  - path: /b\n", encoding="utf-8")
    state = inputs / STATE_FILE
    exit_code, _, err = run("build", "site.yaml", "-o", "out", "--no-config", "--now", NOW, "--state", str(state))
    assert exit_code == 0 and state.exists(), err
    return state


@pytest.mark.parametrize("count", ["\u00b2", "\uff11", "9" * 5000, "1" * 19, "", "-1", " 1"])
def test_a_build_count_that_is_no_ascii_number_is_f105(inputs: Path, count: str) -> None:
    import sqlite3

    state = built_state(inputs)
    with sqlite3.connect(state) as connection:
        connection.execute("UPDATE meta SET value = ? WHERE key = 'build'", (count,))
    connection.close()
    exit_code, out, err = run("build", "site.yaml", "-o", "out", "--no-config", "--now", NOW, "--state", str(state))
    assert exit_code == 3 and "Traceback" not in err, err
    assert f"{state}: error F105 " in out and "damaged (no build count)" in out, out


@pytest.mark.parametrize("dry_run", [["--dry-run"], []])
def test_a_state_row_whose_url_is_no_url_is_skipped_with_f105(inputs: Path, dry_run: list[str]) -> None:
    import sqlite3

    state = built_state(inputs)
    with sqlite3.connect(state) as connection:
        connection.execute("UPDATE urls SET url = 'http://[::1' WHERE url = 'https://www.example.com/a'")
        if not dry_run:  # (no request to a host that is not ours: the bad row is the only one)
            connection.execute("DELETE FROM urls WHERE url = 'https://www.example.com/b'")
    connection.close()
    exit_code, out, err = run("submit", "--indexnow", "0123456789abcdef", "--state", str(state),
                              "--endpoint", "http://127.0.0.1:9/indexnow", "-q", *dry_run)
    assert exit_code == 3 and "Traceback" not in err, err
    assert f"{state}: error F105 " in out + err and "'http://[::1'" in out + err
    if dry_run:  # the other row is still listed
        assert "https://www.example.com/b" in out


@pytest.mark.parametrize("config, argv", [
    (None, ["--severity", "X101=info"]),
    (None, ["--severity", "X=warning"]),
    ('[tool.sitemap-ext]\nseverity = {X = "info"}\n', []),
    ('severity = {X101 = "info", F = "info"}\n', []),
])
def test_a_finding_that_an_input_was_not_read_is_never_lowered(inputs: Path, config: str | None,
                                                                argv: list[str]) -> None:
    """A severity chosen on the command line or in a config found in the checkout may
    raise such a finding but never lower it: "could not read" never passes."""
    if config is not None:
        name = "pyproject.toml" if config.startswith("[tool") else "sitemap-ext.toml"
        (inputs / name).write_text(config, encoding="utf-8")
    exit_code, out, err = run("check", "bad.xml", "--now", NOW, *argv)
    assert exit_code == 1 and " error X101 " in out, (out, err)
    assert run("check", "nothere.xml", "--now", NOW, *argv)[0] == 3


def test_other_findings_are_lowered_as_asked(inputs: Path) -> None:
    """The control: a value's finding takes the severity the user gives it."""
    (inputs / "date.xml").write_bytes(f'<?xml version="1.0"?>\n<urlset {NS}>\n<url><loc>https://www.example.com/a'
                                      '</loc><lastmod>2026-13-01</lastmod></url>\n</urlset>\n'.encode())
    assert run("check", "date.xml", "--no-config", "--severity", "D101=info", "--now", NOW)[0] == 0
    assert run("check", "date.xml", "--no-config", "--severity", "X101=warning", "--now", NOW)[0] == 1
