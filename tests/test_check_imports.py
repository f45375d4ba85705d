"""A command imports what it runs: ``--version`` and ``--help`` no verb's module, and a
check of one sitemap file neither the build, diff, live HTTP, the HTML report nor the
YAML reader (which were most of a check's start-up time: the check of a small file
paid for every other verb). Counted in a fresh process, as tests/test_build_imports.py
counts a build."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _modules_after(code: str, cwd: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
                          cwd=cwd, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return done.stdout.split()


def _loaded(loaded: list[str], names: tuple[str, ...]) -> list[str]:
    """Those of ``loaded`` that are one of ``names`` or inside one of them."""
    return [name for name in loaded if name in names or name.startswith(tuple(f"{n}." for n in names))]


def test_the_version_and_the_help_load_no_verbs_module(tmp_path: Path) -> None:
    """--version, --help and no verb at all build the parser of every verb (its options
    are in cli/options.py) and run none: no verb's module, no rule, no reader."""
    loaded = _modules_after("import contextlib, io\nfrom sitemap_ext.cli import main\n"
                            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
                            "    assert main(['--version']) == 0 and main(['--help']) == 0\n"
                            "with contextlib.redirect_stderr(io.StringIO()):\n"
                            "    assert main([]) == 2\n"
                            "assert out.getvalue().startswith('sitemap-ext ')\n", tmp_path)
    assert "sitemap_ext.cli.options" in loaded
    verbs = tuple(f"sitemap_ext.cli.{verb}" for verb in ("build", "check", "diff", "submit", "rules"))
    assert _loaded(loaded, (*verbs, "sitemap_ext.api", "sitemap_ext.rules", "sitemap_ext.write",
                            "sitemap_ext.checker", "sitemap_ext.submit", "lxml", "yaml", "langcodes")) == []
    assert len([name for name in loaded if name.partition(".")[0] == "sitemap_ext"]) <= 14
