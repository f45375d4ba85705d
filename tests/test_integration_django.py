"""The Django integration against the real framework: a project with i18n_patterns
in three languages and django.contrib.sitemaps classes (tests/data/integrations/django:
i18n with alternates and x_default, a class limited to two languages with lastmod and
images, a page in one language). `manage.py sitemap_ext_build` writes sitemaps that
check clean; the system check and the command report a planted defect. Each runs in
a process of its own (Django's settings are configured once a process)."""

from __future__ import annotations

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
