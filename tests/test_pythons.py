"""The README's two commands as a newcomer runs them: the quick start (a venv, the install,
every example built) in a fresh venv, and the test command that .ci/run runs word for word,
which ends with .ci/other_pythons (a fast part of the suite on Python 3.10, the oldest
requires-python admits, and on the newest Python here)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import ROOT

# The commands as the README gives them; the tests read the README's own when it has
# "## The two commands", so that a broken command there breaks them.
QUICK_START = ("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && (set -e; for s in small catalog "
               "international cctld media newsroom static-site; do sitemap-ext build examples/$s/site.yaml -o out/$s "
               "--now 2026-11-21T12:00:00Z; done)")
TEST_COMMAND = ("python3 -m venv .venv && . .venv/bin/activate && pip install -q -e '.[test]' && python -m pytest -q "
                "&& bash .ci/other_pythons")
# Not part of a copy of the checkout: venvs, outputs, caches, git's own files.
LEFT_OUT = shutil.ignore_patterns(".venv*", "out", "build", "dist", "*.egg-info", "__pycache__", ".git", "tests",
                                  ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", "benchmarks")


def readme_commands() -> list[str]:
    """The sh blocks of the README's "The two commands" section ([] without one)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8") if (ROOT / "README.md").is_file() else ""
    section = re.search(r"^## The two commands\n(.*?)(?=^## )", text, re.S | re.M)
    return re.findall(r"```sh\n(.*?)\n```", section.group(1), re.S) if section else []


def test_ci_runs_the_test_command_word_for_word() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert lines[-1] == TEST_COMMAND
    commands = readme_commands()
    if len(commands) >= 2 and "other_pythons" not in commands[1]:
        pytest.skip("README.md's test command does not run .ci/other_pythons yet (the docs carry it over)")
    if len(commands) >= 2:
        assert commands[1] == TEST_COMMAND


def test_other_pythons_says_which_python_it_skips(tmp_path: Path) -> None:
    """Without pyenv and without python3.10 on PATH: a line saying so, and exit 0."""
    bare = tmp_path / "bin"
    bare.mkdir()
    for tool in ("bash", "grep", "sort", "tail", "cut", "mktemp", "rm", "dirname", "cat"):
        found = shutil.which(tool)
        if found is not None:
            (bare / tool).symlink_to(found)
    run = subprocess.run(["bash", str(ROOT / ".ci" / "other_pythons")], env={"PATH": str(bare), "HOME": str(tmp_path)},
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    assert "other_pythons: skipped Python 3.10: neither pyenv's 3.10 nor python3.10 is installed" in run.stdout


def test_the_quick_start_in_a_fresh_venv(tmp_path: Path) -> None:
    commands = readme_commands()
    command = commands[0] if commands else QUICK_START
    checkout = tmp_path / "sitemap-ext"
    shutil.copytree(ROOT, checkout, ignore=LEFT_OUT)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    run = subprocess.run(["bash", "-c", command], cwd=checkout, env=env, capture_output=True, text=True,
                         timeout=900, check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    built = {path.name for path in (checkout / "out").iterdir()}
    examples = {path.parent.name for path in (ROOT / "examples").glob("*/site.yaml")}
    assert built == examples - {"between-deploys"}, "every example but the CI one is built"
    for name in built:
        assert list((checkout / "out" / name).rglob("sitemap*.xml")), name
