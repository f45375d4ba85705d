"""The pre-commit hooks run in a test repository: the right files reach the check, other
YAML files are never judged as site descriptions, and a defect fails the commit."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("git") is None or shutil.which("pre-commit") is None,
                                reason="git or pre-commit (a test extra) is not installed")

SITE = """\
site:
  base_url: https://www.example.com/
pages:
  - loc: /
  - loc: /about
"""
WORKFLOW = """\
name: ci
on: [push]
jobs:
  test: {runs-on: ubuntu-latest, steps: [{run: make}]}
"""
SITEMAP = """\
<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/</loc><lastmod>2026-13-01</lastmod></url>
</urlset>
"""


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@e.com", *args], cwd=repo, check=True,
                   capture_output=True)


def try_repo(repo: Path, hook: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["pre-commit", "try-repo", str(ROOT), hook, "--all-files"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600)


def test_hooks_check_site_descriptions_and_sitemaps_in_a_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / "site.yaml").write_text(SITE)
    (repo / "sections").mkdir()
    (repo / "sections" / "blog.yaml").write_text("pages:\n  - loc: /blog/\n")  # an include: no site:
    (repo / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    (repo / "docs.txt").write_text("not a sitemap at all\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "site")
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"), SOURCE_DATE_EPOCH="1795262400")

    site = try_repo(repo, "sitemap-ext-site", env)
    assert site.returncode == 0, site.stdout + site.stderr
    assert "sitemap-ext (site descriptions)" in site.stdout and "Passed" in site.stdout

    (repo / "site.yaml").write_text(SITE + "  - loc: /x\n    priority: 2\n")
    (repo / "public").mkdir()
    (repo / "public" / "sitemap.xml").write_text(SITEMAP)
    git(repo, "add", ".")
    broken = try_repo(repo, "sitemap-ext-site", env)
    assert broken.returncode == 1 and "D105" in broken.stdout and "ci.yml" not in broken.stdout
    sitemaps = try_repo(repo, "sitemap-ext-sitemaps", env)
    assert sitemaps.returncode == 1 and "public/sitemap.xml:3" in sitemaps.stdout and "D101" in sitemaps.stdout
    assert "docs.txt" not in sitemaps.stdout
