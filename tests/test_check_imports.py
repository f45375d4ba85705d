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
    # (115 of the package's modules when diff's and submit's arguments were defined in
    # their modules, which imported the api; 14 with cli/options.py; 11 since
    # report.formats loads read.sniff where a finding's line is shown.)
    assert len([name for name in loaded if name.partition(".")[0] == "sitemap_ext"]) <= 11


SMALL = ('<?xml version="1.0" encoding="UTF-8"?>\n'
         '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
         '<url><loc>https://e.com/a</loc><lastmod>2026-01-02</lastmod>'
         '<xhtml:link rel="alternate" hreflang="en" href="https://e.com/a"/>'
         '<xhtml:link rel="alternate" hreflang="de" href="https://e.com/de/a"/></url>\n'
         '<url><loc>https://e.com/de/a</loc><lastmod>2026-01-02</lastmod>'
         '<xhtml:link rel="alternate" hreflang="en" href="https://e.com/a"/>'
         '<xhtml:link rel="alternate" hreflang="de" href="https://e.com/de/a"/></url>\n</urlset>\n')
# A check of sitemap files loads none of these: the build (its dry run is for a site
# description given), diff, live HTTP (its client loads for a URL given), the HTML
# report (for --format html), the api, the state and submit, nor a YAML reader; nor
# the public model, nor a process pool for one file.
NOT_FOR_FILES = ("sitemap_ext.api", "sitemap_ext.write.build", "sitemap_ext.write.site_yaml",
                 "sitemap_ext.write.site_sources", "sitemap_ext.diff", "sitemap_ext.report.html",
                 "sitemap_ext.report.diff_formats", "sitemap_ext.read.http", "sitemap_ext.read.http_transport",
                 "sitemap_ext.read.http_cache", "sitemap_ext.read.yaml_doc", "sitemap_ext.read.yaml_events",
                 "sitemap_ext.read.sources", "sitemap_ext.state", "sitemap_ext.submit", "sitemap_ext.deploys",
                 "sitemap_ext.cli.build", "sitemap_ext.cli.diff", "sitemap_ext.model", "yaml", "http.client", "email",
                 "sqlite3", "multiprocessing", "concurrent.futures", "socket")
# The package's modules a check of one sitemap file loads: 113 when the check verb
# imported the api (and with it the build, diff, state and submit); 79 since it calls
# checker/given.py and live HTTP, the YAML reader and the HTML report load where used;
# 78 since the public model loads where its objects are used; 80 with the XML reader on
# expat (its namespaces and its entries' records are modules of their own); 81 with URL
# identity's escapes in a module of their own (_escapes.py).
MOST_LOADED = 81


def test_a_check_of_one_sitemap_file_loads_no_build_diff_live_http_html_report_or_yaml(tmp_path: Path) -> None:
    """One sitemap with hreflang checked on the command line, in a fresh process: its
    findings are right (none, exit 0), and it loaded the check's own modules only."""
    (tmp_path / "small.xml").write_text(SMALL)
    loaded = _modules_after("from sitemap_ext.cli import main\n"
                            "assert main(['check', 'small.xml', '-q']) == 0\n", tmp_path)
    assert "sitemap_ext.checker.run" in loaded and "sitemap_ext.read.xml" in loaded
    assert "langcodes" in loaded  # (its tags were judged)
    assert _loaded(loaded, NOT_FOR_FILES) == []
    assert len([name for name in loaded if name.partition(".")[0] == "sitemap_ext"]) <= MOST_LOADED


def test_what_a_check_of_files_leaves_out_loads_where_its_input_asks(tmp_path: Path) -> None:
    """The HTML report for --format html (and not diff's modules, which its diff page
    uses), the YAML reader and the build's dry run for a site description: each loads
    there, and the check gives what it gave before."""
    (tmp_path / "small.xml").write_text(SMALL)
    (tmp_path / "site.yaml").write_text("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n")
    loaded = _modules_after("import contextlib, io\nfrom sitemap_ext.cli import main\n"
                            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
                            "    assert main(['check', 'small.xml', '--format', 'html', '-q']) == 0\n"
                            "assert '<html' in out.getvalue()\n"
                            "assert main(['check', 'site.yaml', '-q']) == 0\n", tmp_path)
    assert [name for name in ("sitemap_ext.report.html", "sitemap_ext.read.yaml_doc", "sitemap_ext.write.build")
            if name not in loaded] == []
    assert _loaded(loaded, ("sitemap_ext.api", "sitemap_ext.cli.diff", "sitemap_ext.submit", "sitemap_ext.diff",
                            "sitemap_ext.report.diff_formats", "sitemap_ext.read.http")) == []
