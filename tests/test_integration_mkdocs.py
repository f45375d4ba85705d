"""The MkDocs plugin against the real tool: a three-language site built with
mkdocs-static-i18n (tests/data/integrations/mkdocs) and `mkdocs build`. The plugin
writes sitemaps with every language's version that check clean together with the
built pages; a planted defect (a page marked noindex in its front matter, which the
site's theme writes as a robots meta tag) fails `mkdocs build --strict`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from sitemap_ext import check

from .conftest import JSONISH

pytest.importorskip("mkdocs", reason="the MkDocs plugin is tested with MkDocs: pip install mkdocs")
pytest.importorskip("mkdocs_static_i18n", reason="the three-language site needs mkdocs-static-i18n: "
                                                 "pip install mkdocs-static-i18n")
if not any(point.name == "sitemap-ext" for point in entry_points(group="mkdocs.plugins")):
    pytest.skip("the plugin's entry point is not registered: pip install -e . (it is in pyproject.toml)",
                allow_module_level=True)

PROJECT = Path(__file__).resolve().parent / "data" / "integrations" / "mkdocs"
BASE = "https://docs.example.com/manual/"
NOW = "2026-11-21T12:00:00Z"


def mkdocs(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", *args], cwd=project, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    copy = tmp_path / "site-src"
    shutil.copytree(PROJECT, copy)
    return copy


def test_the_plugin_writes_sitemaps_that_check_clean_with_the_pages(project: Path) -> None:
    run = mkdocs(project, "--strict")
    assert run.returncode == 0, run.stderr
    assert "sitemaps written" in run.stderr
    site = project / "site"
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert not (site / "sitemap.xml.gz").exists()  # MkDocs' own is not written
    # every language's version, each at its own URL, with x-default the default language
    for url in (BASE, BASE + "fr/", BASE + "de/", BASE + "routes/", BASE + "fr/routes/", BASE + "de/routes/",
                BASE + "safety/", BASE + "fr/safety/", BASE + "de/safety/"):
        assert f"<loc>{url}</loc>" in sitemap
    assert ('<xhtml:link rel="alternate" hreflang="fr" href="https://docs.example.com/manual/fr/routes/"/>'
            in sitemap)
    assert '<xhtml:link rel="alternate" hreflang="x-default" href="https://docs.example.com/manual/"/>' in sitemap
    assert "<lastmod>2026-11-01</lastmod>" in sitemap  # front matter `updated:`
    assert "404" not in sitemap
    result = check([str(site)], base_urls=[f"{BASE}={site}"], now=NOW, jobs=1)
    assert [(d.code, d.file, d.message) for d in result.collector.sorted()] == []
    assert any(f["kind"] == "urlset" for f in result.files)


def test_a_planted_defect_fails_a_strict_build(project: Path) -> None:
    page = project / "docs" / "routes.fr.md"
    page.write_text("---\nrobots: noindex\n---\n" + page.read_text(encoding="utf-8"), encoding="utf-8")
    run = mkdocs(project, "--strict")
    assert run.returncode != 0
    assert "U112" in run.stderr and "https://docs.example.com/manual/fr/routes/" in run.stderr
    assert "in strict mode" in run.stdout + run.stderr
    assert mkdocs(project).returncode == 0  # without --strict the findings are shown, the build stands


def test_alternates_from_the_heads(project: Path) -> None:
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        'now: "2026-11-21T12:00:00Z"', 'now: "2026-11-21T12:00:00Z"\n      alternates: heads'), encoding="utf-8")
    run = mkdocs(project, "--strict")
    assert run.returncode == 0, run.stderr
    sitemap = (project / "site" / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{BASE}de/routes/</loc>" in sitemap and "xhtml:link" not in sitemap  # this theme writes none


PLAIN = "site_name: T\nsite_url: https://docs.example.com/manual/\nplugins:\n  - sitemap-ext:\n      now: \"{now}\"\n"


def plain_project(root: Path, names: tuple[str, ...] = ("index",), config: str = PLAIN) -> Path:
    """A one-language MkDocs project (MkDocs' own theme) with a page per name."""
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(config.replace("{now}", NOW), encoding="utf-8")
    for name in names:
        (root / "docs" / f"{name}.md").write_text(f"# {name}\n\ntext\n", encoding="utf-8")
    return root


def locs(path: Path) -> set[str]:
    """The <loc>s of a sitemap, parsed as XML (a template left in its place does not parse)."""
    root = etree.parse(str(path)).getroot()
    return {loc.text or "" for loc in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")}


def test_pages_whose_canonical_percent_encodes_their_path_are_listed(tmp_path: Path) -> None:
    # MkDocs writes the page c++ with the canonical .../c%2B%2B/: that is the page itself
    names = ("index", "c++", "q&a", "what's-new", "a(b)", "x,y;z")
    project = plain_project(tmp_path / "p", names)
    run = mkdocs(project, "--strict")
    assert run.returncode == 0, run.stderr
    assert locs(project / "site" / "sitemap.xml") == {BASE} | {
        BASE + path for path in ("c%2B%2B/", "q%26a/", "what%27s-new/", "a%28b%29/", "x%2Cy%3Bz/")}


def test_every_build_of_an_unchanged_project_writes_its_sitemap(tmp_path: Path) -> None:
    # (a rebuild, a `mkdocs serve` reload, gh-deploy: the manifest of the first build names the same owner)
    project = plain_project(tmp_path / "p", ("index", "guide"))
    for _ in range(3):
        run = mkdocs(project, "--strict")
        assert run.returncode == 0, run.stderr
        assert locs(project / "site" / "sitemap.xml") == {BASE, BASE + "guide/"}


OTHER_OWNER = '{"version": 2, "owners": {"../elsewhere/site.yaml": ["sitemap.xml"]}}'


@pytest.mark.parametrize(("change", "says"), [
    (lambda p: (p / "mkdocs.yml").write_text(PLAIN.replace("{now}", NOW) + "      defaults: {priority: 7}\n"),
     "no sitemaps written"),
    (lambda p: (p / "site").mkdir() or (p / "site" / ".sitemap-ext-manifest.json").write_text(OTHER_OWNER),
     "O104"),
], ids=["build-errors", "O104"])
def test_a_build_whose_sitemap_cannot_be_written_fails_and_leaves_no_template(tmp_path: Path, change,
                                                                              says: str) -> None:
    project = plain_project(tmp_path / "p")
    change(project)
    run = mkdocs(project)
    assert run.returncode == 1 and says in run.stderr, run.stderr
    assert not (project / "site" / "sitemap.xml").exists()  # (MkDocs' theme template was left there)


def test_no_site_url_is_a_configuration_error_before_anything_is_built(tmp_path: Path) -> None:
    project = plain_project(tmp_path / "p", config=PLAIN.replace("site_url: https://docs.example.com/manual/\n", ""))
    run = mkdocs(project)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "Config value 'site_url': required by the plugin 'sitemap-ext'" in run.stderr
    assert "set site_url: https://docs.example.com/ in mkdocs.yml" in run.stderr
    assert "Aborted with a configuration error!" in run.stdout + run.stderr  # (was: Aborted with a BuildError!)
    assert not (project / "site").exists()


# (mkdocs serve builds once with the configuration it loaded, then again on each edit;
# a plugin with on_startup keeps its instance across them: the same object twice here)
BUILD_TWICE = """
import sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
config = load_config("mkdocs.yml")
config.plugins.on_startup(command="serve", dirty=False)
for _ in range(2):
    build(config)
    with open(sys.argv[1], "rb") as stream:
        start = stream.read(5)
    print("xml" if start == b"<?xml" else "gzip" if start[:2] == b"\\x1f\\x8b" else repr(start), end="|")
"""


@pytest.mark.parametrize(("output", "name"), [("", "sitemap.xml"), ("      output: {gzip: true}\n", "sitemap.xml.gz")])
def test_two_builds_with_one_configuration_as_serve_does_write_the_sitemap_each_time(tmp_path: Path, output: str,
                                                                                      name: str) -> None:
    project = plain_project(tmp_path / "p", ("index", "guide"), config=PLAIN + output)
    run = subprocess.run([sys.executable, "-c", BUILD_TWICE, f"site/{name}"], cwd=project, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    kind = "xml" if name.endswith(".xml") else "gzip"
    assert run.stdout == f"{kind}|{kind}|"
    assert not (project / "site" / "sitemap.xml").exists() or name == "sitemap.xml"


def test_a_gzip_only_output_leaves_no_template_in_sitemap_xml(tmp_path: Path) -> None:
    project = plain_project(tmp_path / "p", config=PLAIN + "      output: {gzip: true}\n")
    run = mkdocs(project, "--strict")
    assert run.returncode == 0, run.stderr
    assert (project / "site" / "sitemap.xml.gz").exists() and not (project / "site" / "sitemap.xml").exists()


@pytest.mark.parametrize(("option", "says"), [
    ("ignore: [Z999]", "option 'ignore': 'Z999' is no code, prefix of one, or rule name"),
    ("ignore: [H112, url-nope]", "option 'ignore': 'url-nope' is no code"),
    ("now: garbage", "option 'now': 'garbage' is not a W3C date or date-time"),
    ("output: {gzipp: true}", "option 'output': gzipp: no key of output:"),
])
def test_an_option_no_build_can_use_is_a_mkdocs_configuration_error(tmp_path: Path, option: str, says: str) -> None:
    project = plain_project(tmp_path / "p", config=PLAIN.replace('      now: "{now}"\n', f"      {option}\n"))
    run = mkdocs(project)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert f"Config value 'plugins': Plugin 'sitemap-ext' {says}" in run.stderr
    assert "Aborted with a configuration error!" in run.stdout + run.stderr
    assert not (project / "site").exists()


def test_importing_the_package_imports_no_mkdocs() -> None:
    code = ("import sys, sitemap_ext, sitemap_ext.integrations; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mkdocs', 'sphinx', 'django')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "[]", run.stderr


# Every option, with values of the wrong type or value: each is MkDocs' own
# configuration error naming the option, never a traceback.
WRONG: dict[str, list[object]] = {
    "base_url": [5, ["https://docs.example.com/"], {"nope": 1}],
    "alternates": [5, ["i18n"], "both"],
    "x_default": [5, ["en"], {"nope": 1}],
    "lastmod": [5, [5], "meta:updated", [None], {"nope": 1}],
    "exclude": [5, [None], "404.html", [""], {"nope": 1}],
    "output": [5, [5], "gzip", {"nope": 1}],
    "defaults": [5, [5], {"nope": 1}],
    "check": [5, "yes", [True]],
    "ignore": [5, [5], "H112", ["Z999"], {"H112": 1}],
    "now": [5, "yesterday", [NOW], {"nope": 1}],
    "jobs": [0, -3, "2", [2], True],
}
CASES = [(option, value) for option, values in WRONG.items() for value in values]


def errors_of(project: Path, option: str, value: object) -> list[str]:
    """The configuration errors MkDocs reads in mkdocs.yml with ``option: value``, as
    ``mkdocs build`` reads it (each logged as ``Config value 'NAME': ERROR``)."""
    from mkdocs.config.defaults import MkDocsConfig

    path = project / "mkdocs.yml"
    path.write_text(yaml.safe_dump({"site_name": "T", "site_url": BASE,
                                    "plugins": [{"sitemap-ext": {"now": NOW, option: value}}]}), encoding="utf-8")
    config = MkDocsConfig(config_file_path=str(path))
    with path.open(encoding="utf-8") as stream:
        config.load_file(stream)
    errors, _ = config.validate()
    return [f"Config value '{name}': {error}" for name, error in errors]


@pytest.mark.parametrize(("option", "value"), CASES, ids=[f"{option}={value!r}" for option, value in CASES])
def test_every_option_of_a_wrong_type_or_value_is_a_configuration_error_naming_it(tmp_path: Path, option: str,
                                                                                  value: object) -> None:
    errors = errors_of(plain_project(tmp_path / "p"), option, value)
    assert len(errors) == 1 and errors[0].startswith(f"Config value 'plugins': Plugin 'sitemap-ext' option "
                                                     f"'{option}': "), errors


@pytest.mark.parametrize("option", sorted(WRONG))
def test_a_build_with_an_option_no_build_can_use_aborts_without_a_traceback(tmp_path: Path, option: str) -> None:
    value = {"jobs": 0, "now": "yesterday"}.get(option, WRONG[option][0])  # (those that ended in a traceback)
    project = plain_project(tmp_path / "p")
    (project / "mkdocs.yml").write_text(yaml.safe_dump({"site_name": "T", "site_url": BASE, "plugins": [
        {"sitemap-ext": {"now": NOW, option: value}}]}), encoding="utf-8")
    run = mkdocs(project)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert f"Config value 'plugins': Plugin 'sitemap-ext' option '{option}': " in run.stderr
    assert "Aborted with a configuration error!" in run.stdout + run.stderr
    assert not (project / "site").exists()


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(WRONG)), JSONISH)
def test_the_options_take_any_value(option: str, value: object) -> None:
    from sitemap_ext.integrations.mkdocs import SitemapExtPlugin

    errors, _ = SitemapExtPlugin().load_config({option: value})  # (as MkDocs loads a plugin's options)
    assert all(name == option for name, _ in errors)  # each naming the option; never a raise


SELECTOR = "the {n} H102 above are the hreflang links of the pages' heads, which Material writes from extra.alternate"
I18N_FIX = "with mkdocs-static-i18n, set its option reconfigure_material: false and give no extra.alternate"


def test_relative_selector_links_written_as_materials_are_explained_in_mkdocs_terms(tmp_path: Path) -> None:
    # (Material's base.html writes each extra.alternate entry so; MkDocs' own theme with that line)
    config = PLAIN + ("theme:\n  name: mkdocs\n  custom_dir: overrides\nextra:\n  alternate:\n"
                      "    - {name: English, link: /manual/, lang: en}\n")
    project = plain_project(tmp_path / "p", ("index", "guide"), config=config)
    (project / "overrides").mkdir()
    (project / "overrides" / "main.html").write_text(
        '{% extends "base.html" %}{% block extrahead %}{% for alt in config.extra.alternate %}'
        '<link rel="alternate" href="{{ alt.link | url }}" hreflang="{{ alt.lang }}">{% endfor %}{% endblock %}',
        encoding="utf-8")
    run = mkdocs(project)  # (a build from the heads: their errors are the build's, no sitemap written)
    assert run.returncode == 1 and "no sitemaps written" in run.stderr, run.stderr
    assert run.stderr.count(": H102 ") == 2 and "guide/index.html" in run.stderr
    assert SELECTOR.format(n=2) in run.stderr and I18N_FIX in run.stderr
    assert "give each extra.alternate entry an absolute link (https://docs.example.com/manual/fr/)" in run.stderr


def test_a_fresh_material_site_with_static_i18n_is_told_the_fix(tmp_path: Path) -> None:
    pytest.importorskip("material", reason="Material for MkDocs: pip install mkdocs-material")
    root = tmp_path / "p"
    (root / "docs").mkdir(parents=True)
    for name in ("index", "routes"):
        (root / "docs" / f"{name}.md").write_text(f"# {name}\n", encoding="utf-8")
        (root / "docs" / f"{name}.fr.md").write_text(f"# {name} (fr)\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: T\nsite_url: https://docs.example.com/manual/\ntheme: {name: material}\nplugins:\n"
        "  - i18n:\n      docs_structure: suffix\n      languages:\n        - {locale: en, default: true, name: E}\n"
        f"        - {{locale: fr, name: F}}\n  - sitemap-ext:\n      now: \"{NOW}\"\n", encoding="utf-8")
    run = mkdocs(root, "--strict")
    assert run.returncode == 1 and run.stderr.count(": H102 ") == 8, run.stderr  # (the verdict stands)
    assert SELECTOR.format(n=8) in run.stderr and I18N_FIX in run.stderr
    config = root / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        "docs_structure: suffix", "docs_structure: suffix\n      reconfigure_material: false"), encoding="utf-8")
    run = mkdocs(root, "--strict")  # (the fix told)
    assert run.returncode == 0 and ": H102 " not in run.stderr, run.stderr


