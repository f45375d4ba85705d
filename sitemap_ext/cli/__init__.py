"""sitemap-ext: the command line. Only this package prints and exits.

Exit codes: 0 no errors (warnings allowed), 1 errors (or warnings with
--strict; for diff: a failed guard), 2 usage error, 3 input/output failure.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..report.formats import EXIT_USAGE
from .options import VERBS, parser


def main(argv: Sequence[str] | None = None) -> int:
    # (Each verb's module is imported when that verb runs, and every verb's arguments are
    # in options.py: a build does not load the checker, diff or live HTTP, nor --version
    # any verb's module, which were most of their start-up time.)
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser(argv[0] if argv and argv[0] in VERBS else None).parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
    if args.verb in ("build", "check", "diff"):
        from ..dates import ClockError, default_clock

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
