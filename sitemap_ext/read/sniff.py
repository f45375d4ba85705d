"""Opening an input: bounded reads, gzip by its magic bytes, the kind by its content.

A file's name says nothing for sure: ``.txt`` files hold XML, ``.xml`` files hold
gzip. So the kind is told from the bytes: gzip first (``1f 8b``), then the
first non-blank bytes: ``<`` is XML (its root element says which: urlset,
sitemapindex, rss, feed), anything else is text. Reading stops past the
protocol's 52,428,800 bytes uncompressed (a gzip bomb costs one buffer).
"""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from ..limits import MAX_BYTES_PER_FILE
from ..safeio import Refused, open_regular

CHUNK = 1 << 16
_PEEK = 1 << 14
GZIP_MAGIC = b"\x1f\x8b"
_ROOT = re.compile(rb"<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)")
_COMMENT = re.compile(rb"<!--.*?(?:-->|$)", re.DOTALL)
_URL_LINE = re.compile(rb"\s*https?://", re.IGNORECASE)

Report = Callable[..., None]  # report(code, message, line, **extra)


@dataclass(frozen=True, slots=True)
class Sniffed:
    """What a file's first bytes say."""

    kind: str | None  # urlset, sitemapindex, rss, feed, text; other XML roots by name; None: unreadable
    gzipped: bool
    xml: bool
    empty: bool = False  # nothing but blanks (and a byte-order mark): no kind to tell from a name


def sniff(path: str) -> Sniffed:
    """The kind of a file from its first bytes (through gzip); never raises."""
    try:
        with open_regular(path) as raw:
            head = raw.read(_PEEK)
    except (OSError, Refused):
        return Sniffed(None, False, False)
    gzipped = head[:2] == GZIP_MAGIC
    if gzipped:
        try:
            head = zlib.decompressobj(wbits=31).decompress(head, _PEEK)
        except zlib.error:
            return Sniffed(None, True, False)
    return kind_of(head, gzipped)


# The first bytes of '<' in UTF-16 and UTF-32, with or without a byte-order mark
# (XML 1.0 appendix F); none is UTF-8, which sitemaps must be.
_WIDE = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff", b"<\x00", b"\x00<", b"\x00\x00\x00<")


def wide_encoding(head: bytes) -> bool:
    """UTF-16 or UTF-32, told from the first bytes (a BOM, or '<' with NUL bytes beside it)."""
    return head.startswith(_WIDE)


