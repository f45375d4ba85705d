"""What it would cost the build to hand each URL it writes to the check's entry rules.

    python benchmarks/record_path.py --rows 20000 --repeat 3

Issue 26 asks that the build's pages become the check's records and go through the
one registry (rules/__init__.py); issue 26 and 27 also ask that the build get no
slower. This measures the first against the second: two sites of --rows rows are
built in this process with --jobs 1 (no start-up in the figures), as the build runs
today, then again with every URL it writes made into the record a sitemap reader
gives (``UrlEntry``: its loc, its lastmod, its hreflang links) and handed to every
entry rule of the registry (``ENTRY_DISPATCH``), as ``check`` does. Images, videos
and news are left out of the records, so the cost is a lower bound. The outputs are
the same bytes either way (the rules find nothing in what the build writes).

  w       W(rows): 5 locales, an image a row (5 x rows URLs)
  single  one locale, rows URLs with a lastmod
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import workload  # noqa: E402

from sitemap_ext.read.record import FileFacts, UrlEntry, Value  # noqa: E402
from sitemap_ext.rules import rule_set as rules  # noqa: E402
from sitemap_ext.rules.context import Context  # noqa: E402
from sitemap_ext.rules.hreflang import judge_links  # noqa: E402
from sitemap_ext.urls import url_key  # noqa: E402
from sitemap_ext.write import page_flow  # noqa: E402
from sitemap_ext.write.build import build  # noqa: E402


def single(folder: str, rows: int) -> str:
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "pages.csv"), "w", encoding="utf-8") as out:
        out.write("loc,lastmod\n")
        out.writelines(f"/p/item-{i},2026-{1 + i % 9:02d}-{10 + i % 9}\n" for i in range(rows))
    site = os.path.join(folder, "site.yaml")
    with open(site, "w", encoding="utf-8") as out:
        out.write("site:\n  base_url: https://e.com/\nsources:\n  - file: pages.csv\noutput:\n  html: false\n")
    return site


def hand_to_rules(flow: Any, page: Any, found: list[str]) -> None:
    """Each URL of ``page`` as a sitemap reader's record, through every entry rule."""
    ctx = getattr(flow, "_bench_ctx", None)
    if ctx is None:
        ctx = Context(FileFacts("build"), lambda code, *args, **kwargs: found.append(code), now=flow.now)
        flow._bench_ctx = ctx
    links: tuple[tuple[str | None, str | None, str | None, str | None], ...] = ()
    if page.codes is not None:
        links = tuple(("alternate", code, loc, None) for code, loc in zip(page.codes, page.locs, strict=False))
        if page.x_default is not None:
            links += (("alternate", "x-default", page.x_default, None),)
    lastmod = Value(page.lastmod.text, 1) if page.lastmod is not None else None
    for loc in page.locs:
        entry = UrlEntry(1, (Value(loc, 1),), lastmod, None, None, links)
        ctx.loc, ctx.loc_key = loc, url_key(loc)
        ctx.judged = judge_links(links, loc) if links else None
        for check, reads in rules.ENTRY_DISPATCH:
            if reads is None or getattr(entry, reads):
                check(entry, ctx)


def timed(site: str, out: str, records: bool) -> float:
    original = page_flow.PageFlow.__call__
    found: list[str] = []

    def with_records(self: Any, given: Any) -> Any:
        rendered = original(self, given)
        if rendered is not None:
            hand_to_rules(self, given, found)
        return rendered

    if records:
        page_flow.PageFlow.__call__ = with_records  # type: ignore[method-assign]
    try:
        shutil.rmtree(out, ignore_errors=True)
        started = time.perf_counter()
        result = build(site, out, jobs=1)
        elapsed = time.perf_counter() - started
    finally:
        page_flow.PageFlow.__call__ = original  # type: ignore[method-assign]
    if not result.ok or found:
        raise SystemExit(f"{site}: the build failed or the rules found {sorted(set(found))} in its pages")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    work = tempfile.mkdtemp(prefix="record-path-")
    try:
        sites = {"w": workload.make(os.path.join(work, "w"), args.rows), "single": single(os.path.join(work, "s"),
                                                                                          args.rows)}
        print(f"{'shape':<8} {'today s':>8} {'records s':>10} {'ratio':>6}")
        for name, site in sites.items():
            today, handed = [], []
            for _ in range(args.repeat):  # alternated, so that both see the same machine
                today.append(timed(site, os.path.join(work, "out"), False))
                handed.append(timed(site, os.path.join(work, "out"), True))
            a, b = statistics.median(today), statistics.median(handed)
            print(f"{name:<8} {a:>8.2f} {b:>10.2f} {b / a:>6.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
