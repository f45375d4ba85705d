"""Check: every rule, nothing written. Site descriptions and existing sitemaps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..builder import build
from ..codes import REGISTRY
from ..dates import parse_now
from ..diagnostics import Collector
from .ahead import default_jobs
from .sitemaps import SitemapChecker, parse_base_urls

SITE_SUFFIXES = (".yaml", ".yml")


@dataclass
class CheckResult:
    collector: Collector
    files: list[dict[str, object]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.collector.errors == 0


def check(paths: Sequence[str], *, now: str | None = None, base_urls: Sequence[str] = (),
          jobs: int | None = None) -> CheckResult:
    """Run every rule on site descriptions, sitemaps (.xml, .xml.gz, .txt, indexes) and
    folders of them; write nothing. Sitemaps are checked together: duplicates and
    hreflang return links are judged across all of them.

    ``base_urls`` are ``URL=DIR`` pairs: the folder where the files served under URL
    are, for following an index to its children and for host and folder checks.
    ``jobs``: processes (default: two where there are two cores); workers probe
    files ahead of the main process, and the findings are the same.
    """
    collector = Collector(REGISTRY)
    result = CheckResult(collector)
    sitemaps = []
    for path in paths:
        if path.lower().endswith(SITE_SUFFIXES):
            run = build(path, now=now, dry_run=True, collector=collector)
            result.files.append({"file": path, "kind": "site", "urls": run.urls})
        else:
            sitemaps.append(path)
    if sitemaps:
        checker = SitemapChecker(collector, parse_now(now) if now else None, parse_base_urls(base_urls),
                                 jobs=jobs or default_jobs())
        checker.check_paths(sitemaps)
        checker.finish()
        result.files += checker.files
    return result
