"""sitemap-ext check PATH...: every rule on site descriptions and sitemaps; writes nothing."""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections import Counter
from typing import Any

from ..checker.check import CheckResult
from ..checker.given import check
from ..codes import REGISTRY
from ..dates import format_instant, parse_now
from ..diagnostics import Collector
from ..limits import MAX_BYTES_PER_FILE
from ..read.http_types import FetchOptions, LiveUnavailable, seconds
from ..report import baseline
from ..report.baseline import BaselineError
from ..report.formats import (
    EXIT_IO,
    EXIT_USAGE,
    clock_json,
    counts_line,
    exit_code,
    hidden_unread_line,
    plural,
    read_line,
    visible,
    write_clock,
    write_findings,
    write_json,
    write_step_summary,
)
from ..rules.config import ConfigError, Policy, load_policy


def stderr_progress(message: str) -> None:
    """Progress of a live check on one line of a terminal (a line each time elsewhere)."""
    if sys.stderr.isatty():
        sys.stderr.write("\r" + message.ljust(79)[:79] + ("\n" if " fetched in " in message else ""))
    else:
        sys.stderr.write(message + "\n")
    sys.stderr.flush()


class Usage(Exception):
    """A command line this command cannot run; the message says why."""


def _usage_errors(args: argparse.Namespace) -> tuple[type[Exception], ...]:
    """The exceptions that say this command line cannot run (exit 2)."""
    usage: tuple[type[Exception], ...] = (Usage, LiveUnavailable, BaselineError)
    if args.memory_budget is not None:
        from ..rules.spill import BudgetTooSmall  # (loaded only for a check given a budget)

        usage += (BudgetTooSmall,)
    if args.dask is not None:
        from ..checker.on_dask import DaskUnsupportedCheck  # (loaded only for a check on Dask)
        from ..dask_build.driver import NoDask

        usage += (NoDask, DaskUnsupportedCheck)
    return usage


def run(args: argparse.Namespace) -> int:
    usage = _usage_errors(args)
    try:
        policy, cross_submitted = policy_of(args)
        fetch = fetch_options(args)
        known = _baseline_path(args)
        paths = [_stdin() if path == "-" else path for path in args.paths]
        result = _check(args, paths, now=args.now, base_urls=args.base_url, jobs=args.jobs, policy=policy,
                        cross_submitted=cross_submitted, allow_read=args.allow_read,
                        max_per_code=None if args.baseline else args.max_per_code or None,
                        only_site_yaml=args.only_site_yaml,
                        coverage=_coverage(args.format), html=args.html, fetch=fetch,
                        pages=args.pages, delay=args.delay, progress=None if args.quiet else stderr_progress,
                        memory_budget=args.memory_budget)
    except usage as exc:
        # (a value echoed shows its line breaks as escapes)
        sys.stderr.write(f"sitemap-ext check: {visible(str(exc))}\n")
        return EXIT_USAGE
    collector = result.collector
    unwritten = None  # (a baseline that could not be written: the findings are still shown, then exit 3)
    try:
        fixed = _baseline(args, collector, known)
    except BaselineError as exc:
        fixed, unwritten = None, str(exc)
    code = EXIT_IO if unwritten else exit_code(collector, args.strict, exit_zero=args.exit_zero)
    counts = result.counts  # (one count of what was read, said alike by every format)
    write_step_summary(collector, "check", f"checked {read_line(counts)}")
    try:
        # (closed in the finally below unless it is stdout, so no `with`)
        out = open(args.output, "w", encoding="utf-8", newline="") if args.output else sys.stdout  # noqa: SIM115
    except OSError as exc:
        sys.stderr.write(f"sitemap-ext check: cannot write {args.output}: {exc.strerror or exc}\n")
        return EXIT_IO
    try:
        if args.format == "json":
            write_json(collector, out, result.files, counts=counts.as_dict(), ok=code == 0,
                       skipped=result.skipped, now=clock_json(result.now, result.clock))
            return code
        if args.format == "html":
            from ..report.html import write_html  # (the HTML report loads diff's modules: only for it)

            clock = None if result.now is None else f"{format_instant(result.now)} (from {result.clock})"
            write_html(collector, out, title="sitemap-ext check " + " ".join(args.paths), read=read_line(counts),
                       coverage=result.coverage, clock=clock, quiet=args.quiet)
        else:
            write_findings(collector, args.format, out, quiet=args.quiet, statistics=args.statistics)
    finally:
        if out is not sys.stdout:
            out.close()
    if not args.quiet:
        _summary(result)
        if fixed is not None:
            sys.stderr.write(fixed + "\n")
    if unwritten:
        sys.stderr.write(f"sitemap-ext check: {unwritten}\n")
    return code