def _decoded(head: bytes) -> str:
    """The first bytes of a UTF-16 or UTF-32 file as text (a cut character replaced)."""
    for mark, codec in ((b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe\x00\x00", "utf-32-le"),
                        (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"), (b"\x00\x00\x00<", "utf-32-be"),
                        (b"<\x00\x00\x00", "utf-32-le"), (b"<\x00", "utf-16-le"), (b"\x00<", "utf-16-be")):
        if head.startswith(mark):
            return head.decode(codec, "replace").lstrip("\ufeff")
    return ""


def kind_of(head: bytes, gzipped: bool = False) -> Sniffed:
    if wide_encoding(head):
        wide = head.replace(b"\x00", b"")
        if b"<" not in wide[:8]:
            return Sniffed("text", gzipped, True)
        # An HTML page in UTF-16 is a page (browsers and engines read it); any other
        # markup in a wide encoding is judged as a sitemap that is not UTF-8 (X103).
        match = _ROOT.search(_COMMENT.sub(b"", _decoded(head).encode("utf-8")))
        return Sniffed("html" if match is not None and match.group(2).lower() == b"html" else "xml-utf16",
                       gzipped, True)
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text.startswith(b"<"):
        return Sniffed("text", gzipped, False, empty=not text)
    match = _ROOT.search(text)
    if match is not None and b"<!--" in text[:match.start()]:  # the root may be inside a comment
        match = _ROOT.search(_COMMENT.sub(b"", text))
    if match is None:
        return Sniffed("xml", gzipped, True)
    name = match.group(2).decode("ascii", "replace")
    return Sniffed("html" if name.lower() == "html" else name, gzipped, True)  # (HTML's names know no case)


SITEMAP_KINDS = ("urlset", "sitemapindex", "rss", "feed")


def is_sitemap(path: str, sniffed: Sniffed) -> bool:
    """Whether a file's content makes it one to judge as a sitemap: a sitemap, an index
    or a feed by its root, XML in UTF-16 (judged, and X103), or text whose first line
    is an http(s) URL, or text in a file named as a sitemap (``sitemap.xml`` that is
    empty, ``sitemap.txt`` that holds prose): it is served as one, so it is judged."""
    return sniffed.kind in SITEMAP_KINDS or sniffed.kind == "xml-utf16" or \
        (sniffed.kind == "text" and (named_as_sitemap(path) or looks_like_text_sitemap(path)))


def named_as_sitemap(path: str) -> bool:
    """A file whose name says sitemap: ``*sitemap*.xml``, ``.txt``, and their ``.gz``."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    name = name[:-3] if name.endswith(".gz") else name
    return "sitemap" in name and name.endswith((".xml", ".txt"))


def looks_like_text_sitemap(path: str) -> bool:
    """A text file whose first non-blank line is an absolute http(s) URL."""
    try:
        with open_regular(path) as raw:
            head = raw.read(_PEEK)
        if head[:2] == GZIP_MAGIC:
            head = zlib.decompressobj(wbits=31).decompress(head, _PEEK)
    except (OSError, Refused, zlib.error):
        return False
    head = head.lstrip(b"\xef\xbb\xbf")
    for line in head.splitlines():
        if line.strip():
            return _URL_LINE.match(line) is not None
    return False


# The findings of reading a file or an answer's bytes: each code made here only, the
# message with it, for ``report(*finding, line)`` (the readers, the HTTP client, the run).

def cannot_read(what: str, reason: str) -> tuple[str, str]:
    """F101: a file that cannot be read (``what`` names it)."""
    return "F101", f"cannot read {what}: {reason}"


def missing(name: str) -> tuple[str, str]:
    """F101: a file named for a check that does not exist."""
    return "F101", f"{name} does not exist"


def not_utf8(message: str) -> tuple[str, str]:
    """X103: bytes that are not UTF-8, or a file that says it is in another encoding."""
    return "X103", message


def too_large() -> tuple[str, str]:
    """X109: a file past the protocol's size, uncompressed (reading stops there)."""
    return "X109", (f"more than {MAX_BYTES_PER_FILE:,} bytes uncompressed; the protocol's limit is 50 MiB. "
                    "Reading stopped here: split the file and list the parts in an index")


def too_large_answer(limit: int) -> tuple[str, str]:
    """X109: an HTTP answer past ``limit`` bytes once its Content-Encoding is undone."""
    return "X109", (f"more than {limit:,} bytes (after Content-Encoding is undone); the protocol's limit is 50 MiB "
                    "uncompressed. Reading stopped here")


def corrupt(exc: BaseException, answer: bool = False) -> tuple[str, str]:
    """X114: gzip data (of a file, or an answer's Content-Encoding) that cannot be undone."""
    if answer:
        return "X114", f"the answer's Content-Encoding cannot be undone ({exc}); it is corrupt"
    return "X114", f"gzip data cannot be read ({exc}); the file is corrupt or truncated"


def truncated_answer() -> tuple[str, str]:
    """X114: an answer whose Content-Encoding ends before its end-of-stream marker."""
    return "X114", ("not read whole: its Content-Encoding (gzip or deflate) ends before its end-of-stream marker, "
                    "so the connection closed before the whole answer came; none of it is judged. Fetch it again; "
                    "if it stays cut, the server or a proxy cuts it")


def open_bytes(path: str, report: Report) -> Iterator[bytes]:
    """The file's bytes (inflated if gzip), in chunks, stopping past the size limit.

    Problems are reported: F101 unreadable, X114 corrupt gzip, X109 too large;
    the caller learns that reading stopped early from the exception-free end of
    the iterator plus ``report`` having been called (see ``Reading``).
    """
    try:
        raw = open_regular(path)  # never a FIFO or a device: they could block or never end
    except Refused as exc:
        report(*cannot_read("the file", f"it is {exc}"), None)
        return
    except OSError as exc:
        report(*cannot_read("the file", f"{exc.strerror or exc}"), None)
        return
    with raw:
        magic = raw.read(2)
        raw.seek(0)
        stream: BinaryIO | gzip.GzipFile = gzip.GzipFile(fileobj=raw, mode="rb") if magic == GZIP_MAGIC else raw
        yield from _chunks(stream, 0, report)


def _chunks(stream: BinaryIO | gzip.GzipFile, total: int, report: Report) -> Iterator[bytes]:
    """The rest of a stream in chunks; ``total`` bytes were given before (the limit counts them)."""
    while True:
        try:
            chunk = stream.read(CHUNK)
        except (OSError, EOFError, zlib.error) as exc:
            report(*corrupt(exc), None)
            return
        if not chunk:
            return
        total += len(chunk)
        if total > MAX_BYTES_PER_FILE:
            report(*too_large(), None)
            return
        yield chunk


class Opened:
    """A plain file opened once to be sniffed and then read: its kind from the bytes
    of its first chunk, which ``chunks`` gives again before the rest."""

    __slots__ = ("sniffed", "_raw", "_first")

    def __init__(self, sniffed: Sniffed, raw: BinaryIO | None, first: bytes) -> None:
        self.sniffed, self._raw, self._first = sniffed, raw, first

    def chunks(self, report: Report) -> Iterator[bytes]:
        raw, self._raw = self._raw, None
        if raw is None:
            return
        with raw:
            if self._first:
                yield self._first
                yield from _chunks(raw, len(self._first), report)

    def close(self) -> None:
        if self._raw is not None:
            self._raw.close()
            self._raw = None


def sniff_open(path: str) -> Opened | None:
    """A file sniffed and kept open for reading, with one opening; None for a gzip
    file or one that cannot be opened (``sniff`` and ``open_bytes`` take those)."""
    try:
        raw = open_regular(path)
    except (OSError, Refused):
        return None
    try:
        first = raw.read(CHUNK)
    except OSError:
        raw.close()
        return None
    if first[:2] == GZIP_MAGIC:
        raw.close()
        return None
    return Opened(kind_of(first[:_PEEK]), raw, first)
