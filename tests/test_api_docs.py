"""The API reference (docs/api, Sphinx autodoc) builds from the docstrings without a
warning, and documents every public name: it cannot rot unnoticed."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import sitemap_ext

ROOT = Path(__file__).resolve().parent.parent


def test_every_public_name_has_a_docstring_and_type_hints() -> None:
    for name in sitemap_ext.__all__:
        if name == "__version__":
            continue
        obj = getattr(sitemap_ext, name)
        doc = (inspect.getdoc(obj) or "").strip()
        assert doc and not doc.startswith(f"{name}("), f"{name} has no docstring of its own"
        if inspect.isfunction(obj):
            hints = inspect.signature(obj)
            assert hints.return_annotation is not inspect.Signature.empty, f"{name} has no return type"
            assert all(p.annotation is not inspect.Parameter.empty for p in hints.parameters.values()), name


def test_the_reference_builds_and_names_every_public_name(tmp_path: Path) -> None:
    pytest.importorskip("sphinx", reason="the API reference is built with Sphinx (in the test extra)")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(ROOT / "docs" / "api"), str(tmp_path / "html")], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    page = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    for name in sitemap_ext.__all__:
        if name != "__version__":
            assert f'id="sitemap_ext.{name}"' in page, f"{name} is not in docs/api/index.rst"
