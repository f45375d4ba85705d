"""Reading sitemaps we did not write: untrusted, so read defensively and as a stream.

* No DTD, no entities, no network: a DOCTYPE is refused before the parser sees it
  (no billion laughs, no XXE), and the parser runs with entity resolution,
  DTD loading and network access off.
* gzip is detected by its magic bytes and inflated as a stream; reading stops at
  52,428,800 uncompressed bytes (a gzip bomb costs one buffer, not its size).
* Elements are handed over one ``<url>`` / ``<sitemap>`` at a time and cleared
  after, so memory does not grow with the file.
"""

from __future__ import annotations

import gzip
import re
import zlib
from dataclasses import dataclass
from typing import IO, Iterator, Union

from lxml import etree

from ..diagnostics import Collector, Where
from ..limits import MAX_BYTES_PER_FILE

CHUNK = 1 << 16
_DECLARED_ENCODING = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


@dataclass(frozen=True, slots=True)
class Root:
    """The root element's start tag (children not yet read)."""

    element: etree._Element
    line: int


@dataclass(frozen=True, slots=True)
class Entry:
    """One child of the root (a <url> or <sitemap>), complete."""

    element: etree._Element
    line: int


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a text sitemap."""

    text: str
    line: int


Event = Union[Root, Entry]


@dataclass
class Status:
    """Set by the readers: whether reading stopped on a fatal problem."""

    failed: bool = False


def open_bytes(path: str, display: str, collector: Collector, status: Status | None = None) -> Iterator[bytes]:
    """The file's bytes (inflated if gzip), in chunks, stopping past the size limit."""
    status = status or Status()
    try:
        raw = open(path, "rb")
    except OSError as exc:
        collector.report("F101", f"cannot read {display}: {exc.strerror or exc}", Where(display))
        status.failed = True
        return
    with raw:
        magic = raw.read(2)
        raw.seek(0)
        stream: IO[bytes] = gzip.GzipFile(fileobj=raw, mode="rb") if magic == b"\x1f\x8b" else raw
        total = 0
        while True:
            try:
                chunk = stream.read(CHUNK)
            except (OSError, EOFError, zlib.error) as exc:
                collector.report("X114", f"gzip data cannot be read ({exc}); the file is corrupt or truncated",
                                 Where(display))
                status.failed = True
                return
            if not chunk:
                return
            total += len(chunk)
            if total > MAX_BYTES_PER_FILE:
                collector.report(
                    "X109", f"more than {MAX_BYTES_PER_FILE:,} bytes uncompressed; the protocol's limit is 50 MiB. "
                    "Reading stopped here: split the file and list the parts in an index", Where(display),
                )
                status.failed = True
                return
            yield chunk


def read_xml(path: str, display: str, collector: Collector, status: Status) -> Iterator[Event]:
    """Root, then each complete child of the root; problems reported, never raised.

    libxml2 filters the events in C: only the end of each ``url`` / ``sitemap``
    element (in any namespace) reaches Python, not one event per element. The
    root comes from the first entry's parent (or from closing the parser when
    there is none); other children of the root are handed over as ``Entry`` too,
    found as the siblings left before an entry or after the last one.
    """
    parser = etree.XMLPullParser(
        events=("end",), tag=("{*}url", "{*}sitemap"), resolve_entities=False, no_network=True, load_dtd=False,
        huge_tree=False, remove_comments=True, remove_pis=True,
    )
    prolog = b""
    root: etree._Element | None = None
    encoding_checked = False
    try:
        for chunk in open_bytes(path, display, collector, status):
            if root is None:
                prolog = (prolog + chunk)[: 1 << 20]
                if not encoding_checked:
                    encoding_checked = True
                    _check_encoding(prolog, display, collector)
                if _has_doctype(prolog):
                    collector.report("X102", "the file declares a DOCTYPE (a DTD or entities); sitemaps need none, "
                                     "and it is refused unread", Where(display, _line_of(prolog, b"<!DOCTYPE")))
                    status.failed = True
                    return
            parser.feed(chunk)
            for _, element in parser.read_events():
                parent = element.getparent()
                if parent is None:
                    continue
                if root is None:
                    if parent.getparent() is not None:
                        continue  # a nested element that happens to be called url
                    root = parent
                    yield Root(root, root.sourceline or 1)
                elif parent is not root:
                    continue
                while True:  # earlier siblings: entries done with, and children we had no event for
                    sibling = element.getprevious()
                    if sibling is None:
                        break
                    if isinstance(sibling.tag, str) and not _is_entry(sibling.tag):
                        yield Entry(sibling, sibling.sourceline or 1)
                    del root[0]
                yield Entry(element, element.sourceline or 1)
                element.clear()
        if status.failed:
            return
        closed = parser.close()
        if root is None:
            root = closed
            yield Root(root, root.sourceline or 1)
        for child in list(root):
            if isinstance(child.tag, str) and not _is_entry(child.tag):
                yield Entry(child, child.sourceline or 1)
    except etree.XMLSyntaxError as exc:
        status.failed = True
        line = exc.lineno or 1
        message = str(exc.msg if hasattr(exc, "msg") else exc)
        if "encoding" in message.lower() or "utf-8" in message.lower():
            collector.report("X103", f"not valid UTF-8: {message}", Where(display, line))
        else:
            collector.report("X101", f"not well-formed XML: {message}", Where(display, line))


def _is_entry(tag: str) -> bool:
    """Named url or sitemap (in any namespace): the elements read_xml has events for."""
    return tag.rpartition("}")[2] in ("url", "sitemap")


_ROOT_START = re.compile(rb"<[^?!]")


def _has_doctype(prolog: bytes) -> bool:
    """A DOCTYPE or entity declaration before the root element."""
    match = _ROOT_START.search(prolog)
    before = prolog[: match.start()] if match else prolog
    return b"<!DOCTYPE" in before or b"<!ENTITY" in before


def _line_of(data: bytes, needle: bytes) -> int:
    return data[: max(data.find(needle), 0)].count(b"\n") + 1


def _check_encoding(prolog: bytes, display: str, collector: Collector) -> None:
    if prolog.startswith((b"\xff\xfe", b"\xfe\xff")):
        collector.report("X103", "the file is UTF-16; sitemaps must be UTF-8", Where(display, 1))
        return
    match = _DECLARED_ENCODING.search(prolog[:200])
    if match and match.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
        collector.report("X103", f"the file declares encoding {match.group(1).decode()}; sitemaps must be UTF-8",
                         Where(display, 1))


def read_text(path: str, display: str, collector: Collector, status: Status) -> Iterator[Line]:
    """Lines of a text sitemap, decoded one at a time (bad bytes reported by line)."""
    pending = b""
    number = 0
    for chunk in open_bytes(path, display, collector, status):
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for raw in lines:
            number += 1
            yield from _text_line(raw, number, display, collector)
    if pending:
        yield from _text_line(pending, number + 1, display, collector)


def _text_line(raw: bytes, number: int, display: str, collector: Collector) -> Iterator[Line]:
    if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8").rstrip("\r")
    except UnicodeDecodeError as exc:
        collector.report("X103", f"line is not valid UTF-8 ({exc.reason})", Where(display, number))
        return
    yield Line(text, number)
