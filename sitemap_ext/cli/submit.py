"""sitemap-ext submit --indexnow KEY (SITE.yaml | --state FILE): the URLs a build added
or changed, told to search engines by IndexNow."""

from __future__ import annotations

import argparse
import json
import sys

from ..api import submit
from ..read.http import FetchOptions
from ..report.formats import EXIT_USAGE, counts_line, exit_code, plural, write_findings
from ..submit import DEFAULT_ENDPOINT, SubmitProgress, key_location_problem, key_problem


def run(args: argparse.Namespace) -> int:
    endpoint = DEFAULT_ENDPOINT if args.endpoint is None else args.endpoint
    problem = key_problem(args.indexnow)
    if problem is None and args.site is None and args.state is None:
        problem = "give SITE.yaml, --state FILE, or both"
    if problem is None and not endpoint.startswith(("http://", "https://")):
        problem = f"--endpoint {endpoint!r} is no http(s) URL"
    if problem is None:
        problem = key_location_problem(args.key_location)
    if problem is not None:
        sys.stderr.write(f"sitemap-ext submit: {problem}\n")
        return EXIT_USAGE
    try:
        fetch = FetchOptions(timeout=args.timeout, allow_private=args.allow_private)
    except ValueError as exc:
        sys.stderr.write(f"sitemap-ext submit: {exc}\n")
        return EXIT_USAGE
    show = sys.stderr.isatty() and not args.quiet
    result = submit(args.indexnow, site=args.site, state=args.state, out_dir=args.out, endpoint=endpoint,
                    key_location=args.key_location, dry_run=args.dry_run, fetch=fetch,
                    progress=_show_progress if show else None, listed=_print if args.format == "text" else None)
    if show:
        sys.stderr.write("\r\033[K")
    code = exit_code(result.collector, False)
    if args.format == "json":
        out = {"ok": code == 0, "pending": result.pending, "accepted": result.accepted, "requests": result.requests,
               "diagnostics": [d.as_dict() for d in result.collector.sorted()]}
        if args.dry_run:
            out["would_send"] = result.would_send
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return code
    write_findings(result.collector, "text", sys.stdout, quiet=args.quiet, statistics=False)
    if not args.quiet:
        done = f"would send {plural(result.pending, 'URL')}" if args.dry_run else \
            f"{plural(result.accepted, 'URL')} of {result.pending:,} pending accepted"
        sys.stderr.write(f"{done}; {counts_line(result.collector)}\n")
    return code


def _print(url: str) -> None:
    sys.stdout.write(url + "\n")  # (a dry run's URLs, as they are read)


def _show_progress(progress: SubmitProgress) -> None:
    sys.stderr.write(f"\r\033[Ksitemap-ext: {progress.accepted:,} of {progress.pending:,} URLs accepted, "
                     f"{progress.seconds:.0f} s")
    sys.stderr.flush()
