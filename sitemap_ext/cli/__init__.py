"""sitemap-ext: the command line. Only this package prints and exits.

Exit codes: 0 no errors (warnings allowed), 1 errors (or warnings with
--strict; for diff: a failed guard), 2 usage error, 3 input/output failure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .._version import __version__
from ..dates import ClockError, default_clock
from ..limits import MAX_STORED_PER_CODE
from ..report.formats import EXIT_USAGE, FORMATS

# (Each verb's module is imported when that verb runs: a build does not load the
# checker, diff or live HTTP, which were most of its start-up time.)
VERBS = ("build", "check", "diff", "submit", "rules")

NOW_HELP = ("the instant dates are judged against, as a W3C date-time (default: SOURCE_DATE_EPOCH if set, else "
            "the system clock)")


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() returns the code."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only`` (a verb), that verb's alone (the same
    arguments, help and errors for a command line of that verb)."""
    top = _Parser(prog="sitemap-ext", description="Standards-exact XML sitemaps from a YAML site description, "
                  "and a strict checker for sitemaps that exist.")
    top.add_argument("--version", action="version", version=f"sitemap-ext {__version__}")
    verbs = top.add_subparsers(dest="verb", metavar="{build,check,diff,submit,rules}", parser_class=_Parser)

    if only in (None, "build"):
        _build_verb(verbs)
    if only in (None, "check"):
        _check_verb(verbs)
    if only in (None, "diff"):
        from . import diff as diff_cmd

        diff_cmd.add_parser(verbs, NOW_HELP)
    if only in (None, "submit"):
        from . import submit as submit_cmd

        submit_cmd.add(verbs)
    if only in (None, "rules"):
        rules = verbs.add_parser("rules", help="list every diagnostic code, or explain one")
        rules.add_argument("names", nargs="*", metavar="CODE|NAME",
                           help="a code (H104), a prefix (H1) or a rule name (hreflang-no-return): explain it")
        rules.add_argument("--format", choices=("text", "json"), default="text")
    return top


def _build_verb(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]  # (argparse's private class)
    build = verbs.add_parser("build", help="write the sitemaps of a site description")
    build.add_argument("site", metavar="SITE.yaml")
    build.add_argument("-o", "--out", metavar="DIR", help="output folder (default: output.dir, else ./sitemaps)")
    build.add_argument("--gzip", action="store_true", default=None, help="write .xml.gz files")
    build.add_argument("--now", metavar="ISO8601", help=NOW_HELP)
    build.add_argument("--format", choices=FORMATS, default="text")
    build.add_argument("--strict", action="store_true", help="fail (exit 1) on warnings too")
    build.add_argument("--engine", choices=("fast", "lxml"), default="fast",
                       help="deprecated since 0.4, going in 0.5: one writer writes every file (both values give "
                       "its bytes)")
    build.add_argument("--jobs", type=int, choices=range(1, 65), default=None, metavar="N",
                       help="processes sharing a large source (default: one per core, at most 4; "
                       "sources under 4 MiB take one): each renders a part of it; the output is the same")
    build.add_argument("--dask", nargs="?", const="local", default=None, metavar="SCHEDULER",
                       help="build on a Dask cluster: a scheduler's address, or local (the default) for one on "
                       "this machine's cores (pip install 'sitemap-ext[dask]')")
    build.add_argument("--state", metavar="FILE",
                       help="keep the build state (each URL's content digest and dates, for lastmod: content and "
                       "submit) in FILE (default: output.state)")
    allow = ("a folder besides the site description's own that its sources and includes may come from "
             "(repeatable)")
    build.add_argument("--allow-read", action="append", default=[], metavar="DIR", help=allow)
    per_code = f"findings kept per code (default {MAX_STORED_PER_CODE:,}; 0: all); the rest are counted"
    build.add_argument("--max-per-code", type=_count, default=MAX_STORED_PER_CODE, metavar="N", help=per_code)
    _findings_options(build)


