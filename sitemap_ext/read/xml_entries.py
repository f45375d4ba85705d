"""The XML reader's entries: each entry element (url, sitemap, item, entry) as the
elements expat handed over inside it, turned into its record at its end.

An entry is kept flat while it is read: for each element inside it, its name as
expat gives it ("uri local"), attributes, text before its first child (None: none;
what lxml calls ``.text``), line and depth below the entry (1: a child). Nothing is
kept past the entry. Element order is recorded, not required: the XSD's order is a
rule's business (a warning).
"""

from __future__ import annotations

import re

from ..ext import SITEMAP_NS, image, news, video, xhtml
from ..ext.media import MediaElement, element_fields
from .record import IndexEntry, Media, UrlEntry, Value
from .xml_names import ATOM_NS, Namespaces, clark, local_of

ENTRY_NAMES = frozenset(("url", "sitemap", "item", "entry"))


class Entry:
    """The elements inside the entry being read, flat, in document order."""

    def __init__(self) -> None:
        self.line = 0
        self.names: list[str] = []
        self.attrs: list[dict[str, str]] = []
        self.texts: list[str | None] = []
        self.lines: list[int] = []
        self.depths: list[int] = []

    def clear(self, line: int) -> None:
        self.line = line
        self.names.clear()
        self.attrs.clear()
        self.texts.clear()
        self.lines.clear()
        self.depths.clear()


_MEDIA = {(image.URI, "image"): "image", (video.URI, "video"): "video", (news.URI, "news"): "news"}
_MEDIA_KINDS = frozenset(_MEDIA.values())
_SM = f"{SITEMAP_NS} "
# Children by their name as expat gives it: most names need no namespace split.
_KNOWN_TAGS = {_SM + "loc": "loc", _SM + "lastmod": "lastmod", _SM + "changefreq": "changefreq",
               _SM + "priority": "priority", f"{xhtml.URI} link": "xhtml:link",
               **{f"{uri} {local}": kind for (uri, local), kind in _MEDIA.items()}}
_IMAGE_LOC = f"{image.URI} loc"


def _kind(name: str, line: int, names: Namespaces) -> tuple[str | None, str]:
    """A child of a <url> whose name is not one of the known ones to the letter: its
    kind when its namespace is a misspelt known one, else None and how it is named."""
    namespace, local = names.split(name, line)
    resolved = f"{{{namespace}}}{local}" if namespace else local
    kind = _KNOWN_TAGS.get(f"{namespace} {local}" if namespace else local)
    return kind, (local if namespace in ("", SITEMAP_NS) else resolved)


def url_entry(e: Entry, names: Namespaces) -> UrlEntry:
    """A sitemap's <url>."""
    locs: list[Value] = []
    lastmod = changefreq = priority = None
    links: list[tuple[str | None, str | None, str | None, str | None]] = []
    link_lines: list[int] = []
    media: list[Media] = []
    order: list[str] = []
    unknown: list[tuple[str, int]] = []
    known = _KNOWN_TAGS
    depths, texts, lines = e.depths, e.texts, e.lines
    for i, name in enumerate(e.names):
        if depths[i] != 1:
            continue  # (inside a child: a media element reads its own)
        line = lines[i]
        kind = known.get(name)
        if kind is None:  # a misspelt namespace, or an element no schema here defines
            kind, shown = _kind(name, line, names)
            if kind is None:
                order.append(local_of(name))
                unknown.append((shown, line))
                continue
        order.append(kind)
        if kind == "xhtml:link":
            get = e.attrs[i].get
            links.append((get("rel"), get("hreflang"), get("href"), get("media")))
            link_lines.append(line)
        elif kind == "loc":
            locs.append(Value(texts[i], line))
        elif kind in _MEDIA_KINDS:
            media.append(_media(e, i, kind))
        elif kind == "lastmod":
            lastmod = lastmod or Value(texts[i], line)
        elif kind == "changefreq":
            changefreq = changefreq or Value(texts[i], line)
        else:
            priority = priority or Value(texts[i], line)
    return UrlEntry(e.line, tuple(locs), lastmod, changefreq, priority, tuple(links), tuple(link_lines), (),
                    tuple(media), tuple(order), tuple(unknown))


