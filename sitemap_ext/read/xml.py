"""The XML reader: urlsets, sitemap indexes, RSS 2.0 and Atom 1.0 feeds, in any layout.

Untrusted input, read defensively and as a stream:

* No DTD, no entities, no network: a DOCTYPE is refused before the parser sees
  it (no billion laughs, no XXE), and the parser runs with entity resolution,
  DTD loading and network access off.
* libxml2 filters the events in C: only the end of each entry element (url,
  sitemap, item, entry) reaches Python; the entry is turned into a record
  (``record.py``) and cleared, so memory does not grow with the file.
* Any layout reads the same: indentation, attribute order, CDATA, entities,
  declarations on any element, prefixes of any name. Element order is recorded,
  not required: the XSD's order is a rule's business (a warning).

Namespaces are matched to the letter, but a misspelt one (``https://``, a
trailing slash) or the legacy ``sitemap/0.84`` is reported once (X105, with the
fix) and then read as the namespace it meant, so one mistake gives one finding.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import cast

from lxml import etree

from ..ext import SITEMAP_NS, image, news, video, xhtml
from ..ext.media import element_fields, local_name
from ..lxml_types import Element
from .record import FileFacts, IndexEntry, Media, Stray, UrlEntry, Value
from .sniff import Report, not_utf8, wide_encoding

ATOM_NS = "http://www.w3.org/2005/Atom"
LEGACY_SITEMAP_NS = ("http://www.google.com/schemas/sitemap/0.84", "http://www.google.com/schemas/sitemap/0.9",
                     "http://www.sitemaps.org/schemas/sitemap/0.84")
KNOWN = {SITEMAP_NS: "sitemap", xhtml.URI: xhtml.PREFIX, image.URI: image.PREFIX, video.URI: video.PREFIX,
         news.URI: news.PREFIX}
_MEDIA = {(image.URI, "image"): "image", (video.URI, "video"): "video", (news.URI, "news"): "news"}
_DECLARED_ENCODING = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_ROOT_START = re.compile(rb"<[^?!]")
_PROLOG_LIMIT = 1 << 20

Record = UrlEntry | IndexEntry | Stray
Convert = Callable[[Element, "_Namespaces"], Record]  # an entry element to its record


def loose_namespace(uri: str) -> str:
    """A namespace URI with the usual misspellings folded away."""
    text = uri.strip().lower()
    for scheme in ("https://", "http://"):
        if text.startswith(scheme):
            text = text[len(scheme):]
    return text.rstrip("/")


_LOOSE = {loose_namespace(uri): uri for uri in KNOWN}
_LOOSE.update({loose_namespace(uri): SITEMAP_NS for uri in LEGACY_SITEMAP_NS})


def meant_namespace(uri: str) -> str | None:
    """The known namespace a misspelt or legacy URI stands for; None when it is right or unrelated."""
    if uri in KNOWN or uri == ATOM_NS:
        return None
    return _LOOSE.get(loose_namespace(uri))


class _Namespaces:
    """Each namespace URI met in one file, mapped to the one it means (X105 once each)."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.meant: dict[str, str] = {}

    def declared(self, nsmap: dict[str | None, str], line: int) -> None:
        for uri in nsmap.values():
            self.resolve(uri, line)

    def resolve(self, uri: str, line: int) -> str:
        found = self.meant.get(uri)
        if found is not None:
            return found
        right = meant_namespace(uri)
        if right is None:
            self.meant[uri] = uri
            return uri
        self.meant[uri] = right
        legacy = uri in LEGACY_SITEMAP_NS
        why = "is a legacy namespace search engines no longer document" if legacy else \
            "must match to the letter, or search engines ignore the elements"
        self.report("X105", f"namespace '{uri}' is not '{right}'; namespace URIs {why}. The file is read as if it "
                    "said the right one", line, suggestion=right)
        return right

    def split(self, tag: str, line: int) -> tuple[str, str]:
        if tag[0] != "{":
            return "", tag
        end = tag.index("}")
        uri = tag[1:end]
        return self.meant.get(uri) or self.resolve(uri, line), tag[end + 1:]


