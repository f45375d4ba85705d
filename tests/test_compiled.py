"""The engine compiled by mypyc (``SITEMAP_EXT_COMPILE=1 pip install .``) passes the
engine's tests: the same source, judged the same.

The package is installed compiled into a new virtual environment, and the tests of the
readers, the rules and the build's verdicts run there against the installed package,
from a copy of the tests made away from the source tree (so the compiled modules are
the ones imported; the run asserts that they are). Slow (a compile of about a minute):
it runs where a C compiler is, and says why it skips elsewhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from .conftest import ROOT

# The tests of what is compiled: readers, entry and file rules, clusters, dates, the
# build's verdicts on what it writes, the real-world corpus.
TESTS = ["test_check_sitemaps.py", "test_check_rules.py", "test_multilingual.py", "test_media.py",
         "test_credible_dates.py", "test_realworld.py", "test_rule_examples.py", "test_same_judge.py",
         "test_properties.py"]
TEST_NEEDS = ["pytest>=7", "hypothesis>=6.80", "jsonschema>=4.17", "isal>=1.6", "httpx>=0.27", "protego>=0.3"]
COMPILED = ["sitemap_ext.read.xml", "sitemap_ext.rules.engine", "sitemap_ext.rules.hreflang", "sitemap_ext.urls"]

_COMPILER = sysconfig.get_config_var("CC") or "cc"


@pytest.mark.skipif(shutil.which(_COMPILER.split()[0]) is None,
                    reason=f"no C compiler ({_COMPILER}): mypyc cannot compile the engine here")
@pytest.mark.skipif(os.environ.get("SITEMAP_EXT_SKIP_COMPILED") == "1",
                    reason="SITEMAP_EXT_SKIP_COMPILED=1: the compiled engine is not tested in this run")
def test_the_compiled_engine_passes_the_engines_tests(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    env = {**os.environ, "SITEMAP_EXT_COMPILE": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    source = tmp_path / "source"  # (built from a copy: the build leaves nothing in the checkout)
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "__pycache__",
                                                                 "*.pyc", "*.egg-info", "out", "*.so", "tests", "docs"))
    installed = subprocess.run([python, "-m", "pip", "install", "-q", str(source), *TEST_NEEDS], env=env,
                               capture_output=True, text=True)
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    copy = tmp_path / "repo"  # the repository without the package: the installed one is imported
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("sitemap_ext", ".git", ".venv", "build", "dist",
                                                               "__pycache__", "*.pyc", "*.egg-info", "out"))
    which = subprocess.run([python, "-c", "import importlib, sys; print(' '.join(importlib.import_module(m).__file__ "
                            f"for m in {COMPILED!r}))"], cwd=copy, env=env, capture_output=True, text=True, check=True)
    assert all(name.endswith(".so") and str(venv) in name for name in which.stdout.split()), which.stdout
    run = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *(f"tests/{name}" for name in TESTS)],
                         cwd=copy, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
