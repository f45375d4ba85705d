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
UNUSED = ("sitemap_ext.api", "sitemap_ext.deploys",
          "sitemap_ext.cli.check", "sitemap_ext.diff.compare", "sitemap_ext.report.diff_formats",
          # The live fetch and a submission: until the table of codes, the registry
          # imported each of them to gather their codes. (The rules across files,
          # rules.clusters, a build runs: it judges what it writes with the check's engine.)
          "sitemap_ext.read.live", "sitemap_ext.read.http", "sitemap_ext.read.http_transport", "sitemap_ext.submit")
# The check's orchestration (the run, its workers, folder walk, index following, live
# fetch, a file judged), the report of a check, diff and live HTTP: a build loads none.
NEVER = ("sitemap_ext.checker", "sitemap_ext.report.html", "sitemap_ext.report.baseline",
         "sitemap_ext.report.diff_formats", "sitemap_ext.diff", "sitemap_ext.cli.check", "sitemap_ext.cli.diff",
         "sitemap_ext.cli.submit", "sitemap_ext.read.http", "sitemap_ext.read.live", "sitemap_ext.submit")
# The package's modules a small build loads: 101 when the registry gathered the codes of
# every module that reports one, 76 with the table, 66 since a package's __init__ imports
# none of its modules (the rule set is rules/rule_set.py) and the stylesheet, the Link
# headers, the HTML views, a built site's content selector and the heap setting load where
# they are used; 78 since the build judges what it writes with every rule of the check
# (the rule set, the engine, the rules across files: 12 modules); 79 with the XSD's
# datatypes for lastmod and priority (xsd_values); 78 since lxml's element type is
# imported for the type checker only where media fields are read (a build reads no XML);
# 77 since the build state's file (state.py, SQLite) loads where a state is kept; 78 with
# the verbs' arguments in cli/options.py (out of diff's and submit's modules, which loaded
# the api for --version); 77 since the public model (model.py) loads where a Site or pages
# are given; 78 with URL identity's escapes in a module of their own (_escapes.py: urls.py
# was past 420 lines). (The standard library's SQLite, multiprocessing, concurrent.futures,
# logging and socket no longer load either: see below.) The issue asks for 40:
# what is left is the build's own modules (write/, the description's readers, ext/) and
# the rules, each loaded at the top of the module that uses it.
MOST_LOADED = 78
TWO_LOCALES = ("site:\n  base_url: https://e.com/\nlocales:\n  en: /en/\n  de: /de/\n"
               "pages:\n  - path: /a\n    lastmod: 2026-01-02\n")
FROM_CSV = "site:\n  base_url: https://e.com/\nsources:\n  - file: rows.csv\n"
BUILD_BOTH = ("from sitemap_ext.cli import main\n"
              "assert main(['build', 'two.yaml', '-o', 'two', '-q']) == 0\n"
              "assert main(['build', 'csv.yaml', '-o', 'csv', '-q']) == 0\n")


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
    assert _never(loaded) == []
    assert (tmp_path / "out" / "sitemap.xml").is_file()


def _never(loaded: list[str]) -> list[str]:
    return [name for name in loaded if name in NEVER or name.startswith(tuple(f"{never}." for never in NEVER))]


def _ours(loaded: list[str]) -> list[str]:
    return [name for name in loaded if name.partition(".")[0] == "sitemap_ext"]


def test_a_small_build_loads_at_most_so_many_of_the_packages_modules(tmp_path: Path) -> None:
    """A site in two locales and one from a CSV source, built in one fresh process: the
    modules of the package it loaded are counted, and none is the check's, diff's or live
    HTTP's. The build judges what it writes with the check's rules (the whole rule set),
    but a package's __init__ imports none of its modules, and a built page's reader loads
    only for a built site."""
    (tmp_path / "two.yaml").write_text(TWO_LOCALES)
    (tmp_path / "csv.yaml").write_text(FROM_CSV)
    (tmp_path / "rows.csv").write_text("loc,lastmod\n/p/1,2026-01-01\n/p/2,2026-01-02\n")
    loaded = _modules_after(BUILD_BOTH, tmp_path)
    assert _never(loaded) == []
    assert "sitemap_ext.rules.rule_set" in loaded  # (the build judges with every rule of the check)
    assert [name for name in ("sitemap_ext.read.html", "sitemap_ext.read.git_times", "sitemap_ext.cli.heap",
                              "sitemap_ext.lxml_types", "sitemap_ext.state") if name in loaded] == []
    assert len(_ours(loaded)) <= MOST_LOADED, sorted(_ours(loaded))
    assert (tmp_path / "two" / "sitemap.xml").is_file() and (tmp_path / "csv" / "sitemap.xml").is_file()


def test_the_views_stylesheet_and_headers_load_only_where_the_output_asks_for_them(tmp_path: Path) -> None:
    """output.html (on by default for a small site), output.xsl and output.headers each
    load their writer where they are on, and only there."""
    (tmp_path / "two.yaml").write_text(TWO_LOCALES)
    (tmp_path / "csv.yaml").write_text(FROM_CSV + "output:\n  html: false\n")
    (tmp_path / "rows.csv").write_text("loc\n/p/1\n")
    views = ("sitemap_ext.write.htmlview", "sitemap_ext.write.stylesheet", "sitemap_ext.write.headers")
    plain = _modules_after("from sitemap_ext.cli import main\n"
                           "assert main(['build', 'csv.yaml', '-o', 'csv', '-q']) == 0\n", tmp_path)
    assert [name for name in views if name in plain] == []
    (tmp_path / "two.yaml").write_text(TWO_LOCALES + "output:\n  xsl: true\n  headers: netlify\n")
    asked = _modules_after("from sitemap_ext.cli import main\n"
                           "assert main(['build', 'two.yaml', '-o', 'two', '-q']) == 0\n", tmp_path)
    assert [name for name in views if name in asked] == list(views)


