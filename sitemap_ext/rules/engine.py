"""The engine: how a record reaches the rules, for the check and for the build alike.

A reader (``read/``) or the build's writer (``write/``) hands each record here: an
entry goes through the entry rules of the registry (``rules/__init__.py``) and into
the file's ``ClusterLog`` for the rules across files; an index entry through the index
rules; a whole file, once read, through the file rules. Nothing here knows which
reader or writer made a record.
"""

from __future__ import annotations

from ..limits import MAX_URLS_PER_FILE
from ..read.record import IndexEntry, Link, UrlEntry
from ..urls import resolve_http, url_key
from .cluster_log import FEED, HEADER, HTML, IMAGE, NEWS, NO_LASTMOD, OWN, TEXT, VIDEO, WEB, ClusterLog
from .context import Context
from .files import entry_count
from .hreflang import Judged, judge_links
from .rule_set import ENTRY_DISPATCH, FILE_RULES, INDEX_DISPATCH


def judge_entry(entry: UrlEntry, ctx: Context, log: ClusterLog) -> None:
    facts = ctx.facts
    facts.entries += 1
    if facts.entries > MAX_URLS_PER_FILE:
        entry_count(ctx, entry.line)
    loc = None
    if len(entry.locs) == 1:
        text = entry.locs[0].text
        if text:
            loc = text.strip() or None
    if loc is not None and facts.url is not None and not loc.lower().startswith(("http://", "https://")):
        # A relative loc is U101 (its rule says so, at its line); the rest is judged with
        # it resolved against the file's URL, as a browser would: one mistake, one finding.
        loc = resolve_http(loc, facts.url) or loc
    ctx.loc = loc
    if loc is not None:
        ctx.loc_key = url_key(loc)
    judged = ctx.judged = _links_judged(entry.links, loc) if entry.links else None
    for check, reads in ENTRY_DISPATCH:
        if reads is None or getattr(entry, reads):
            check(entry, ctx)
    if loc is not None:
        _logged(entry, ctx, log, loc, judged)


# The last links judged, the URL they were judged for, and the verdict: a cluster's
# members carry one tuple of links (and a reader's next entry, often the same).
_LAST: tuple[object, str | None, Judged | None] = (None, None, None)


def _links_judged(links: tuple[Link, ...], loc: str | None) -> Judged:
    """``judge_links(links, loc)``, taken from the last entry's when it holds the same
    tuple: the verdict is the same unless a relative href makes it the URL's own."""
    global _LAST
    last = _LAST
    judged = last[2]
    if links is last[0] and judged is not None and (not judged.relative or loc == last[1]):
        return judged
    judged = judge_links(links, loc)
    _LAST = (links, loc, judged)
    return judged


def _logged(entry: UrlEntry, ctx: Context, log: ClusterLog, loc: str, judged: Judged | None) -> None:
    """The entry into the file's cluster log, with its alternates as judged."""
    instant = _instant(entry, ctx) if log.dated else NO_LASTMOD
    if judged is not None:
        kind = listing_kind(entry)
        # A page's (or a header file's) links stand on lines of their own: a finding about one is placed there.
        lines = tuple(entry.link_lines[place] for place in judged.cluster_places) if kind in OWN else None
        columns = tuple(entry.link_columns[place] for place in judged.cluster_places) if entry.link_columns else None
        log.add(loc, ctx.loc_key, entry.line, kind, judged.cluster, judged.cluster_keys, judged.named, lines, columns,
                instant)
    else:
        log.add(loc, ctx.loc_key, entry.line, listing_kind(entry), (), (), frozenset(), lastmod=instant)


def _instant(entry: UrlEntry, ctx: Context) -> float:
    """The entry's lastmod as an instant, as the lastmod rule read it (its parse is
    memoised: this is a lookup), for a diff; NO_LASTMOD for none or an invalid one."""
    if entry.lastmod is None or not entry.lastmod.text or not entry.lastmod.text.strip():
        return NO_LASTMOD
    found = ctx.dates.parse(entry.lastmod.text)[0]
    return NO_LASTMOD if found is None else found.instant


def listing_kind(entry: UrlEntry) -> int:
    """Which kind of sitemap the listing belongs to (a URL may stand once in each)."""
    source = entry.source
    if source != "url":
        return _SOURCE_KINDS.get(source, WEB)
    kinds = 0  # bits: 1 image, 2 video (news decides at once)
    for item in entry.media:
        kind = item.kind
        if kind == "news":
            return NEWS
        kinds |= 2 if kind == "video" else 1 if kind == "image" else 0
    if kinds & 2:
        return VIDEO
    if kinds and not (entry.links or entry.lastmod or entry.changefreq or entry.priority):
        return IMAGE
    return WEB


_SOURCE_KINDS = {"line": TEXT, "html": HTML, "header": HEADER, "item": FEED}


def judge_index_entry(entry: IndexEntry, ctx: Context) -> str | None:
    ctx.facts.entries += 1
    entry_count(ctx, entry.line)
    ctx.loc = None
    if len(entry.locs) == 1 and entry.locs[0].text and entry.locs[0].text.strip():
        ctx.loc = entry.locs[0].text.strip()
    ctx.judged = None
    for check, reads in INDEX_DISPATCH:
        if reads is None or getattr(entry, reads):
            check(entry, ctx)
    return ctx.loc if ctx.loc is not None and ctx.loc.lower().startswith(("http://", "https://")) else None



def judge_file_end(ctx: Context) -> None:
    """The rules on a whole file of entries, once every entry is judged."""
    for check in FILE_RULES:
        check(ctx)
