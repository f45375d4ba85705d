"""The XML reader: urlsets, sitemap indexes, RSS 2.0 and Atom 1.0 feeds, in any layout.

Untrusted input, read defensively and as a stream, by expat (CPython's
``xml.parsers.expat``, with its protection against entity expansion):

* No DTD, no entities, no network: a DOCTYPE is refused before the parser sees
  it (no billion laughs, no XXE), and again by the parser's handlers wherever it
  stands (a prolog longer than the scan); parameter entities are never parsed and
  no external entity is ever fetched. Elements nest at most ``MAX_XML_DEPTH`` deep.
* The handlers do little: the elements inside an entry element (url, sitemap, item,
  entry) are collected flat (``xml_entries.Entry``) and turned into one record at
  the entry's end; nothing is kept past it, so memory does not grow with the file.
* Any layout reads the same: indentation, attribute order, CDATA, character
  references, declarations on any element, prefixes of any name. A record's line is
  the line of its start tag's ``<``.

Namespaces: see ``xml_names`` (a misspelt or legacy one is X105 once, then read as
the namespace it meant).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator
from typing import Final
from xml.parsers import expat

from ..ext import SITEMAP_NS
from ..limits import MAX_XML_DEPTH
from .record import FileFacts, IndexEntry, Stray, UrlEntry
from .sniff import Report, not_utf8, wide_encoding
from .xml_entries import ENTRY_NAMES, Entry, Node, atom_entry, index_entry, rss_item, url_entry
from .xml_names import ATOM_NS, Namespaces, local_of

_DECLARED_ENCODING = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_ROOT_START = re.compile(rb"<[^?!]")
_PROLOG_LIMIT = 1 << 20
_HEAD = 256  # the first bytes, read whole before the encoding is told (the declaration's)
_NAME_BYTES = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-#"

Record = UrlEntry | IndexEntry | Stray
Convert = Callable[[Entry, Namespaces], "UrlEntry | IndexEntry"]


class _Stop(Exception):
    """Raised by a handler to end the read (what was wrong is reported already)."""


_NO_ENTRY: Final = 1 << 30  # the depth of the entry being read when none is


class _File:
    """What one file's parse knows outside its entries: its kind, where its entries are."""

    def __init__(self, facts: FileFacts, report: Report) -> None:
        self.facts = facts
        self.report = report
        self.names = Namespaces(report)
        self.out: list[Record] = []
        self.parser = parser = expat.ParserCreate(encoding="utf-8", namespace_separator=" ")
        parser.buffer_text = True
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartDoctypeDeclHandler = self.doctype
        parser.EntityDeclHandler = self.entity
        parser.ExternalEntityRefHandler = self.external
        parser.StartNamespaceDeclHandler = self.declared
        self.rooted = False
        self.root_declared: list[str] = []  # namespaces declared on the root (X105 at its line)
        self.container = 0  # the depth of the element entries are children of; 0: none (any more)
        self.channel = False  # an RSS root whose container may still be a <channel>
        self.strays = True  # a feed's other elements are its metadata: no strays
        self.convert: Convert = url_entry
        self.entry_line = 0
        self.foreign: tuple[str, int] | None = None  # X104 (message, line), said once the file is read
        self.last_line = 0  # the line of the last entry: one line for two entries makes the file crowded

    # --- refused: a DTD, entities --------------------------------------------------------
    def doctype(self, name: str, sysid: str | None, pubid: str | None, internal: int) -> None:
        self.refuse()

    def entity(self, name: str, parameter: int, value: str | None, base: str | None, sysid: str | None,
               pubid: str | None, notation: str | None) -> None:
        self.refuse()

    def external(self, context: str, base: str | None, sysid: str | None, pubid: str | None) -> int:
        self.refuse()
        return 0

    def refuse(self) -> None:
        self.report("X102", "the file declares a DOCTYPE (a DTD or entities); sitemaps need none, and it is refused",
                    self.parser.CurrentLineNumber)
        raise _Stop

    # --- elements outside the entries ----------------------------------------------------
    def declared(self, prefix: str | None, uri: str | None) -> None:
        if not self.rooted and uri:
            self.root_declared.append(uri)

    def outside(self, name: str, depth: int) -> int:
        """An element outside any entry: the depth of the entry it starts, or _NO_ENTRY."""
        if depth == 1:
            self.root(name)
        elif depth - 1 == self.container:
            return self.child(name, depth)
        elif depth > MAX_XML_DEPTH:
            self.too_deep()
        return _NO_ENTRY

    def closed(self, depth: int, entry_depth: int, nodes: list[Node], texts: list[str | None]) -> None:
        """The end of an element outside any entry, or of an entry."""
        if depth == entry_depth:
            record = self.convert(Entry(self.entry_line, nodes, texts, depth), self.names)
            if record.line == self.last_line:
                self.facts.crowded = True
            self.last_line = record.line
            self.out.append(record)
        elif depth == self.container:
            self.container = 0  # (an RSS channel's end: items after it are no entries)

    def child(self, name: str, depth: int) -> int:
        """A child of the container: an entry, a stray, or an RSS root's <channel>."""
        line = self.parser.CurrentLineNumber
        local = local_of(name)
        if self.channel:
            self.channel = local not in ENTRY_NAMES
            if name == "channel":
                self.channel = False
                self.container = depth
                return _NO_ENTRY
        if local in ENTRY_NAMES:
            self.entry_line = line
            return depth
        if self.strays:
            self.out.append(Stray(self.names.split(name, line)[1], line))
        return _NO_ENTRY

    def root(self, name: str) -> None:
        """The root element: which kind of file this is, and where its entries are."""
        line = self.parser.CurrentLineNumber
        self.rooted = True
        for uri in self.root_declared:
            self.names.resolve(uri, line)
        namespace, local = self.names.split(name, line)
        facts = self.facts
        self.container = 1
        if namespace == SITEMAP_NS and local in ("urlset", "sitemapindex"):
            facts.kind = local
            self.convert = url_entry if local == "urlset" else index_entry
        elif namespace == "" and local == "rss":
            facts.kind = "rss"
            self.channel, self.strays, self.convert = True, False, rss_item
        elif namespace == ATOM_NS and local == "feed":
            facts.kind = "atom"
            self.strays, self.convert = False, atom_entry
        else:  # (read on, no entry taken: a file that is not well-formed is that first, X101 alone)
            self.container = 0
            self.foreign = (f"the root element is <{local}> in namespace '{namespace}'; a sitemap starts with "
                            f"<urlset xmlns=\"{SITEMAP_NS}\"> (or <sitemapindex>), a feed with <rss> or an Atom "
                            "<feed>", line)

    def too_deep(self) -> None:
        self.report("X101", f"not well-formed XML: elements nest more than {MAX_XML_DEPTH} deep; a sitemap's nest "
                    "four deep", self.parser.CurrentLineNumber)
        raise _Stop


