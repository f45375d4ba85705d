"""sitemap-ext diff OLD NEW: what a deploy changes in the sitemaps; a guard for CI.

Exit codes: 0 the diff is within limits; 1 more than --fail-on-removed PERCENT of
OLD's URLs are gone, or NEW has errors OLD did not have; 2 usage; 3 a side is not a
whole, readable set of sitemaps (its findings on stderr, and no diff).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..api import diff
from ..dates import format_instant
from ..diff import DiffResult
from ..read.http import LiveUnavailable
from ..report.diff_formats import failure_lines, totals_line, write_diff_json, write_diff_text
from ..report.formats import EXIT_ERRORS, EXIT_IO, EXIT_OK, EXIT_USAGE, clock_json, visible, write_clock
from ..report.html import write_diff_html
from .check import Usage, fetch_options, policy_of, stderr_progress


def add_parser(verbs: Any, now_help: str) -> None:
    """The diff verb's arguments (registered by ``cli.parser``)."""
    verb = verbs.add_parser("diff", help="what changed between two sets of sitemaps (folders, files or URLs); "
                            "fail CI when a deploy drops too many URLs or adds errors",
                            description=_EXITS, formatter_class=argparse.RawDescriptionHelpFormatter)
    verb.add_argument("old", metavar="OLD", help="the sitemaps before: a folder, a sitemap file or a URL")
    verb.add_argument("new", metavar="NEW", help="the sitemaps after: a folder, a sitemap file or a URL")
    verb.add_argument("--format", choices=("text", "json", "html"), default="text")
    verb.add_argument("-o", "--output", metavar="FILE", help="write the diff to FILE instead of stdout")
    verb.add_argument("--fail-on-removed", type=_percent, metavar="PERCENT",
                      help="exit 1 when NEW no longer lists more than PERCENT of OLD's URLs")
    verb.add_argument("--now", metavar="ISO8601", help=now_help)
    verb.add_argument("--base-url", action="append", default=[], metavar="URL=DIR",
                      help="serve DIR at URL (repeatable); each applies to the side whose folder holds DIR")
    verb.add_argument("--html", choices=("on", "drop-ext", "off"), default="on",
                      help="built pages in a folder mapped by --base-url: judged for new errors (on, drop-ext) or "
                      "skipped (off); pages list no URL of the diff")
    verb.add_argument("--jobs", type=int, choices=range(1, 65), default=None, metavar="N",
                      help="processes reading files (default: one per core, at most 4)")
    verb.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    verb.add_argument("--exit-zero", action="store_true", help="exit 0 when the diff fails (2 and 3 still do not)")
    verb.add_argument("--select", action="append", default=[], metavar="CODES",
                      help="count only these codes, prefixes or rule names as errors (comma-separated)")
    verb.add_argument("--ignore", action="append", default=[], metavar="CODES",
                      help="do not count these codes, prefixes or rule names")
    verb.add_argument("--severity", action="append", default=[], metavar="CODE=LEVEL",
                      help="take a code, prefix or rule name as error, warning or info (repeatable)")
    settings = verb.add_mutually_exclusive_group()
    settings.add_argument("--config", metavar="FILE", help="settings file (as check reads it)")
    settings.add_argument("--no-config", action="store_true", help="read no settings file")
    live = verb.add_argument_group("a side that is a URL")
    live.add_argument("--header", action="append", default=[], metavar="'NAME: VALUE'",
                      help="send this header with every request (repeatable)")
    live.add_argument("--timeout", type=float, default=15.0, metavar="SECONDS",
                      help="to connect, and between two chunks of an answer (default 15)")
    live.add_argument("--cache", metavar="DIR", help="keep responses with their ETag / Last-Modified here")
    live.add_argument("--allow-private", action="store_true",
                      help="fetch from loopback and private addresses too (a local or staging server)")
    verb.set_defaults(delay=0.0, cross_submitted=[])


_EXITS = """\
What changed between two sets of sitemaps (folders, files or URLs).

exit codes:
  0  the diff is within limits
  1  NEW drops more than --fail-on-removed PERCENT of OLD's URLs, or has errors OLD
     did not have
  2  usage error
  3  a side is not a whole, readable set of sitemaps: a file it gives or lists was
     rejected as a sitemap (an HTML or JSON page, an empty or UTF-16 body, broken XML
     or gzip), is missing, or could not be fetched (an HTTP error status, no answer),
     or it holds no sitemap at all. Its findings are printed and no diff is made:
     against a side read in part, URLs would seem added or kept that are not.
"""


def _percent(text: str) -> float:
    try:
        value = float(text.rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a percentage from 0 to 100, not {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"a percentage from 0 to 100, not {text!r}")
    return value


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


__all__ = ["add_parser", "run"]
