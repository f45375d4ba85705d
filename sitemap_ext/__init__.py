"""sitemap_ext: standards-exact XML sitemaps from a YAML site description.

Python API::

    from sitemap_ext import build, check
    result = build("site.yaml", "public/", now="2026-11-21T00:00:00Z")
    for diagnostic in result.collector.sorted():
        print(diagnostic.code, diagnostic.message)
"""

from __future__ import annotations

__version__ = "0.3.0"

from .builder import BuildResult, build  # noqa: E402
from .checker import CheckResult, check  # noqa: E402
from .diagnostics import Diagnostic, Severity  # noqa: E402

__all__ = ["build", "check", "BuildResult", "CheckResult", "Diagnostic", "Severity", "__version__"]
