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

__version__ = "0.3.0"

from .builder import BuildResult, build  # noqa: E402
from .checker import CheckResult, check  # noqa: E402
from .diagnostics import Diagnostic, Severity  # noqa: E402
from .library import Rendered, SitemapWriter, render  # noqa: E402
from .objects import Alternate, Image, Locale, NewsArticle, NewsPublication, Output, Page, Site, Video  # noqa: E402

__all__ = ["build", "check", "render", "SitemapWriter", "Rendered", "BuildResult", "CheckResult", "Diagnostic",
           "Severity", "__version__",
           "Alternate", "Image", "Locale", "NewsArticle", "NewsPublication", "Output", "Page", "Site", "Video"]
