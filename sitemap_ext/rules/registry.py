"""A rule as the registry holds it: its name, what it judges, its codes, its function.

Each rule module ends with the ``RULES`` it defines (its codes are rows of ``code_table.py``);
``rules/__init__.py`` gathers them into the one registry, in a fixed order.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

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
    # What the rule's verdict on an entry depends on, where that is less than the entry
    # (its lastmod's text, its element names): within a batch of entries (engine.py) an
    # entry whose key was judged and said nothing is not judged again. Entries with equal
    # keys must get the same findings but for the line and URL they are placed at.
    key: Callable[[Any], Hashable] | None = None
    # For a keyed rule: what it keeps of each entry besides its findings (a count of its
    # lastmods, say), for the entries of a batch it does not judge again: called once a
    # key, after the rule has run over the batch, as tally(what check returned for the
    # key, context, how many entries); what it keeps must not depend on that order.
    tally: Callable[[Any, Any, int], None] | None = None

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.check) or ""
