"""sitemap-ext check PATH...: every rule on site descriptions and sitemaps; writes nothing."""

from __future__ import annotations

import argparse
import sys

from ..api import check
from ..read.http import FetchOptions, LiveUnavailable, seconds
from ..rules.config import ConfigError, find_config, load_settings, make_policy, parse_severities, split_codes
from ..dates import format_instant, parse_now
from ..report.html import COVERAGE_ROWS, write_html
from ..report.formats import (EXIT_IO, EXIT_USAGE, clock_json, counts_line, exit_code, plural, write_clock, write_diagnostics, write_json, write_step_summary)


def stderr_progress(message: str) -> None:
    """Progress of a live check on one line of a terminal (a line each time elsewhere)."""
    if sys.stderr.isatty():
        sys.stderr.write("\r" + message.ljust(79)[:79] + ("\n" if " fetched in " in message else ""))
    else:
        sys.stderr.write(message + "\n")
    sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    if args.now is not None and parse_now(args.now) is None:
        sys.stderr.write(f"sitemap-ext check: --now '{args.now}' is not a W3C date or date-time "
                         "(2026-11-21T09:00:00Z)\n")
        return EXIT_USAGE
    for mapping in args.base_url:
        if "=" not in mapping:
            sys.stderr.write(f"sitemap-ext check: --base-url takes URL=DIR, not '{mapping}'\n")
            return EXIT_USAGE
    try:
        settings = load_settings(None if args.no_config else args.config or find_config())
        severity = {**settings.severity, **parse_severities(args.severity)}
        select = split_codes(args.select) or split_codes(settings.select)
        policy = make_policy(select, split_codes(settings.ignore) + split_codes(args.ignore), severity)
    except ConfigError as exc:
        sys.stderr.write(f"sitemap-ext check: {exc}\n")
        return EXIT_USAGE
    headers = []
    for header in args.header:
        name, colon, value = header.partition(":")
        if not colon or not name.strip() or any(c in header for c in "\r\n"):
            sys.stderr.write(f"sitemap-ext check: --header takes 'NAME: VALUE', not '{header}'\n")
            return EXIT_USAGE
        headers.append((name.strip(), value.strip()))
    try:
        seconds("--delay", args.delay)
        fetch = FetchOptions(timeout=seconds("--timeout", args.timeout, zero=False), headers=tuple(headers),
                             allow_private=args.allow_private, cache=args.cache)
    except ValueError as exc:
        sys.stderr.write(f"sitemap-ext check: {str(exc).replace('the cache', '--cache')}\n")
        return EXIT_USAGE
    try:
        result = check(args.paths, now=args.now, base_urls=args.base_url, jobs=args.jobs, policy=policy,
                       cross_submitted=[*settings.cross_submitted, *args.cross_submitted], allow_read=args.allow_read,
                       max_per_code=args.max_per_code or None, only_site_yaml=args.only_site_yaml,
                       coverage=COVERAGE_ROWS if args.format == "html" else 0, html=args.html, fetch=fetch,
                       pages=args.pages, delay=args.delay, progress=None if args.quiet else stderr_progress)
    except LiveUnavailable as exc:
        sys.stderr.write(f"sitemap-ext check: {exc}\n")
        return EXIT_USAGE
    collector = result.collector
    code = exit_code(collector, args.strict)
    write_step_summary(collector, "check", f"{plural(len(result.files), 'file')} checked")
    try:
        out = open(args.output, "w", encoding="utf-8", newline="") if args.output else sys.stdout
    except OSError as exc:
        sys.stderr.write(f"sitemap-ext check: cannot write {args.output}: {exc.strerror or exc}\n")
        return EXIT_IO
    try:
        if args.format == "json":
            write_json(collector, out, result.files, ok=code == 0, skipped=result.skipped,
                       now=clock_json(result.now, result.clock))
            return code
        if args.format == "html":
            clock = None if result.now is None else f"{format_instant(result.now)} (from {result.clock})"
            write_html(collector, out, title="sitemap-ext check " + " ".join(args.paths), files=result.files,
                       coverage=result.coverage, clock=clock, quiet=args.quiet)
        else:
            write_diagnostics(collector, args.format, out, quiet=args.quiet)
    finally:
        if out is not sys.stdout:
            out.close()
    if not args.quiet:
        urls = sum(int(str(f.get("urls", 0))) for f in result.files if f.get("kind") not in ("sitemapindex", "html"))
        extra = ""
        if result.skipped:
            extra += f"; skipped {plural(len(result.skipped), 'file')} that hold no sitemap or feed"
        if collector.ignored:
            extra += f"; {plural(sum(collector.ignored.values()), 'finding')} not shown by --select/--ignore"
        sys.stderr.write(f"checked {len(result.files)} files, {urls:,} URLs; {counts_line(collector)}{extra}\n")
        write_clock(result.now, result.clock)
    return code

