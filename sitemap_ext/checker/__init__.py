"""Check: every rule, nothing written. Site descriptions and existing sitemaps."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Sequence

from ..builder import build
from ..codes import REGISTRY
from ..diagnostics import Collector, Where

SITE_SUFFIXES = (".yaml", ".yml")


@dataclass
class CheckResult:
    collector: Collector
    files: list[dict[str, object]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.collector.errors == 0


def check(paths: Sequence[str], *, now: str | None = None, base_urls: Sequence[str] = ()) -> CheckResult:
    """Run every rule on the given site descriptions (and sitemaps); write nothing."""
    collector = Collector(REGISTRY)
    result = CheckResult(collector)
    for path in paths:
        if path.lower().endswith(SITE_SUFFIXES):
            run = build(path, now=now, dry_run=True, collector=collector)
            result.files.append({"file": path, "kind": "site", "urls": run.urls})
        elif not os.path.exists(path):
            collector.report("F101", f"{path} does not exist", Where(path))
        else:
            collector.report("F101", f"{path} is not a site description (.yaml)", Where(path))
    return result
