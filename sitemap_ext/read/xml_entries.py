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
from typing import Final

from ..ext import SITEMAP_NS, image, news, video, xhtml
from ..ext.media import MediaElement, element_fields
from .record import IndexEntry, Media, UrlEntry, Value
from .xml_names import ATOM_NS, Namespaces, clark, local_of

ENTRY_NAMES: Final = frozenset(("url", "sitemap", "item", "entry"))


# An element inside the entry being read: its name as expat gives it, its attributes,
# its line and its depth in the file; its text before its first child is kept beside it.
Node = tuple[str, dict[str, str], int, int]


class Entry:
    """The entry being read: its line, and the elements inside it, flat, in document
    order, with their texts (the lists are the reader's, cleared for each entry)."""

    def __init__(self, line: int, nodes: list[Node], texts: list[str | None], depth: int) -> None:
        self.line = line
        self.nodes = nodes
        self.texts = texts
        self.child = depth + 1  # the depth of its children


_MEDIA = {(image.URI, "image"): "image", (video.URI, "video"): "video", (news.URI, "news"): "news"}
_MEDIA_KINDS: Final = frozenset(_MEDIA.values())
_SM: Final = f"{SITEMAP_NS} "
# Children by their name as expat gives it: most names need no namespace split.
_KNOWN_TAGS: Final = {_SM + "loc": "loc", _SM + "lastmod": "lastmod", _SM + "changefreq": "changefreq",
               _SM + "priority": "priority", f"{xhtml.URI} link": "xhtml:link",
               **{f"{uri} {local}": kind for (uri, local), kind in _MEDIA.items()}}
_IMAGE_LOC: Final = f"{image.URI} loc"


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
    texts, child = e.texts, e.child
    for i, (name, attrs, line, depth) in enumerate(e.nodes):
        if depth != child:
            continue  # (inside a child: a media element reads its own)
        kind = known.get(name)
        if kind is None:  # a misspelt namespace, or an element no schema here defines
            kind, shown = _kind(name, line, names)
            if kind is None:
                order.append(local_of(name))
                unknown.append((shown, line))
                continue
        order.append(kind)
        if kind == "xhtml:link":
            links.append((attrs.get("rel"), attrs.get("hreflang"), attrs.get("href"), attrs.get("media")))
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
    nodes = e.nodes
    _, _, line, depth = nodes[i]
    after = i + 1
    n = len(nodes)
    alone = after < n and nodes[after][3] > depth and (after + 1 == n or nodes[after + 1][3] <= depth)
    if alone and nodes[after][0] == _IMAGE_LOC and not nodes[after][1]:  # the usual image: a loc and nothing else
        return Media(kind, {"loc": e.texts[after] or ""}, {"loc": nodes[after][2] or line}, line, ("loc",))
    children = _tree(e, after, depth + 1)[0]
    fields, lines = element_fields(children, line)
    return Media(kind, fields, lines, line, tuple(child[0] for child in children))


def _tree(e: Entry, start: int, depth: int) -> tuple[tuple[MediaElement, ...], int]:
    """The elements from ``start`` on at ``depth`` (siblings), each with its children; and
    the index after them."""
    out: list[MediaElement] = []
    i = start
    nodes = e.nodes
    while i < len(nodes) and nodes[i][3] >= depth:
        children, after = _tree(e, i + 1, depth + 1)
        name, attrs, line, _ = nodes[i]
        if attrs and any(" " in key for key in attrs):
            attrs = {clark(key): value for key, value in attrs.items()}
        out.append((local_of(name), attrs, e.texts[i], line, children))
        i = after
    return tuple(out), i


def _children(e: Entry) -> list[tuple[int, str, dict[str, str], int]]:
    """The entry's children: (index, name, attributes, line)."""
    child = e.child
    return [(i, name, attrs, line) for i, (name, attrs, line, depth) in enumerate(e.nodes) if depth == child]


def index_entry(e: Entry, names: Namespaces) -> IndexEntry:
    """A sitemap index's <sitemap>."""
    locs: list[Value] = []
    lastmod: Value | None = None
    unknown: list[tuple[str, int]] = []
    for i, name, _, line in _children(e):
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
    children = _children(e)
    for i, name, _, line in children:
        if name == "link":
            locs.append(Value(e.texts[i], line))
        elif name == "pubDate" and lastmod is None:
            lastmod = Value(_rss_date((e.texts[i] or "").strip()), line)
    if not locs:  # RSS allows an item with a guid that is a permalink instead of a link
        for i, name, attrs, line in children:
            if name == "guid" and attrs.get("isPermaLink", "true") == "true":
                locs.append(Value(e.texts[i], line))
                break
    return UrlEntry(e.line, tuple(locs), lastmod=lastmod, source="item")


_ATOM_LINK: Final = f"{ATOM_NS} link"
_ATOM_UPDATED: Final = f"{ATOM_NS} updated"


def atom_entry(e: Entry, names: Namespaces) -> UrlEntry:
    """An Atom 1.0 <entry>: its rel="alternate" link is the page, <updated> its lastmod."""
    locs: list[Value] = []
    lastmod: Value | None = None
    for i, name, attrs, line in _children(e):
        if name == _ATOM_LINK and attrs.get("rel", "alternate") == "alternate":
            locs.append(Value(attrs.get("href"), line))
        elif name == _ATOM_UPDATED and lastmod is None:
            lastmod = Value(e.texts[i], line)
    return UrlEntry(e.line, tuple(locs[:1]), lastmod=lastmod, source="item")
