"""A build imports what it uses: not the api, diff or the HTML report (their import
was most of a build's start-up time), nor the check's orchestration and live fetch (the
registry of codes is a table that imports nothing), and ``import sitemap_ext`` loads
the api only when one of its names is asked for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UNUSED = ("sitemap_ext.api", "sitemap_ext.diff", "sitemap_ext.report.html", "sitemap_ext.deploys",
          "sitemap_ext.cli.check", "sitemap_ext.diff.compare", "sitemap_ext.report.diff_formats",
          # The live fetch and a submission: until the table of codes, the registry
          # imported each of them to gather their codes. (The rules across files,
          # rules.clusters, a build runs: it judges what it writes with the check's engine.)
          "sitemap_ext.read.live", "sitemap_ext.read.http", "sitemap_ext.read.http_transport", "sitemap_ext.submit")
# The check's orchestration (the run, its workers, folder walk, index following, live
# fetch, a file judged): a build loads no module of it.
CHECKER = "sitemap_ext.checker"
# The package's modules a small build loads: 101 when the registry gathered the codes of
# every module that reports one, 76 with the table; a ceiling with room for growth.
MOST_LOADED = 85


def _modules_after(code: str, cwd: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
                          cwd=cwd, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return done.stdout.split()


def test_a_build_on_the_command_line_loads_no_checker(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n")
    loaded = _modules_after("from sitemap_ext.cli import main\n"
                            "assert main(['build', 'site.yaml', '-o', 'out', '-q']) == 0", tmp_path)
    assert "sitemap_ext.write.build" in loaded
    assert [name for name in UNUSED if name in loaded] == []
    assert [name for name in loaded if name == CHECKER or name.startswith(CHECKER + ".")] == []
    assert len([name for name in loaded if name.partition(".")[0] == "sitemap_ext"]) <= MOST_LOADED
    assert (tmp_path / "out" / "sitemap.xml").is_file()


def test_the_api_is_loaded_when_a_name_of_it_is_asked_for(tmp_path: Path) -> None:
    assert "sitemap_ext.api" not in _modules_after("import sitemap_ext", tmp_path)
    loaded = _modules_after("import sitemap_ext\nfrom sitemap_ext import diff, submit\n"
                            "import sitemap_ext.diff.compare\n"
                            "assert callable(diff) and callable(submit) and sitemap_ext.diff is diff\n"
                            "assert sitemap_ext.check.__module__ == 'sitemap_ext.api'", tmp_path)
    assert "sitemap_ext.api" in loaded


def test_probing_the_package_for_a_name_it_lacks_imports_nothing_and_runs_nothing(tmp_path: Path) -> None:
    """hasattr on the package: False for what it lacks, without running __main__ (the
    command line) or raising for a dotted name."""
    loaded = _modules_after("import sitemap_ext\n"
                            "assert not hasattr(sitemap_ext, '__main__') and not hasattr(sitemap_ext, 'x.y')\n"
                            "assert not hasattr(sitemap_ext, 'no_such_module')\n"
                            "assert sitemap_ext.write.__name__ == 'sitemap_ext.write'", tmp_path)
    assert "sitemap_ext.__main__" not in loaded and "sitemap_ext.cli" not in loaded
