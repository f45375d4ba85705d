"""sitemap-ext diff of clusters that share one member, against a check of one side.

Every cluster of N names the German home page as its ``de`` alternate (a common
layout: a page without a German version points at the German home). Matching the
clusters of OLD and NEW by their members once compared every cluster with every other
through that member (N squared). The ratio diff / check, both timed in this run as
whole processes, says whether the matching still grows faster than the reading.

    python benchmarks/diff_shared.py --clusters 8000 16000
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HOME_DE = "https://www.example.com/de/"
HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n')


def entry(loc: str, links: dict[str, str]) -> str:
    tags = "".join(f'<xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>' for code, href in links.items())
    return f"<url><loc>{loc}</loc>{tags}</url>\n"


def side(folder: str, count: int, new: bool) -> None:
    """``count`` clusters of en and fr pages sharing the German home page; NEW gives each
    an x-default and drops one fr version."""
    os.makedirs(folder, exist_ok=True)
    home = {"en": "https://www.example.com/", "de": HOME_DE}
    parts = [entry(url, home) for url in home.values()]
    for number in range(count):
        links = {"en": f"https://www.example.com/en/p{number}", "fr": f"https://www.example.com/fr/p{number}",
                 "de": HOME_DE}
        if new:
            links["x-default"] = links["en"]
            if number == 17:
                del links["fr"]
        parts += [entry(links[code], links) for code in ("en", "fr") if code in links]
    with open(os.path.join(folder, "sitemap.xml"), "w", encoding="utf-8") as handle:
        handle.write(HEAD + "".join(parts) + "</urlset>\n")


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sitemap_ext", *argv], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clusters", type=int, nargs="+", default=[8000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'clusters':>9} {'check s':>8} {'diff s':>8} {'ratio':>6}")
    for count in args.clusters:
        scratch = tempfile.mkdtemp(prefix="diff-shared-")
        try:
            old, new = os.path.join(scratch, "old"), os.path.join(scratch, "new")
            side(old, count, new=False)
            side(new, count, new=True)
            common = ["--now", "2026-11-25T00:00:00Z", "--jobs", "1"]
            checks = sorted(timed(["check", new, *common, "-q"]) for _ in range(args.repeat))
            diffs = sorted(timed(["diff", old, new, *common, "-q"]) for _ in range(args.repeat))
            check_s, diff_s = checks[len(checks) // 2], diffs[len(diffs) // 2]
            print(f"{count:>9,} {check_s:>8.2f} {diff_s:>8.2f} {diff_s / check_s:>6.2f}", flush=True)
        finally:
            shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
