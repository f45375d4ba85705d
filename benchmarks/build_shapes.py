"""Benchmark: the build on every site shape, each against a bare writer of the same bytes.

    python benchmarks/build_shapes.py --scale 1.0 --repeat 3     # the sizes below
    python benchmarks/build_shapes.py --scale 0.05 --repeat 1    # a quick look
    python benchmarks/build_shapes.py --only w --only single --also-jobs 1   # and one process, in the same run

Shapes (at --scale 1.0):
  w            W(200,000): 5 locales by prefix, x-default, an image each (1M URLs)
  single       one locale, 1,000,000 URLs, lastmod only
  non-ascii    200,000 pages x 5 locales with non-ASCII paths (percent-encoded)
  slugs        200,000 pages x 5 locales, translated slugs in url:<code> columns
  hosts        333,334 pages x 3 locales on 3 hosts (one folder of files per host)
  40-locales   25,000 pages x 40 locales by prefix
  video        100,000 pages with one video each, from JSON Lines
  query        W(200,000) with 10% of paths carrying a query string (escaped &)

For each shape the bare writer (in this file) renders the same pages straight from
the source with no check at all: f-strings, the same escaping, the same splits at
50,000 URLs / 52,428,800 bytes, the same index. Its output is compared byte for byte
with the build's before any time is reported, so the floor is a fair one. Each row
gives both medians, timed in the same run, and the ratio build / bare, in wall time
and in CPU time (user and system, workers included: the steadier figure on a machine
whose cores other work keeps busy; with workers it counts their work too). With
--also-jobs N each round also times the build with --jobs N (its output compared
too), so that the default and N processes are compared in one run: on a machine
shared with other work, runs apart are not comparable.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import re
import shutil
import statistics
import subprocess
import sys
import time
import dataclasses
import filecmp
from dataclasses import dataclass
from typing import Callable, Iterator
from urllib.parse import quote

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, "work", "shapes")
MAX_URLS, MAX_BYTES = 50_000, 52_428_800
SM = "http://www.sitemaps.org/schemas/sitemap/0.9"
NAMESPACES = {"image": "http://www.google.com/schemas/sitemap-image/1.1",
              "video": "http://www.google.com/schemas/sitemap-video/1.1",
              "xhtml": "http://www.w3.org/1999/xhtml"}
WORDS = ["alpine", "basic", "cedar", "delta", "ember", "fjord", "glacier", "harbor", "island", "juniper"]
FORTY = ["ar", "bg", "ca", "cs", "da", "de", "el", "en", "es", "et", "eu", "fi", "fr", "he", "hi", "hr", "hu",
         "id", "it", "ja", "ko", "lt", "lv", "ms", "nb", "nl", "pl", "pt", "ro", "ru", "sk", "sl", "sr", "sv",
         "th", "tr", "uk", "vi", "zh-Hans", "zh-Hant"]
FIVE = ["de", "en", "es", "fr", "ja"]
SAFE = "-._~!$&'()*+,;=:@/?%"

# A page for the bare writer: its entries' locs, the links they share (code, href)
# in written order, its lastmod, and what follows the links (image or video).
Page = tuple[list[str], list[tuple[str, str]], str, str]


_SPECIAL = re.compile(r"[&<>\"']")


def esc(text: str) -> str:
    if _SPECIAL.search(text) is None:
        return text
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&apos;"))


def link_list(urls: dict[str, str], x_default: str | None) -> list[tuple[str, str]]:
    links = sorted(urls.items())
    if x_default is not None:
        links.append(("x-default", urls[x_default]))
    return links


# --- shapes: the source and site description, and the same pages for the bare writer --

@dataclass
class Shape:
    name: str
    yaml: str
    source: str  # file name
    write_source: Callable[[str, int], None]
    pages: Callable[[str], Iterator[Page]]  # from the source file
    prefixes: tuple[str, ...]  # namespaces the files declare
    hosts: bool = False  # one folder per host
    rows: int = 0


def _prefixed(codes: list[str], base: str, x_default: str | None):  # type: ignore[no-untyped-def]
    def pages(path_csv: str) -> Iterator[Page]:
        with open(path_csv, encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle)
            header = next(reader)
            image = "image" in header
            for row in reader:
                path = quote(row[0], safe=SAFE)
                urls = {code: f"{base}{code.lower()}{path}" for code in codes}
                tail = f"<image:image><image:loc>{esc(row[2])}</image:loc></image:image>" if image else ""
                yield [urls[code] for code in sorted(codes)], link_list(urls, x_default), row[1], tail
    return pages


def _locale_yaml(base: str, codes: list[str], x_default: str | None, source: str) -> str:
    lines = [f"site:\n  base_url: {base}\nlocales:"] + [f"  {code}: /{code.lower()}/" for code in codes]
    if x_default:
        lines.append(f"x_default: {x_default}")
    lines.append(f"sources:\n  - file: {source}")
    return "\n".join(lines) + "\n"


def _w_source(query: bool) -> Callable[[str, int], None]:
    def write(path: str, rows: int) -> None:
        rng = random.Random(5)
        with open(path, "w", encoding="utf-8", newline="") as out:
            out.write("path,lastmod,image\n")
            for i in range(rows):
                slug = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{i}"
                extra = "?variant=2&color=red" if query and i % 10 == 0 else ""
                out.write(f"/products/{slug}{extra},2026-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d},"
                          f"https://cdn.example.com/img/{i}.jpg\n")
    return write


def _paths_source(words: list[str]) -> Callable[[str, int], None]:
    def write(path: str, rows: int) -> None:
        rng = random.Random(7)
        with open(path, "w", encoding="utf-8", newline="") as out:
            out.write("path,lastmod\n")
            for i in range(rows):
                out.write(f"/{rng.choice(words)}/{rng.choice(WORDS)}-{i},2026-{rng.randint(1, 10):02d}-"
                          f"{rng.randint(1, 28):02d}\n")
    return write


def _single_source(path: str, rows: int) -> None:
    rng = random.Random(11)
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write("loc,lastmod\n")
        for i in range(rows):
            out.write(f"/articles/{rng.choice(WORDS)}-{i},2026-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d}\n")


def _single_pages(path_csv: str) -> Iterator[Page]:
    with open(path_csv, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        next(reader)
        for loc, lastmod in reader:
            yield [f"https://www.example.com{loc}"], [], lastmod, ""


SLUGS = {"de": "schuhe", "en": "shoes", "es": "zapatos", "fr": "chaussures", "ja": "kutsu"}


def _slugs_source(path: str, rows: int) -> None:
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write(",".join(f"url:{code}" for code in FIVE) + ",lastmod\n")
        for i in range(rows):
            out.write(",".join(f"/{code}/{SLUGS[code]}-{i}" for code in FIVE) + f",2026-03-{i % 28 + 1:02d}\n")


def _slugs_pages(path_csv: str) -> Iterator[Page]:
    with open(path_csv, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        next(reader)
        for row in reader:
            urls = {code: f"https://www.example.com{row[n]}" for n, code in enumerate(FIVE)}
            yield [urls[code] for code in sorted(FIVE)], link_list(urls, None), row[5], ""


HOSTS = {"de": "https://www.example.de/", "en": "https://www.example.com/", "fr": "https://www.example.fr/"}


def _hosts_pages(path_csv: str) -> Iterator[Page]:
    with open(path_csv, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        next(reader)
        for path, lastmod in reader:
            urls = {code: host + path[1:] for code, host in HOSTS.items()}
            yield [urls[code] for code in sorted(urls)], link_list(urls, None), lastmod, ""


def _video_source(path: str, rows: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for i in range(rows):
            out.write(json.dumps({"loc": f"/watch/{i}", "lastmod": f"2026-05-{i % 28 + 1:02d}", "videos": [{
                "thumbnail_loc": f"https://cdn.example.com/t/{i}.jpg", "title": f"Clip {i} from the field",
                "description": f"Clip number {i}, filmed on location", "content_loc":
                f"https://cdn.example.com/v/{i}.mp4", "duration": 60 + i % 600}]}) + "\n")


def _video_pages(path_jsonl: str) -> Iterator[Page]:
    with open(path_jsonl, encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            video = row["videos"][0]
            tail = (f"<video:video><video:thumbnail_loc>{esc(video['thumbnail_loc'])}</video:thumbnail_loc>"
                    f"<video:title>{esc(video['title'])}</video:title>"
                    f"<video:description>{esc(video['description'])}</video:description>"
                    f"<video:content_loc>{esc(video['content_loc'])}</video:content_loc>"
                    f"<video:duration>{video['duration']}</video:duration></video:video>")
            yield [f"https://video.example.com{row['loc']}"], [], row["lastmod"], tail


def shapes(scale: float) -> list[Shape]:
    def n(count: int) -> int:
        return max(int(count * scale), 10)

    base = "https://shop.example.com/"
    return [dataclasses.replace(shape, yaml=shape.yaml + VIEWS_OFF) for shape in [
        Shape("w", _locale_yaml(base, FIVE, "en", "rows.csv"), "rows.csv", _w_source(False),
              _prefixed(FIVE, base, "en"), ("image", "xhtml"), rows=n(200_000)),
        Shape("single", "site:\n  base_url: https://www.example.com/\nsources:\n  - file: rows.csv\n", "rows.csv",
              _single_source, _single_pages, (), rows=n(1_000_000)),
        Shape("non-ascii", _locale_yaml(base, FIVE, None, "rows.csv"), "rows.csv",
              _paths_source(["größe", "商品", "café", "über-uns", "обувь"]), _prefixed(FIVE, base, None), ("xhtml",),
              rows=n(200_000)),
        Shape("slugs", "site:\n  base_url: https://www.example.com/\nlocales:\n" + "".join(
            f"  {code}: /{code}/\n" for code in FIVE) + "sources:\n  - file: rows.csv\n", "rows.csv", _slugs_source,
              _slugs_pages, ("xhtml",), rows=n(200_000)),
        Shape("hosts", "site:\n  base_url: https://www.example.com/\nlocales:\n" + "".join(
            f"  {code}: {{host: \"{host}\"}}\n" for code, host in HOSTS.items()) + "sources:\n  - file: rows.csv\n",
              "rows.csv", _paths_source(["products", "shop"]), _hosts_pages, ("xhtml",), hosts=True,
              rows=n(333_334)),
        Shape("40-locales", _locale_yaml(base, FORTY, None, "rows.csv"), "rows.csv", _paths_source(["p"]),
              _prefixed(FORTY, base, None), ("xhtml",), rows=n(25_000)),
        Shape("video", "site:\n  base_url: https://video.example.com/\nsources:\n  - file: rows.jsonl\n",
              "rows.jsonl", _video_source, _video_pages, ("video",), rows=n(100_000)),
        Shape("query", _locale_yaml(base, FIVE, "en", "rows.csv"), "rows.csv", _w_source(True),
              _prefixed(FIVE, base, "en"), ("image", "xhtml"), rows=n(200_000)),
    ]]


# The sitemaps only, against the bare writers: the HTML views (on by default since 0.4)
# are not measured.
VIEWS_OFF = "output:\n  html: false\n"


# --- the bare writer --------------------------------------------------------------------

class _Series:
    """Numbered files of one host, split as the protocol requires, then its index."""

    def __init__(self, folder: str, public: str, head: str) -> None:
        self.folder, self.public, self.head = folder, public, head.encode()
        self.files: list[tuple[str, str]] = []  # (name, newest lastmod)
        self.handle = None
        self.pending: list[bytes] = []
        self.urls = self.size = 0
        self.newest = ""

    def add(self, entry: bytes, lastmod: str) -> None:
        if self.handle is None or self.urls == MAX_URLS or \
                len(self.head) + self.size + len(entry) + len(b"</urlset>\n") > MAX_BYTES:
            self._close()
            self.handle = open(os.path.join(self.folder, f".part-{len(self.files) + 1}"), "wb")
            self.handle.write(self.head)
            self.urls = self.size = 0
            self.newest = ""
        self.pending.append(entry)
        if len(self.pending) >= 4096:
            self.handle.write(b"".join(self.pending))
            self.pending.clear()
        self.urls += 1
        self.size += len(entry)
        if lastmod > self.newest:
            self.newest = lastmod

    def _close(self) -> None:
        if self.handle is not None:
            self.handle.write(b"".join(self.pending))
            self.pending.clear()
            self.handle.write(b"</urlset>\n")
            self.handle.close()
            self.files.append((f".part-{len(self.files) + 1}", self.newest))
            self.handle = None

    def finish(self) -> None:
        self._close()
        if len(self.files) == 1:
            os.replace(os.path.join(self.folder, self.files[0][0]), os.path.join(self.folder, "sitemap.xml"))
            return
        lines = []
        for number, (part, newest) in enumerate(self.files, 1):
            os.replace(os.path.join(self.folder, part), os.path.join(self.folder, f"sitemap-{number}.xml"))
            lines.append(f"<sitemap><loc>{self.public}sitemap-{number}.xml</loc><lastmod>{newest}</lastmod>"
                         "</sitemap>\n")
        with open(os.path.join(self.folder, "sitemap.xml"), "w", encoding="utf-8") as index:
            index.write(f"<?xml version='1.0' encoding='UTF-8'?>\n<sitemapindex xmlns=\"{SM}\">\n")
            index.write("".join(lines) + "</sitemapindex>\n")


def bare(shape: Shape, source: str, out: str) -> None:
    """Write the shape's sitemaps with no check: the floor its build is held to."""
    head = (f"<?xml version='1.0' encoding='UTF-8'?>\n<urlset xmlns=\"{SM}\""
            + "".join(f" xmlns:{p}=\"{NAMESPACES[p]}\"" for p in shape.prefixes) + ">\n")
    series: dict[str, _Series] = {}
    os.makedirs(out, exist_ok=True)

    def host_series(loc: str) -> _Series:
        origin = loc[: loc.index("/", 8) + 1]
        found = series.get(origin)
        if found is None:
            folder = os.path.join(out, origin[8:-1]) if shape.hosts else out
            os.makedirs(folder, exist_ok=True)
            found = series[origin] = _Series(folder, origin, head)
        return found

    for locs, links, lastmod, tail in shape.pages(source):
        rest = (f"</loc><lastmod>{lastmod}</lastmod>"
                + "".join(f'<xhtml:link rel="alternate" hreflang="{code}" href="{esc(href)}"/>' for code, href in links)
                + tail + "</url>\n")
        for loc in locs:
            host_series(loc).add(f"<url><loc>{esc(loc)}{rest}".encode(), lastmod)
    for one in series.values():
        one.finish()


