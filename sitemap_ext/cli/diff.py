"""sitemap-ext diff OLD NEW: what a deploy changes in the sitemaps; a guard for CI.

Exit codes: 0 the diff is within limits; 1 more than --fail-on-removed PERCENT of
OLD's URLs are gone, or NEW has errors OLD did not have; 2 usage; 3 a side is not a
whole, readable set of sitemaps (its findings on stderr, and no diff).
"""

from __future__ import annotations

import argparse
import sys

from ..api import diff
from ..dates import format_instant
from ..diff import DiffResult
from ..read.http import LiveUnavailable
from ..report.diff_formats import failure_lines, totals_line, write_diff_json, write_diff_text
from ..report.formats import EXIT_ERRORS, EXIT_IO, EXIT_OK, EXIT_USAGE, clock_json, visible, write_clock
from ..report.html import write_diff_html
from .check import Usage, fetch_options, policy_of, stderr_progress


def _progress(message: str) -> None:
    stderr_progress(visible(message))  # (a side's path may hold a byte that is not UTF-8)


def run(args: argparse.Namespace) -> int:
    try:
        policy, _ = policy_of(args)
        fetch = fetch_options(args)
        result = diff(args.old, args.new, now=args.now, base_urls=args.base_url, jobs=args.jobs, policy=policy,
                      html=args.html, fetch=fetch, fail_on_removed=args.fail_on_removed,
                      progress=None if args.quiet else _progress)
    except (Usage, LiveUnavailable, ValueError) as exc:
        message = str(exc).replace("diff(old=...): ", "").replace("diff(new=...): ", "")
        sys.stderr.write(f"sitemap-ext diff: {visible(message)}\n")
        return EXIT_USAGE
    if not args.quiet and sys.stderr.isatty():
        sys.stderr.write("\r" + " " * 79 + "\r")  # (the progress line, cleared)
    if result.unreadable:
        _unreadable(result)
        return EXIT_IO
    try:
        # (closed in the finally below unless it is stdout, so no `with`)
        out = open(args.output, "w", encoding="utf-8", newline="") if args.output else sys.stdout  # noqa: SIM115
    except OSError as exc:
        sys.stderr.write(f"sitemap-ext diff: cannot write {args.output}: {exc.strerror or exc}\n")
        return EXIT_IO
    now = result.new.result
    try:
        if args.format == "json":
            write_diff_json(result, out, now=clock_json(now.now, now.clock))
        elif args.format == "html":
            clock = None if now.now is None else f"{format_instant(now.now)} (from {now.clock})"
            write_diff_html(result, out, title=f"sitemap-ext diff {args.old} {args.new}", clock=clock)
        else:
            write_diff_text(result, out)
    finally:
        if out is not sys.stdout:
            out.close()
    if not args.quiet:
        _summary(result)
    return EXIT_OK if args.exit_zero or result.ok else EXIT_ERRORS


def _unreadable(result: DiffResult) -> None:
    """On stderr: each side that is not whole, its findings, then that no diff was made."""
    for label, side in (("OLD", result.old), ("NEW", result.new)):
        for d in side.unread:
            sys.stderr.write(visible(f"{d.where}: {d.severity.value} {d.code} {d.message}") + "\n")
        if side.unread:
            sys.stderr.write(visible(f"sitemap-ext diff: {label} {side.given} is not a whole, readable set of "
                                     "sitemaps") + "\n")
        if any(d.code == "F104" for d in side.unread):
            sys.stderr.write(visible(f"sitemap-ext diff: {label} {side.given} lists no URL: diff compares sitemaps, "
                                     "and built pages (a site generator's output) are none; build their sitemap "
                                     "(sitemap-ext build SITE.yaml -o DIR, `site:` naming the pages' folder) and "
                                     "diff DIR") + "\n")
    sys.stderr.write("sitemap-ext diff: a side could not be read; no diff was made\n")


def _summary(result: DiffResult) -> None:
    """On stderr: the counts, why the diff fails (if it does), and the clock."""
    sys.stderr.write(visible(f"diff {result.old.given} -> {result.new.given}: {totals_line(result)}") + "\n")
    for line in failure_lines(result):
        sys.stderr.write(f"failed: {line}\n")
    write_clock(result.new.result.now, result.new.result.clock)


__all__ = ["run"]