def read_xml(chunks: Iterator[bytes], facts: FileFacts, report: Report) -> Iterator[Record]:
    """Each entry of an XML sitemap or feed as a record; problems reported, never raised.

    ``facts.kind`` is set from the root element (None when it is no sitemap or feed).
    """
    parser = etree.XMLPullParser(
        events=("end",), tag=("{*}url", "{*}sitemap", "{*}item", "{*}entry"), resolve_entities=False,
        no_network=True, load_dtd=False, huge_tree=False, remove_comments=True, remove_pis=True, strip_cdata=True,
    )
    names = _Namespaces(report)
    prolog = b""
    root: Element | None = None
    container: Element | None = None  # the element entries are children of
    convert: Convert | None = None
    feed = False
    last_line = 0  # the line of the last entry: one line for two entries makes the file crowded
    try:
        for chunk in chunks:
            if root is None and len(prolog) < _PROLOG_LIMIT:
                first = not prolog
                prolog = (prolog + chunk)[:_PROLOG_LIMIT]
                if first and not _encoding_ok(prolog, report):
                    facts.complete = False
                    return
                if _has_doctype(prolog):
                    report("X102", "the file declares a DOCTYPE (a DTD or entities); sitemaps need none, and it is "
                           "refused unread", _line_of(prolog, b"<!DOCTYPE"))
                    facts.complete = False
                    return
            parser.feed(chunk)
            # (events=("end",): each is an element; the stubs' union covers every kind of event)
            for _, element in cast("Iterator[tuple[str, Element]]", parser.read_events()):
                if root is None:
                    root = cast(Element, element.getroottree().getroot())
                    if _declares_dtd(root, report):  # after more prolog than the scan above reads
                        facts.complete = False
                        return
                    convert, container = _start(root, facts, names, report)
                    if convert is None:
                        return
                    feed = facts.kind in ("rss", "atom")  # a feed's other elements are its metadata
                if element.getparent() is not container or container is None or convert is None:
                    continue  # an element of that name nested elsewhere
                if element.getprevious() is not None:  # (entries are removed once read: what is left is no entry)
                    if feed is False:
                        yield from _strays(element, container, names)
                    while element.getprevious() is not None:
                        del container[0]
                record = convert(element, names)
                container.remove(element)  # (its parse is over: memory stays flat, no sibling to walk past)
                if record.line == last_line:
                    facts.crowded = True
                last_line = record.line
                yield record
        if not facts.complete:
            return  # reading stopped early (too large, corrupt gzip): no end to judge
        yield from _end(parser, root, container, facts, names, report)
    except etree.XMLSyntaxError as exc:
        facts.complete = False
        _not_well_formed(exc, report)


def _end(parser: etree.XMLPullParser, root: Element | None, container: Element | None, facts: FileFacts,
         names: _Namespaces, report: Report) -> Iterator[Record]:
    """The end of a file: its root when no entry came before (an empty urlset), and the
    strays after the last entry."""
    closed = cast(Element, parser.close())
    if root is None:
        root = closed
        if _declares_dtd(root, report):
            facts.complete = False
            return
        convert, container = _start(root, facts, names, report)
        if convert is None:
            return
    if container is not None and facts.kind not in ("rss", "atom"):
        for child in list(iter(container)):  # (iter(): children typed as Element, see lxml_types)
            if isinstance(child.tag, str) and names.split(child.tag, child.sourceline or 1)[1] not in _ENTRY_NAMES:
                yield _stray(child, names)


def _not_well_formed(exc: etree.XMLSyntaxError, report: Report) -> None:
    line = exc.lineno or 1
    message = str(getattr(exc, "msg", exc))
    if "encoding" in message.lower() or "utf-8" in message.lower():
        report(*not_utf8(f"not valid UTF-8: {message}"), line)
    else:
        report("X101", f"not well-formed XML: {message}{_hint(message)}", line)


def _hint(message: str) -> str:
    """The usual cause of a parser's message, said plainly."""
    if "EntityRef" in message or "xmlParseEntityRef" in message:
        return ("; a bare '&' (in a URL's query, say) must be written '&amp;' in XML, as '<' is '&lt;'")
    return ""


_ENTRY_NAMES = ("url", "sitemap", "item", "entry")


