"""Baselines (issue "Adopted in a day"): a site with known findings gates only new ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitemap_ext import check
from sitemap_ext.report import baseline

URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
          "{entries}</urlset>\n")


def sitemap(folder: Path, *entries: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitemap.xml").write_text(URLSET.format(entries="".join(entries)), encoding="utf-8")
    return folder / "sitemap.xml"


def entry(loc: str, lastmod: str = "2026-01-01") -> str:
    return f"<url><loc>{loc}</loc><lastmod>{lastmod}</lastmod></url>\n"


def test_old_findings_are_known_new_ones_are_new_and_fixed_ones_are_counted(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = sitemap(Path("site"), entry("https://e.com/a", "2026-13-01"), entry("https://e.com/a"),
                   entry("https://e.com/b", "2026-02-30"))
    first = check([str(path)], now="2026-11-25T00:00:00Z").collector.sorted()
    assert sorted(d.code for d in first) == ["D101", "D101", "U104"]
    assert baseline.write("baseline.json", first, str(tmp_path)) == 3
    known = baseline.read("baseline.json")
    # Lines move (an entry added above) and nothing new: nothing is new.
    sitemap(Path("site"), entry("https://e.com/new"), entry("https://e.com/a", "2026-13-01"), entry("https://e.com/a"),
            entry("https://e.com/b", "2026-02-30"))
    moved = baseline.split(check([str(path)], now="2026-11-25T00:00:00Z").collector.sorted(), known, str(tmp_path))
    assert moved.new == [] and moved.known == 3 and not moved.fixed
    # A planted defect is new; a fixed one is counted as fixed.
    sitemap(Path("site"), entry("https://e.com/a", "2026-13-01"), entry("https://e.com/a"),
            entry("https://e.com/b"), entry("https://e.com/c", "yesterday"))
    result = baseline.split(check([str(path)], now="2026-11-25T00:00:00Z").collector.sorted(), known, str(tmp_path))
    assert [(d.code, d.url) for d in result.new] == [("D101", "https://e.com/c")]
    assert result.known == 2 and sum(result.fixed.values()) == 1


def test_a_finding_that_stands_more_often_than_recorded_is_new(tmp_path: Path) -> None:
    path = sitemap(tmp_path, entry("https://e.com/a"), entry("https://e.com/a"))
    twice = check([str(path)]).collector.sorted()
    baseline.write(str(tmp_path / "b.json"), twice, str(tmp_path))
    sitemap(tmp_path, entry("https://e.com/a"), entry("https://e.com/a"), entry("https://e.com/a"))
    split = baseline.split(check([str(path)]).collector.sorted(), baseline.read(str(tmp_path / "b.json")),
                           str(tmp_path))
    assert [d.code for d in split.new] == ["U104"] and split.known == 1


def test_the_file_is_stable_sorted_json(tmp_path: Path) -> None:
    path = sitemap(tmp_path, entry("https://e.com/b", "x"), entry("https://e.com/a", "y"))
    found = check([str(path)]).collector.sorted()
    baseline.write(str(tmp_path / "one.json"), found, str(tmp_path))
    baseline.write(str(tmp_path / "two.json"), list(reversed(found)), str(tmp_path))
    text = (tmp_path / "one.json").read_text()
    assert text == (tmp_path / "two.json").read_text()
    document = json.loads(text)
    assert document["tool"] == "sitemap-ext" and len(document["findings"]) == 2
    assert "line" not in text


@pytest.mark.parametrize("content, says", [("not json", "not JSON"), ('{"tool": "other"}', "no sitemap-ext"),
                                           ('{"tool": "sitemap-ext", "format": 9, "findings": []}', "format 9"),
                                           ('{"tool": "sitemap-ext", "format": 1, "findings": [5]}', "not one")])
def test_a_file_that_is_no_baseline_is_refused_with_a_reason(tmp_path: Path, content: str, says: str) -> None:
    (tmp_path / "b.json").write_text(content)
    with pytest.raises(baseline.BaselineError, match=says):
        baseline.read(str(tmp_path / "b.json"))


# Issue "Safe where it guards deploys": a baseline never hides that an input was not read.

def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from sitemap_ext.cli import main

    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _check_twice_with_a_baseline(target: str, capsys: pytest.CaptureFixture[str], *extra: str) -> list[int]:
    """Exit codes: without a baseline, the run that writes it, a run that reads it, and
    a run with --baseline-update."""
    codes = [run(["check", target, "-q", "--no-config", *extra], capsys)[0]]
    for more in ([], [], ["--baseline-update"]):
        codes.append(run(["check", target, "-q", "--no-config", "--baseline", "b.json", *more, *extra], capsys)[0])
    return codes


def test_an_input_that_cannot_be_read_is_never_baselined(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    # F101 (the input is missing): exit 3 with a baseline or without, for ever.
    assert _check_twice_with_a_baseline("missing.xml", capsys) == [3, 3, 3, 3]
    assert json.loads(Path("b.json").read_text())["findings"] == []
    code, out, err = run(["check", "missing.xml", "--no-config", "--baseline", "b.json"], capsys)
    assert code == 3 and "F101" in out and "never baselined" in err
    # F104 (nothing to check): exit 1 with a baseline or without.
    Path("empty").mkdir()
    Path("b.json").unlink()
    assert _check_twice_with_a_baseline("empty", capsys) == [1, 1, 1, 1]
    assert json.loads(Path("b.json").read_text())["findings"] == []


def test_a_baseline_that_holds_an_unread_input_does_not_hide_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """As 0.4 wrote them: F101 and F104 recorded with their fingerprints."""
    monkeypatch.chdir(tmp_path)
    Path("empty").mkdir()
    found = [*check(["missing.xml"]).collector.sorted(), *check(["empty"]).collector.sorted()]
    assert [d.code for d in found] == ["F101", "F104"]
    rows = [{"fingerprint": baseline.fingerprint(d, str(tmp_path)), "code": d.code, "url": None, "count": 1}
            for d in found]
    Path("b.json").write_text(json.dumps({"format": 1, "tool": "sitemap-ext", "findings": rows}))
    assert baseline.read("b.json") == {}
    assert run(["check", "missing.xml", "-q", "--no-config", "--baseline", "b.json"], capsys)[0] == 3
    code, out, _ = run(["check", "empty", "-q", "--no-config", "--baseline", "b.json"], capsys)
    assert code == 1 and "F104" in out


def test_a_site_that_is_down_is_never_baselined(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("httpx")
    import socket

    from tests.live_server import Server

    monkeypatch.chdir(tmp_path)
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there: R101, exit 3
    live = ("--allow-private", "--timeout", "1")
    assert _check_twice_with_a_baseline(f"http://127.0.0.1:{port}/sitemap.xml", capsys, *live) == [3, 3, 3, 3]
    assert json.loads(Path("b.json").read_text())["findings"] == []
    server = Server()
    try:  # a server that answers 500: R102 (exit 1), not hidden either
        server.add("/sitemap.xml", status=500, body=b"down")
        server.add("/robots.txt", status=404, body=b"")
        Path("b.json").unlink()
        assert _check_twice_with_a_baseline(server.url + "/sitemap.xml", capsys, *live) == [1, 1, 1, 1]
        assert "R102" in run(["check", server.url + "/sitemap.xml", "-q", "--baseline", "b.json", *live], capsys)[1]
    finally:
        server.close()


def test_never_baselined_is_the_io_and_unread_codes() -> None:
    from sitemap_ext.codes import REGISTRY

    never = {code for code in REGISTRY if baseline.never_baselined(code)}
    assert {"F101", "F104", "R101", "R102", "R106", "R108", "R110", "C101", "C110", "X101", "X102", "X103"} <= never
    assert never == {code for code, entry in REGISTRY.items() if entry.io or entry.unread}
    assert not baseline.never_baselined("D101") and not baseline.never_baselined("H104")


@pytest.mark.parametrize("given, update, says", [
    ("missing/dir/b.json", True, "its folder missing/dir does not exist"),
    ("missing/dir/b.json", False, "its folder missing/dir does not exist"),
    ("folder", True, "is a folder, not a regular file"),
    ("folder", False, "is a folder, not a regular file"),
    ("fifo", True, "is a FIFO (named pipe), not a regular file"),
    ("fifo", False, "is a FIFO (named pipe), not a regular file"),
])
def test_a_baseline_path_that_cannot_be_one_is_a_usage_error_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        given: str, update: bool, says: str) -> None:
    import os

    monkeypatch.chdir(tmp_path)
    path = sitemap(Path("site"), entry("https://e.com/a", "x"))
    Path("folder").mkdir()
    os.mkfifo("fifo")  # (nothing writes to it: reading it would hang)
    code, out, err = run(["check", str(path), "--no-config", "--baseline", given,
                          *(["--baseline-update"] if update else [])], capsys)
    assert (code, out) == (2, "") and f"the baseline {given}" in err and says in err
    assert "Traceback" not in err and Path("folder").is_dir() and not Path("missing").exists()


def test_the_baseline_reader_refuses_a_fifo_and_a_folder_unread(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(baseline.BaselineError, match="FIFO"):
        baseline.read(str(tmp_path / "fifo"))
    with pytest.raises(baseline.BaselineError, match="cannot read the baseline"):
        baseline.read(str(tmp_path))
    (tmp_path / "deep.json").write_text("[" * 100_000)
    with pytest.raises(baseline.BaselineError, match="nests deeper than 64"):
        baseline.read(str(tmp_path / "deep.json"))


def test_a_link_planted_at_a_temporary_name_is_never_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The baseline is written to a new file no one can name beforehand, then renamed:
    a link at the name a fixed pattern would use (``.NAME.PID.tmp``, the process id
    made known) stays untouched, and so does what it points to."""
    import os

    monkeypatch.chdir(tmp_path)
    findings = check([str(sitemap(Path("site"), entry("https://e.com/a", "2026-13-01")))],
                     now="2026-11-25T00:00:00Z").collector.sorted()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    monkeypatch.setattr(os, "getpid", lambda: 4242)
    for name in (Path("baseline.json"), Path("site/baseline.json")):
        planted = name.parent / f".{name.name}.4242.tmp"
        planted.symlink_to(victim)
        assert baseline.write(str(name), findings, str(tmp_path)) == 1
        assert victim.read_text() == "keep"
        assert not name.is_symlink() and sum(baseline.read(str(name)).values()) == 1
        assert planted.is_symlink()  # (left as found: not ours to remove)
        assert sorted(n.name for n in name.parent.glob(".*.tmp")) == [planted.name]  # no temporary file left


