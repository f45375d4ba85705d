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
