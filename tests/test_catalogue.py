"""specs/rules.md and the table of codes list the same codes, in the same order, with
the same severities and names; the catalogue's Examples part holds each code's example
under its letter, in the same order.

Adding a code touches three files: the module that reports it, its row in
sitemap_ext/code_table.py, and specs/rules.md (its row and text, and its example)."""

from __future__ import annotations

import re

from sitemap_ext.code_table import REMOVED, STAGES, TABLE
from sitemap_ext.codes import ALL, REGISTRY

from .conftest import ROOT

ROW = re.compile(r"^\| ([A-Z]\d{3}) \| (error|warning|info) \| ([a-z0-9-]+) \|", re.M)


def test_catalogue_matches_registry() -> None:
    text = (ROOT / "specs" / "rules.md").read_text(encoding="utf-8")
    documented = {code: (severity, name) for code, severity, name in ROW.findall(text)}
    registered = {c.code: (c.severity.value, c.name) for c in REGISTRY.values()}
    assert documented == registered


def test_the_table_is_in_the_catalogues_order() -> None:
    """A new code goes after the last of its letter, in the table as in the catalogue."""
    text = (ROOT / "specs" / "rules.md").read_text(encoding="utf-8")
    assert [code for code, _, _ in ROW.findall(text)] == list(REGISTRY)


def test_every_row_of_the_table_is_an_entry_and_removed_codes_are_not_reported() -> None:
    assert [row[0] for row in TABLE] == list(ALL)
    for code, severity, name, stage, flags, summary in TABLE:
        entry = ALL[code]
        assert (entry.severity.value, entry.name, entry.stage, entry.summary) == (severity, name, stage, summary)
        assert (entry.io, entry.unread) == ("io" in flags.split(), "unread" in flags.split())
        assert stage in STAGES and (code in REGISTRY) == (stage != REMOVED)


def test_codes_are_well_formed() -> None:
    for code, entry in REGISTRY.items():
        assert re.fullmatch(r"[A-Z]\d{3}", code) and entry.code == code
        assert entry.summary.endswith(".")


def test_rule_registry_codes_and_catalogue_agree() -> None:
    """Every checker code has one home (a rule, a reader, the cluster rules), every code a
    rule names is registered, and the catalogue's rule table is the registry's."""
    from sitemap_ext.rules.rule_set import CLUSTER_CODES, COUNTED_CODES, LIVE_CODES, READER_CODES, RULES, checker_codes

    assert checker_codes() <= set(REGISTRY)
    build_only = {"D106", "N110", "F102", "F103", "F105", "D110", "R111", "R112", "R113", "R114"}  # (build, submit)
    for code in REGISTRY:
        if code[0] in "FUDXLHIVNR" and code not in build_only:
            assert code in checker_codes(), f"{code} is reported by no rule, reader or cluster rule"
    homes = [*READER_CODES, *CLUSTER_CODES, *COUNTED_CODES, *LIVE_CODES]
    assert len(homes) == len(set(homes)) and not set(homes) & {c for r in RULES for c in r.codes}
    text = (ROOT / "specs" / "rules.md").read_text(encoding="utf-8")
    table = re.findall(r"^\| ([a-z-]+) \| (entry|index|file|stray) \| ([A-Z0-9, ]+) \|$", text, re.M)
    assert table == [(r.name, r.scope, ", ".join(r.codes)) for r in RULES]
    for rule in RULES:
        assert rule.doc, f"rule {rule.name} has no docstring"


def test_the_examples_are_under_their_letter_in_the_catalogue_s_order() -> None:
    """The Examples part closes the catalogue: a heading for each letter that has
    examples (the letters in the catalogue's order), its codes' blocks in the table's
    order beneath it."""
    text = (ROOT / "specs" / "rules.md").read_text(encoding="utf-8")
    letters = re.findall(r"^## ([A-Z]): ", text, re.M)
    part = text.split("\n## Examples\n", 1)[1]
    assert "\n## " not in part, "the Examples part is the catalogue's last"
    found = re.findall(r"^### ([A-Z]) examples: |^```yaml example (([A-Z])\d{3})$", part, re.M)
    heading, seen = "", []
    for letter, code, first in found:
        if letter:
            assert not seen or letters.index(letter) > letters.index(seen[-1][0]), f"### {letter} is out of order"
            heading = letter
        else:
            assert first == heading, f"the example of {code} is under ### {heading}, not ### {first}"
            seen.append(code)
    assert seen == [code for code in REGISTRY if code in seen], "the examples are not in the table's order"
