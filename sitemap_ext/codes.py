"""The registry of diagnostic codes: ``code_table.TABLE`` as ``Code`` entries.

The table (``code_table.py``) is the one list of codes; the catalogue in specs/
mirrors it. This module imports the table and ``diagnostics`` only, never a module
that reports a code, so a build, the check, the API and the command line take the
registry from here at the cost of reading one table.

A removed code (stage ``removed``) stays in the table so that it is never reused, and
is left out of the registry: nothing can report it, and ``sitemap-ext rules`` does not
list it.
"""

from __future__ import annotations

from .code_table import FLAGS, REMOVED, SEVERITIES, STAGES, TABLE
from .diagnostics import Code, Severity


def _entry(code: str, severity: str, name: str, stage: str, flags: str, summary: str) -> Code:
    if severity not in SEVERITIES or stage not in STAGES or not set(flags.split()) <= set(FLAGS):
        raise RuntimeError(f"code_table: {code} has a severity, stage or flag it does not define")
    return Code(code, Severity(severity), name, summary, io="io" in flags.split(),
                unread="unread" in flags.split(), stage=stage)


# Every code ever given a meaning, removed ones included: none may be given another.
ALL: dict[str, Code] = {row[0]: _entry(*row) for row in TABLE}

# The codes that can be reported, in the table's order (the catalogue's).
REGISTRY: dict[str, Code] = {code: entry for code, entry in ALL.items() if entry.stage != REMOVED}

if len(ALL) != len(TABLE):  # pragma: no cover - guards the table
    raise RuntimeError("code_table: a diagnostic code is listed twice")
