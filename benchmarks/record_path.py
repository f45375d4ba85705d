"""What the rule engine costs per entry, apart from reading: the figure a build and a check both pay.

    python benchmarks/record_path.py --rows 20000 --repeat 3

Each shape is built by sitemap-ext, and its sitemaps are read once by the check's
readers into records (``read/record.py``), kept in memory. Then, in this process, one
core, each timed alone (the best of --repeat, in CPU seconds):

  read     the readers on the files, the records made and dropped (for scale)
  engine   every record through ``rules.engine`` as the check hands them (in batches: entry rules,
           each file's file rules) with its ``ClusterLog``, then the rules across files
           (``rules.clusters.ClusterIndex``: the logs added, the index finished)

  build    the build's own judge (``write/judge.py``: ``BuildJudge.page`` on each page's
           records as the build hands them, then its file rules and the rules across
           files), on the calls an in-process build of the shape made (one process); the
           memoised verdicts are emptied before each run, as a build starts with none

and each is given per entry in microseconds. The engine finds nothing in what the
build wrote (no error or warning; it stops if it does), so what is timed is the usual
verdict: nothing to say but an info (W's images are on a CDN: I104, once).

  w        W(rows): 5 locales, x-default, an image a row (5 x rows entries, 6 alternates each)
  single   one locale, rows URLs with a lastmod
  forty    rows / 8 pages in 40 locales by prefix (40 alternates and x-default each)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import workload  # noqa: E402

from sitemap_ext import codes  # noqa: E402
from sitemap_ext.diagnostics import Collector, Severity, Where  # noqa: E402
from sitemap_ext.ext import image  # noqa: E402
from sitemap_ext.read.record import FileFacts, UrlEntry  # noqa: E402
from sitemap_ext.read.sniff import open_bytes  # noqa: E402
from sitemap_ext.read.xml import read_xml  # noqa: E402
from sitemap_ext.rules import hreflang  # noqa: E402
from sitemap_ext.rules.cluster_log import ClusterLog  # noqa: E402
from sitemap_ext.rules.clusters import ClusterIndex  # noqa: E402
from sitemap_ext.rules.context import Context  # noqa: E402
from sitemap_ext.rules.engine import BATCH, judge_entries, judge_file_end  # noqa: E402
from sitemap_ext.urls import origin_text, url_key  # noqa: E402
from sitemap_ext.write.build import build  # noqa: E402
from sitemap_ext.write.judge import BuildJudge  # noqa: E402

FORTY = ["ar", "bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "he", "hi", "hr", "hu", "id",
         "it", "ja", "ko", "lt", "lv", "nl", "no", "pl", "pt-BR", "pt-PT", "ro", "ru", "sk", "sl", "sr",
         "sv", "th", "tr", "uk", "vi", "zh-Hans", "zh-Hant", "en-GB", "es-MX"]


def single(folder: str, rows: int) -> str:
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "pages.csv"), "w", encoding="utf-8") as out:
        out.write("loc,lastmod\n")
        out.writelines(f"/p/item-{i},2026-{1 + i % 9:02d}-{10 + i % 9}\n" for i in range(rows))
    return _site(folder, "site:\n  base_url: https://e.com/\nsources:\n  - file: pages.csv\n")


def forty(folder: str, rows: int) -> str:
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "pages.csv"), "w", encoding="utf-8") as out:
        out.write("path,lastmod\n")
        out.writelines(f"/guide/page-{i},2026-{1 + i % 9:02d}-{10 + i % 9}\n" for i in range(max(rows // 8, 1)))
    locales = "".join(f"  {code}: /{code.lower()}/\n" for code in FORTY)
    return _site(folder, f"site:\n  base_url: https://e.com/\nlocales:\n{locales}x_default: en\n"
                         "sources:\n  - file: pages.csv\n")


def _site(folder: str, text: str) -> str:
    site = os.path.join(folder, "site.yaml")
    with open(site, "w", encoding="utf-8") as out:
        out.write(text + "output:\n  html: false\n")
    return site


def records(out: str) -> list[tuple[str, list[UrlEntry]]]:
    """Each sitemap of a built folder (the index left out) with its records."""
    found = []
    for name in sorted(os.listdir(out)):
        path = os.path.join(out, name)
        if not name.endswith(".xml"):
            continue
        facts = FileFacts(name)
        entries = [r for r in read_xml(open_bytes(path, _ignore), facts, _ignore) if isinstance(r, UrlEntry)]
        if facts.kind == "urlset":
            found.append((path, entries))
    return found


def _ignore(*_args: object, **_kwargs: object) -> None:
    return None


def read_all(files: list[tuple[str, list[UrlEntry]]]) -> None:
    for path, _ in files:
        for _record in read_xml(open_bytes(path, _ignore), FileFacts(path), _ignore):
            pass


def engine(files: list[tuple[str, list[UrlEntry]]]) -> None:
    collector = Collector(codes.REGISTRY)
    index = ClusterIndex(collector)
    for path, entries in files:
        ctx = Context(FileFacts(path, kind="urlset"), lambda code, message, line, *a, path=path, **k:
                      collector.report(code, message, Where(path, line), **k))
        log = ClusterLog()
        for start in range(0, len(entries), BATCH):  # (in batches, as checker/judge_file.py hands them)
            judge_entries(entries[start:start + BATCH], ctx, log)
        judge_file_end(ctx)
        index.add(path, log)
    index.finish()
    said = sorted({d.code for d in collector.diagnostics if d.severity != Severity.INFO})
    if said:
        raise SystemExit(f"the engine found {said} in what the build wrote")


def build_calls(site: str, out: str) -> tuple[list[Any], float | None]:
    """The calls a build of ``site`` (in this process, one process) makes of its judge's
    ``page``, each with the page's records; and the build's clock."""
    calls: list[Any] = []
    page = BuildJudge.page

    def captured(self: BuildJudge, entries: Any, where: Any, news: bool, key_of: Any, placed: Any = (),
                 split: Any = None) -> None:
        calls.append((list(entries), where, news, placed))
        page(self, entries, where, news, key_of, placed, split)
    BuildJudge.page = captured  # type: ignore[method-assign]
    try:
        result = build(site, out, jobs=1)
    finally:
        BuildJudge.page = page  # type: ignore[method-assign]
    assert result.site is not None
    return calls, result.site.now


def build_judge(calls: list[Any], now: float | None) -> None:
    for memoised in (url_key, getattr(hreflang, "_judge", None), getattr(hreflang, "_clean_code", None),
                     getattr(image, "_bare_host", None)):
        if memoised is not None:
            memoised.cache_clear()
    judge = BuildJudge(Collector(codes.REGISTRY), now)
    for entries, where, news, placed in calls:
        judge.page(entries, where, news, lambda loc, news: (origin_text(loc), news, 1), placed)
    judge.finish(lambda key: "sitemap.xml")


def best(run: Callable[[], None], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    work = tempfile.mkdtemp(prefix="record-path-")
    try:
        sites = {"w": workload.make(os.path.join(work, "w"), args.rows),
                 "single": single(os.path.join(work, "s"), args.rows),
                 "forty": forty(os.path.join(work, "f"), args.rows)}
        print(f"{'shape':<8} {'entries':>9} {'read us':>8} {'engine us':>10} {'build us':>9}  (per entry, CPU)")
        for name, site in sites.items():
            out = os.path.join(work, name + "-out")
            subprocess.run([sys.executable, "-m", "sitemap_ext", "build", site, "-o", out, "--quiet"], check=True)
            files = records(out)
            count = sum(len(entries) for _, entries in files)
            reading = best(lambda files=files: read_all(files), args.repeat)  # type: ignore[misc]
            judging = best(lambda files=files: engine(files), args.repeat)  # type: ignore[misc]
            calls, now = build_calls(site, os.path.join(work, name + "-again"))
            built = sum(len(call[0]) for call in calls)
            building = best(lambda calls=calls, now=now: build_judge(calls, now), args.repeat)  # type: ignore[misc]
            print(f"{name:<8} {count:>9,} {reading / count * 1e6:>8.2f} {judging / count * 1e6:>10.2f} "
                  f"{building / built * 1e6:>9.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