def _check_verb(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]  # (argparse's private class)
    allow = ("a folder besides the site description's own that its sources and includes may come from "
             "(repeatable)")
    per_code = f"findings kept per code (default {MAX_STORED_PER_CODE:,}; 0: all); the rest are counted"
    check = verbs.add_parser("check", help="run every rule on site descriptions or sitemaps; write nothing")
    check.add_argument("paths", nargs="+", metavar="PATH")
    check.add_argument("--format", choices=FORMATS, default="text",
                       help="text (default), json, github, csv, sarif, or html (one self-contained report with "
                       "the hreflang coverage picture)")
    check.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout")
    check.add_argument("--html", choices=("on", "drop-ext", "off"), default="on",
                       help="built HTML pages in the inputs: judge their hreflang links with the sitemaps (on, the "
                       "default: index.html is its folder's URL; drop-ext: and pages are served without .html) "
                       "or skip them (off); a page's URL comes from --base-url")
    check.add_argument("--strict", action="store_true", help="fail (exit 1) on warnings too")
    check.add_argument("--now", metavar="ISO8601", help=NOW_HELP)
    check.add_argument("--baseline", metavar="FILE",
                       help="report only findings not in FILE (a baseline of known ones), and those fixed; a FILE "
                       "that does not exist is written with the current findings")
    check.add_argument("--baseline-update", action="store_true",
                       help="with --baseline: write FILE anew with the current findings (it shrinks as they are fixed)")
    check.add_argument("--base-url", action="append", default=[], metavar="URL=DIR",
                       help="serve DIR at URL when following an index to its sitemaps (repeatable)")
    check.add_argument("--jobs", type=int, choices=range(1, 65), default=None, metavar="N",
                       help="processes reading files (default: one per core, at most 4); the findings are the same")
    check.add_argument("--cross-submitted", action="append", default=[], metavar="HOST",
                       help="a host whose robots.txt lists these sitemaps: they may list its URLs (repeatable)")
    check.add_argument("--allow-read", action="append", default=[], metavar="DIR", help=allow)
    check.add_argument("--max-per-code", type=_count, default=MAX_STORED_PER_CODE, metavar="N", help=per_code)
    check.add_argument("--only-site-yaml", action="store_true",
                       help="skip YAML files without a top-level site: key instead of judging them as site "
                       "descriptions (for pre-commit, which passes every changed YAML file)")
    live = check.add_argument_group("a live site (PATH is a URL: a site, its robots.txt, a sitemap or an index)")
    live.add_argument("--pages", type=_pages, default=0, metavar="N|all",
                      help="also fetch the heads of up to N listed URLs and alternates (or all) and judge them "
                      "with the sitemaps: status, redirects, noindex, canonical, hreflang (default: 0)")
    live.add_argument("--delay", type=float, default=0.0, metavar="SECONDS",
                      help="wait this long between two page requests to one host (politeness; default 0)")
    live.add_argument("--header", action="append", default=[], metavar="'NAME: VALUE'",
                      help="send this header with every request (a staging site's authentication; repeatable)")
    live.add_argument("--timeout", type=float, default=15.0, metavar="SECONDS",
                      help="to connect, and between two chunks of an answer (default 15)")
    live.add_argument("--cache", metavar="DIR",
                      help="keep responses with their ETag / Last-Modified here: a second run asks conditionally")
    live.add_argument("--allow-private", action="store_true",
                      help="fetch from loopback and private addresses too (a local or staging server); refused by "
                      "default, so that a check run by a CI service cannot reach that service's network")
    _findings_options(check)


def _findings_options(verb: argparse.ArgumentParser) -> None:
    """What build and check share: which findings are shown and how (the policy, its
    config file, and the linters' conventions -q, --exit-zero, --statistics)."""
    verb.add_argument("-q", "--quiet", action="store_true", help="no summary, no info diagnostics")
    verb.add_argument("--exit-zero", action="store_true",
                      help="exit 0 even with errors (2 and 3 still say the command could not run)")
    verb.add_argument("--statistics", action="store_true",
                      help="print the count of findings per code instead of the findings (text format)")
    verb.add_argument("--select", action="append", default=[], metavar="CODES",
                      help="show only these codes, prefixes or rule names (comma-separated, repeatable)")
    verb.add_argument("--ignore", action="append", default=[], metavar="CODES",
                      help="do not show these codes, prefixes or rule names (still checked, and counted)")
    verb.add_argument("--severity", action="append", default=[], metavar="CODE=LEVEL",
                      help="report a code, prefix or rule name as error, warning or info (repeatable)")
    settings = verb.add_mutually_exclusive_group()
    settings.add_argument("--config", metavar="FILE", help="settings file (default: the first sitemap-ext.toml, "
                          "or pyproject.toml with [tool.sitemap-ext], from the working folder upward)")
    settings.add_argument("--no-config", action="store_true", help="read no settings file")


def _pages(text: str) -> int | str:
    if text == "all":
        return "all"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of pages or 'all', not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("a number of pages, 0 or more")
    return value


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number (0 for all)")
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser(argv[0] if argv and argv[0] in VERBS else None).parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
    if args.verb in ("build", "check", "diff"):
        try:
            default_clock()  # a SOURCE_DATE_EPOCH that is no count of seconds is a usage error
        except ClockError as exc:
            sys.stderr.write(f"sitemap-ext {args.verb}: {exc}\n")
            return EXIT_USAGE
    if args.verb == "build":
        from . import build as build_cmd

        return build_cmd.run(args)
    if args.verb == "check":
        from . import check as check_cmd

        return check_cmd.run(args)
    if args.verb == "diff":
        from . import diff as diff_cmd

        return diff_cmd.run(args)
    if args.verb == "rules":
        from . import rules as rules_cmd

        return rules_cmd.run(args)
    if args.verb == "submit":
        from . import submit as submit_cmd

        return submit_cmd.run(args)
    parser().print_help(sys.stderr)
    return EXIT_USAGE


def entry_point() -> None:
    from .heap import give_back_large_blocks  # (the process's, not main()'s: a library caller keeps its heap)

    give_back_large_blocks()
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (| head): not our failure
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    except KeyboardInterrupt:
        code = 130
    sys.exit(code)
