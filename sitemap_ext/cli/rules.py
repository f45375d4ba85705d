"""sitemap-ext rules: every code with its severity and one line."""

from __future__ import annotations

import argparse
import json
import sys

from ..codes import REGISTRY


def run(args: argparse.Namespace) -> int:
    entries = sorted(REGISTRY.values(), key=lambda c: c.code)
    if args.format == "json":
        json.dump([{"code": c.code, "severity": c.severity.value, "name": c.name, "summary": c.summary}
                   for c in entries], sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for c in entries:
        sys.stdout.write(f"{c.code}  {c.severity.value:<7}  {c.name:<24}  {c.summary}\n")
    return 0
