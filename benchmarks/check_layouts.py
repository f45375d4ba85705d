"""Benchmark: the check on one site written in several layouts, against a floor.

    python benchmarks/check_layouts.py --rows 200000 --repeat 3    # W(200,000): 1,000,000 URLs

The site is W(N) (benchmarks/workload.py), built by sitemap-ext; the other layouts are
the same files rewritten as other generators write them:
  ours        as sitemap-ext writes it (one <url> per line)
  indented    one element per line, lower-case utf-8 in the declaration
  minified    one line per file
  scattered   start tags over several lines, attributes in another order
  query       10% of URLs with a query string (consistently, in locs and links)
  40-locales  the same number of entries over 40 locales (40 alternates and x-default each;
              --forty-rows N gives it W(N)'s count instead: at 200,000 it is 6.8 GB of XML)
  twice       every file as written and a copy of it: each URL listed twice (U104 on
              every entry), the findings read back from the compressed index
Where xmllint is installed, each layout also gets a row for `xmllint --stream --noout
--schema` with the sitemaps.org schemas and the extensions' (tests/data/xsd/all.xsd):
XSD validation alone, one core, no hreflang clusters.
For each layout, the floor is a bare lxml parse of the same files that runs no rule
(an XMLPullParser handing over each <url>, cleared), spread over the same processes
as the check (one file each, a pool of --jobs); the row gives the check's median wall
time and its ratio to the floor's, both timed in the same run. Compare ratios.
With --plain, each layout also gets a row for the least a Python pass over the same
files does (PLAIN below: every value of every <url> read out of lxml's elements, each
URL hashed once per distinct string, each hreflang once per distinct tag, the entries
grouped by their set of alternates and every return link looked up): no rule, no
location, no finding. Its ratio is what any check written in Python pays over the
floor before a rule runs.
With --before PYTHON, the check of another install (a checkout of main in its own
environment) is timed beside it, layout by layout, in the same run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import workload  # noqa: E402

XSD = os.path.join(HERE, "..", "tests", "data", "xsd", "all.xsd")
FORTY = ["ar", "bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "he", "hi", "hr", "hu", "id",
         "it", "ja", "ko", "lt", "lv", "nl", "no", "pl", "pt-BR", "pt-PT", "ro", "ru", "sk", "sl", "sr",
         "sv", "th", "tr", "uk", "vi", "zh-Hans", "zh-Hant", "en-GB", "es-MX"]

FLOOR = r"""
import os, sys
from concurrent.futures import ProcessPoolExecutor
from lxml import etree

def parse(path):
    parser = etree.XMLPullParser(events=("end",), tag=("{*}url",), resolve_entities=False, no_network=True)
    count = 0
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 16), b""):
            parser.feed(chunk)
            for _, element in parser.read_events():
                element.clear()
                count += 1
    return count

folder, jobs = sys.argv[1], int(sys.argv[2])
paths = sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".xml"))
with ProcessPoolExecutor(jobs) as pool:
    print(sum(pool.map(parse, paths)))
"""

# The least a Python pass does with every value (--plain): see the docstring.
PLAIN = r"""
import hashlib, os, sys
from concurrent.futures import ProcessPoolExecutor
from lxml import etree

def parse(path):
    parser = etree.XMLPullParser(events=("end",), tag=("{*}url",), resolve_entities=False, no_network=True)
    keys, tags, seen, lists = {}, {}, set(), {}
    def key(url):
        found = keys.get(url)
        if found is None:
            found = keys[url] = hashlib.blake2b(url.encode(), digest_size=8).digest()
        return found
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 16), b""):
            parser.feed(chunk)
            for _, url in parser.read_events():
                loc, links, values = None, [], []
                for child in url:
                    name = child.tag.rpartition("}")[2]
                    if name == "loc":
                        loc = child.text
                    elif name == "link":
                        links.append((child.get("hreflang"), child.get("href")))
                    elif name == "image":
                        values.extend(grand.text for grand in child)
                    else:
                        values.append(child.text)
                own = key(loc or "")
                seen.add(own)
                pairs = []
                for code, href in links:
                    if code not in tags:
                        tags[code] = (code or "").lower()
                    pairs.append((tags[code], key(href or "")))
                lists.setdefault(frozenset(pairs), []).append(own)
                url.clear()
    missing = sum(1 for pairs, owners in lists.items() for _, named in pairs if named not in seen)
    return len(seen), missing

folder, jobs = sys.argv[1], int(sys.argv[2])
paths = sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".xml"))
with ProcessPoolExecutor(jobs) as pool:
    print([sum(column) for column in zip(*pool.map(parse, paths))])
