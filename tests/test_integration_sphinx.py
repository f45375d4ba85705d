"""The Sphinx extension against the real tool: a two-language project
(tests/data/integrations/sphinx, French from a gettext catalogue) built one language
a build with `sphinx-build -W`, as multi-language Sphinx sites are. The sitemaps list
both languages' pages, each with its alternates (itself included) and x-default,
and check clean with both built folders; a planted defect (a page marked noindex)
fails `sphinx-build -W`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_ext import check

pytest.importorskip("sphinx", reason="the Sphinx extension is tested with Sphinx: pip install sphinx")

PROJECT = Path(__file__).resolve().parent / "data" / "integrations" / "sphinx"
NOW = "2026-11-21T12:00:00Z"


def sphinx(project: Path, language: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "-b", "html", "-D", f"language={language}",
                           "-D", f"html_baseurl=https://docs.example.com/{language}/", *args, ".",
                           f"_build/{language}"], cwd=project, capture_output=True, text=True, timeout=120)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    copy = tmp_path / "docs"
    shutil.copytree(PROJECT, copy, ignore=shutil.ignore_patterns("_build"))
    return copy


def test_both_languages_build_sitemaps_that_check_clean_with_the_pages(project: Path) -> None:
    for language in ("en", "fr"):
        run = sphinx(project, language)
        assert run.returncode == 0, run.stderr
    built = project / "_build"
    sitemap = (built / "sitemap.xml").read_text(encoding="utf-8")
    assert "Itinéraires" in (built / "fr" / "routes.html").read_text(encoding="utf-8")  # French was built
    for url in ("en/index.html", "fr/index.html", "en/routes.html", "fr/routes.html", "en/genindex.html"):
        assert f"<loc>https://docs.example.com/{url}</loc>" in sitemap
    assert "search.html" not in sitemap
    assert ('<xhtml:link rel="alternate" hreflang="fr" href="https://docs.example.com/fr/routes.html"/>'
            in sitemap)
    assert ('<xhtml:link rel="alternate" hreflang="x-default" href="https://docs.example.com/en/routes.html"/>'
            in sitemap)
    assert "<lastmod>2026-11-01</lastmod>" in sitemap  # the docinfo field `:updated:`
    result = check([str(built)], base_urls=[f"https://docs.example.com/={built}"], now=NOW, jobs=1)
    assert [(d.code, d.file, d.message) for d in result.collector.sorted()] == []


def test_a_planted_defect_fails_the_build_under_w(project: Path) -> None:
    assert sphinx(project, "en").returncode == 0
    page = project / "routes.rst"
    page.write_text(".. meta::\n   :robots: noindex\n\n" + page.read_text(encoding="utf-8"), encoding="utf-8")
    run = sphinx(project, "fr")
    assert run.returncode != 0
    assert "U112" in run.stderr and "https://docs.example.com/fr/routes.html" in run.stderr
    assert "[sitemap_ext.U112]" in run.stderr  # suppress_warnings = ["sitemap_ext.U112"] would hide it


@pytest.mark.parametrize(("setting", "says"), [
    ('sitemap_ext_ignore = ["Z999"]', "sitemap_ext_ignore: 'Z999' is no code, prefix of one, or rule name"),
    ('sitemap_ext_ignore = "H112"', "sitemap_ext_ignore: must be a list of codes"),
    ('sitemap_ext_now = "garbage"', "sitemap_ext_now: 'garbage' is not a W3C date or date-time"),
    ('sitemap_ext_output = {"gzipp": True}', "sitemap_ext_output: gzipp: no key of output:"),
])
def test_a_setting_no_build_can_use_is_a_sphinx_warning(project: Path, setting: str, says: str) -> None:
    conf = project / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + setting + "\n", encoding="utf-8")
    run = sphinx(project, "en")  # (-W)
    assert run.returncode != 0 and "Traceback" not in run.stderr + run.stdout, run.stderr
    assert f"WARNING: sitemap_ext: {says}" in run.stderr and "[sitemap_ext.config]" in run.stderr
    assert not (project / "_build" / "sitemap.xml").exists()


def test_importing_the_package_imports_no_sphinx() -> None:
    code = ("import sys, sitemap_ext, sitemap_ext.integrations; "
            "print(sorted(m for m in sys.modules if m.startswith('sphinx')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "[]", run.stderr
