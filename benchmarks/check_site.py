"""Benchmark: checking a built site (HTML pages and their sitemaps) against a floor.

    python benchmarks/check_site.py --pages 100000 --repeat 3 --dir /dev/shm/bench-site

Generates a built site as a static site generator writes it: --pages HTML pages in
five locales (a cluster of five pages per topic, every page linking to all five and
an x-default), each about --size bytes (a head of about 1.5 KB with its meta tags,
stylesheets and hreflang links, then a body of text), plus a few noindex pages. Its
sitemaps are built from the pages by sitemap-ext (a source `site:`), then timed:

  floor   a bare parse of the same HTML heads that judges nothing: each page read up to
          </head> and parsed by lxml's HTML parser, its <link> elements visited, over a
          pool of --jobs processes, one page at a time;
  check   sitemap-ext check FOLDER --base-url URL=FOLDER --jobs J: every page's head and
          every sitemap read and judged, clusters across both, the cross-checks.

The row gives each median wall time and the ratio check / floor, timed in the same run
(compare ratios). With --memory the check's peak memory (GNU time's maximum resident
set size of the main process, which holds the cluster index) is measured at a quarter, half and
all of the pages, to show whether it grows with them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

LOCALES = ("en", "de", "fr", "es", "it")
HOST = "https://www.bench.example/"

FLOOR = r"""
import os, re, sys
from concurrent.futures import ProcessPoolExecutor
from lxml import etree

END = re.compile(rb"</head\s*>|<body[\s>/]", re.IGNORECASE)
PARSER = etree.HTMLParser(recover=True, no_network=True)

def head(path):
    with open(path, "rb") as handle:
        data = b""
        while True:
            chunk = handle.read(1 << 16)
            if not chunk:
                break
            data += chunk
            match = END.search(data)
            if match:
                data = data[:match.start()]
                break
    root = etree.fromstring(data, PARSER)
    return sum(1 for _ in root.iter("link"))

def part(paths):
    return sum(head(path) for path in paths)

folder, jobs = sys.argv[1], int(sys.argv[2])
paths = []
for top, dirs, names in os.walk(folder):
    dirs.sort()
    paths.extend(os.path.join(top, name) for name in sorted(names) if name.endswith(".html"))
shares = [paths[i::jobs] for i in range(jobs)]
with ProcessPoolExecutor(jobs) as pool:
    print(sum(pool.map(part, shares)))
"""

FILLER = ("Trails above the tree line are marked in white and red; carry water, a map and a "
          "layer more than the forecast asks for. ")


def page(code: str, topic: int, size: int, *, noindex: bool = False) -> str:
    links = "".join(f'    <link rel="alternate" hreflang="{other}" href="{HOST}{other}/topic-{topic}/">\n'
                    for other in LOCALES)
    links += f'    <link rel="alternate" hreflang="x-default" href="{HOST}en/topic-{topic}/">\n'
    if noindex:
        links = ""
    robots = '    <meta name="robots" content="noindex">\n' if noindex else ""
    head = (f'<!DOCTYPE html>\n<html lang="{code}">\n  <head>\n    <meta charset="utf-8">\n'
            f'    <meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"    <title>Topic {topic} ({code})</title>\n"
            f'    <meta name="description" content="Everything about topic {topic}, in {code}.">\n'
            f'    <meta property="og:title" content="Topic {topic}">\n'
            f'    <meta property="article:modified_time" content="2025-{1 + topic % 12:02d}-{1 + topic % 28:02d}">\n'
            f'{robots}    <link rel="canonical" href="{HOST}{code}/topic-{topic}/">\n{links}'
            '    <link rel="stylesheet" href="/css/site.css">\n    <script src="/js/site.js" defer></script>\n'
            "  </head>\n")
    body = "  <body>\n    <main>\n"
    while len(head) + len(body) < size - 40:
        body += f"      <p>{FILLER}</p>\n"
    return head + body + "    </main>\n  </body>\n</html>\n"


def generate(folder: str, pages: int, size: int) -> None:
    public = os.path.join(folder, "public")
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    for topic in range(pages // len(LOCALES)):
        for code in LOCALES:
            target = os.path.join(public, code, f"topic-{topic}")
            os.makedirs(target)
            with open(os.path.join(target, "index.html"), "w", encoding="utf-8") as handle:
                handle.write(page(code, topic, size))
    for n in range(10):  # a few pages kept out of the index
        target = os.path.join(public, "en", f"search-{n}")
        os.makedirs(target)
        with open(os.path.join(target, "index.html"), "w", encoding="utf-8") as handle:
            handle.write(page("en", 10**9 + n, 2000, noindex=True).replace(f"topic-{10**9 + n}", f"search-{n}"))
    with open(os.path.join(folder, "site.yaml"), "w", encoding="utf-8") as handle:
        handle.write(f"site:\n  base_url: {HOST}\nsources:\n  - site: public/\noutput:\n  dir: public\n  html: false\n")


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def check_command(folder: str, jobs: int) -> list[str]:
    public = os.path.join(folder, "public")
    return [sys.executable, "-m", "sitemap_ext", "check", public, "--base-url", f"{HOST}={public}",
            "--jobs", str(jobs), "--quiet"]


def peak(command: list[str]) -> int:
    """The peak resident MiB of the check's main process, by GNU time."""
    done = subprocess.run(["/usr/bin/time", "-f", "%M", *command], check=True, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    return int(done.stderr.strip().splitlines()[-1]) // 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=100_000)
    parser.add_argument("--size", type=int, default=20_000, help="bytes per page (about)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dir", default="/dev/shm/sitemap-ext-bench-site")
    parser.add_argument("--memory", action="store_true", help="also peak memory at 1/4, 1/2 and all pages")
    args = parser.parse_args(argv)
    generate(args.dir, args.pages, args.size)
    built = subprocess.run([sys.executable, "-m", "sitemap_ext", "build", os.path.join(args.dir, "site.yaml"),
                            "--quiet"], capture_output=True, text=True)
    if built.returncode != 0:
        print(built.stderr, file=sys.stderr)
        return 1
    floor_command = [sys.executable, "-c", FLOOR, os.path.join(args.dir, "public"), str(args.jobs)]
    floors, checks = [], []
    for _ in range(args.repeat):  # alternated, so that both see the same machine
        floors.append(timed(floor_command))
        checks.append(timed(check_command(args.dir, args.jobs)))
    floor, check = statistics.median(floors), statistics.median(checks)
    print(f"{'pages':>9} {'jobs':>4} {'floor s':>8} {'check s':>8} {'ratio':>6}")
    print(f"{args.pages:>9,} {args.jobs:>4} {floor:>8.2f} {check:>8.2f} {check / floor:>6.2f}")
    if args.memory:
        print(f"\n{'pages':>9} {'peak MiB (main process)':>24}")
        for share in (4, 2, 1):
            pages = args.pages // share
            folder = f"{args.dir}-{pages}"
            generate(folder, pages, args.size)
            subprocess.run([sys.executable, "-m", "sitemap_ext", "build", os.path.join(folder, "site.yaml"),
                            "--quiet"], check=True)
            print(f"{pages:>9,} {peak(check_command(folder, args.jobs)):>24}")
            shutil.rmtree(folder)
    shutil.rmtree(args.dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
