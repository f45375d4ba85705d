"""The README's first build and first check, and the tutorial's five steps, run as a
newcomer runs them: each `$ sitemap-ext ...` of their console blocks is run in a fresh
folder holding the files the page tells the reader to save, and what it prints is
compared with what the page shows.

A shown line ending in "..." stands for every line that starts with what comes before
it; a shown line that is "..." alone stands for any number of lines. The line a run
ends with, the instant its dates were judged at, is left out where the page says so.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
TUTORIAL = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")


def _blocks(text: str, kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```$", text, flags=re.S | re.M)


def _commands(block: str) -> list[tuple[str, list[str]]]:
    """A console block as (command, the lines shown after it)."""
    out: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append((line[2:].split("  #")[0].strip(), []))
        elif out:
            out[-1][1].append(line)
    return out


def _run(command: str, folder: Path) -> tuple[int, list[str]]:
    words = shlex.split(command)
    assert words[0] == "sitemap-ext", command
    done = subprocess.run([sys.executable, "-m", "sitemap_ext", *words[1:]], cwd=folder, capture_output=True,
                          text=True, timeout=120, env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"})
    lines = [line for line in (done.stdout + done.stderr).splitlines() if not line.startswith("dates judged at")]
    return done.returncode, lines


def _shows(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is what ``shown`` shows (with its "..." lines)."""
    if not shown:
        return not printed
    head, rest = shown[0], shown[1:]
    if head.strip() == "...":
        return any(_shows(rest, printed[at:]) for at in range(len(printed) + 1))
    if not printed:
        return False
    if head.endswith("..."):
        matches = printed[0].startswith(head[:-3])
    else:
        matches = printed[0] == head
    return matches and _shows(rest, printed[1:])


def _same(block: str, folder: Path, exits: list[int]) -> None:
    for (command, shown), code in zip(_commands(block), exits, strict=True):
        if not shown:  # (a command the page only names)
            continue
        status, printed = _run(command, folder)
        assert status == code, (command, status, printed)
        assert _shows([line for line in shown if not line.startswith("dates judged at")], printed), \
            f"{command}\n--- the page shows:\n" + "\n".join(shown) + "\n--- it prints:\n" + "\n".join(printed)


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """The tutorial's sitemap.xml (a German page that does not link back), saved."""
    sitemap = next(block for block in _blocks(TUTORIAL, "xml") if block.startswith("<?xml"))
    (tmp_path / "sitemap.xml").write_text(sitemap, encoding="utf-8")
    return tmp_path


def test_the_readmes_first_build_and_first_check_print_what_it_shows(broken: Path) -> None:
    (broken / "site.yaml").write_text(_blocks(README, "yaml")[0], encoding="utf-8")
    build, clean, failing = _blocks(README, "console")[:3]
    _same(build, broken, [0])
    _same(clean, broken, [0])
    _same(failing, broken, [1, 0, 0])


def test_the_tutorials_five_steps_print_what_it_shows(broken: Path) -> None:
    (broken / "site.yaml").write_text(_blocks(TUTORIAL, "yaml")[0], encoding="utf-8")
    build, clean, failing, rules, fixed = _blocks(TUTORIAL, "console")
    _same(build, broken, [0])
    _same(clean, broken, [0])
    _same(failing, broken, [1])
    _same(rules, broken, [0])
    german = next(block for block in _blocks(TUTORIAL, "xml") if block.lstrip().startswith("<url>") and "schuhe" in block)
    sitemap = (broken / "sitemap.xml").read_text(encoding="utf-8")
    old = re.search(r"  <url>\n    <loc>https://www.example.com/de/schuhe</loc>\n  </url>\n", sitemap)
    assert old is not None, "the tutorial's sitemap has no German entry to fix"
    (broken / "sitemap.xml").write_text(sitemap.replace(old.group(0), german), encoding="utf-8")
    _same(fixed, broken, [0])