XHTML = "{http://www.w3.org/1999/xhtml}link"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def test_an_untranslated_fallback_page_is_no_version_in_the_language_it_lacks(project: Path) -> None:
    # safety.md has no French or German file: mkdocs-static-i18n builds the English text at /fr/safety/ and
    # /de/safety/ (fallback_to_default); hreflang says the language of a page's content, so neither is "fr" or
    # "de": each is listed alone, as is /safety/ (no other version of it exists)
    run = mkdocs(project, "--strict")
    assert run.returncode == 0, run.stderr
    assert ("2 pages built from another language's text (mkdocs-static-i18n's fallback) listed without hreflang: "
            f"{BASE}de/safety/, {BASE}fr/safety/") in run.stderr
    root = etree.parse(str(project / "site" / "sitemap.xml")).getroot()
    links = {url.findtext(f"{SM}loc"): sorted((link.get("hreflang"), link.get("href")) for link in url.iter(XHTML))
             for url in root.iter(f"{SM}url")}
    for path in ("safety/", "fr/safety/", "de/safety/"):
        assert links[BASE + path] == []
    assert ("fr", BASE + "fr/routes/") in links[BASE + "routes/"]  # (translated pages keep their alternates)
    assert not [href for pairs in links.values() for _, href in pairs if href.endswith("/safety/")]