def _handlers(file: _File) -> None:
    """The handlers every element and text goes through, doing little: inside an entry,
    each element is one tuple and its text one slot (the text before its first child).
    Text pieces go to a list by its own append (no Python call); the next start or end
    hands them to the element whose text they are, or drops them (a tail, white space)."""
    parser = file.parser
    nodes: list[Node] = []
    texts: list[str | None] = []
    pieces: list[str] = []
    depth = 0
    entry_depth = _NO_ENTRY
    collecting = False  # the last element started has had no child nor end: text is its

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal depth, entry_depth, collecting
        depth += 1
        if pieces:
            if collecting:
                texts[-1] = "".join(pieces)
            pieces.clear()
        if depth > entry_depth:
            nodes.append((name, attrs, parser.CurrentLineNumber, depth))
            texts.append(None)
            collecting = True
            if depth > MAX_XML_DEPTH:
                file.too_deep()
        else:
            entry_depth = file.outside(name, depth)
            if entry_depth == depth:
                nodes.clear()
                texts.clear()

    def end(name: str) -> None:
        nonlocal depth, entry_depth, collecting
        if pieces:
            if collecting:
                texts[-1] = "".join(pieces)
            pieces.clear()
        collecting = False
        depth -= 1
        if depth < entry_depth:
            file.closed(depth + 1, entry_depth, nodes, texts)
            entry_depth = _NO_ENTRY

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = pieces.append


def read_xml(chunks: Iterator[bytes], facts: FileFacts, report: Report) -> Iterator[Record]:
    """Each entry of an XML sitemap or feed as a record; problems reported, never raised.

    ``facts.kind`` is set from the root element (None when it is no sitemap or feed).
    """
    file = _File(facts, report)
    _handlers(file)
    feed = _Feed(file.parser)
    try:
        for data in _checked(chunks, file, feed):
            feed.parse(data, False)
            if file.out:
                out, file.out = file.out, []
                yield from out
        if facts.complete:  # (else reading stopped early: too large, corrupt gzip, refused; no end to judge)
            feed.parse(b"", True)
            yield from file.out
        if file.foreign is not None:
            report("X104", *file.foreign)
            facts.complete = False
    except _Stop:
        facts.complete = False
        yield from file.out
    except expat.ExpatError as exc:
        facts.complete = False
        yield from file.out
        _not_well_formed(exc, *feed.around_error(), report)
    except UnicodeDecodeError as exc:
        facts.complete = False
        report(*not_utf8(f"the file cannot be read in the encoding it declares: {exc}"), 1)


class _Feed:
    """The bytes handed to the parser (transcoded to UTF-8 from a declared encoding), the
    last two pieces kept: where the parser stopped, they tell what it stopped at."""

    def __init__(self, parser: expat.XMLParserType) -> None:
        self.parser = parser
        self.decode: Callable[[bytes, bool], str] | None = None
        self.previous = self.chunk = b""
        self.offset = 0  # the bytes fed before ``chunk``

    def parse(self, data: bytes, final: bool) -> None:
        self.offset += len(self.chunk)
        self.previous = self.chunk
        self.chunk = data if self.decode is None else self.decode(data, final).encode()
        self.parser.Parse(self.chunk, final)

    def around_error(self) -> tuple[bytes, int]:
        """The last bytes fed, and where in them the parser stopped."""
        return self.previous + self.chunk, self.parser.ErrorByteIndex - (self.offset - len(self.previous))


