"""sitemap-ext build SITE.yaml: write the sitemaps, atomically."""

from __future__ import annotations

import argparse
import sys

from ..dates import format_instant, parse_now
from ..report.formats import (
    EXIT_IO,
    EXIT_USAGE,
    clock_json,
    counts_line,
    exit_code,
    hidden_unread_line,
    plural,
    visible,
    write_clock,
    write_findings,
    write_json,
    write_step_summary,
)
from ..rules import config
from ..rules.config import ConfigError, Policy
from ..write.build import BuildResult, Progress, build


def run(args: argparse.Namespace) -> int:
    if args.now is not None and parse_now(args.now) is None:
        sys.stderr.write(f"sitemap-ext build: --now '{visible(args.now)}' is not a W3C date or date-time "
                         "(2026-11-21T09:00:00Z)\n")
        return EXIT_USAGE
    try:
        policy = load_policy(args)
    except ConfigError as exc:
        sys.stderr.write(f"sitemap-ext build: {exc}\n")
        return EXIT_USAGE
    show = sys.stderr.isatty() and not args.quiet
    if getattr(args, "dask", None) is not None:
        on_dask = _on_dask(args, policy)
        if isinstance(on_dask, int):
            return on_dask
        result = on_dask
    else:
        result = build(args.site, args.out, gzip=args.gzip, now=args.now, engine=args.engine, strict=args.strict,
                       jobs=args.jobs, progress=_show_progress if show else None, allow_read=args.allow_read,
                       max_per_code=args.max_per_code or None, policy=policy, state=args.state)
    if show:
        sys.stderr.write("\r\033[K")  # clear the progress line
    collector = result.collector
    code = exit_code(collector, args.strict, exit_zero=args.exit_zero)
    built = f"{plural(result.urls, 'URL')} in {plural(len(result.files), 'file')}"
    write_step_summary(collector, "build", f"{args.site}: {built}")
    files = [f.as_dict() for f in result.files]
    if args.format == "json":
        write_json(collector, sys.stdout, files, output=result.out_dir, urls=result.urls, ok=code == 0,
                   removed=result.removed, now=clock_json(*_clock(result)))
        return code
    if args.format == "html":
        from ..report.html import write_html  # (here: it loads diff's and the checker's modules)

        write_html(collector, sys.stdout, title=f"sitemap-ext build {args.site}", read=built,
                   clock=_clock_text(result), quiet=args.quiet)
    else:
        write_findings(collector, args.format, sys.stdout, quiet=args.quiet, statistics=args.statistics)
    if not args.quiet:
        _summary(result)
    return code


def _on_dask(args: argparse.Namespace, policy: Policy) -> BuildResult | int:
    """The build on the Dask cluster ``--dask`` names; an exit code when it cannot run
    (2: no dask installed, a setting it does not support; 3: no scheduler reached)."""
    from ..dask_build.driver import NoDask, build_on_dask, close, connect  # (only --dask loads it, and dask)
    from ..dask_build.steps import DaskUnsupported

    try:
        client = connect(args.dask)
    except NoDask as exc:
        sys.stderr.write(f"sitemap-ext build: {exc}\n")
        return EXIT_USAGE
    except OSError as exc:
        sys.stderr.write(f"sitemap-ext build: {exc}\n")
        return EXIT_IO
    try:
        return build_on_dask(args.site, args.out, gzip=args.gzip, now=args.now, strict=args.strict,
                             allow_read=args.allow_read, max_per_code=args.max_per_code or None, policy=policy,
                             state=args.state, client=client)
    except DaskUnsupported as exc:
        sys.stderr.write(f"sitemap-ext build: {exc}\n")
        return EXIT_USAGE
    finally:
        close(client, args.dask == "local")


def _summary(result: BuildResult) -> None:
    """What was written (or why nothing was), on stderr."""
    collector = result.collector
    unread = hidden_unread_line(collector)
    if unread:
        sys.stderr.write(f"{unread}: a build that did not read all its input writes nothing\n")
    if result.recovered:
        sys.stderr.write(f"finished the commit of an earlier build into {result.out_dir} that was stopped "
                         "part-way\n")
    if result.files:
        for f in result.files:
            what = plural(f.urls, "URL") if f.kind in ("urlset", "text") else (
                plural(f.urls, "sitemap") if f.kind == "index" else
                "HTML view" if f.kind == "html" else "stylesheet" if f.kind == "xsl" else
                f"Link headers of {plural(f.urls, 'file')}" if f.kind == "headers" else "robots.txt line")
            sys.stderr.write(f"wrote {result.out_dir}/{f.name}  {what}, {f.bytes:,} bytes\n")
        for name in result.removed:
            sys.stderr.write(f"removed {result.out_dir}/{name}  (written by this site's last build, not now)\n")
        if result.state is not None:
            sys.stderr.write(f"kept the build state in {result.state}\n")
        sys.stderr.write(f"built {plural(result.urls, 'URL')} into {plural(len(result.files), 'file')}; "
                         f"{counts_line(collector)}\n")
        write_clock(*_clock(result))
    else:
        if result.partial:
            sys.stderr.write(f"the commit stopped part-way ({counts_line(collector)}); the next build into "
                             f"{result.out_dir} finishes it\n")
        else:
            sys.stderr.write(f"nothing written ({counts_line(collector)}); the output folder is unchanged\n")


def load_policy(args: argparse.Namespace) -> Policy:
    """The policy a build runs with, made as check makes it (rules.config.load_policy).
    Raises ConfigError."""
    return config.load_policy(getattr(args, "config", None), getattr(args, "no_config", False),
                              getattr(args, "select", []), getattr(args, "ignore", []),
                              getattr(args, "severity", []))[0]


def _show_progress(progress: Progress) -> None:
    rate = progress.urls / progress.seconds if progress.seconds > 0 else 0.0
    line = f"sitemap-ext: {progress.urls:,} URLs, {progress.files} files done, {rate:,.0f} URLs/s"
    if progress.fraction:
        remaining = progress.seconds * (1 - progress.fraction) / progress.fraction
        line += f", {progress.fraction:.0%}, about {remaining:.0f} s to go"
    sys.stderr.write("\r\033[K" + line)
    sys.stderr.flush()


def _clock(result: BuildResult) -> tuple[float | None, str]:
    return (None, "") if result.site is None else (result.site.now, result.site.clock)


def _clock_text(result: BuildResult) -> str | None:
    now, source = _clock(result)
    return None if now is None else f"{format_instant(now)} (from {source})"
