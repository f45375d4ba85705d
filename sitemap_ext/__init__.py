"""sitemap_ext: standards-exact XML sitemaps from a YAML site description or from
Python objects, and a checker for any sitemap.

Python API::

    from sitemap_ext import build, check
    result = build("site.yaml", "public/", now="2026-11-21T00:00:00Z")
    for diagnostic in result.collector.sorted():
        print(diagnostic.code, diagnostic.message)

    from sitemap_ext import Site, Locale, Page
    site = Site(base_url="https://www.example.com/", locales=(Locale(code="en", prefix="/en/"),))
    result = build(site, "public/", pages=(Page(path=f"/{slug}") for slug in slugs))
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .diagnostics import Diagnostic, Severity

if TYPE_CHECKING:  # (at run time the api and the model are imported on first use: see __getattr__)
    from .api import (
        BuildResult,
        CheckResult,
        DiffResult,
        FetchOptions,
        Rendered,
        Row,
        SitemapWriter,
        StateError,
        SubmitProgress,
        SubmitResult,
        build,
        check,
        diff,
        render,
        state_rows,
        submit,
    )
    from .model import Alternate, Image, Locale, NewsArticle, NewsPublication, Output, Page, Site, Video

__all__ = ["build", "check", "diff", "render", "SitemapWriter", "Rendered", "BuildResult", "CheckResult",
           "DiffResult", "Diagnostic", "Severity", "FetchOptions", "__version__", "state_rows", "Row", "StateError",
           "submit", "SubmitResult", "SubmitProgress", "Alternate", "Image", "Locale", "NewsArticle",
           "NewsPublication", "Output", "Page", "Site", "Video"]

_API = frozenset({"build", "check", "diff", "render", "SitemapWriter", "Rendered", "BuildResult", "CheckResult",
                  "DiffResult", "FetchOptions", "state_rows", "Row", "StateError", "submit", "SubmitResult",
                  "SubmitProgress"})
_MODEL = frozenset({"Alternate", "Image", "Locale", "NewsArticle", "NewsPublication", "Output", "Page", "Site",
                    "Video"})


def __getattr__(name: str) -> Any:
    """The api's names, imported when first asked for: the command line imports only
    what its verb needs (a build never loads the checker, diff or live HTTP), which
    is most of its start-up time."""
    if name in _API:
        from . import api

        return getattr(api, name)
    if name in _MODEL:  # (the public types: a check of files, or --version, loads none of them)
        from . import model

        return getattr(model, name)
    if name.isidentifier() and not name.startswith("_"):  # a submodule, as when the api imported them here
        try:  # (never __main__, which runs the command line, nor a dunder a tool probes for)
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module 'sitemap_ext' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _API | _MODEL)


class _Package(types.ModuleType):
    """The package: the import system names a submodule on it (``sitemap_ext.diff``,
    ``sitemap_ext.submit``), where the api's function of that name belongs."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _API and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
