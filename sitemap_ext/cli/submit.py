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


def add(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]  # (argparse's private class)
    verb = verbs.add_parser("submit", help="submit the URLs a build added or changed by IndexNow")
    verb.add_argument("site", nargs="?", metavar="SITE.yaml", help="the site description whose build state to read")
    verb.add_argument("--indexnow", required=True, metavar="KEY",
                      help="your IndexNow key (8-128 characters a-z A-Z 0-9 -), served as KEY.txt at each host's root")
    verb.add_argument("--state", metavar="FILE", help="the build state to read (default: SITE.yaml's)")
    verb.add_argument("-o", "--out", metavar="DIR", help="the site's output folder (default: output.dir)")
    verb.add_argument("--endpoint", default=DEFAULT_ENDPOINT, metavar="URL",
                      help=f"the engine's IndexNow endpoint (default {DEFAULT_ENDPOINT}; one engine shares with the "
                      "others)")
    verb.add_argument("--key-location", metavar="PATH|URL",
                      help="where the key file is, when not at each host's root: a path (/keys/KEY.txt) is that path "
                      "on every host, sent as each host's keyLocation; a URL is used for its own host only, and "
                      "every other host's key file is looked for at its root")
    verb.add_argument("--dry-run", action="store_true", help="list what would be sent; send and record nothing")
    verb.add_argument("--timeout", type=float, default=15.0, metavar="SECONDS",
                      help="to connect, and between two chunks of an answer (default 15)")
    verb.add_argument("--allow-private", action="store_true",
                      help="reach loopback and private addresses too (a local endpoint or key file)")
    verb.add_argument("--format", choices=("text", "json"), default="text")
    verb.add_argument("-q", "--quiet", action="store_true", help="no summary")


def run(args: argparse.Namespace) -> int:
    problem = key_problem(args.indexnow)
    if problem is None and args.site is None and args.state is None:
        problem = "give SITE.yaml, --state FILE, or both"
    if problem is None and not args.endpoint.startswith(("http://", "https://")):
        problem = f"--endpoint {args.endpoint!r} is no http(s) URL"
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
    result = submit(args.indexnow, site=args.site, state=args.state, out_dir=args.out, endpoint=args.endpoint,
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
