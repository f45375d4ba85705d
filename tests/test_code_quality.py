"""Issue "One judge ... a house that shows it", point 5: the package stays typed
(`mypy --strict`, with lxml-stubs), lint-clean on the rule set in pyproject.toml
(ruff), with no function worse than radon grade C unless a comment says why, and no
module over ~400 lines. The tools are in the `test` extra; where one is missing the
test says so and skips."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sitemap_ext"
# Grades D and worse kept on purpose, each with a comment at the function saying why.
KEPT = {("read/html.py", "read_head")}


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]' brings it)")
    return found


def test_mypy_strict_is_clean() -> None:
    done = subprocess.run([tool("mypy"), "--strict", "sitemap_ext"], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout[-3000:]


def test_ruff_is_clean() -> None:
    done = subprocess.run([tool("ruff"), "check", "sitemap_ext"], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout[-3000:]


def test_no_function_worse_than_grade_c_without_a_reason() -> None:
    done = subprocess.run([tool("radon"), "cc", "-n", "D", "sitemap_ext"], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    found, file = set(), ""
    for line in done.stdout.splitlines():
        if line.startswith("sitemap_ext/"):
            file = line.strip()[len("sitemap_ext/"):]
        elif line.strip():
            name = re.split(r"\s+", line.strip())[2].split(".")[-1]
            found.add((file, name))
    assert found <= KEPT, sorted(found - KEPT)
    for file, name in KEPT:
        text = (PACKAGE / file).read_text(encoding="utf-8")
        body = text[text.index(f"def {name}("):]
        assert "Radon grade" in body[:2000], f"{file}:{name} keeps its grade without saying why"


def test_modules_stay_small() -> None:
    sizes = {path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGE.rglob("*.py")}
    assert max(sizes.values()) <= 420, sorted(sizes.items(), key=lambda item: -item[1])[:5]