def _check(args: argparse.Namespace, paths: list[str | io.BytesIO], **given: Any) -> CheckResult:
    """The check, on the Dask cluster --dask names when it is given (its client closed,
    and the cluster with it when it is this machine's); a scheduler that cannot be
    reached is F101 (exit 3), as an input that cannot be read."""
    if args.dask is None:
        return check(paths, **given)
    from ..checker.given import cannot_judge, refuse_unseen
    from ..dask_build.driver import close, connect

    refuse_unseen(paths)  # (before a cluster is started for inputs it cannot take)
    try:
        client = connect(args.dask, "--dask")
    except OSError as exc:
        return cannot_judge(REGISTRY, given["policy"], given["max_per_code"], args.dask,
                            f"{exc}; check the scheduler's address (host:port), or check without --dask")
    try:
        return check(paths, client=client, **given)
    finally:
        close(client, args.dask == "local")


def _coverage(format_name: str) -> int:
    """The clusters whose hreflang coverage is kept for the report: the HTML report's
    rows, none for another format."""
    if format_name != "html":
        return 0
    from ..report.html import COVERAGE_ROWS

    return COVERAGE_ROWS


class _Input(io.BytesIO):
    """Standard input, read (as far as the protocol's limit and a byte more, so that
    X109 still says so) and named as findings name it."""

    name = "<stdin>"


def _stdin() -> _Input:
    return _Input(sys.stdin.buffer.read(MAX_BYTES_PER_FILE + 1))


def _baseline_path(args: argparse.Namespace) -> Counter[str] | None:
    """The baseline's findings, read before the check runs (None: none to read, it is
    to be written); ``BaselineError`` for --baseline-update without --baseline, or a
    --baseline that cannot be one (a folder, a FIFO, a folder that does not exist, a
    file that is no baseline), so that a long check does not end in a usage error."""
    if args.baseline is None:
        if args.baseline_update:
            raise BaselineError("--baseline-update goes with --baseline FILE")
        return None
    baseline.usable(args.baseline, writing=args.baseline_update)
    if args.baseline_update or not os.path.exists(args.baseline):
        return None
    return baseline.read(args.baseline)


def _baseline(args: argparse.Namespace, collector: Collector, known: Counter[str] | None) -> str | None:
    """--baseline FILE: a FILE that does not exist (or --baseline-update) is written with
    the findings, which then pass as known; else only findings not in it stay in the
    collector. Findings that say an input was not read are never written nor hidden
    (``baseline.never_baselined``): they stay, with their exit code. A line for the
    summary; None without --baseline."""
    if args.baseline is None:
        return None
    root = os.path.dirname(os.path.abspath(args.baseline))
    unread = sum(baseline.never_baselined(d.code) for d in collector.diagnostics)
    kept = (f"; {plural(unread, 'finding')} saying an input was not read "
            f"{'is' if unread == 1 else 'are'} never baselined") if unread else ""
    if known is None:
        taken = _taken_in(args, collector, root)
        count = baseline.write(args.baseline, collector.diagnostics, root)
        collector.forget([d for d in collector.diagnostics if not baseline.never_baselined(d.code)])
        if taken:
            sys.stderr.write(f"sitemap-ext check: {taken}\n")  # (said with -q too: it hides findings for good)
        return f"wrote {plural(count, 'finding')} to the baseline {args.baseline}; they pass from now on{kept}"
    split = baseline.against(collector.diagnostics, known, root)
    new = {id(d) for d in split.new}
    collector.forget([d for d in collector.diagnostics if id(d) not in new])
    fixed = sum(split.fixed.values())
    line = f"baseline {args.baseline}: {plural(split.known, 'known finding')} not shown{kept}"
    if fixed:
        line += (f"; {plural(fixed, 'finding')} of it fixed: shrink it with --baseline-update")
    return line


