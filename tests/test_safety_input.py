"""Input safety for builds: sources and includes stay in the project, only regular files
are read, reads are bounded, the environment is read by name only and never echoed."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import Callable

import pytest

from sitemap_ext import build
from sitemap_ext.cli import main

from .conftest import hang_guard

HEAD = "site:\n  base_url: https://www.example.com/\n"


def found(result: object) -> list[tuple[str, str | None, int | None, int | None]]:
    return [(d.code, d.file, d.line, d.column) for d in result.collector.sorted()]  # type: ignore[attr-defined]


def everything_printed(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    return captured.out + captured.err


@pytest.mark.parametrize("how", ["absolute", "dotdot", "symlink"])
def test_a_source_outside_the_project_is_not_read_nor_echoed(tmp_path: Path, how: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "secret.csv"
    secret.write_text("loc\nTOP-SECRET-LINE\n")
    project = tmp_path / "project"
    project.mkdir()
    name = {"absolute": str(secret), "dotdot": "../secret.csv", "symlink": "data.csv"}[how]
    if how == "symlink":
        (project / "data.csv").symlink_to(secret)
    site = project / "site.yaml"
    site.write_text(HEAD + f"pages:\n  - loc: /a/\nsources:\n  - {name}\n")
    assert main(["build", str(site), "-o", str(project / "out")]) == 1
    printed = everything_printed(capsys)
    assert "S108" in printed and "TOP-SECRET" not in printed
    # Allowed explicitly, it is read.
    allowed = build(str(site), str(project / "out"), allow_read=[str(tmp_path)])
    assert allowed.ok and allowed.urls == 2


def test_an_include_outside_the_project_is_refused(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(HEAD + "pages:\n  - loc: /a/\ninclude:\n  - /etc/passwd\n  - /proc/self/environ\n")
    result = build(str(site), str(tmp_path / "out"))
    assert found(result) == [("C114", "site.yaml", 6, 5), ("C114", "site.yaml", 7, 5)]


def test_devices_and_fifos_are_refused_without_hanging(make_site: Callable[..., Path], tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.csv")
    os.mkfifo(tmp_path / "pipe.yaml")
    site = make_site(HEAD + "pages:\n  - loc: /a/\nsources:\n  - pipe.csv\ninclude:\n  - pipe.yaml\n"
                     "  - /dev/zero\n")
    with hang_guard():  # a hang or a super-linear cost, not a measurement
        result = build(str(site), str(tmp_path / "out"), allow_read=["/dev"])
    assert found(result) == [("S101", "site.yaml", 6, 5), ("C106", "site.yaml", 8, 5),
                             ("C106", "site.yaml", 9, 5)]
    messages = [d.message for d in result.collector.sorted()]
    assert "not a regular file" in messages[0] and "FIFO" in messages[1] and "device" in messages[2]
    # A FIFO given as the site description itself.
    with hang_guard():  # a hang or a super-linear cost, not a measurement
        assert found(build(str(tmp_path / "pipe.yaml"), str(tmp_path / "out")))[0][0] == "F101"


def test_includes_in_a_diamond_are_read_once(make_site: Callable[..., Path], tmp_path: Path) -> None:
    # Each level includes the next one twice: 2^25 loads if nothing stopped it.
    files = {f"l{i}.yaml": f"include: [l{i + 1}.yaml, l{i + 1}.yaml]\n" for i in range(25)}
    files["l25.yaml"] = "pages:\n  - loc: /deep/\n"
    site = make_site(HEAD + "pages:\n  - loc: /a/\ninclude: [l0.yaml]\n", **files)
    with hang_guard():  # a hang or a super-linear cost, not a measurement
        result = build(str(site), str(tmp_path / "out"))
    assert result.ok and result.urls == 2
    assert {code for code, *_ in found(result)} == {"C115"}
    assert len(found(result)) == 25


def test_only_declared_variables_are_read_and_their_values_are_never_shown(
        make_site: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SECRET_TOKEN", "hunter2-very-secret")
    site = make_site("site:\n  base_url: https://www.example.com/${SECRET_TOKEN}/\npages:\n  - loc: /a/\n")
    result = build(str(site), str(tmp_path / "out"))
    assert found(result)[0] == ("C105", "site.yaml", 2, 13)
    assert "not declared" in result.collector.sorted()[0].message
    # Declared, it is read; an invalid value is reported by the variable's name.
    monkeypatch.setenv("BASE", "ftp://internal-host.corp/")
    site = make_site("env: [BASE]\nsite:\n  base_url: ${BASE}\npages:\n  - loc: /a/\n")
    assert main(["build", str(site), "-o", str(tmp_path / "out")]) == 1
    printed = everything_printed(capsys)
    assert "U102" in printed and "${BASE}" in printed and "internal-host" not in printed


def test_env_defaults_and_the_sitemap_prefix(make_site: Callable[..., Path], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site("env:\n  HOST: https://www.example.org/\nsite:\n  base_url: ${HOST}\n"
                     "pages:\n  - loc: /${SITEMAP_TEST_SECTION:-news}/\n")
    result = build(str(site), str(tmp_path / "out"))
    assert result.ok
    assert b"https://www.example.org/news/" in (tmp_path / "out" / "sitemap.xml").read_bytes()
    monkeypatch.setenv("HOST", "https://staging.example.org/")
    monkeypatch.setenv("SITEMAP_TEST_SECTION", "blog")
    assert build(str(site), str(tmp_path / "out")).ok
    assert b"https://staging.example.org/blog/" in (tmp_path / "out" / "sitemap.xml").read_bytes()


def test_a_source_line_of_60_mb_is_skipped_in_bounded_time(make_site: Callable[..., Path],
                                                             tmp_path: Path) -> None:
    with open(tmp_path / "rows.csv", "wb") as handle:
        handle.write(b"loc\n/a/\n")
        handle.write(b"/" + b"x" * (60 << 20) + b"\n")
        handle.write(b"/b/\n/c,d/\n")
    site = make_site(HEAD + "sources: [rows.csv]\n")
    with hang_guard():  # a hang or a super-linear cost, not a measurement
        result = build(str(site), str(tmp_path / "out"))
    assert found(result) == [("S109", "rows.csv", 3, None), ("S102", "rows.csv", 5, None)]
    assert result.urls == 2


def test_deep_nesting_gives_diagnostics(make_site: Callable[..., Path], tmp_path: Path) -> None:
    (tmp_path / "rows.jsonl").write_text('{"loc": "/a/"}\n' + "[" * 100_000 + "\n" + '{"loc": "/b/"}\n')
    site = make_site(HEAD + "sources: [rows.jsonl]\n")
    result = build(str(site), str(tmp_path / "out"))
    assert found(result) == [("S103", "rows.jsonl", 2, 65)] and result.urls == 2  # (where it passed 64 levels)
    deep = make_site(HEAD + "pages: " + "[" * 5000 + "]" * 5000 + "\n")
    assert [code for code, *_ in found(build(str(deep), str(tmp_path / "out")))] == ["C110"]
    nested = make_site(HEAD + "pages:\n  - loc: /a/\n    images: " + "[" * 100 + "]" * 100 + "\n")
    assert "C110" in [code for code, *_ in found(build(str(nested), str(tmp_path / "out")))]


def test_a_recursive_alias_and_control_characters_give_diagnostics(make_site: Callable[..., Path],
                                                                   tmp_path: Path) -> None:
    site = make_site(HEAD + "pages: &a\n  - loc: /a/\n  - *a\n")
    codes = [code for code, *_ in found(build(str(site), str(tmp_path / "out")))]
    assert codes and set(codes) <= {"C103", "C110"}
    site = make_site(HEAD + "pages:\n  - loc: /a\x01/\n")
    assert found(build(str(site), str(tmp_path / "out"))) == [("C101", "site.yaml", 4, 1)]


def test_a_description_too_large_is_refused(make_site: Callable[..., Path], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import sitemap_ext.read.description_file as description_file  # (where a description's text is read)

    monkeypatch.setattr(description_file, "MAX_DESCRIPTION_BYTES", 100)
    site = make_site(HEAD + "pages:\n" + "".join(f"  - loc: /p{i}/\n" for i in range(20)))
    result = build(str(site), str(tmp_path / "out"))
    assert found(result) == [("F101", "site.yaml", None, None)]
    assert "larger than 100 bytes" in result.collector.diagnostics[0].message


def test_the_allow_read_flag_reaches_build_and_check(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "rows.csv").write_text("loc\n/a/\n")
    project = tmp_path / "p"
    project.mkdir()
    site = project / "site.yaml"
    site.write_text(textwrap.dedent(HEAD) + f"sources: [{shared / 'rows.csv'}]\n")
    assert main(["check", str(site), "--quiet"]) == 1
    assert main(["check", str(site), "--quiet", "--allow-read", str(shared)]) == 0
    assert main(["build", str(site), "-o", str(project / "out"), "--allow-read", str(shared)]) == 0


@pytest.mark.parametrize("text, expected", [
    ("pages:\n  - loc: /a\n    priority: " + "1" * 310 + "\n", [("D105", 5)]),
    ("pages:\n  - loc: /a\n    priority: " + "9" * 5000 + "\n", [("C101", 5)]),
    ('pages:\n  - loc: "/a\\ud800"\n', [("C104", 4), ("C101", 4)]),
    ('output:\n  pattern: "s\\0-{n}.xml"\npages:\n  - loc: /a\n', [("C108", 4)]),
    ("pages:\n  - loc: /a\n    videos:\n      - {thumbnail_loc: /t.jpg, title: T, description: D, "
     "content_loc: /v.mp4, platform: []}\n", [("V109", 6)]),
])
def test_values_that_raised_before_give_diagnostics(make_site: Callable[..., Path], tmp_path: Path,
                                                    text: str, expected: list[tuple[str, int]]) -> None:
    result = build(str(make_site(HEAD + text)), str(tmp_path / "out"))
    assert [(code, line) for code, _, line, _ in found(result)] == expected


def test_a_bracketed_host_that_is_no_address_is_a_url_finding(make_site: Callable[..., Path],
                                                              tmp_path: Path) -> None:
    result = build(str(make_site("site:\n  base_url: https://[x]/\npages:\n  - loc: /a\n")), str(tmp_path / "o"))
    assert [(code, line) for code, _, line, _ in found(result)] == [("U109", 2)]
    (tmp_path / "rows.jsonl").write_text('{"loc": "/a\\ud800"}\n{"loc": "/b"}\n')
    rows = build(str(make_site(HEAD + "sources: [rows.jsonl]\n")), str(tmp_path / "o"))
    assert found(rows) == [("S103", "rows.jsonl", 1, None)] and rows.urls == 1
