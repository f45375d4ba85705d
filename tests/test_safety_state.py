"""The build state is safe where it guards deploys (issue "Safe where it guards
deploys"): a state another program holds locked is F103, never "damaged, remove it";
``output.state`` lives where sources may live, or nothing is written; a state whose
schema is not exactly ours is refused before any of it can run."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitemap_ext import build
from sitemap_ext.cli import main
from sitemap_ext.folder import STATE

SITE = "site:\n  base_url: https://e.com/\ndefaults:\n  lastmod: content\npages:\n" + "".join(
    f"  - loc: /p{i}/\n    digest: v{i}\n" for i in range(3))


def described(folder: Path, extra: str = "") -> Path:
    site = folder / "site.yaml"
    site.write_text(SITE + extra, encoding="utf-8")
    return site


def found(result: object) -> list[tuple[str, str, int | None]]:
    return [(d.code, os.path.basename(d.file or ""), d.line)  # type: ignore[attr-defined]
            for d in result.collector.sorted()]  # type: ignore[attr-defined]


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's wait for a lock shortened (5 s in use) so that the tests run quickly."""
    monkeypatch.setattr("sitemap_ext.state.STATE_BUSY_SECONDS", 0.2)


def holding(path: Path, how: str) -> Iterator[sqlite3.Connection]:
    other = sqlite3.connect(path, isolation_level=None)
    other.execute(f"BEGIN {how}")
    if how == "EXCLUSIVE":
        other.execute("UPDATE meta SET value = value WHERE key = 'build'")
    try:
        yield other
    finally:
        other.execute("ROLLBACK")
        other.close()


# --- 1. a lock is F103, never F105 --------------------------------------------------


def test_a_state_locked_by_another_program_is_f103_in_a_build(tmp_path: Path, quick: None,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    site, out = described(tmp_path), tmp_path / "out"
    assert build(str(site), str(out), now="2026-01-01T00:00:00Z").ok
    before = (out / STATE).read_bytes()
    for _ in holding(out / STATE, "EXCLUSIVE"):
        result = build(str(site), str(out), now="2026-02-01T00:00:00Z")
        assert found(result) == [("F103", STATE, None)]
        message = result.collector.sorted()[0].message
        assert "locked by another program" in message and "remove" not in message
        assert main(["build", str(site), "-o", str(out), "-q"]) == 3
    assert "Traceback" not in capsys.readouterr().err
    assert (out / STATE).read_bytes() == before
    assert build(str(site), str(out), now="2026-02-01T00:00:00Z").ok  # once let go, it builds


# --- 2. output.state lives where sources may, or nothing is written ------------------


def listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.mark.parametrize("how", ["parent", "absolute", "linked folder"])
def test_a_state_outside_the_descriptions_folder_is_c114_and_nothing_is_written(tmp_path: Path, how: str) -> None:
    here, away = tmp_path / "project", tmp_path / "away"
    here.mkdir()
    away.mkdir()
    named = {"parent": "../../made/state.sqlite", "absolute": str(away / "made" / "state.sqlite"),
             "linked folder": "cache/made/state.sqlite"}[how]
    if how == "linked folder":
        (here / "cache").symlink_to(away, target_is_directory=True)
    site = described(here, f"output:\n  state: {named}\n")
    before_here, before_top = listing(here), listing(tmp_path.parent)
    result = build(str(site), str(here / "out"))
    assert found(result) == [("C114", "site.yaml", 13)]
    assert "output.state" in result.collector.sorted()[0].message
    assert listing(here) == before_here and listing(tmp_path.parent) == before_top  # no folder, no file
    assert main(["build", str(site), "-o", str(here / "out"), "-q"]) == 1
    assert listing(tmp_path.parent) == before_top
    allowed = build(str(site), str(here / "out"), allow_read=[str(tmp_path.parent if how == "parent" else away)])
    assert allowed.ok  # a folder named with --allow-read may hold it, as it may hold sources


@pytest.mark.parametrize("named", [".sitemap-ext-journal.json", "out/.sitemap-ext-stage-1/state.sqlite",
                                   "out/.sitemap-ext-manifest.json"])
def test_a_state_named_as_the_output_folders_own_files_is_c108(tmp_path: Path, named: str) -> None:
    site = described(tmp_path, f"output:\n  state: {named}\n")
    result = build(str(site), str(tmp_path / "out"))
    assert found(result) == [("C108", "site.yaml", 13)]
    assert listing(tmp_path) == {"site.yaml"}


def test_a_state_inside_the_descriptions_folder_is_kept_there(tmp_path: Path) -> None:
    site = described(tmp_path, "output:\n  state: cache/../cache/a/.sitemap-ext-state.sqlite\n")
    assert build(str(site), str(tmp_path / "out")).ok
    assert (tmp_path / "cache" / "a" / STATE).is_file()