def _taken_in(args: argparse.Namespace, collector: Collector, root: str) -> str | None:
    """--baseline-update over a baseline: the findings it takes in that the previous one
    did not hold (new errors and warnings, unshown), said so that an update never
    hides a new defect unseen; None when it takes in nothing new. A previous file that
    cannot be read is written anew, as before, and said."""
    if not args.baseline_update or not os.path.exists(args.baseline):
        return None
    try:
        previous = baseline.read(args.baseline)
    except BaselineError as exc:
        return f"{exc}; every finding is taken into the baseline as new"
    fresh = [d for d in baseline.split(collector.diagnostics, previous, root).new
             if not baseline.never_baselined(d.code)]
    if not fresh:
        return None
    by_severity = Counter(d.severity.value for d in fresh)
    kinds = ", ".join(plural(by_severity[level], level) for level in ("error", "warning", "info") if by_severity[level])
    return (f"--baseline-update took {plural(len(fresh), 'new finding')} into {args.baseline} ({kinds}), "
            "not shown and passing from now on; review them in its diff, or run without --baseline-update to see "
            "them")


def policy_of(args: argparse.Namespace) -> tuple[Policy, list[str]]:
    """The policy (config file, --select, --ignore, --severity) and the cross-submitted
    hosts; ``Usage`` for --now, --base-url or settings that cannot be used."""
    if args.now is not None and parse_now(args.now) is None:
        raise Usage(f"--now '{args.now}' is not a W3C date or date-time (2026-11-21T09:00:00Z)")
    for mapping in args.base_url:
        if "=" not in mapping:
            raise Usage(f"--base-url takes URL=DIR, not '{mapping}'")
    try:
        policy, settings = load_policy(args.config, args.no_config, args.select, args.ignore, args.severity)
    except ConfigError as exc:
        raise Usage(str(exc)) from exc
    return policy, [*settings.cross_submitted, *args.cross_submitted]


def fetch_options(args: argparse.Namespace) -> FetchOptions:
    """How a live check fetches (--header, --timeout, --delay, --cache, --allow-private)."""
    headers = []
    for header in args.header:
        name, colon, value = header.partition(":")
        if not colon or not name.strip() or any(c in header for c in "\r\n"):
            raise Usage(f"--header takes 'NAME: VALUE', not '{header}'")
        headers.append((name.strip(), value.strip()))
    try:
        seconds("--delay", args.delay)
        return FetchOptions(timeout=seconds("--timeout", args.timeout, zero=False), headers=tuple(headers),
                            allow_private=args.allow_private, cache=args.cache)
    except ValueError as exc:
        raise Usage(str(exc).replace("the cache", "--cache")) from exc


def _summary(result: CheckResult) -> None:
    """The line on stderr that says what was checked and found, and the clock."""
    collector = result.collector
    extra = ""
    if result.skipped:
        extra += (f"; skipped {plural(len(result.skipped), 'file')} that "
                  f"{'holds' if len(result.skipped) == 1 else 'hold'} no sitemap or feed")
    unread = hidden_unread_line(collector)
    if unread:
        extra += f"; {unread}"
    elif collector.ignored:
        extra += f"; {plural(sum(collector.ignored.values()), 'finding')} not shown by --select/--ignore"
    sys.stderr.write(f"checked {read_line(result.counts)}; "
                     f"{counts_line(collector)}{extra}\n")
    write_clock(result.now, result.clock)
