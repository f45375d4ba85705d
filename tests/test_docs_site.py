"""The documentation site (mkdocs.yml, docs/) builds with `mkdocs build --strict`, its
sitemaps (written by our own MkDocs plugin) check clean together with its pages, every
code of the registry has its page with its examples, the API page names every public
name; and the README stays a short page whose two commands are the ones CI runs."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import sitemap_ext
from sitemap_ext.codes import REGISTRY
from sitemap_ext.rules.examples import example

ROOT = Path(__file__).resolve().parent.parent
SITE_URL = "https://sitemap-ext.example.org/"


def _needs_material() -> None:
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("the documentation site is built with MkDocs and its Material theme: "
                    "pip install -e '.[docs]' (or the test extra)")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _needs_material()
    out = tmp_path_factory.mktemp("docs") / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_built_site_and_its_sitemap_check_clean(site: Path) -> None:
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert "<urlset" in sitemap and "generator" not in sitemap.split("<urlset", 1)[0].lower()
    for page in ("", "tutorial/", "reference/cli/", "rules/", "rules/H104/", "security/", "performance/"):
        assert f"<loc>{SITE_URL}{page}</loc>" in sitemap, page
    done = subprocess.run([sys.executable, "-m", "sitemap_ext", "check", str(site), "--base-url", f"{SITE_URL}={site}",
                           "--strict", "--format", "json"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"diagnostics": []' in done.stdout
    pages = len(list(site.rglob("index.html")))
    assert f'"pages": {pages}' in done.stdout  # every page was read beside the sitemap


def test_every_code_has_its_page_with_its_examples(site: Path) -> None:
    index = (site / "rules" / "index.html").read_text(encoding="utf-8")
    for code, entry in REGISTRY.items():
        page = site / "rules" / code / "index.html"
        assert page.is_file(), f"{code} has no page"
        text = page.read_text(encoding="utf-8")
        assert entry.name in text and entry.severity.value in text, code
        if example(code) is not None:
            assert "Failing" in text and "Passing" in text and "Check them with" in text, code
        assert f'href="{code}/"' in index, f"{code} is not linked from rules/index"


def test_the_api_page_names_every_public_name(site: Path) -> None:
    page = (site / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    for name in sitemap_ext.__all__:
        if name != "__version__":
            assert re.search(rf'id="{re.escape(name.lower())}"', page), f"{name} is not on the API page"


def test_the_readme_is_short_and_its_two_commands_are_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) < 8 * 1024, "the README is a page read in five minutes: move the rest to docs/"
    section = readme.split("## The two commands", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", section, re.S)
    assert len(commands) == 2, commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci, "the README's test command is not the one .ci/run runs"
    assert "sitemap-ext build examples/" in commands[0]
    for target in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / target).exists(), f"README links {target}, which is not there"
