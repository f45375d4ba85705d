"""The Sphinx extension against the real tool: a two-language project
(tests/data/integrations/sphinx, French from a gettext catalogue) built one language
a build with `sphinx-build -W`, as multi-language Sphinx sites are. Each build writes
the sitemap of its language's pages into its output folder, and every page's head
names its version in each language and the x-default; the two built folders check
clean and reciprocal together; a planted defect (a page marked noindex) fails
`sphinx-build -W`, and so does a language that is none (`jp`)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext import check

from .conftest import JSONISH

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


BY_URL = '{"en": "https://docs.example.com/en/", "fr": "https://docs.example.com/fr/"}'


@pytest.mark.parametrize("languages", ['["en", "fr"]', BY_URL], ids=["codes", "urls"])
def test_each_language_build_writes_its_sitemap_where_its_html_is_and_all_languages_check_clean(
        project: Path, languages: str) -> None:
    conf = project / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + f"sitemap_ext_languages = {languages}\n", encoding="utf-8")
    for language in ("en", "fr"):
        run = sphinx(project, language)
        assert run.returncode == 0, run.stderr
    built = project / "_build"
    assert not (built / "sitemap.xml").exists()  # (the parent of the output folders: deployed by no one)
    assert "Itinéraires" in (built / "fr" / "routes.html").read_text(encoding="utf-8")  # French was built
    for language, other in (("en", "fr"), ("fr", "en")):
        sitemap = (built / language / "sitemap.xml").read_text(encoding="utf-8")
        for name in ("index.html", "routes.html", "genindex.html"):
            assert f"<loc>https://docs.example.com/{language}/{name}</loc>" in sitemap
        assert f"https://docs.example.com/{other}/" not in sitemap and "search.html" not in sitemap
        head = (built / language / "routes.html").read_text(encoding="utf-8")
        for code in ("en", "fr"):  # every language's version, itself included, in each build's heads
            assert f'<link rel="alternate" hreflang="{code}" href="https://docs.example.com/{code}/routes.html" />' \
                in head
        assert '<link rel="alternate" hreflang="x-default" href="https://docs.example.com/en/routes.html" />' in head
    assert "<lastmod>2026-11-01</lastmod>" in (built / "en" / "sitemap.xml").read_text(encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "sitemap_ext", "check", "_build/en", "_build/fr", "--base-url",
                          "https://docs.example.com/en/=_build/en", "--base-url",
                          "https://docs.example.com/fr/=_build/fr", "--now", NOW], cwd=project, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "6 URL entries" in run.stderr and "0 errors, 0 warnings, 0 infos" in run.stderr, run.stderr
    folders = {language: built / language for language in ("en", "fr")}
    result = check([str(folder) for folder in folders.values()], now=NOW, jobs=1,
                   base_urls=[f"https://docs.example.com/{language}/={folder}" for language, folder in folders.items()])
    assert [(d.code, d.file, d.message) for d in result.collector.sorted()] == []


def test_one_html_build_writes_its_sitemap_into_its_output_folder(project: Path) -> None:
    # (make html: sphinx-build -b html . _build/html; Read the Docs deploys the output folder)
    run = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "-b", "html", ".", "_build/html"],
                         cwd=project, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "<loc>https://docs.example.com/en/routes.html</loc>" in (project / "_build" / "html" / "sitemap.xml"
                                                                  ).read_text(encoding="utf-8")
    assert not (project / "_build" / "sitemap.xml").exists()


def test_a_language_that_is_none_fails_a_build_under_w_with_its_fix(project: Path) -> None:
    conf = project / "conf.py"  # (one language: no hreflang is written, and jp passed -W)
    conf.write_text(conf.read_text(encoding="utf-8") + "sitemap_ext_languages = []\nsitemap_ext_base_url = None\n",
               encoding="utf-8")
    run = sphinx(project, "jp")
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert ("WARNING: sitemap_ext: error language 'jp': L103 'jp' is a country code, not a language; the language "
            "is 'ja': ja (Japanese) (fix: language = 'ja') [sitemap_ext.L103]") in run.stderr
    run = sphinx(project, "ja")  # (the fix)
    assert run.returncode == 0 and "WARNING" not in run.stderr, run.stderr


@pytest.mark.parametrize(("name", "code"), [("zh_CN", "zh-CN"), ("sr@latin", "sr-Latn"), ("zh_TW.Big5", "zh-TW"),
                                            ("ca@valencia", "ca"), ("pt_BR", "pt-BR"), ("jp", "jp")])
def test_sphinxs_language_names_are_the_hreflang_codes_they_mean(name: str, code: str) -> None:
    from sitemap_ext.langtags import from_locale

    assert from_locale(name) == code


def test_a_language_sphinx_names_in_gettexts_way_passes_w(project: Path) -> None:
    conf = project / "conf.py"  # (sr@latin: one of Sphinx's own translations)
    conf.write_text(conf.read_text(encoding="utf-8") + "sitemap_ext_languages = []\nsitemap_ext_base_url = None\n",
                    encoding="utf-8")
    run = sphinx(project, "sr@latin")
    assert run.returncode == 0 and "WARNING" not in run.stderr, run.stderr


def test_a_language_of_the_list_the_build_is_not_is_a_warning(project: Path) -> None:
    run = sphinx(project, "de")  # (conf.py: sitemap_ext_languages = ["en", "fr"])
    assert run.returncode == 1, run.stderr
    assert ("WARNING: sitemap_ext: language 'de' is none of sitemap_ext_languages (en, fr): its pages' heads name "
            "no version of their own (add it, or build one of those) [sitemap_ext.config]") in run.stderr


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


# Every setting, with values of the wrong type or value: each is a warning naming the
# setting (type sitemap_ext.config, so -W fails), never a traceback.
WRONG: dict[str, list[object]] = {
    "sitemap_ext_base_url": [5, ["https://docs.example.com/"], {"nope": 1}],
    "sitemap_ext_url_scheme": [5, ["{link}"], "{nope}", "{0}", "{link.x}", "{link!r}", "{"],
    "sitemap_ext_languages": [5, [5], "en", ["en", None], {"en": 1}, [""]],
    "sitemap_ext_x_default": [5, ["en"], {"nope": 1}],
    "sitemap_ext_version": [5, [5], {"nope": 1}],
    "sitemap_ext_lastmod": [5, [5], "meta:updated", [None], ["git"], ["meta:"]],
    "sitemap_ext_exclude": [5, [None], "search", {"nope": 1}],
    "sitemap_ext_output": [5, [5], "gzip", {"nope": 1}],
    "sitemap_ext_defaults": [5, [5], {"nope": 1}],
    "sitemap_ext_check": [5, "yes", [True]],
    "sitemap_ext_check_with": [5, ["_build/fr"], {"https://docs.example.com/fr/": 5}, {5: "_build/fr"}],
    "sitemap_ext_outdir": [5, ["out"], {"nope": 1}],
    "sitemap_ext_ignore": [5, [5], "H112", ["Z999"], {"H112": 1}],
    "sitemap_ext_now": [5, "yesterday", [NOW], {"nope": 1}],
}
CASES = [(name, value) for name, values in WRONG.items() for value in values]

# (one Sphinx a process: the configuration of each case read by the real Sphinx, as sphinx-build reads it)
READ_EACH = """
import io, json, os, sys
from sphinx.application import Sphinx
from sphinx.util.console import strip_colors
found = []
for i, (name, value) in enumerate(json.loads(sys.argv[1])):
    conf = os.path.join("cases", str(i))
    os.makedirs(conf)
    with open(os.path.join(conf, "conf.py"), "w") as out:
        out.write(open("conf.py").read() + name + " = " + value + "\\n")
    warnings = io.StringIO()
    Sphinx(".", conf, "_build/x", "_build/x/.doctrees", "html", status=None, warning=warnings, freshenv=True)
    found.append([line for line in strip_colors(warnings.getvalue()).splitlines() if "sitemap_ext" in line])
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def warnings_of_each_case(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], list[str]]:
    copy = tmp_path_factory.mktemp("cases") / "docs"
    shutil.copytree(PROJECT, copy, ignore=shutil.ignore_patterns("_build"))
    cases = [(name, repr(value)) for name, value in CASES]
    run = subprocess.run([sys.executable, "-c", READ_EACH, json.dumps(cases)], cwd=copy, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    return dict(zip(cases, json.loads(run.stdout), strict=True))


@pytest.mark.parametrize(("name", "value"), CASES, ids=[f"{name}={value!r}" for name, value in CASES])
def test_every_setting_of_a_wrong_type_or_value_is_a_warning_naming_it(
        warnings_of_each_case: dict[tuple[str, str], list[str]], name: str, value: object) -> None:
    found = warnings_of_each_case[(name, repr(value))]
    assert [line for line in found if line.startswith(f"WARNING: sitemap_ext: {name}: ")
            and line.endswith("[sitemap_ext.config]")], found


@pytest.mark.parametrize("name", sorted(WRONG))
def test_a_build_with_a_setting_no_build_can_use_fails_under_w_without_a_traceback(project: Path, name: str) -> None:
    # (the value of each that ended in a traceback, or the first of its table)
    value = {"sitemap_ext_check_with": {"a": 5}, "sitemap_ext_lastmod": [5], "sitemap_ext_exclude": [None],
             "sitemap_ext_url_scheme": "{nope}", "sitemap_ext_languages": [5]}.get(name, WRONG[name][0])
    conf = project / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + f"{name} = {value!r}\n", encoding="utf-8")
    run = sphinx(project, "en")  # (-W)
    assert run.returncode == 1 and "Traceback" not in run.stderr + run.stdout, run.stderr
    assert f"WARNING: sitemap_ext: {name}: " in run.stderr and "[sitemap_ext.config]" in run.stderr
    assert not (project / "_build" / "sitemap.xml").exists()


def test_a_name_of_conf_py_that_is_no_setting_is_a_warning(project: Path) -> None:
    conf = project / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + "sitemap_ext_exlude = ['drafts/*']\n", encoding="utf-8")
    run = sphinx(project, "en")
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "WARNING: sitemap_ext: sitemap_ext_exlude: no setting of sitemap_ext (one of" in run.stderr


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(WRONG)), JSONISH)
def test_the_judge_of_the_settings_takes_any_value(name: str, value: object) -> None:
    from sitemap_ext.integrations import sphinx as extension

    defaults = {"sitemap_ext_url_scheme": "{lang}{version}{link}", "sitemap_ext_lastmod": ["meta:updated"]}
    config = SimpleNamespace(**{**{setting: defaults.get(setting) for setting in WRONG}, name: value})
    for problem in extension._problems(config):  # a list of strings, each naming its setting; never a raise
        assert problem.startswith(f"{name}: ")