def _start(root: Element, facts: FileFacts, names: _Namespaces,
           report: Report) -> tuple[Convert, Element] | tuple[None, None]:
    """The converter and container for this root, or (None, None) when it is no sitemap or feed."""
    line = root.sourceline or 1
    names.declared(root.nsmap, line)
    namespace, local = names.split(root.tag, line)
    if namespace == SITEMAP_NS and local in ("urlset", "sitemapindex"):
        facts.kind = local
        return (_url if local == "urlset" else _index), root
    if namespace == "" and local == "rss":
        facts.kind = "rss"
        channel = next((c for c in root if c.tag == "channel"), None)
        return _rss_item, channel if channel is not None else root
    if namespace == ATOM_NS and local == "feed":
        facts.kind = "atom"
        return _atom_entry, root
    report("X104", f"the root element is <{local}> in namespace '{namespace}'; a sitemap starts with <urlset "
           f"xmlns=\"{SITEMAP_NS}\"> (or <sitemapindex>), a feed with <rss> or an Atom <feed>", line)
    facts.complete = False
    return None, None


def _strays(element: Element, container: Element, names: _Namespaces) -> Iterator[Record]:
    """Children of the container before this entry that are no entries (X112 for the rules)."""
    sibling = element.getprevious()
    strays = []
    while sibling is not None:
        if isinstance(sibling.tag, str):
            local = names.split(sibling.tag, sibling.sourceline or 1)[1]
            if local not in _ENTRY_NAMES:
                strays.append(_stray(sibling, names))
        sibling = sibling.getprevious()
    yield from reversed(strays)


def _stray(element: Element, names: _Namespaces) -> Stray:
    """An element the container should not hold."""
    line = element.sourceline or 1
    return Stray(names.split(element.tag, line)[1], line)


def _value(element: Element, line: int) -> Value:
    return Value(element.text, element.sourceline or line)


_SM = f"{{{SITEMAP_NS}}}"
_LOC, _LASTMOD, _CHANGEFREQ, _PRIORITY = (_SM + name for name in ("loc", "lastmod", "changefreq", "priority"))
_LINK = f"{{{xhtml.URI}}}link"
_IMAGE_LOC = f"{{{image.URI}}}loc"
# Children by their Clark name as libxml2 gives it: most tags need no namespace split.
_KNOWN_TAGS = {_LOC: "loc", _LASTMOD: "lastmod", _CHANGEFREQ: "changefreq", _PRIORITY: "priority",
               _LINK: "xhtml:link", **{f"{{{uri}}}{local}": kind for (uri, local), kind in _MEDIA.items()}}


def _url(element: Element, names: _Namespaces) -> UrlEntry:
    line = element.sourceline or 1
    entry = UrlEntry(line, ())
    locs: list[Value] = []
    links: list[tuple[str | None, str | None, str | None, str | None]] = []
    link_lines: list[int] = []
    media: list[Media] = []
    order: list[str] = []
    unknown: list[tuple[str, int]] = []
    known = _KNOWN_TAGS
    for child in element:
        tag = child.tag
        kind = known.get(tag)
        if kind is None and not isinstance(tag, str):
            continue  # (an entity reference left unresolved)
        child_line = child.sourceline or line
        if kind is None:  # a misspelt namespace, or an element no schema here defines
            namespace, local = names.split(tag, child_line)
            resolved = f"{{{namespace}}}{local}" if namespace else local
            kind = known.get(resolved)
            if kind is None:
                order.append(local)
                unknown.append((local if namespace in ("", SITEMAP_NS) else resolved, child_line))
                continue
        order.append(kind)
        if kind == "xhtml:link":
            get = child.get
            links.append((get("rel"), get("hreflang"), get("href"), get("media")))
            link_lines.append(child_line)
        elif kind == "loc":
            locs.append(Value(child.text, child_line))
        elif kind in _MEDIA_KINDS:
            media.append(_media(child, kind, child_line))
        elif getattr(entry, kind) is None:
            setattr(entry, kind, Value(child.text, child_line))
    entry.locs = tuple(locs)
    entry.links = tuple(links)
    entry.link_lines = tuple(link_lines)
    entry.media = tuple(media)
    entry.order = tuple(order)
    entry.unknown = tuple(unknown)
    return entry


_MEDIA_KINDS = frozenset(_MEDIA.values())


def _media(child: Element, kind: str, line: int) -> Media:
    if len(child) == 1 and child[0].tag == _IMAGE_LOC and not child[0].attrib:
        loc = child[0]  # the usual image: a loc and nothing else
        return Media(kind, {"loc": loc.text or ""}, {"loc": loc.sourceline or line}, line, ("loc",))
    fields, lines = element_fields(child)
    return Media(kind, fields, lines, line, tuple(local_name(c.tag) for c in child if isinstance(c.tag, str)))


