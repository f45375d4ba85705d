"""Files planted where sitemap-ext keeps its own: a commit journal whose staging
folder or sources lead out of the output folder, a --cache entry whose body is a link
or whose validators are no header values, a link at a baseline's temporary name, and a
manifest in a checked folder that would hide a sitemap."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sitemap_ext import build
from sitemap_ext.cli import main
from sitemap_ext.folder import DAMAGED_SUFFIX, JOURNAL, MANIFEST, STATE_NEW

from .test_safety_output import describe


def found(result: object) -> list[tuple[str, str | None]]:
    return [(d.code, d.file) for d in result.collector.sorted()]  # type: ignore[attr-defined]


# --- 1. a planted commit journal moves nothing from outside the output folder ----------

def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victimdir"
    (victim / "sub").mkdir(parents=True)
    (victim / "id_rsa").write_text("SECRET KEY")
    (victim / "sub" / "id_rsa").write_text("SECRET KEY")
    return victim


def _plant(out: Path, stage: str, moves: list[list[str]], **extra: object) -> None:
    manifest = json.loads((out / MANIFEST).read_text())
    (out / JOURNAL).write_text(json.dumps({"stage": stage, "moves": moves, "remove": [], "manifest": manifest,
                                           **extra}))


def _stage_is_a_link(out: Path, victim: Path) -> tuple[str, list[list[str]]]:
    (out / ".sitemap-ext-stage-evil").symlink_to(victim)
    return ".sitemap-ext-stage-evil", [["id_rsa", "leak.txt"]]


def _folder_in_stage_is_a_link(out: Path, victim: Path) -> tuple[str, list[list[str]]]:
    (out / ".sitemap-ext-stage-evil").mkdir()
    (out / ".sitemap-ext-stage-evil" / "host").symlink_to(victim / "sub")
    return ".sitemap-ext-stage-evil", [["host/id_rsa", "leak.txt"]]


def _source_is_a_link(out: Path, victim: Path) -> tuple[str, list[list[str]]]:
    (out / ".sitemap-ext-stage-evil").mkdir()
    (out / ".sitemap-ext-stage-evil" / "id_rsa").symlink_to(victim / "id_rsa")
    return ".sitemap-ext-stage-evil", [["id_rsa", "leak.txt"]]


def _stage_is_a_file(out: Path, victim: Path) -> tuple[str, list[list[str]]]:
    (out / ".sitemap-ext-stage-evil").write_text("no folder")
    return ".sitemap-ext-stage-evil", [["id_rsa", "leak.txt"]]


PLANTED = {"stage is a link": _stage_is_a_link, "folder in the stage is a link": _folder_in_stage_is_a_link,
           "source is a link": _source_is_a_link, "stage is a file": _stage_is_a_file}


@pytest.mark.parametrize("planted", sorted(PLANTED))
def test_a_planted_journal_moves_nothing_from_outside_the_output_folder(tmp_path: Path, planted: str) -> None:
    out = tmp_path / "out"
    site = describe(tmp_path / "site", pages=3)
    assert build(str(site), str(out)).ok
    victim = _victim(tmp_path)
    stage, moves = PLANTED[planted](out, victim)
    # A good move listed first: refused with the rest, as nothing of the journal is moved.
    if (out / stage).is_dir() and not (out / stage).is_symlink():
        (out / stage / "ok.xml").write_text("x")
    _plant(out, stage, [["ok.xml", "ok.xml"], *moves])
    again = build(str(site), str(out))
    assert again.ok and found(again) == [("F106", str(out / JOURNAL))], found(again)
    assert "not a f" in again.collector.sorted()[0].message
    assert (victim / "id_rsa").read_text() == "SECRET KEY" and (victim / "sub" / "id_rsa").read_text() == "SECRET KEY"
    assert not os.path.lexists(out / "leak.txt") and not os.path.lexists(out / "ok.xml")
    assert (out / (JOURNAL + DAMAGED_SUFFIX)).is_file() and not (out / JOURNAL).exists()
    assert not (out / ".sitemap-ext-stage-evil").is_symlink()  # (a link at a stage's name is removed, not followed)


def test_the_reproducer_through_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out2"
    site = describe(tmp_path / "site", pages=3)
    assert main(["build", str(site), "-o", str(out), "--no-config"]) == 0
    victim = _victim(tmp_path)
    (out / ".sitemap-ext-stage-evil").symlink_to(victim)
    _plant(out, ".sitemap-ext-stage-evil", [["id_rsa", "leak.txt"]])
    capsys.readouterr()
    assert main(["build", str(site), "-o", str(out), "--no-config"]) == 0
    assert "F106" in capsys.readouterr().out
    assert (victim / "id_rsa").read_text() == "SECRET KEY" and not os.path.lexists(out / "leak.txt")


def test_a_planted_journal_moves_no_link_in_place_of_the_build_state(tmp_path: Path) -> None:
    out = tmp_path / "out"
    site = describe(tmp_path / "site", pages=3)
    assert build(str(site), str(out)).ok
    victim = _victim(tmp_path)
    state = tmp_path / "state.sqlite"
    Path(str(state) + STATE_NEW).symlink_to(victim / "id_rsa")
    _plant(out, ".sitemap-ext-stage-gone", [], state=[str(state) + STATE_NEW, str(state)])
    again = build(str(site), str(out))
    assert found(again) == [("F106", str(out / JOURNAL))], found(again)
    assert not os.path.lexists(state) and (victim / "id_rsa").read_text() == "SECRET KEY"


def test_a_journal_a_build_wrote_is_still_finished(tmp_path: Path) -> None:
    """The staging folder of a killed build, its files in a host folder: moved in place."""
    out = tmp_path / "out"
    site = describe(tmp_path / "site", pages=3)
    assert build(str(site), str(out)).ok
    stage = out / ".sitemap-ext-stage-abc"
    (stage / "de").mkdir(parents=True)
    (stage / "de" / "x.xml").write_text("staged")
    _plant(out, stage.name, [["de/x.xml", "de/x.xml"], ["gone.xml", "gone.xml"]])
    again = build(str(site), str(out))
    assert again.ok and again.recovered and found(again) == []
    assert (out / "de" / "x.xml").read_text() == "staged" and not stage.exists()