def test_the_build_states_file_loads_only_where_a_state_is_kept(tmp_path: Path) -> None:
    """state.py (the SQLite file) is the state's: a build without output.state (or
    --state) does not load it; one with it does, and keeps the state."""
    (tmp_path / "plain.yaml").write_text(TWO_LOCALES)
    (tmp_path / "kept.yaml").write_text(TWO_LOCALES + "output:\n  state: true\n")
    plain = _modules_after("from sitemap_ext.cli import main\n"
                           "assert main(['build', 'plain.yaml', '-o', 'plain', '-q']) == 0\n", tmp_path)
    assert "sitemap_ext.state" not in plain and "sitemap_ext.write.state" in plain
    kept = _modules_after("from sitemap_ext.cli import main\n"
                          "assert main(['build', 'kept.yaml', '-o', 'kept', '-q']) == 0\n", tmp_path)
    assert "sitemap_ext.state" in kept
    assert (tmp_path / "kept" / ".sitemap-ext-state.sqlite").is_file()


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


def test_langcodes_babel_and_lxml_load_only_where_a_tag_or_a_value_is_judged(tmp_path: Path) -> None:
    """langtags, xsd_values and dates import cheaply: a site in one language builds
    without langcodes or babel (no hreflang to judge), and the modules alone load
    neither them nor lxml; a site in two locales judges its tags, and loads them."""
    (tmp_path / "one.yaml").write_text("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n")
    (tmp_path / "two.yaml").write_text(TWO_LOCALES)
    alone = _modules_after("import sitemap_ext.langtags, sitemap_ext.xsd_values, sitemap_ext.dates", tmp_path)
    assert [name for name in ("langcodes", "babel", "lxml") if name in alone] == []
    one = _modules_after("from sitemap_ext.cli import main\n"
                         "assert main(['build', 'one.yaml', '-o', 'one', '-q']) == 0\n", tmp_path)
    assert "sitemap_ext.langtags" in one and "langcodes" not in one and "babel" not in one
    two = _modules_after("from sitemap_ext.cli import main\n"
                         "assert main(['build', 'two.yaml', '-o', 'two', '-q']) == 0\n", tmp_path)
    assert "langcodes" in two and "babel" in two


# What a build from a description does not use: the public model (its objects are a
# program's), SQLite (no state kept), a process pool (a small build runs in one process).
NOT_FOR_A_SMALL_BUILD = ("sitemap_ext.model", "sitemap_ext.write.parallel", "sqlite3", "multiprocessing",
                         "concurrent.futures", "logging", "socket", "email", "http.client")


def test_a_small_build_loads_no_model_sqlite_or_process_pool(tmp_path: Path) -> None:
    """A site in two locales built on the command line: written whole, without the
    model, SQLite or a pool; a CSV source under 4 MiB loads the parallel writer (which
    says it is not worth its processes) and still no pool."""
    (tmp_path / "two.yaml").write_text(TWO_LOCALES)
    (tmp_path / "csv.yaml").write_text(FROM_CSV)
    (tmp_path / "rows.csv").write_text("loc,lastmod\n/p/1,2026-01-01\n/p/2,2026-01-02\n")
    two = _modules_after("from sitemap_ext.cli import main\n"
                         "assert main(['build', 'two.yaml', '-o', 'two', '-q']) == 0\n", tmp_path)
    assert [name for name in NOT_FOR_A_SMALL_BUILD if name in two] == []
    assert (tmp_path / "two" / "sitemap.xml").is_file()
    both = _modules_after(BUILD_BOTH, tmp_path)
    assert [name for name in NOT_FOR_A_SMALL_BUILD if name in both] == ["sitemap_ext.write.parallel"]


def test_the_apis_build_and_check_load_the_checker_diff_and_submit_where_they_run(tmp_path: Path) -> None:
    """``from sitemap_ext import build, check`` (an integration's import) loads neither
    the checker, diff, submit nor SQLite; a build through the api loads none of them
    either; a check, CheckResult, diff's and submit's names load theirs when used."""
    (tmp_path / "site.yaml").write_text("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n")
    later = ("sitemap_ext.checker", "sitemap_ext.diff", "sitemap_ext.submit", "sitemap_ext.deploys", "sqlite3")
    built = _modules_after("from sitemap_ext import build, check\n"
                           "assert build('site.yaml', 'out', now='2026-01-02T00:00:00Z').ok\n", tmp_path)
    assert [name for name in built if name in later or name.startswith(tuple(f"{n}." for n in later))] == []
    used = _modules_after("from sitemap_ext import check, CheckResult, DiffResult, state_rows, submit\n"
                          "assert check('out/sitemap.xml').ok and CheckResult.__name__ == 'CheckResult'\n"
                          "assert DiffResult.__name__ == 'DiffResult' and callable(state_rows) and callable(submit)\n",
                          tmp_path)
    loaded_then = ("sitemap_ext.checker.run", "sitemap_ext.diff", "sitemap_ext.deploys")
    assert [name for name in loaded_then if name not in used] == []