"""


def rewrite(source: str, target: str, change) -> None:  # type: ignore[no-untyped-def]
    os.makedirs(target, exist_ok=True)
    for name in sorted(os.listdir(source)):
        with open(os.path.join(source, name), encoding="utf-8") as handle:
            text = handle.read()
        with open(os.path.join(target, name), "w", encoding="utf-8") as handle:
            handle.write(change(text))


def indented(text: str) -> str:
    text = text.replace("encoding='UTF-8'", "encoding='utf-8'").replace('encoding="UTF-8"', 'encoding="utf-8"')
    return re.sub(r"(<url>|<(?:loc|lastmod|xhtml:link|image:image)\b)", r"\n  \1", text).replace("</url>", "\n</url>")


def minified(text: str) -> str:
    return text.replace("\n", "")


def scattered(text: str) -> str:
    return re.sub(r'<xhtml:link rel="([^"]*)" hreflang="([^"]*)" href="([^"]*)"/>',
                  r'<xhtml:link\n    href="\3"\n    hreflang="\2"\n    rel="\1"/>', text)


def query(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        url = match.group(0)
        return url + "?ref=1" if zlib.crc32(url.encode()) % 10 == 0 and "?" not in url else url
    return re.sub(r"https://shop\.example\.com/[^\"<?]*", one, text)


def forty_locales(folder: str, rows: int) -> str:
    """The same number of entries as W(rows), in 40 locales: a site description of its own."""
    os.makedirs(folder, exist_ok=True)
    pages = max(1, rows * 5 // len(FORTY))
    with open(os.path.join(folder, "pages.csv"), "w", encoding="utf-8") as out:
        out.write("path,lastmod\n")
        for i in range(pages):
            out.write(f"docs/page-{i},2026-0{1 + i % 9}-1{i % 10}\n")
    locales = "".join(f"  {code}: /{code.lower()}/\n" for code in FORTY)
    site = os.path.join(folder, "site.yaml")
    with open(site, "w", encoding="utf-8") as out:
        out.write(f"site:\n  base_url: https://docs.example.com/\nlocales:\n{locales}x_default: en\n"
                  "sources:\n  - file: pages.csv\noutput:\n  html: false  # (the sitemaps only, as W)\n")
    return site


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--rows", type=int, default=200_000)
    args.add_argument("--repeat", type=int, default=3)
    args.add_argument("--jobs", type=int, default=min(len(os.sched_getaffinity(0)), 4))
    args.add_argument("--forty-rows", type=int, default=None,
                      help="N for the 40-locale site (default --rows; at 200,000 it is 6.8 GB of XML)")
    args.add_argument("--xsd", default=XSD, help="the schema xmllint validates with (default: tests/data/xsd/all.xsd "
                      "in this checkout)")
    args.add_argument("--before", metavar="PYTHON", help="also time the check of another install (the python of "
                      "its environment, e.g. a checkout of main), in the same run: columns 'before s' and its ratio")
    args.add_argument("--plain", action="store_true", help="also time the least a Python pass does (PLAIN): "
                      "columns 'plain s' and its ratio")
    args.add_argument("--scratch", default="/dev/shm/sitemap-ext-layouts" if os.path.isdir("/dev/shm") else None)
    opts = args.parse_args(argv)
    scratch = opts.scratch or os.path.join(HERE, "work", "layouts")
    shutil.rmtree(scratch, ignore_errors=True)
    site = workload.make(os.path.join(scratch, "site"), opts.rows)
    ours = os.path.join(scratch, "ours")
    subprocess.run([sys.executable, "-m", "sitemap_ext", "build", site, "-o", ours, "--quiet"], check=True)
    folders = {"ours": ours}
    for name, change in (("indented", indented), ("minified", minified), ("scattered", scattered),
                         ("query", query)):
        folders[name] = os.path.join(scratch, name)
        rewrite(ours, folders[name], change)
    folders["twice"] = os.path.join(scratch, "twice")
    shutil.copytree(ours, folders["twice"])
    for name in os.listdir(ours):
        shutil.copy(os.path.join(ours, name), os.path.join(folders["twice"], "copy-" + name))
    folders["40-locales"] = os.path.join(scratch, "forty")
    subprocess.run([sys.executable, "-m", "sitemap_ext", "build", forty_locales(os.path.join(scratch, "forty-site"),
                    opts.forty_rows or opts.rows), "-o", folders["40-locales"], "--quiet"], check=True)
    xmllint = shutil.which("xmllint") if os.path.exists(opts.xsd) else None
    print(f"{'layout':<10} {'floor s':>8}" + (f" {'plain s':>8} {'ratio':>6}" if opts.plain else "") +
          (f" {'before s':>8} {'ratio':>6}" if opts.before else "") +
          f" {'check s':>8} {'ratio':>6}" + (f" {'xmllint s':>9} {'ratio':>6}" if xmllint else ""), flush=True)
    for name, folder in folders.items():
        floor = [timed([sys.executable, "-c", FLOOR, folder, str(opts.jobs)]) for _ in range(opts.repeat)]
        f = statistics.median(floor)
        row = f"{name:<10} {f:8.2f}"
        if opts.plain:
            plain = statistics.median(timed([sys.executable, "-c", PLAIN, folder, str(opts.jobs)])
                                      for _ in range(opts.repeat))
            row += f" {plain:8.2f} {plain / f:6.1f}"
        for python in (opts.before, sys.executable) if opts.before else (sys.executable,):
            c = statistics.median(timed([python, "-m", "sitemap_ext", "check", folder, "--quiet", "--jobs",
                                         str(opts.jobs)]) for _ in range(opts.repeat))
            row += f" {c:8.2f} {c / f:6.1f}"
        if xmllint:
            files = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".xml"))
            lint = statistics.median(timed([xmllint, "--stream", "--noout", "--schema", opts.xsd, *files])
                                     for _ in range(opts.repeat))
            row += f" {lint:9.2f} {lint / f:6.1f}"
        print(row, flush=True)
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
