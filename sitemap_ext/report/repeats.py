"""One finding repeated on many entries of a file, said once in the text output.

A generator that writes one wrong value on every entry (a lastmod of ``2026-13-01``, a
priority of ``2``) gives one finding per entry: 5,000 lines that say one thing. The text
format says it once, at its first place, with how many more entries of the file have it
and where the next few are. The same finding is the same code, file, message (which
quotes the offending value) and suggestion (the fix); a finding about a URL that names
the URL in its message is never the same as another's. JSON, SARIF, CSV and GitHub
keep one record per place (their readers count and filter them).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..diagnostics import Diagnostic

# A finding repeated on more entries than this is said once (three lines of it say as much).
MIN_REPEATS = 4
_LINES_SHOWN = 3  # the next places named after the first


def _key(diag: Diagnostic) -> tuple[str | None, str, str, str | None]:
    return diag.file, diag.code, diag.message, diag.suggestion


def repeats(diagnostics: Iterable[Diagnostic]) -> tuple[dict[int, list[Diagnostic]], set[int]]:
    """The findings said once (by ``id``: the others of its kind) and those not said
    (the others, by ``id``): only where one finding stands on at least ``MIN_REPEATS``
    entries of one file."""
    groups: dict[tuple[str | None, str, str, str | None], list[Diagnostic]] = {}
    for diag in diagnostics:
        if diag.file is not None and diag.line is not None:
            groups.setdefault(_key(diag), []).append(diag)
    said: dict[int, list[Diagnostic]] = {}
    hidden: set[int] = set()
    for group in groups.values():
        if len(group) >= MIN_REPEATS:
            said[id(group[0])] = group[1:]
            hidden.update(id(diag) for diag in group[1:])
    return said, hidden


def more_line(others: list[Diagnostic]) -> str:
    """``    ... and on 4,999 more entries of this file (lines 4, 5, 6, ...)``."""
    lines = ", ".join(str(diag.line) for diag in others[:_LINES_SHOWN])
    more = ", ..." if len(others) > _LINES_SHOWN else ""
    entries = "entry" if len(others) == 1 else "entries"
    return f"    ... and on {len(others):,} more {entries} of this file (lines {lines}{more})\n"


__all__ = ["MIN_REPEATS", "more_line", "repeats"]