# --- running ----------------------------------------------------------------------------

def files_of(folder: str) -> dict[str, bytes]:
    found = {}
    for top, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            if not name.startswith("."):
                path = os.path.join(top, name)
                found[os.path.relpath(path, folder)] = open(path, "rb").read()
    return found


def names_of(folder: str) -> list[str]:
    """The files files_of() reads, by relative path."""
    found = []
    for top, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [os.path.relpath(os.path.join(top, name), folder) for name in names if not name.startswith(".")]
    return sorted(found)


def same_files(one: str, other: str) -> bool:
    """files_of(one) == files_of(other), a file at a time (40 locales write gigabytes)."""
    names = names_of(one)
    return names == names_of(other) and all(
        filecmp.cmp(os.path.join(one, name), os.path.join(other, name), shallow=False) for name in names)


def url_count(folder: str) -> int:
    count = 0
    for name in names_of(folder):
        with open(os.path.join(folder, name), "rb") as handle:
            count += handle.read().count(b"<url>")
    return count


def timed(command: list[str], cpu: list[float] | None = None) -> float:
    """The command's wall time; its CPU time (user and system, its children's included)
    appended to ``cpu``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="share of the sizes above (default 1.0)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", action="append", default=[], metavar="SHAPE", help="run only these shapes")
    parser.add_argument("--jobs", type=int, default=None, help="the build's --jobs (default: the build's own default)")
    parser.add_argument("--also-jobs", type=int, default=None, metavar="N",
                        help="also time the build with --jobs N in each round (a column of its own)")
    parser.add_argument("--scratch", default="/dev/shm" if os.path.isdir("/dev/shm") else WORK,
                        help="folder for the outputs (default /dev/shm: no disk write-back noise)")
    args = parser.parse_args(argv)
    scratch = os.path.join(args.scratch, "sitemap-ext-shapes")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               SITEMAP_EXT_DEFLATE="zlib")
    os.environ.update(env)
    rows = []
    for shape in shapes(args.scale):
        if args.only and shape.name not in args.only:
            continue
        folder = os.path.join(WORK, f"{shape.name}-{shape.rows}")
        site = os.path.join(folder, "site.yaml")
        source = os.path.join(folder, shape.source)
        if not os.path.exists(site):
            os.makedirs(folder, exist_ok=True)
            shape.write_source(source, shape.rows)
            with open(site, "w", encoding="utf-8") as handle:
                handle.write(shape.yaml)
        ours_out, bare_out = os.path.join(scratch, "ours"), os.path.join(scratch, "bare")
        ours_cmd = [sys.executable, "-m", "sitemap_ext", "build", site, "--quiet",
                    "--now", "2026-11-21T12:00:00Z", "-o", ours_out] + (["--jobs", str(args.jobs)] if args.jobs else [])
        bare_cmd = [sys.executable, os.path.abspath(__file__), "--bare", shape.name, str(args.scale), source, bare_out]
        also_out = os.path.join(scratch, "also")
        also_cmd = ours_cmd[:ours_cmd.index("-o")] + ["-o", also_out, "--jobs", str(args.also_jobs or 1)]
        ours_times, bare_times, also_times = [], [], []
        ours_cpu: list[float] = []
        bare_cpu: list[float] = []
        for _ in range(args.repeat):
            for out in (ours_out, bare_out, also_out):
                shutil.rmtree(out, ignore_errors=True)
            bare_times.append(timed(bare_cmd, bare_cpu))
            ours_times.append(timed(ours_cmd, ours_cpu))
            if args.also_jobs:
                also_times.append(timed(also_cmd))
        same = same_files(ours_out, bare_out) and (not args.also_jobs or same_files(also_out, bare_out))
        urls = url_count(ours_out)
        for out in (ours_out, bare_out, also_out):
            shutil.rmtree(out, ignore_errors=True)
        rows.append((shape.name, urls, statistics.median(bare_times), statistics.median(ours_times), same,
                     statistics.median(also_times) if also_times else None,
                     statistics.median(bare_cpu), statistics.median(ours_cpu)))
        print(f"{shape.name} done", file=sys.stderr)
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"\nbuild {f'--jobs {args.jobs}' if args.jobs else '(default --jobs)'} on each shape against its bare "
          f"writer; median of {args.repeat}, "
          f"{os.cpu_count()} cores, "
          f"outputs in {args.scratch}\n")
    also = f"  --jobs {args.also_jobs} s  ratio" if args.also_jobs else ""
    print(f"{'shape':12} {'URLs':>10} {'bare s':>8} {'build s':>8} {'ratio':>6}{also}  same bytes"
          f"  {'bare cpu':>8} {'build cpu':>9} {'cpu ratio':>9}")
    for name, urls, bare_s, ours_s, same, also_s, bare_c, ours_c in rows:
        extra = f"  {also_s:10.2f} {also_s / bare_s:6.2f}" if also_s is not None else ""
        print(f"{name:12} {urls:10,} {bare_s:8.2f} {ours_s:8.2f} {ours_s / bare_s:6.2f}{extra}  {'yes' if same else 'NO':>10}"
              f"  {bare_c:8.2f} {ours_c:9.2f} {ours_c / bare_c:9.2f}")
    print("\n(cpu: user and system time of the process and its workers, the median of the rounds: on a machine\n"
          "shared with other work, steadier than the wall time, which the cores' other work stretches)")
    return 0 if all(row[4] for row in rows) else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--bare":
        _, _, name, scale, source_path, out_dir = sys.argv
        bare(next(s for s in shapes(float(scale)) if s.name == name), source_path, out_dir)
        sys.exit(0)
    sys.exit(main())
