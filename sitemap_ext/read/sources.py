"""Streaming readers for page sources: CSV and JSON Lines, optionally gzipped, and
Parquet (read by ``parquet``, which alone loads pyarrow).

Rows are yielded one at a time with their line number; a source is never
loaded whole. What a row means is the page normaliser's business.
"""

from __future__ import annotations

import csv
import gzip
import json
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, BinaryIO

from ..diagnostics import Collector, Where
from ..limits import MAX_SOURCE_LINE
from ..safeio import Refused, open_regular
from ..structured import Malformed, loads_json
from .description_findings import mixed_forms

if TYPE_CHECKING:
    from _csv import Reader as _CsvReader  # (csv.reader's type, named only in typeshed)

KnownColumn = Callable[[str], bool]

FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def format_of(path: str) -> str | None:
    """A source's format told by its name: .csv, .jsonl or .ndjson (each optionally
    .gz) or .parquet (compressed inside); None for another name."""
    name = path.lower()
    if name.endswith(".parquet"):
        return "parquet"
    if name.endswith(".gz"):
        name = name[:-3]
    for suffix, fmt in FORMATS.items():
        if name.endswith(suffix):
            return fmt
    return None


def _open(path: str) -> BinaryIO | gzip.GzipFile:
    raw = open_regular(path)  # never a FIFO or a device
    if path.lower().endswith(".gz"):
        return gzip.GzipFile(fileobj=raw, mode="rb")
    return raw


def unreadable_source(report: Callable[..., Any], message: str, where: Where) -> None:
    """S101: a source (a file, a built site's folder) that cannot be read."""
    report("S101", message, where)


@dataclass(frozen=True)
class Part:
    """A byte range of a source that starts and ends at line ends (``parallel.split``)."""

    start: int  # offset of its first line
    stop: int  # offset just past its last line
    line: int  # the number of its first line


BLOCK = 1 << 20  # bytes decoded at a time
# Lines as binary iteration gives them: split after "\n" only (not "\r" or U+2028).
_LINES = re.compile(r"[^\n]*\n|[^\n]+")
_RAW_LINES = re.compile(rb"[^\n]*\n|[^\n]+")


def _blocks(stream: BinaryIO | gzip.GzipFile, part: Part | None, header: bool, display: str,
            collector: Collector, meter: list[int] | None, line: list[int]) -> Iterator[Iterable[str]]:
    """The lines of a source (or of a part, after line 1 when that is a ``header`` its
    rows need) as text, a block at a time: a block is decoded in one call, and only a
    block with a bad byte line by line, so that the bad line is reported (S106). A
    BOM is dropped. ``line[0]`` is the number of the last line handed out."""
    number = 1  # of the next line
    position, stop = 0, None
    if part is not None and part.start > 0:
        if header:  # read for its names only: its problems are the first part's to report
            try:
                yield [_strip_bom(stream.readline(MAX_SOURCE_LINE)).decode()]
            except UnicodeDecodeError:
                yield ["\n"]  # as the first part reads it: no columns, so no rows
        stream.seek(part.start)
        number, position = part.line, part.start
    if part is not None:
        stop = part.stop
    first = position == 0
    while True:
        size = BLOCK if stop is None else min(BLOCK, stop - position)
        block = stream.read(size) if size > 0 else b""
        if not block:
            return
        if block[-1:] != b"\n" and (stop is None or position + len(block) < stop):
            block, skipped = _whole_lines(stream, block, display, collector, number)
            position += skipped
            if meter is not None:
                meter[0] += skipped
        position += len(block)
        if meter is not None:
            meter[0] += len(block)
        if first:
            block, first = _strip_bom(block), False
        try:
            lines = _LINES.findall(block.decode())
        except UnicodeDecodeError:
            raw_lines = _RAW_LINES.findall(block)
            yield _decode_lines(raw_lines, number, display, collector)
            number += len(raw_lines)
        else:
            yield lines
            number += len(lines)
        line[0] = number - 1


def _whole_lines(stream: BinaryIO | gzip.GzipFile, block: bytes, display: str, collector: Collector,
                 number: int) -> tuple[bytes, int]:
    """A block read on to the end of its last line, and the bytes skipped beyond it: a
    line longer than any page needs is reported (S109) and read on as an empty line (so
    that the lines after it keep their numbers). ``number``: the block's first line's."""
    rest = stream.readline(MAX_SOURCE_LINE)  # the rest of the block's last line
    block += rest
    if len(rest) != MAX_SOURCE_LINE or rest.endswith(b"\n"):
        return block, 0
    cut = block.rfind(b"\n") + 1
    skipped = len(block) - cut
    while True:
        rest = stream.readline(MAX_SOURCE_LINE)
        skipped += len(rest)
        if not rest or rest.endswith(b"\n"):
            break
    collector.report("S109", f"line is {skipped:,} bytes long, more than {MAX_SOURCE_LINE:,}; "
                     "it is skipped (a page needs far less: is this the right file?)",
                     Where(display, number + block.count(b"\n", 0, cut)))
    return block[:cut] + b"\n", skipped - 1


