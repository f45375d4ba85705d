"""The shape of an entry: one loc, known elements, and the XSD's element order.

Sources: sitemaps.org protocol (each <url> has one <loc>; lastmod, changefreq,
priority optional); sitemap.xsd (the order loc, lastmod, changefreq, priority,
then extension elements, which search engines do not require).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from operator import attrgetter
from typing import Any

from ..read.record import IndexEntry, Stray, UrlEntry
from .context import Context
from .registry import Rule

_RANK = {"loc": 0, "lastmod": 1, "changefreq": 2, "priority": 3}
_CONTAINER = {"urlset": "<urlset>", "sitemapindex": "<sitemapindex>", "rss": "<channel>", "atom": "<feed>"}


def one_loc(entry: UrlEntry | IndexEntry, ctx: Context) -> None:
    """X107: a <url> (or <sitemap>, or feed item) needs exactly one <loc> (its link)."""
    count = len(entry.locs)
    if count == 1:
        return
    if getattr(entry, "source", "url") == "item":
        ctx.report("X107", f"a feed item needs one link to its page, this one has {count}", entry.line)
    else:
        what = "<sitemap>" if isinstance(entry, IndexEntry) else "<url>"
        ctx.report("X107", f"a {what} needs exactly one <loc>, this one has {count}", entry.line)


def empty_loc(ctx: Context, line: int, what: str = "loc") -> None:
    """X107: a loc (or text line) with nothing in it."""
    ctx.report("X107", f"{what} is empty", line)


def element_order(entry: UrlEntry, ctx: Context) -> None:
    """X106 (warning): loc, lastmod, changefreq, priority, then extensions, as the XSD orders
    them. Search engines read the elements in any order, so this is only the schema's."""
    if not in_order(entry.order):
        ctx.report("X106", "elements of this <url> are out of the XSD's order: loc, then lastmod, changefreq, "
                   "priority, then extension elements (search engines read any order; validators do not)",
                   entry.line)


@lru_cache(maxsize=1024)
def in_order(order: tuple[str, ...]) -> bool:
    """Memoised: a site's entries come in a few shapes."""
    ranks = [_RANK.get(name, 4) for name in order]
    return ranks == sorted(ranks)


def unknown_elements(entry: UrlEntry | IndexEntry, ctx: Context) -> None:
    """X112 (warning): an element of the sitemap namespace (or none) the schemas do not
    define: search engines ignore it. Elements of other namespaces are extensions the
    XSD allows, and pass."""
    for name, line in entry.unknown:
        if not name.startswith("{"):
            ctx.report("X112", f"<{name}> is not a sitemap element; search engines ignore it", line, url=ctx.loc)


def unknown_field(report: Callable[..., Any], message: str, field: Any, suggestion: str | None) -> None:
    """X112 for a child of an image, video or news element that its schema does not
    define (in a description it is C102: ``diagnostics.unknown_field``)."""
    report("X112", message, field, suggestion=suggestion)


def stray(element: Stray, ctx: Context) -> None:
    """X112: an element where only entries belong."""
    container = _CONTAINER.get(ctx.facts.kind or "", "the root")
    ctx.report("X112", f"<{element.name}> does not belong in {container}; search engines ignore it", element.line)


def _loc_count(entry: UrlEntry) -> int:
    return len(entry.locs)


RULES: tuple[Rule, ...] = (
    Rule("one-loc", "entry", ("X107",), one_loc, key=_loc_count),
    Rule("element-order", "entry", ("X106",), element_order, reads="order", key=attrgetter("order")),
    Rule("unknown-elements", "entry", ("X112",), unknown_elements, reads="unknown"),
    Rule("index-one-loc", "index", ("X107",), one_loc),
    Rule("index-unknown-elements", "index", ("X112",), unknown_elements, reads="unknown"),
    Rule("stray-element", "stray", ("X112",), stray),
)
