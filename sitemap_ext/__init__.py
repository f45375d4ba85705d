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

from ._version import __version__
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
from .diagnostics import Diagnostic, Severity
from .model import Alternate, Image, Locale, NewsArticle, NewsPublication, Output, Page, Site, Video

__all__ = ["build", "check", "diff", "render", "SitemapWriter", "Rendered", "BuildResult", "CheckResult",
           "DiffResult", "Diagnostic", "Severity", "FetchOptions", "__version__", "state_rows", "Row", "StateError",
           "submit", "SubmitResult", "SubmitProgress", "Alternate", "Image", "Locale", "NewsArticle",
           "NewsPublication", "Output", "Page", "Site", "Video"]