def _media(e: Entry, i: int, kind: str) -> Media:
    line = e.lines[i]
    after = i + 1
    depths = e.depths
    n = len(depths)
    alone = after < n and depths[after] > depths[i] and (after + 1 == n or depths[after + 1] <= depths[i])
    if alone and e.names[after] == _IMAGE_LOC and not e.attrs[after]:  # the usual image: a loc and nothing else
        return Media(kind, {"loc": e.texts[after] or ""}, {"loc": e.lines[after] or line}, line, ("loc",))
    children = _tree(e, after, depths[i] + 1)[0]
    fields, lines = element_fields(children, line)
    return Media(kind, fields, lines, line, tuple(child[0] for child in children))


def _tree(e: Entry, start: int, depth: int) -> tuple[tuple[MediaElement, ...], int]:
    """The elements from ``start`` on at ``depth`` (siblings), each with its children; and
    the index after them."""
    out: list[MediaElement] = []
    i = start
    depths = e.depths
    while i < len(depths) and depths[i] >= depth:
        children, after = _tree(e, i + 1, depth + 1)
        attrs = e.attrs[i]
        if attrs and any(" " in key for key in attrs):
            attrs = {clark(key): value for key, value in attrs.items()}
        out.append((local_of(e.names[i]), attrs, e.texts[i], e.lines[i], children))
        i = after
    return tuple(out), i


def index_entry(e: Entry, names: Namespaces) -> IndexEntry:
    """A sitemap index's <sitemap>."""
    locs: list[Value] = []
    lastmod: Value | None = None
    unknown: list[tuple[str, int]] = []
    for i, name in enumerate(e.names):
        if e.depths[i] != 1:
            continue
        line = e.lines[i]
        namespace, local = names.split(name, line)
        if namespace == SITEMAP_NS and local == "loc":
            locs.append(Value(e.texts[i], line))
        elif namespace == SITEMAP_NS and local == "lastmod":
            lastmod = lastmod or Value(e.texts[i], line)
        else:
            unknown.append((local, line))
    return IndexEntry(e.line, tuple(locs), lastmod, tuple(unknown))


_FULL_YEAR = re.compile(r"\b(\d{4})\b")


def _rss_date(raw: str) -> str | None:
    """An RSS date (RFC 822) in W3C form; as written when it is none."""
    from email.utils import parsedate_to_datetime

    try:
        stamp = parsedate_to_datetime(raw)
        year = _FULL_YEAR.search(raw)  # (the parser reads years below 100 as 19xx/20xx: 0001 is 2001)
        if year is not None and int(year.group(1)) != stamp.year:
            stamp = stamp.replace(year=int(year.group(1)))
        return stamp.isoformat() if stamp.tzinfo else stamp.isoformat() + "Z"
    except (TypeError, ValueError, IndexError):
        return raw or None


def rss_item(e: Entry, names: Namespaces) -> UrlEntry:
    """An RSS 2.0 <item>: its <link> is the page, <pubDate> (RFC 822) its lastmod."""
    locs: list[Value] = []
    lastmod: Value | None = None
    children = [i for i, depth in enumerate(e.depths) if depth == 1]
    for i in children:
        if e.names[i] == "link":
            locs.append(Value(e.texts[i], e.lines[i]))
        elif e.names[i] == "pubDate" and lastmod is None:
            lastmod = Value(_rss_date((e.texts[i] or "").strip()), e.lines[i])
    if not locs:  # RSS allows an item with a guid that is a permalink instead of a link
        for i in children:
            if e.names[i] == "guid" and e.attrs[i].get("isPermaLink", "true") == "true":
                locs.append(Value(e.texts[i], e.lines[i]))
                break
    return UrlEntry(e.line, tuple(locs), lastmod=lastmod, source="item")


_ATOM_LINK = f"{ATOM_NS} link"
_ATOM_UPDATED = f"{ATOM_NS} updated"


def atom_entry(e: Entry, names: Namespaces) -> UrlEntry:
    """An Atom 1.0 <entry>: its rel="alternate" link is the page, <updated> its lastmod."""
    locs: list[Value] = []
    lastmod: Value | None = None
    for i, name in enumerate(e.names):
        if e.depths[i] != 1:
            continue
        if name == _ATOM_LINK and e.attrs[i].get("rel", "alternate") == "alternate":
            locs.append(Value(e.attrs[i].get("href"), e.lines[i]))
        elif name == _ATOM_UPDATED and lastmod is None:
            lastmod = Value(e.texts[i], e.lines[i])
    return UrlEntry(e.line, tuple(locs[:1]), lastmod=lastmod, source="item")
