"""The text-sitemap reader: one absolute URL per line, UTF-8 (sitemaps.org).

Linear in the file's size whatever its shape: blank lines are skipped by one
regular-expression scan per chunk (not a Python step per line), and a line longer
than any URL is reported once and skipped without being gathered.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .record import FileFacts, UrlEntry, Value
from .sniff import Report, not_utf8

# Longer than any URL a sitemap may hold (fewer than 2,048 characters, up to 4
# UTF-8 bytes each) with room for spaces around it.
MAX_LINE = 1 << 14
# A non-blank character: the scan for the next one skips blank lines at C speed.
_CONTENT = re.compile(rb"\S")
_BOM = b"\xef\xbb\xbf"
_LONG = f"a line longer than {MAX_LINE:,} bytes; a text sitemap line holds one URL (fewer than 2,048 characters)"


def read_text(chunks: Iterator[bytes], facts: FileFacts, report: Report) -> Iterator[UrlEntry]:
    """Each non-blank line as a record with its loc; a line of more than one word is X113."""
    facts.kind = "text"
    number = 1  # of the first line in ``carry``
    carry = b""  # the start of a line that continues in the next chunk
    skipping = False  # inside an overlong line: drop bytes up to its end
    first = True
    for chunk in chunks:
        if first:
            chunk, first = chunk[3:] if chunk.startswith(_BOM) else chunk, False
        if skipping:
            end = chunk.find(b"\n")
            if end < 0:
                continue
            chunk, skipping = chunk[end + 1:], False
            number += 1
        buffer = carry + chunk if carry else chunk
        last = buffer.rfind(b"\n")
        if last < 0:
            body, carry = b"", buffer
        else:
            body, carry = buffer[:last + 1], buffer[last + 1:]
        if body:
            yield from _lines(body, number, report)
            number += body.count(b"\n")
        if len(carry) > MAX_LINE:
            report("X113", _LONG, number)
            carry, skipping = b"", True
    if carry and not skipping:
        yield from _lines(carry, number, report)


def _lines(body: bytes, number: int, report: Report) -> Iterator[UrlEntry]:
    """The non-blank lines of ``body`` (whose first line is ``number``)."""
    position = 0  # counted up to here
    search = _CONTENT.search
    match = search(body)
    while match is not None:
        start = body.rfind(b"\n", 0, match.start()) + 1  # the line's start
        number += body.count(b"\n", position, start)
        position = start
        end = body.find(b"\n", start)
        end = end if end >= 0 else len(body)
        yield from _line(body[start:end], number, report)
        match = search(body, end)


def _line(raw: bytes, number: int, report: Report) -> Iterator[UrlEntry]:
    if len(raw) > MAX_LINE:
        report("X113", _LONG, number)
        return
    try:
        text = raw.decode("utf-8").rstrip("\r")
    except UnicodeDecodeError as exc:
        report(*not_utf8(f"line is not valid UTF-8 ({exc.reason})"), number)
        return
    if len(text.split()) > 1:
        report("X113", "a text sitemap line holds one URL and nothing else", number)
        return
    yield UrlEntry(number, (Value(text, number),), source="line")
