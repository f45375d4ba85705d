"""The Django integration against the real framework: a project with i18n_patterns
in three languages and django.contrib.sitemaps classes (tests/data/integrations/django:
i18n with alternates and x_default, a class limited to two languages with lastmod and
images, a page in one language). `manage.py sitemap_ext_build` writes sitemaps that
check clean; the system check and the command report a planted defect. Each runs in
a process of its own (Django's settings are configured once a process)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_ext import check

pytest.importorskip("django", reason="the Django integration is tested with Django: pip install django")

PROJECT = Path(__file__).resolve().parent / "data" / "integrations" / "django"
BASE = "https://www.trail-guides.example/"


def manage(project: Path, *args: str, defect: bool = False) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    if defect:
        env["TRAILS_PLANT_DEFECT"] = "1"
    return subprocess.run([sys.executable, "manage.py", *args], cwd=project, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(PROJECT, copy)
    return copy


def test_the_command_writes_sitemaps_that_check_clean(project: Path) -> None:
    run = manage(project, "sitemap_ext_build", "public", "--strict")
    assert run.returncode == 0, run.stderr
    assert "0 errors, 0 warnings, 0 infos" in run.stdout
    sitemap = (project / "public" / "sitemap.xml").read_text(encoding="utf-8")
    # each item once per language, its versions as alternates, Django's x-default
    for path in ("en/", "de/", "fr/", "en/about/", "de/routes/ridge/", "imprint/"):
        assert f"<loc>{BASE}{path}</loc>" in sitemap
    assert f"<loc>{BASE}fr/routes/ridge/</loc>" not in sitemap  # RoutesSitemap.languages = [en, de]
    assert f'<xhtml:link rel="alternate" hreflang="x-default" href="{BASE}about/"/>' in sitemap
    assert f"<image:loc>{BASE}media/routes/ridge.jpg</image:loc>" in sitemap
    assert "<lastmod>2026-11-02</lastmod>" in sitemap and "<priority>0.8</priority>" in sitemap
    result = check([str(project / "public")], base_urls=[f"{BASE}={project / 'public'}"],
                   now="2026-11-21T12:00:00Z", jobs=1)
    assert [(d.code, d.message) for d in result.collector.sorted()] == []


def test_a_planted_defect_is_reported_by_the_command_and_the_system_check(project: Path) -> None:
    run = manage(project, "sitemap_ext_build", "public", "--strict", defect=True)
    assert run.returncode == 1 and "D102" in run.stderr and f"{BASE}" in (project / "public/sitemap.xml").read_text()
    run = manage(project, "check", "--deploy", "--tag", "sitemap_ext", "--fail-level", "WARNING", defect=True)
    assert run.returncode != 0 and "(sitemap_ext.D102)" in run.stderr
    run = manage(project, "check", "--deploy", "--tag", "sitemap_ext", "--fail-level", "WARNING")
    assert run.returncode == 0, run.stderr


def test_the_test_helper(project: Path) -> None:
    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'trails.settings'; django.setup()\n"
            "from sitemap_ext.integrations.django import assert_sitemaps_ok\n"
            "try:\n    assert_sitemaps_ok(strict=True)\nexcept AssertionError as exc:\n    print('FAILED', exc)\n"
            "else:\n    print('PASSED')\n")
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    ok = subprocess.run([sys.executable, "-c", code], cwd=project, env=env, capture_output=True, text=True, timeout=60)
    assert ok.stdout.strip() == "PASSED", ok.stderr
    bad = subprocess.run([sys.executable, "-c", code], cwd=project, env={**env, "TRAILS_PLANT_DEFECT": "1"},
                         capture_output=True, text=True, timeout=60)
    assert bad.stdout.startswith("FAILED") and "D102" in bad.stdout, bad.stderr


@pytest.mark.parametrize(("setting", "error_id", "says"), [
    ('"output": {"gzipp": True}', "sitemap_ext.E001", "SITEMAP_EXT['output']: gzipp: no key of output:"),
    ('"output": "public"', "sitemap_ext.E001", "SITEMAP_EXT['output']: must be a mapping"),
    ('"ignore": ["Z999"]', "sitemap_ext.E002", "SITEMAP_EXT['ignore']: 'Z999' is no code"),
    ('"ignore": "H112"', "sitemap_ext.E002", "SITEMAP_EXT['ignore']: must be a list"),
    ('"now": "garbage"', "sitemap_ext.E003", "SITEMAP_EXT['now']: 'garbage' is not a W3C date"),
])
def test_a_setting_no_build_can_use_is_a_system_check_error(project: Path, setting: str, error_id: str,
                                                            says: str) -> None:
    settings = project / "trails" / "settings.py"
    settings.write_text(settings.read_text(encoding="utf-8") + f"SITEMAP_EXT = {{**SITEMAP_EXT, {setting}}}\n",
                        encoding="utf-8")
    for args in (("sitemap_ext_build", "public"), ("check",), ("check", "--deploy", "--tag", "sitemap_ext")):
        run = manage(project, *args)
        assert run.returncode == 1, run.stderr
        assert f"({error_id}) {says}" in run.stderr and "Traceback" not in run.stderr, run.stderr
        assert run.stderr.count(f"({error_id})") == 1
    assert not (project / "public").exists()
    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'trails.settings'; django.setup()\n"
            "from django.core.management import call_command\ncall_command('sitemap_ext_build', 'public')\n")
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    run = subprocess.run([sys.executable, "-c", code], cwd=project, env=env, capture_output=True, text=True,
                         timeout=60)  # (call_command runs no system checks: the command says it itself)
    assert run.returncode == 1 and f"CommandError: {says}" in run.stderr and f"({error_id})" in run.stderr


def test_importing_the_package_imports_no_django() -> None:
    code = ("import sys, sitemap_ext, sitemap_ext.integrations; "
            "print(sorted(m for m in sys.modules if m.startswith('django')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "[]", run.stderr


# Every key of SITEMAP_EXT (and SITEMAP_EXT itself), with values of the wrong type or
# value: each is a system check error naming the key, and the command's CommandError.
WRONG: dict[str, tuple[str, list[object]]] = {
    "output": ("sitemap_ext.E001", [5, [5], "public", {"nope": 1}]),
    "ignore": ("sitemap_ext.E002", [5, [5], "H112", ["Z999"], {"H112": 1}, [None]]),
    "now": ("sitemap_ext.E003", [5, "yesterday", ["2026-11-21"], {"nope": 1}]),
    "base_url": ("sitemap_ext.E004", [5, [BASE], {"nope": 1}]),
    "sitemaps": ("sitemap_ext.E005", [5, ["trails.sitemaps.SITEMAPS"], "no.such.module", "trails.settings.LANGUAGES",
                                      {"pages": 5}]),
    "out_dir": ("sitemap_ext.E006", [5, ["public"], {"nope": 1}]),
}
CASES = [(key, value) for key, (_, values) in WRONG.items() for value in values]
WHOLE = ["public", 5, [BASE], {"base_url": BASE, "nope": 1}]  # SITEMAP_EXT itself: sitemap_ext.E007

# (one Django a process: each case's SITEMAP_EXT through the system checks and call_command)
RUN_EACH = """
import json, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "trails.settings"
import django
django.setup()
from django.core import checks
from django.core.management import CommandError, call_command
from django.test import override_settings
found = []
for value in json.loads(sys.argv[1]):
    with override_settings(SITEMAP_EXT=eval(value)):
        messages = [f"({m.id}) {m.msg}"
                    for m in checks.run_checks(tags=["sitemap_ext"], include_deployment_checks=True)]
        try:
            call_command("sitemap_ext_build", "public")
            said = "no error"
        except CommandError as exc:
            said = str(exc)
    found.append([messages, said])
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def outcome_of_each_case(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[object]]:
    copy = tmp_path_factory.mktemp("cases") / "project"
    shutil.copytree(PROJECT, copy)
    given = [repr({"base_url": BASE, key: value}) for key, value in CASES] + [repr(value) for value in WHOLE]
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    run = subprocess.run([sys.executable, "-c", RUN_EACH, json.dumps(given)], cwd=copy, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert not (copy / "public").exists()
    return dict(zip(given, json.loads(run.stdout), strict=True))


@pytest.mark.parametrize(("key", "value"), CASES, ids=[f"{key}={value!r}" for key, value in CASES])
def test_every_key_of_a_wrong_type_or_value_is_a_system_check_error_naming_it(
        outcome_of_each_case: dict[str, list[object]], key: str, value: object) -> None:
    messages, said = outcome_of_each_case[repr({"base_url": BASE, key: value})]
    expected = f"({WRONG[key][0]}) SITEMAP_EXT[{key!r}]: "
    assert [m for m in messages if m.startswith(expected)] == messages and len(messages) == 1, messages
    assert isinstance(said, str) and said.startswith(f"SITEMAP_EXT[{key!r}]: ") and WRONG[key][0] in said


@pytest.mark.parametrize("value", WHOLE, ids=repr)
def test_a_sitemap_ext_that_is_no_dict_of_its_keys_is_a_system_check_error(
        outcome_of_each_case: dict[str, list[object]], value: object) -> None:
    messages, said = outcome_of_each_case[repr(value)]
    assert len(messages) == 1 and messages[0].startswith("(sitemap_ext.E007) SITEMAP_EXT: "), messages
    assert isinstance(said, str) and said.startswith("SITEMAP_EXT: ") and "(sitemap_ext.E007)" in said


@pytest.mark.parametrize(("setting", "error_id"), [
    ('"public"', "sitemap_ext.E007"), ('{"base_url": 5}', "sitemap_ext.E004"), ('["a"]', "sitemap_ext.E007"),
    ('{**SITEMAP_EXT, "output": 5}', "sitemap_ext.E001"),
    ('{**SITEMAP_EXT, "output": {"nope": 1}}', "sitemap_ext.E001"),
    ('{**SITEMAP_EXT, "sitemaps": 5}', "sitemap_ext.E005"), ('{**SITEMAP_EXT, "out_dir": 5}', "sitemap_ext.E006"),
])
def test_the_command_with_a_setting_no_build_can_use_fails_without_a_traceback(project: Path, setting: str,
                                                                               error_id: str) -> None:
    settings = project / "trails" / "settings.py"
    settings.write_text(settings.read_text(encoding="utf-8") + f"SITEMAP_EXT = {setting}\n", encoding="utf-8")
    run = manage(project, "sitemap_ext_build", "out")
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert f"({error_id}) SITEMAP_EXT" in run.stderr and "SystemCheckError" in run.stderr
    assert not (project / "out").exists()


def test_a_finding_names_the_sitemap_class_and_the_url(project: Path) -> None:
    """Not ``<pages>:N`` (the place build() gives a page a program hands it): the
    Sitemap class and the URL, in the command, the system check and the test helper."""
    lakes, ridge = f"{BASE}{{}}/routes/lakes/", f"{BASE}{{}}/routes/ridge/"
    expected = [f"warning trails.sitemaps.RoutesSitemap: {url.format(lang)}: D102 lastmod 2027-01-01 is after "
                "2026-11-21T12:00:00Z; lastmod is when the page last changed"
                for url in (lakes, ridge) for lang in ("de", "en")]
    run = manage(project, "sitemap_ext_build", "public", defect=True)
    assert run.stderr.splitlines() == sorted(expected), run.stderr
    run = manage(project, "check", "--deploy", "--tag", "sitemap_ext", defect=True)
    assert "<pages>" not in run.stderr
    assert f"?: (sitemap_ext.D102) trails.sitemaps.RoutesSitemap: {ridge.format('en')}: D102 " in run.stderr


def test_a_lower_case_django_language_code_is_said_once_and_asks_for_no_change(project: Path) -> None:
    """Django writes ``pt-br`` (and uses it as the URL prefix); the sitemaps write
    ``pt-BR``: one L108 per distinct code, not one per entry, and no fix."""
    settings = project / "trails" / "settings.py"
    settings.write_text(settings.read_text(encoding="utf-8").replace(
        '("fr", "French")]', '("fr", "French"), ("pt-br", "Portuguese"), ("zh-hans", "Chinese")]'), encoding="utf-8")
    run = manage(project, "sitemap_ext_build", "public")
    assert run.returncode == 0, run.stderr
    said = [line for line in run.stdout.splitlines() if "L108" in line]
    assert said == [f"info trails.sitemaps.PagesSitemap: {BASE}en/: L108 '{code}' is a Django language code "
                    f"(LANGUAGES, lower case, also the URL prefix /{code}/): the sitemaps write it as {canonical}, "
                    "its usual case; hreflang is case-insensitive, so nothing needs to change"
                    for code, canonical in (("pt-br", "pt-BR"), ("zh-hans", "zh-Hans"))], run.stdout
    assert "0 errors, 0 warnings, 2 infos" in run.stdout
    sitemap = (project / "public" / "sitemap.xml").read_text(encoding="utf-8")
    assert sitemap.count(f'hreflang="pt-BR" href="{BASE}pt-br/about/"') == 5  # each version lists it
    run = manage(project, "check", "--deploy", "--tag", "sitemap_ext")
    assert run.stderr.count("(sitemap_ext.L108)") == 2 and "fix:" not in run.stderr, run.stderr


SERVE = """
import os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "trails.settings"
import django
from django.conf import settings
django.setup()
from django.test import Client, override_settings
middleware = ["sitemap_ext.integrations.django.middleware.SitemapFilesMiddleware", *settings.MIDDLEWARE]
with override_settings(MIDDLEWARE=middleware, SITEMAP_EXT={**settings.SITEMAP_EXT, "out_dir": sys.argv[1]}):
    client = Client(HTTP_HOST="www.trail-guides.example")
    for path in sys.argv[2:]:
        answer = client.get(path)
        body = b"".join(answer.streaming_content) if answer.streaming else answer.content
        size = len(body) if answer.status_code == 200 else "-"
        print(path, answer.status_code, answer.get("Content-Type"), size, answer.has_header("Last-Modified"))
    answer = client.get("/sitemap.xml", HTTP_IF_MODIFIED_SINCE="Sun, 01 Jan 2090 00:00:00 GMT")
    print("if-modified-since", answer.status_code)
"""


def test_the_middleware_serves_the_written_files_and_hands_on_the_rest(project: Path) -> None:
    run = manage(project, "sitemap_ext_build", "public")
    assert run.returncode == 0, run.stderr
    public = project / "public"
    (public / "sitemap-1.xml.gz").write_bytes(b"\x1f\x8b gzip")
    (public / "passwd.xml").symlink_to("/etc/passwd")
    (public / "part").mkdir()
    (public / "part" / "sitemap.xml").write_text("<urlset/>", encoding="utf-8")
    size = (public / "sitemap.xml").stat().st_size
    paths = ["/sitemap.xml", "/sitemap-1.xml.gz", "/sitemap.html", "/passwd.xml", "/.sitemap-ext-manifest.json",
             "/part/sitemap.xml", "/nothing.xml", "/imprint/"]
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    run = subprocess.run([sys.executable, "-c", SERVE, str(public), *paths], cwd=project, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.stdout.splitlines() == [
        f"/sitemap.xml 200 application/xml; charset=utf-8 {size} True",
        "/sitemap-1.xml.gz 200 application/gzip 7 True",  # served as is, not decoded
        f"/sitemap.html 200 text/html; charset=utf-8 {(public / 'sitemap.html').stat().st_size} True",
        "/passwd.xml 404 text/html; charset=utf-8 - False",  # a symbolic link: not served
        "/.sitemap-ext-manifest.json 404 text/html; charset=utf-8 - False",
        "/part/sitemap.xml 404 text/html; charset=utf-8 - False",  # only the folder's own files
        "/nothing.xml 404 text/html; charset=utf-8 - False",
        "/imprint/ 200 text/html; charset=utf-8 6 False",  # the URLconf's own page
        "if-modified-since 304",
    ], run.stderr


def test_a_related_place_at_a_page_names_its_sitemap_class_and_url_too() -> None:
    code = """
from sitemap_ext import Diagnostic, Page
from sitemap_ext.diagnostics import Related, Severity
from sitemap_ext.integrations.django.places import Origins, line
origins = Origins()
pages = [("app.sitemaps.A", Page(loc="https://e.com/a/")), ("app.sitemaps.B", Page(loc="https://e.com/b/"))]
assert list(origins.follow(pages)) == [page for _, page in pages]
finding = origins.of(Diagnostic("U104", Severity.ERROR, "listed twice", file="<pages>", line=2,
                                related=(Related("first here", file="<pages>", line=1),)))
print(line(finding))
print(finding.related[0])
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.stdout.splitlines() == [
        "app.sitemaps.B: https://e.com/b/: U104 listed twice",
        "Related(message='first here', file='app.sitemaps.A', line=None, column=None, url='https://e.com/a/')"], \
        run.stderr
