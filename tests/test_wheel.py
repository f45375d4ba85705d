"""The package as a stranger gets it: the sdist and the wheel built as a release builds
them (``python -m build``: the wheel from the sdist), checked as a package index checks
them (``twine check``), installed into a fresh venv and run from outside the source tree."""

from __future__ import annotations

import shutil
import sys
import zipfile
from email.parser import HeaderParser
from pathlib import Path

import pytest

from sitemap_ext._version import __version__

from .conftest import ROOT
from .test_packaging import run

NOW = "2026-11-21T12:00:00Z"
# What a release puts in the wheel beside the code: what messages, `sitemap-ext rules`
# and the documentation point a user to.
PACKAGE_DATA = ["py.typed", "rules/examples.yaml", "specs/rules.md", "specs/site-format.md",
                "specs/site.schema.json", "specs/report.schema.json", "specs/diff.schema.json"]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("build", reason="the sdist and the wheel are built with build (the test extra)")
    out = tmp_path_factory.mktemp("dist")
    built = run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], out, timeout=600)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return out


def _wheel(dist: Path) -> Path:
    (wheel,) = dist.glob("*.whl")
    return wheel


def test_sdist_and_wheel_are_named_for_the_version_and_pass_twine_check(dist: Path) -> None:
    pytest.importorskip("twine", reason="twine (the test extra) checks what an index would reject")
    names = sorted(p.name for p in dist.iterdir())
    assert names == [f"sitemap_ext-{__version__}-py3-none-any.whl", f"sitemap_ext-{__version__}.tar.gz"]
    checked = run([sys.executable, "-m", "twine", "check", "--strict", *map(str, sorted(dist.iterdir()))], dist)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_wheel_s_metadata_and_data(dist: Path) -> None:
    with zipfile.ZipFile(_wheel(dist)) as wheel:
        files = set(wheel.namelist())
        meta = HeaderParser().parsestr(wheel.read(f"sitemap_ext-{__version__}.dist-info/METADATA").decode())
    assert meta["Version"] == __version__ and meta["Name"] == "sitemap-ext"
    assert meta["Requires-Python"] == ">=3.10"
    assert "tomli>=1.1; python_version < \"3.11\"" in meta.get_all("Requires-Dist")
    assert {f"sitemap_ext/{name}" for name in PACKAGE_DATA} <= files
    for name in PACKAGE_DATA[2:]:  # the copies are the catalogue and schemas as they are in specs/
        with zipfile.ZipFile(_wheel(dist)) as wheel:
            assert wheel.read(f"sitemap_ext/{name}") == (ROOT / name).read_bytes(), name


@pytest.fixture(scope="module")
def installed(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel alone (no extra); its bin folder."""
    venv = tmp_path_factory.mktemp("venv")
    made = run([sys.executable, "-m", "venv", str(venv)], venv)
    assert made.returncode == 0, made.stderr
    pip = run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(_wheel(dist))], venv, timeout=600)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return venv / "bin"


def test_the_installed_wheel_builds_and_checks_an_example_outside_the_tree(installed: Path, tmp_path: Path) -> None:
    tool = str(installed / "sitemap-ext")
    version = run([tool, "--version"], tmp_path)
    assert version.stdout.strip() == f"sitemap-ext {__version__}"
    shutil.copytree(ROOT / "examples" / "small", tmp_path / "site")
    built = run([tool, "build", "site/site.yaml", "-o", "public", "--now", NOW], tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "public" / "sitemap.xml").is_file()
    checked = run([tool, "check", "public", "--now", NOW, "--base-url", "https://www.example-bakery.com/=public"],
                  tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    where = run([str(installed / "python"), "-c", "import sitemap_ext; print(sitemap_ext.__file__)"], tmp_path)
    assert not where.stdout.startswith(str(ROOT)), "the installed package, not the checkout, was run"


def test_the_installed_wheel_explains_a_rule_and_holds_the_catalogue(installed: Path, tmp_path: Path) -> None:
    explained = run([str(installed / "sitemap-ext"), "rules", "D105"], tmp_path)
    assert explained.returncode == 0, explained.stderr
    assert explained.stdout.startswith("D105 (") and "failing (" in explained.stdout and "passing:" in explained.stdout
    found = run([str(installed / "python"), "-c",
                 "from importlib.resources import files; print(files('sitemap_ext') / 'specs' / 'rules.md')"], tmp_path)
    catalogue = Path(found.stdout.strip())
    assert "| D105 | error | priority-invalid |" in catalogue.read_text(encoding="utf-8")


def test_a_live_check_without_the_extra_says_what_to_install(installed: Path, tmp_path: Path) -> None:
    """Exit 2 (a usage error: the command cannot run as asked) with the names that are
    on the index, never ``sitemap-ext[live]``, a name we do not hold there."""
    checked = run([str(installed / "sitemap-ext"), "check", "https://www.example.com/sitemap.xml"], tmp_path)
    assert checked.returncode == 2, checked.stdout + checked.stderr
    assert "pip install httpx protego" in checked.stderr and "sitemap-ext[" not in checked.stderr