def _checked(chunks: Iterator[bytes], file: _File, feed: _Feed) -> Iterator[bytes]:
    """The chunks, once their first bytes say the encoding (UTF-16 and UTF-32 refused, another
    declared one read through Python's decoder), and no DOCTYPE stands before the root."""
    prolog = b""
    held: list[bytes] | None = []  # the chunks before the encoding is told; None once it is
    for data in chunks:
        if not file.rooted and len(prolog) < _PROLOG_LIMIT:
            prolog = (prolog + data)[:_PROLOG_LIMIT]
            if held is not None:
                held.append(data)
                if len(prolog) < _HEAD:
                    continue  # (the first bytes are read whole before the encoding is told)
                data, held = b"".join(held), None
                if _refused(prolog, True, feed, file):
                    return
            elif _refused(prolog, False, feed, file):
                return
        yield data
    if held and not _refused(prolog, True, feed, file):  # a file shorter than its head
        yield b"".join(held)


def _refused(prolog: bytes, first: bool, feed: _Feed, file: _File) -> bool:
    """The file is not read: an encoding refused, or a DOCTYPE before the root."""
    if first and not _encoding(prolog, feed, file.report):
        file.facts.complete = False
        return True
    if _has_doctype(prolog):
        file.report("X102", "the file declares a DOCTYPE (a DTD or entities); sitemaps need none, and it is "
                    "refused unread", _line_of(prolog, b"<!DOCTYPE"))
        file.facts.complete = False
        return True
    return False


def _not_well_formed(exc: expat.ExpatError, fed: bytes, at: int, report: Report) -> None:
    """X101 with expat's message and place, or X103 where the bytes there are no UTF-8."""
    line, column = exc.lineno, exc.offset + 1
    message = expat.ErrorString(exc.code) or "error"
    if message.startswith("not well-formed (") and message.endswith(")"):  # (expat's "not well-formed (invalid token)")
        message = message[len("not well-formed ("):-1]
    there = fed[at:at + 4] if 0 <= at < len(fed) else b""
    if there and there[0] >= 0x80 and _bad_utf8(fed[at:at + 4]):
        report(*not_utf8(f"not valid UTF-8: byte 0x{there[0]:02X} at column {column}; save the file as UTF-8"), line)
        return
    report("X101", f"not well-formed XML: {message} (column {column}){_hint(fed, at)}", line)


def _bad_utf8(data: bytes) -> bool:
    """The first character of data is no UTF-8 (a character cut at the end of data is not judged)."""
    for size in (1, 2, 3, 4):
        try:
            data[:size].decode()
            return False
        except UnicodeDecodeError as exc:
            if exc.reason != "unexpected end of data":
                return True
    return True


def _hint(fed: bytes, at: int) -> str:
    """The usual cause of an error, said plainly: a bare '&' where the parser stopped
    (in "?a=1&b=2" it stops after the name that follows the '&')."""
    if not 0 <= at <= len(fed):
        return ""
    before = fed[max(0, at - 256):at].rstrip(_NAME_BYTES)
    if fed[at:at + 1] == b"&" or before.endswith(b"&"):
        return "; a bare '&' (in a URL's query, say) must be written '&amp;' in XML, as '<' is '&lt;'"
    return ""


def _has_doctype(prolog: bytes) -> bool:
    """A DOCTYPE or entity declaration before the root element."""
    match = _ROOT_START.search(prolog)
    before = prolog[: match.start()] if match else prolog
    return b"<!DOCTYPE" in before or b"<!ENTITY" in before


def _line_of(data: bytes, needle: bytes) -> int:
    return data[: max(data.find(needle), 0)].count(b"\n") + 1


def _encoding(prolog: bytes, feed: _Feed, report: Report) -> bool:
    """UTF-8 only: a UTF-16 byte-order mark is an error (X103, not read: False); another
    declared encoding is an error too (X103), and the file is read through its decoder
    where Python has one."""
    if wide_encoding(prolog):
        what = "UTF-32" if prolog.startswith((b"\x00\x00", b"\xff\xfe\x00\x00")) else "UTF-16"
        report(*not_utf8(f"the file is {what}; sitemaps must be UTF-8"), 1)
        return False
    match = _DECLARED_ENCODING.search(prolog[:200])
    if match is None or match.group(1).lower().replace(b"_", b"-") in (b"utf-8", b"utf8"):
        return True
    name = match.group(1).decode()
    try:
        decoder = codecs.getincrementaldecoder(name)()
    except LookupError:
        report(*not_utf8(f"the file declares encoding {name}, which cannot be read; sitemaps must be UTF-8"), 1)
        return False
    report(*not_utf8(f"the file declares encoding {name}; sitemaps must be UTF-8"), 1)
    feed.decode = decoder.decode
    return True
