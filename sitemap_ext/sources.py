"""Streaming readers for page sources: CSV and JSON Lines, optionally gzipped.

Rows are yielded one at a time with their line number; a source is never
loaded whole. What a row means is the page normaliser's business.
"""

from __future__ import annotations

import csv
import gzip
import json
import zlib
from dataclasses import dataclass
from typing import IO, Any, Callable, Iterable, Iterator

from .diagnostics import Collector, Where

Row = tuple[dict[str, Any], Where]
KnownColumn = Callable[[str], bool]

FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def format_of(path: str) -> str | None:
    name = path.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    for suffix, fmt in FORMATS.items():
        if name.endswith(suffix):
            return fmt
    return None


def _open(path: str) -> IO[bytes]:
    if path.lower().endswith(".gz"):
        return gzip.open(path, "rb")
    return open(path, "rb")


@dataclass(frozen=True)
class Part:
    """A byte range of a source that starts and ends at line ends (``parallel.split``)."""

    start: int  # offset of its first line
    stop: int  # offset just past its last line
    line: int  # the number of its first line


def _numbered(stream: IO[bytes], part: Part | None) -> Iterator[tuple[int, bytes]]:
    """Raw lines with their numbers: the whole file, or line 1 (a CSV header) and one part."""
    if part is None or part.start == 0:
        numbered = enumerate(stream, 1)
        if part is None:
            yield from numbered
            return
        position = 0
        for number, raw in numbered:
            yield number, raw
            position += len(raw)
            if position >= part.stop:
                return
        return
    header = stream.readline()
    if header:
        yield 1, header
    stream.seek(part.start)
    position = part.start
    for number, raw in enumerate(stream, part.line):
        yield number, raw
        position += len(raw)
        if position >= part.stop:
            return


def _decoded(lines: Iterable[tuple[int, bytes]], display: str, collector: Collector, line: list[int],
             meter: list[int] | None, second: int) -> Iterator[str]:
    """Lines as text, decoded one at a time so a bad byte is reported on its own line.

    ``line`` is [number of the line last yielded, number of the next one]; ``second``
    is the number of the line after line 1 (a part's first line, when line 1 is only
    its CSV header).
    """
    for number, raw in lines:
        line[1] = number
        if meter is not None:
            meter[0] += len(raw)
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            collector.report(
                "S106", f"line is not valid UTF-8 ({exc.reason} at byte {exc.start + 1}); re-save the file as "
                "UTF-8", Where(display, number),
            )
            text = "\n" if raw.endswith(b"\n") else ""
        line[0] = number
        line[1] = second if number == 1 else number + 1
        yield text


def read_rows(path: str, display: str, fmt: str, collector: Collector, known: KnownColumn,
              meter: list[int] | None = None, part: Part | None = None) -> Iterator[Row]:
    """Rows with their line; ``meter[0]`` counts the bytes read (for progress).

    With ``part``, only the rows of that byte range (a CSV's header is still read
    from line 1, and its problems are left to whoever reads the first part).
    """
    try:
        stream = _open(path)
    except OSError as exc:
        collector.report(
            "S101",
            f"source file cannot be read ({exc.strerror or exc}); the path is relative to the YAML file",
            Where(display),
        )
        return
    reader = _read_csv if fmt == "csv" else _read_jsonl
    line = [0, 1]
    later = part is not None and part.start > 0
    lines = _decoded(_numbered(stream, part), display, collector, line, meter, part.line if later else 2)
    with stream:
        try:
            yield from reader(lines, display, collector, known, line, later)
        except (OSError, EOFError, zlib.error) as exc:  # a truncated or corrupt .gz
            collector.report("S101", f"source cannot be read to the end: {exc}", Where(display, line[0] + 1))


def _unknown(columns: list[str], known: KnownColumn, display: str, collector: Collector, where: Where) -> None:
    for name in columns:
        if not known(name):
            collector.report("S104", f"column '{name}' is not a page field; it is ignored", where,
                             once=f"S104 {display} {name}")


def _read_csv(stream: Iterable[str], display: str, collector: Collector, known: KnownColumn, line: list[int],
              later: bool) -> Iterator[Row]:
    reader = csv.reader(stream, strict=True)
    try:
        header = next(reader)
    except StopIteration:
        return
    except csv.Error as exc:
        collector.report("S102", f"CSV header cannot be read: {exc}", Where(display, 1))
        return
    header = [name.strip() for name in header]
    has_loc = any(name in ("loc", "path") or name.startswith("url:") for name in header)
    if later:  # the header's problems are the first part's to report
        if not has_loc:
            return
    else:
        _unknown(header, known, display, collector, Where(display, 1, None))
    if not has_loc:
        collector.report(
            "S105",
            f"source has no 'loc' column (columns: {', '.join(header)}); add one with each page's URL",
            Where(display, 1),
        )
        return
    width = len(header)
    while True:
        start = line[1]
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            collector.report("S102", f"CSV row cannot be read: {exc}", Where(display, start))
            continue
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        if len(row) != width:
            collector.report(
                "S102",
                f"CSV row has {len(row)} fields, the header has {width}; quote fields that contain commas",
                Where(display, start),
            )
            continue
        yield dict(zip(header, row)), Where(display, start)


def _read_jsonl(stream: Iterable[str], display: str, collector: Collector, known: KnownColumn, line: list[int],
               later: bool) -> Iterator[Row]:
    seen_unknown: set[str] = set()
    for text in stream:
        number = line[0]
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except ValueError as exc:
            collector.report("S103", f"line is not valid JSON: {exc}", Where(display, number))
            continue
        if not isinstance(obj, dict):
            collector.report("S103", "line must hold one JSON object (one page)", Where(display, number))
            continue
        fresh = [key for key in obj if key not in seen_unknown and not known(key)]
        if fresh:
            seen_unknown.update(fresh)
            _unknown(fresh, known, display, collector, Where(display, number))
        yield obj, Where(display, number)
