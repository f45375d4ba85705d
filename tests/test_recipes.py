"""The recipes in docs/recipes run: a plain script over SQLite, a Flask view and a
Django view with the test a Django project keeps. Each serves or writes sitemaps
that pass the checker."""

from __future__ import annotations

import importlib.util
import sqlite3
import sys
import types
from pathlib import Path

import pytest

from sitemap_ext import check

RECIPES = Path(__file__).resolve().parent.parent / "docs" / "recipes"


def load(name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(f"recipe_{name}", RECIPES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_sqlite_script_writes_checked_sitemaps(tmp_path: Path) -> None:
    database = tmp_path / "pages.db"
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE pages (slug TEXT, locale TEXT, updated TEXT, photo TEXT)")
        connection.executemany("INSERT INTO pages VALUES (?, ?, ?, ?)", [
            ("boots", "en", "2026-11-19", "https://www.example.com/img/boots.jpg"),
            ("boots", "de", "2026-11-20", "https://www.example.com/img/boots.jpg"),
            ("tents", "en", "2026-10-01", None),
        ])
    recipe = load("sqlite_script")
    assert recipe.main(str(database), str(tmp_path / "public")) == 0
    sitemap = (tmp_path / "public" / "sitemap.xml").read_bytes()
    assert b"https://www.example.com/de/boots" in sitemap and b"<lastmod>2026-11-20</lastmod>" in sitemap
    assert check(str(tmp_path / "public"), now="2026-11-21T00:00:00Z").ok


def test_the_flask_view_serves_a_checked_sitemap() -> None:
    pytest.importorskip("flask", reason="the Flask recipe needs Flask (in the test extra)")
    recipe = load("flask_app")
    response = recipe.app.test_client().get("/sitemap.xml")
    assert response.status_code == 200 and response.mimetype == "application/xml"
    assert b"https://www.example.com/fr/a-propos" in response.data
    assert check(response.data, now="2026-11-21T00:00:00Z").ok


def test_the_django_view_and_its_test() -> None:
    pytest.importorskip("django", reason="the Django recipe needs Django (in the test extra)")
    from django.conf import settings

    recipe = load("django_sitemap")
    urls = types.ModuleType("recipe_django_urls")
    from django.urls import path

    urls.urlpatterns = [path("sitemap.xml", recipe.sitemap_view)]  # type: ignore[attr-defined]
    sys.modules["recipe_django_urls"] = urls
    if not settings.configured:
        settings.configure(ROOT_URLCONF="recipe_django_urls", ALLOWED_HOSTS=["testserver"], SECRET_KEY="test",
                           INSTALLED_APPS=[], MIDDLEWARE=[], DATABASES={})
    import django
    from django.test import Client

    django.setup()
    recipe.test_the_served_sitemap_passes_the_checker(Client().get)