def test_a_baseline_that_cannot_be_written_is_exit_3_with_the_findings_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Found by a review: a write that failed after the check was exit 2 (usage) and
    showed none of the check's findings."""
    monkeypatch.chdir(tmp_path)
    sitemap(tmp_path, entry("https://e.com/a", "bad"))

    def refuse(*args: object, **kwargs: object) -> int:
        raise baseline.BaselineError("cannot write the baseline b.json: Read-only file system")

    monkeypatch.setattr(baseline, "write", refuse)
    code, out, err = run(["check", "sitemap.xml", "--no-config", "--baseline", "b.json"], capsys)
    assert code == 3 and " D101 " in out and "cannot write the baseline b.json" in err, (out, err)


def test_a_baseline_that_is_no_baseline_is_said_before_the_check_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    sitemap(tmp_path, entry("https://e.com/a", "bad"))
    (tmp_path / "b.json").write_text('{"format": 1')
    ran = []
    import sitemap_ext.cli.check as command

    monkeypatch.setattr(command, "check", lambda *a, **k: ran.append(1))
    code, _, err = run(["check", "sitemap.xml", "--no-config", "--baseline", "b.json"], capsys)
    assert (code, ran) == (2, []) and "b.json is not JSON" in err, err


def test_an_update_says_what_new_findings_it_took_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """--baseline-update takes new findings in (exit 0, as always) and says on stderr how
    many, errors and warnings apart, with -q too; an update that takes nothing new in
    says nothing of it (before: silent either way)."""
    from sitemap_ext.cli import main
    monkeypatch.chdir(tmp_path)
    path = sitemap(Path("site"), entry("https://e.com/a", "2026-13-01"))
    assert main(["check", str(path), "--baseline", "b.json", "-q"]) == 0
    capsys.readouterr()
    # A new error (D101) and a new warning (U104, the URL listed twice).
    sitemap(Path("site"), entry("https://e.com/a", "2026-13-01"), entry("https://e.com/b", "2026-02-30"),
            entry("https://e.com/c"), entry("https://e.com/c"))
    assert main(["check", str(path), "--baseline", "b.json", "--baseline-update", "-q"]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert ("sitemap-ext check: --baseline-update took 2 new findings into b.json (1 error, 1 warning), "
            "not shown and passing from now on") in err
    # Nothing new: nothing said of it (and -q says nothing else).
    assert main(["check", str(path), "--baseline", "b.json", "--baseline-update", "-q"]) == 0
    assert capsys.readouterr() == ("", "")
    # A previous file that is no baseline is written anew, and said.
    Path("b.json").write_text("not json")
    assert main(["check", str(path), "--baseline", "b.json", "--baseline-update", "-q"]) == 0
    assert "every finding is taken into the baseline as new" in capsys.readouterr().err
    assert main(["check", str(path), "--baseline", "b.json", "-q"]) == 0
