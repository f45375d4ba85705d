"""A built page's head as the record the rules read: its URL and the alternates its
head gives, each at its link's line (``source="html"``). A check of the pages and a
build from them (``write/built_site.py``) hand the same record to the engine, so the
cluster rules judge a page's head in one way whoever reads it.
"""

from __future__ import annotations

from .html import PageHead
from .record import UrlEntry, Value


def page_entry(head: PageHead, url: str) -> UrlEntry:
    """The record of a page served at ``url`` (as its head spells it: ``served_as``).
    A page with no alternates is a record too: a page that another names as its
    alternate and does not name back is then a missing return link (H104)."""
    lines = tuple(place.line for place in head.alternate_places)
    first = lines[0] if lines else 1
    return UrlEntry(line=first, locs=(Value(url, first),), links=head.alternates, link_lines=lines, source="html")


__all__ = ["page_entry"]
