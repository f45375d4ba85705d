"""What a stranger reads before installing: one version everywhere, no snippet that
installs a name we do not hold on the package index, and the schemas the tests validate
with in the repository (tests/test_wheel.py builds and installs the package itself)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from sitemap_ext._version import __version__
from sitemap_ext.structured import read_toml

from .conftest import ROOT, SCHEMAS, XSD

# Files we ship that tell a user how to install sitemap-ext (README.md and docs/ are the
# documentation's; the message of a live check without the 'live' extra is here).
INSTALL_TEXTS = ["action.yml", "examples/between-deploys/ci.yml", "sitemap_ext/read/http_types.py"]


def run(args: list[str], cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    """A command as a user runs it: without this venv's or this checkout's paths."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def test_the_version_is_written_once_and_read_by_the_build() -> None:
    project = read_toml(str(ROOT / "pyproject.toml"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "sitemap_ext._version.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_version_option_and_the_action_s_example_agree() -> None:
    shown = run([sys.executable, "-m", "sitemap_ext", "--version"], ROOT)
    assert shown.returncode == 0 and shown.stdout.strip() == f"sitemap-ext {__version__}", shown
    action = (ROOT / "action.yml").read_text(encoding="utf-8")
    examples = re.findall(r"sitemap_ext-([0-9.]+)-py3-none-any\.whl", action)
    assert examples and set(examples) == {__version__}
    assert "sitemap-ext==" not in action


@pytest.mark.parametrize("name", INSTALL_TEXTS)
def test_no_snippet_installs_a_name_we_do_not_hold_on_the_index(name: str) -> None:
    """``pip install sitemap-ext`` (or with extras) installs whoever registers the name."""
    text = (ROOT / name).read_text(encoding="utf-8")
    assert not re.search(r"pip install +['\"]?sitemap-ext\b", text), name
    for version in re.findall(r"sitemap_ext-([0-9.]+)-py3-none-any\.whl", text):
        assert version == __version__, name


def test_the_schemas_the_tests_validate_with_are_in_the_repository() -> None:
    """Every schema all.xsd reads is in tests/data/xsd, named in its README with where it
    comes from, and compiles from local files alone; no test looks beside the checkout."""
    names = {path.name for path in SCHEMAS.glob("*.xsd")}
    assert {"all.xsd", "sitemaps-0.9.xsd", "sitemap.xsd", "siteindex.xsd", "sitemap-image.xsd", "sitemap-video.xsd",
            "sitemap-news.xsd", "xhtml-link.xsd"} == names
    readme = (SCHEMAS / "README.md").read_text(encoding="utf-8")
    assert all(name in readme for name in names)
    etree.XMLSchema(etree.parse(str(XSD), etree.XMLParser(no_network=True)))
    for test in (ROOT / "tests").glob("*.py"):
        assert not re.search(r'parent\s*/\s*"shared"|\.\./shared', test.read_text(encoding="utf-8")), test.name