def _strip_bom(data: bytes) -> bytes:
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def _decode_lines(raw_lines: list[bytes], first: int, display: str, collector: Collector) -> Iterator[str]:
    """Lines decoded one by one as they are taken (a line the reader never takes is
    not reported); ``first`` is the number of the first."""
    for number, raw in enumerate(raw_lines, first):
        try:
            yield raw.decode()
        except UnicodeDecodeError as exc:
            collector.report(
                "S106", f"line is not valid UTF-8 ({exc.reason} at byte {exc.start + 1}); re-save the file as "
                "UTF-8", Where(display, number),
            )
            yield "\n" if raw.endswith(b"\n") else ""


class SourceReader:
    """A source's rows, streamed: ``(values, line)`` with a CSV row's list of values
    (``columns`` holds the header once the first row is out) or a JSON object.

    ``meter[0]`` counts the bytes read (for progress). With ``part``, only the rows
    of that byte range (a CSV's header is still read from line 1, and its problems
    are left to whoever reads the first part).
    """

    def __init__(self, path: str, display: str, fmt: str, collector: Collector, known: KnownColumn,
                 meter: list[int] | None = None, part: Part | None = None, *, source: Where | None = None) -> None:
        self.path, self.display, self.fmt = path, display, fmt
        # What S104 is said once for: the source as described (its entry's place: every
        # part of a folder source is one source), else this file.
        self.once = display if source is None else f"{source.file}:{source.line}:{source.column}"
        self.collector, self.known, self.meter, self.part = collector, known, meter, part
        self.columns: list[str] | None = None

    def __iter__(self) -> Iterator[tuple[Any, int]]:
        collector, display = self.collector, self.display
        if self.fmt == "parquet":
            yield from self._parquet()
            return
        try:
            stream = _open(self.path)
        except (OSError, Refused) as exc:
            unreadable_source(
                collector.report,
                f"source file cannot be read ({getattr(exc, 'strerror', None) or exc}); the path is relative "
                "to the YAML file",
                Where(display),
            )
            return
        part = self.part
        line = [0]
        later = part.line if part is not None and part.start > 0 else None  # a later part's first line
        csv_format = self.fmt == "csv"
        with stream:
            try:
                lines = chain.from_iterable(_blocks(stream, part, csv_format, display, collector, self.meter, line))
                if csv_format:
                    yield from self._csv(lines, later)
                else:
                    yield from _read_jsonl(lines, display, collector, self.known, later or 1, self.once)
            except (OSError, EOFError, zlib.error) as exc:  # a truncated or corrupt .gz
                unreadable_source(collector.report, f"source cannot be read to the end: {exc}",
                                  Where(display, line[0] + 1))

    def _parquet(self) -> Iterator[tuple[list[Any], int]]:
        """A Parquet source's rows (its page-field columns only), each with its row
        number (1-based, in the file), its columns judged as a CSV header's."""
        from .parquet import ParquetPart, Unreadable, missing_pyarrow

        display, report = self.display, self.collector.report
        absent = missing_pyarrow()
        if absent is not None:
            unreadable_source(report, f"source '{display}' cannot be read: {absent}", Where(display))
            return
        row = 0
        try:
            with ParquetPart(self.path) as part:
                header = self._judge_header([name.strip() for name in part.names], None, Where(display))
                if header is None:
                    return
                self.columns = [name for name in header if self.known(name)]
                for row, values in enumerate(part.rows(self.columns, self.meter), 1):
                    yield values, row
        except Unreadable as exc:
            at = exc.row if exc.row is not None else (row + 1 if row else None)
            unreadable_source(report, f"Parquet source cannot be read: {exc.reason}", Where(display, at))

    def _csv(self, stream: Iterable[str], later: int | None) -> Iterator[tuple[list[str], int]]:
        """Rows with the number of their first line; ``later``: the number of the first
        line of a later part, which follows the header read from line 1."""
        lines = iter(stream)
        first = next(lines, "")
        reader = csv.reader(chain((first,), lines), delimiter=delimiter_of(first), strict=True)
        header = self._csv_header(reader, later)
        if header is None:
            return
        self.columns = header
        # A row's line: the reader counts lines it has taken; after a later part's
        # header (line 1) they are the part's.
        yield from self._csv_rows(reader, len(header), later - 2 if later is not None else 0)

    def _csv_header(self, reader: _CsvReader, later: int | None) -> list[str] | None:
        """The columns of a CSV source; None (reported) when there are no rows to read."""
        display, collector = self.display, self.collector
        try:
            header = next(reader)
        except StopIteration:
            return None
        except csv.Error as exc:
            collector.report("S102", f"CSV header cannot be read: {exc}", Where(display, 1))
            return None
        return self._judge_header([name.strip() for name in header], later, Where(display, 1))

    def _judge_header(self, header: list[str], later: int | None, where: Where) -> list[str] | None:
        """A source's columns (a CSV header, a Parquet schema's names) if rows can be read
        by them: with a URL column, each named once (reported at ``where``, unless the
        first part of a CSV, not this ``later`` one, reports them)."""
        collector = self.collector
        has_loc = any(name in ("loc", "path") or name.startswith("url:") for name in header)
        if later is not None:  # the header's problems are the first part's to report
            if not has_loc:
                return None
        else:
            _unknown(header, self.known, self.once, collector, where)
        if not has_loc:
            collector.report(
                "S105",
                f"source has no 'loc' column (columns: {', '.join(header)}); add one with each page's URL",
                where,
            )
            return None
        kind = "Parquet schema" if self.fmt == "parquet" else "CSV header"
        if not _header_usable(header, collector if later is None else None, where, kind):
            return None  # (a later part's header is the first part's to report)
        return header

    def _csv_rows(self, reader: _CsvReader, width: int, offset: int) -> Iterator[tuple[list[str], int]]:
        """The rows of ``width`` fields after the header, each with its line (``offset``
        added to the reader's count); a row of another width is reported (S102)."""
        display, collector = self.display, self.collector
        while True:
            start = reader.line_num + 1 + offset
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                collector.report("S102", f"CSV row cannot be read: {exc}", Where(display, start))
                continue
            if len(row) != width:
                if not row or (len(row) == 1 and not row[0].strip()):
                    continue
                collector.report(
                    "S102",
                    f"CSV row has {len(row)} fields, the header has {width}; quote fields that contain commas",
                    Where(display, start),
                )
                continue
            if width == 1 and not row[0].strip():
                continue
            yield row, start