def _index(element: Element, names: _Namespaces) -> IndexEntry:
    line = element.sourceline or 1
    entry = IndexEntry(line, ())
    locs: list[Value] = []
    unknown: list[tuple[str, int]] = []
    for child in element:
        if not isinstance(child.tag, str):
            continue
        child_line = child.sourceline or line
        namespace, local = names.split(child.tag, child_line)
        if namespace == SITEMAP_NS and local == "loc":
            locs.append(_value(child, line))
        elif namespace == SITEMAP_NS and local == "lastmod" and entry.lastmod is None:
            entry.lastmod = _value(child, line)
        else:
            unknown.append((local, child_line))
    entry.locs = tuple(locs)
    entry.unknown = tuple(unknown)
    return entry


_FULL_YEAR = re.compile(r"\b(\d{4})\b")


def _rss_item(element: Element, names: _Namespaces) -> UrlEntry:
    """An RSS 2.0 <item>: its <link> is the page, <pubDate> (RFC 822) its lastmod."""
    from email.utils import parsedate_to_datetime

    line = element.sourceline or 1
    locs: list[Value] = []
    lastmod: Value | None = None
    for child in element:
        if child.tag == "link":
            locs.append(_value(child, line))
        elif child.tag == "pubDate" and lastmod is None:
            raw = (child.text or "").strip()
            try:
                stamp = parsedate_to_datetime(raw)
                year = _FULL_YEAR.search(raw)  # (the parser reads years below 100 as 19xx/20xx: 0001 is 2001)
                if year is not None and int(year.group(1)) != stamp.year:
                    stamp = stamp.replace(year=int(year.group(1)))
                text: str | None = stamp.isoformat() if stamp.tzinfo else stamp.isoformat() + "Z"
            except (TypeError, ValueError, IndexError):
                text = raw or None
            lastmod = Value(text, child.sourceline or line)
    if not locs:  # RSS allows an item with a guid that is a permalink instead of a link
        for child in element:
            if child.tag == "guid" and child.get("isPermaLink", "true") == "true":
                locs.append(_value(child, line))
                break
    return UrlEntry(line, tuple(locs), lastmod=lastmod, source="item")


def _atom_entry(element: Element, names: _Namespaces) -> UrlEntry:
    """An Atom 1.0 <entry>: its rel="alternate" link is the page, <updated> its lastmod."""
    line = element.sourceline or 1
    locs: list[Value] = []
    lastmod: Value | None = None
    for child in element:
        if child.tag == f"{{{ATOM_NS}}}link" and child.get("rel", "alternate") == "alternate":
            locs.append(Value(child.get("href"), child.sourceline or line))
        elif child.tag == f"{{{ATOM_NS}}}updated" and lastmod is None:
            lastmod = _value(child, line)
    return UrlEntry(line, tuple(locs[:1]), lastmod=lastmod, source="item")


def _has_doctype(prolog: bytes) -> bool:
    """A DOCTYPE or entity declaration before the root element."""
    match = _ROOT_START.search(prolog)
    before = prolog[: match.start()] if match else prolog
    return b"<!DOCTYPE" in before or b"<!ENTITY" in before


def _declares_dtd(root: Element, report: Report) -> bool:
    """A DOCTYPE anywhere before the root, as the parser saw it (entities are never
    expanded: ``resolve_entities=False``). The prolog scan catches the usual case
    before the parser sees a byte; this one holds for any prolog length."""
    info = root.getroottree().docinfo
    if not info.doctype and info.internalDTD is None:  # type: ignore[attr-defined]  # (lxml-stubs lack doctype)
        return False
    report("X102", "the file declares a DOCTYPE (a DTD or entities); sitemaps need none, and it is refused",
           max((root.sourceline or 1) - 1, 1))
    return True


def _line_of(data: bytes, needle: bytes) -> int:
    return data[: max(data.find(needle), 0)].count(b"\n") + 1


def _encoding_ok(prolog: bytes, report: Report) -> bool:
    """UTF-8 only: a UTF-16 byte-order mark or another declared encoding is an error (X103)."""
    if wide_encoding(prolog):
        what = "UTF-32" if prolog.startswith((b"\x00\x00", b"\xff\xfe\x00\x00")) else "UTF-16"
        report(*not_utf8(f"the file is {what}; sitemaps must be UTF-8"), 1)
        return False
    match = _DECLARED_ENCODING.search(prolog[:200])
    if match and match.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
        report(*not_utf8(f"the file declares encoding {match.group(1).decode()}; sitemaps must be UTF-8"), 1)
    return True
