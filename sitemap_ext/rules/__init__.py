"""The rule set: every rule once, registered here with the codes it reports.

A rule is a function of a record (``record.py``) and a ``Context``; it never
knows which reader made the record. The registry is explicit (no discovery by
import): each line names the rule, what it judges, and its codes. The severity,
name and one-line summary of each code are declared beside the function that
reports it, in the ``CODES`` at the end of its module (``codes.py`` gathers
them); the rule's docstring is its documentation, with its sources in the
module's docstring and in specs/rules.md. Adding a rule to a module is one
function, its codes in that module's ``CODES``, and one line here (a new module
adds one line to ``codes.py`` too); adding a reader is a module that yields
records, and every rule then applies to it.

Codes a reader reports itself (a file it cannot read or parse) and codes the
cluster rules report once every file is read are listed too, so that every
checker code has one home (a test holds this list, the registry of codes and
specs/rules.md together).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import credible, files, hreflang, locs, media, robots, structure, values

# What a rule judges: "entry" (a <url>, text line or feed item), "index" (a <sitemap>
# of an index), "file" (a whole file, once read), "stray" (an element where
# entries belong).
SCOPES = ("entry", "index", "file", "stray")


@dataclass(frozen=True)
class Rule:
    name: str
    scope: str
    codes: tuple[str, ...]
    check: Callable[..., Any]
    # The record's field the rule judges: it is called only for records where that
    # field is set (non-empty); None: for every record of its scope.
    reads: str | None = None

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.check) or ""


RULES: tuple[Rule, ...] = (
    Rule("one-loc", "entry", ("X107",), structure.one_loc),
    Rule("element-order", "entry", ("X106",), structure.element_order, reads="order"),
    Rule("unknown-elements", "entry", ("X112",), structure.unknown_elements, reads="unknown"),
    Rule("loc", "entry", ("U101", "U102", "U103", "U105", "U106", "U107", "U108", "U109", "U110", "U111", "U115"),
         locs.loc, reads="locs"),
    Rule("robots-disallowed", "entry", ("R107",), robots.disallowed),
    Rule("lastmod", "entry", ("D101", "D102", "D107", "D108"), values.lastmod, reads="lastmod"),
    Rule("changefreq", "entry", ("D104",), values.changefreq, reads="changefreq"),
    Rule("priority", "entry", ("D105",), values.priority, reads="priority"),
    Rule("hreflang-links", "entry", ("H101", "H102", "H103", "H106", "H107", "H108", "L101", "L102", "L103", "L104",
                                     "L105", "L106", "L107", "L108", "L109", "L110", "L111", "L112", "L114"),
         hreflang.links, reads="links"),
    Rule("images", "entry", ("I101", "I102", "I103", "I104"), media.images, reads="media"),
    Rule("videos", "entry", ("V101", "V102", "V103", "V104", "V105", "V106", "V107", "V108", "V109", "V110", "V111",
                             "V112", "V113", "V114", "V115", "V116", "V117"), media.videos, reads="media"),
    Rule("news", "entry", ("N101", "N102", "N103", "N104", "N105", "N106", "N107", "N108", "N109"),
         media.news_article, reads="media"),
    Rule("index-one-loc", "index", ("X107",), structure.one_loc),
    Rule("index-unknown-elements", "index", ("X112",), structure.unknown_elements, reads="unknown"),
    Rule("index-loc", "index", ("U101", "U102", "U103", "U105", "U106", "U107", "U108", "U109", "U110", "U111", "U115"),
         locs.loc, reads="locs"),
    Rule("index-lastmod", "index", ("D101", "D102", "D107", "D108"), values.lastmod, reads="lastmod"),
    Rule("stray-element", "stray", ("X112",), structure.stray),
    Rule("empty-file", "file", ("X115",), files.empty),
    Rule("uniform-lastmod", "file", ("D103",), files.uniform_lastmod),
    Rule("credible-lastmod", "file", ("D109",), credible.credible_lastmod),
)

# (rule, the field it reads): how a record is handed to the rules of its scope, so that
# a rule is not called for a record without the field it judges (most entries have no
# changefreq, priority or unknown elements).
ENTRY_DISPATCH = tuple((rule.check, rule.reads) for rule in RULES if rule.scope == "entry")
INDEX_DISPATCH = tuple((rule.check, rule.reads) for rule in RULES if rule.scope == "index")
FILE_RULES = tuple(rule.check for rule in RULES if rule.scope == "file")

# X108 is counted as entries are read (files.entry_count); the rest are the readers'
# (a file that cannot be read as a sitemap) and the cluster rules' (clusters.py).
COUNTED_CODES = ("X108",)
READER_CODES = ("F101", "F104", "H117", "H118", "H119", "H120", "H121", "L113", "U116", "X101", "X102", "X103", "X104",
                "X105", "X109", "X110", "X111", "X113", "X114", "X116", "X117", "X118")
# Codes of a check of a live site (the fetching and the pages it reads over HTTP).
LIVE_CODES = ("R101", "R102", "R103", "R104", "R105", "R106", "R108", "R109", "R110")
CLUSTER_CODES = ("U104", "U112", "U113", "U114", "H104", "H105", "H109", "H110", "H111", "H112", "H113", "H114",
                 "H115", "H116")


def checker_codes() -> set[str]:
    """Every code the checker can report."""
    found = {code for rule in RULES for code in rule.codes}
    return found | set(COUNTED_CODES) | set(READER_CODES) | set(CLUSTER_CODES) | set(LIVE_CODES)