DELIMITERS = (",", ";", "\t")  # the CSV dialects read: comma, semicolon (Excel in many locales), tab
_QUOTED = re.compile(r'"[^"]*"')


def delimiter_of(header: str) -> str:
    """A CSV's separator, told by its header line (its column names, never a URL): the
    one of ``DELIMITERS`` it holds most of outside quotes; ``,`` when it holds none
    (one column)."""
    return max(DELIMITERS, key=_QUOTED.sub("", header).count)  # (the first of the most: ',' on a tie)


def _header_usable(header: list[str], collector: Collector | None, where: Where, kind: str = "CSV header") -> bool:
    """A CSV header's (or Parquet schema's: ``kind``) own mistakes, reported once at line
    1 (not on every row): a column named twice (which value would count?), and loc beside
    path or url:CODE columns."""
    twice = sorted(name for name, count in Counter(header).items() if name and count > 1)
    if twice:
        if collector is not None:
            collector.report("S102", f"the {kind} names {', '.join(repr(n) for n in twice)} more than once; name "
                             "each column once", where)
        return False
    if "loc" in header and any(name == "path" or name.startswith("url:") for name in header):
        if collector is not None:
            mixed_forms(collector.report, f"the {kind} has a loc column beside path or url:CODE columns; a page "
                             "has either loc (one URL) or path / urls (one URL per locale), not both", where)
        return False
    return True


def _unknown(columns: list[str], known: KnownColumn, once: str, collector: Collector, where: Where) -> None:
    for name in columns:
        if not known(name):
            collector.report("S104", f"column '{name}' is not a page field; it is ignored", where,
                             once=f"S104 {once} {name}")


def _read_jsonl(stream: Iterable[str], display: str, collector: Collector, known: KnownColumn,
                first: int, once: str) -> Iterator[tuple[dict[str, Any], int]]:
    seen_unknown: set[str] = set()
    for number, text in enumerate(stream, first):
        if not text.strip():
            continue
        try:
            obj = loads_json(text.rstrip("\r\n"))
        except Malformed as exc:
            column = exc.column if exc.line == 1 else None
            collector.report("S103", f"line is not valid JSON: {exc.reason}", Where(display, number, column))
            continue
        if not isinstance(obj, dict):
            collector.report("S103", "line must hold one JSON object (one page)", Where(display, number))
            continue
        if ("\\ud" in text or "\\uD" in text) and _lone_surrogate(obj):
            collector.report("S103", "line holds a lone surrogate (an escape such as \\ud800 without its pair), "
                             "which is no character", Where(display, number))
            continue
        fresh = [key for key in obj if key not in seen_unknown and not known(key)]
        if fresh:
            seen_unknown.update(fresh)
            _unknown(fresh, known, once, collector, Where(display, number))
        yield obj, number


def _lone_surrogate(obj: Any) -> bool:
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
