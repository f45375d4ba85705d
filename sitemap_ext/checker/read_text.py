"""The text-sitemap reader: one absolute URL per line, UTF-8 (sitemaps.org)."""

from __future__ import annotations

from typing import Iterator

from .record import FileFacts, UrlEntry, Value
from .sniff import Report


def read_text(chunks: Iterator[bytes], facts: FileFacts, report: Report) -> Iterator[UrlEntry]:
    """Each non-blank line as a record with its loc; a line of more than one word is X113."""
    facts.kind = "text"
    pending = b""
    number = 0
    for chunk in chunks:
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for raw in lines:
            number += 1
            yield from _line(raw, number, report)
    if pending:
        yield from _line(pending, number + 1, report)


def _line(raw: bytes, number: int, report: Report) -> Iterator[UrlEntry]:
    if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8").rstrip("\r")
    except UnicodeDecodeError as exc:
        report("X103", f"line is not valid UTF-8 ({exc.reason})", number)
        return
    if not text.strip():
        return
    if len(text.split()) > 1:
        report("X113", "a text sitemap line holds one URL and nothing else", number)
        return
    yield UrlEntry(number, (Value(text, number),), source="line")
