"""The real-world corpus (tests/data/realworld) checked as tests/test_realworld.py
checks it, with the findings counted by severity and the exit codes, for comparing two
versions of the package:

    python benchmarks/corpus_counts.py                  # the package this checkout holds
    (cd OTHER-CHECKOUT && python /path/to/benchmarks/corpus_counts.py --corpus /path/to/tests/data/realworld)

Prints one line: the counts for the built sites and for the sitemaps, the exit codes,
and the number of tracebacks (which must be 0).
"""

from __future__ import annotations

import argparse
import collections
import os
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
NOW = "2026-11-25T00:00:00Z"


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--corpus", default=os.path.join(HERE, "..", "tests", "data", "realworld"))
    opts = args.parse_args(argv)
    sys.path.insert(0, os.getcwd())  # (the package of the checkout it is run from)
    from sitemap_ext import check

    root = os.path.abspath(opts.corpus)
    totals: collections.Counter[str] = collections.Counter()
    tracebacks = 0
    with open(os.path.join(root, "sites", "manifest.yaml"), encoding="utf-8") as handle:
        sites = yaml.safe_load(handle)
    with open(os.path.join(root, "sitemaps", "manifest.yaml"), encoding="utf-8") as handle:
        sitemaps = yaml.safe_load(handle)
    runs = []
    for item in sites:
        folder = os.path.join(root, "sites", item["name"])
        html = "drop-ext" if item.get("html_mode") == "drop-ext" else "on"
        runs.append(("sites", [folder], [f"{item['base_url']}={folder}"], html))
    for item in sitemaps:
        path = os.path.join(root, "sitemaps", item["file"])
        base = str(item.get("base_url") or "")
        served = [f"{base.rsplit('/', 1)[0]}/={os.path.dirname(path)}"] if base.startswith("http") else []
        runs.append(("sitemaps", [path], served, "on"))
    for kind, paths, base_urls, html in runs:
        try:
            result = check(paths, base_urls=base_urls, html=html, now=NOW)
        except Exception as exc:  # noqa: BLE001 - counted: the figure that must stay 0
            tracebacks += 1
            print(f"traceback on {paths[0]}: {exc!r}", file=sys.stderr)
            continue
        for diagnostic in result.collector.diagnostics:
            totals[f"{kind} {diagnostic.severity.value}s"] += 1
        totals[f"{kind} exit {0 if result.ok else 1}"] += 1
    print(", ".join(f"{key}: {value:,}" for key, value in sorted(totals.items())) + f", tracebacks: {tracebacks}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
