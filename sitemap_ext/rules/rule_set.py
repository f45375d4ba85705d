"""The rule set: every rule once, registered in this module with the codes it reports.

A rule is a function of a record (``record.py``) and a ``Context``; it never
knows which reader made the record. The registry is explicit (no discovery by
import): each rule module ends with its ``RULES`` (each rule's name, what it judges,
its codes, its function and the field it reads), and this module gathers them; each
code's severity, name and one-line summary are a row of ``code_table.py``. The rule's
docstring is its documentation, with its sources in the module's docstring and in
specs/rules.md. Adding a rule to a module is three files: that module (the function and
its line in ``RULES``), its codes' rows in ``code_table.py``, and specs/rules.md (its
text and its examples); a new module adds one line to ``RULES`` here. Adding a
reader is a module that yields records, and every rule then applies to it.

Codes a reader reports itself (a file it cannot read or parse) and codes the
cluster rules report once every file is read are listed too, so that every
checker code has one home (a test holds this list, the registry of codes and
specs/rules.md together).
"""

from __future__ import annotations

from . import credible, files, hreflang, locs, media, robots, structure, values
from .registry import Rule

# Each rule module's RULES, in this order: within a scope, rules run in it.
RULES: tuple[Rule, ...] = (
    *structure.RULES,
    *locs.RULES,
    *robots.RULES,
    *values.RULES,
    *hreflang.RULES,
    *media.RULES,
    *files.RULES,
    *credible.RULES,
)

# The entry rules, in order: the engine hands each a batch of entries (engine.py).
ENTRY_RULES = tuple(rule for rule in RULES if rule.scope == "entry")
# (rule, the field it reads): how a record is handed to the rules of its scope, so that
# a rule is not called for a record without the field it judges.
INDEX_DISPATCH = tuple((rule.check, rule.reads) for rule in RULES if rule.scope == "index")
FILE_RULES = tuple(rule.check for rule in RULES if rule.scope == "file")

# X108 is counted as entries are read (files.entry_count); the rest are the readers'
# (a file that cannot be read as a sitemap) and the cluster rules' (clusters.py).
COUNTED_CODES = ("X108",)
READER_CODES = ("F101", "F104", "F107", "H117", "H118", "H119", "H120", "H121", "L113", "U116", "X101", "X102", "X103",
                "X104", "X105", "X109", "X110", "X111", "X113", "X114", "X116", "X117", "X118")
# Codes of a check of a live site (the fetching and the pages it reads over HTTP).
LIVE_CODES = ("F106", "R101", "R102", "R103", "R104", "R105", "R106", "R108", "R109", "R110")  # (F106: a --cache entry)
CLUSTER_CODES = ("U104", "U112", "U113", "U114", "H104", "H105", "H109", "H110", "H111", "H112", "H113", "H114",
                 "H115", "H116")


def checker_codes() -> set[str]:
    """Every code the checker can report."""
    found = {code for rule in RULES for code in rule.codes}
    return found | set(COUNTED_CODES) | set(READER_CODES) | set(CLUSTER_CODES) | set(LIVE_CODES)
