"""The command line's arguments: every verb's options, help and usage errors, in one
module that imports no verb's own (``--version``, ``--help`` and a verb's parse load
nothing of what any verb runs)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._version import __version__
from ..limits import MAX_STORED_PER_CODE
from ..report.formats import EXIT_USAGE, FORMATS

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
        _diff_verb(verbs, NOW_HELP)
    if only in (None, "submit"):
        _submit_verb(verbs)
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
    check.add_argument("--dask", nargs="?", const="local", default=None, metavar="SCHEDULER",
                       help="read and judge the files on a Dask cluster's workers (they read them by their paths: "
                       "shared storage): a scheduler's address, or local (the default) for one on this machine's "
                       "cores; the findings are the same, --jobs is not used (pip install 'sitemap-ext[dask]')")
    check.add_argument("--cross-submitted", action="append", default=[], metavar="HOST",
                       help="a host whose robots.txt lists these sitemaps: they may list its URLs (repeatable)")
    check.add_argument("--allow-read", action="append", default=[], metavar="DIR", help=allow)
    check.add_argument("--max-per-code", type=_count, default=MAX_STORED_PER_CODE, metavar="N", help=per_code)
    check.add_argument("--memory-budget", type=_size, default=None, metavar="SIZE",
                       help="keep the check's main process within SIZE (512M, 2G): near it, the index of every "
                       "entry and alternate spills to a private temporary folder (TMPDIR), removed at the end; the "
                       "findings are the same (default: all in memory)")
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


def _size(text: str) -> int:
    from ..rules.spill import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number (0 for all)")
    return int(text)


def _diff_verb(verbs: Any, now_help: str) -> None:
    """The diff verb's arguments."""
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


def _submit_verb(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]  # (argparse's private class)
    verb = verbs.add_parser("submit", help="submit the URLs a build added or changed by IndexNow")
    verb.add_argument("site", nargs="?", metavar="SITE.yaml", help="the site description whose build state to read")
    verb.add_argument("--indexnow", required=True, metavar="KEY",
                      help="your IndexNow key (8-128 characters a-z A-Z 0-9 -), served as KEY.txt at each host's root")
    verb.add_argument("--state", metavar="FILE", help="the build state to read (default: SITE.yaml's)")
    verb.add_argument("-o", "--out", metavar="DIR", help="the site's output folder (default: output.dir)")
    verb.add_argument("--endpoint", metavar="URL",  # (None: submit.DEFAULT_ENDPOINT, which loads with the verb)
                      help="the engine's IndexNow endpoint (default https://api.indexnow.org/indexnow; one engine "
                      "shares with the others)")
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
