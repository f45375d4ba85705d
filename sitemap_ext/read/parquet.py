"""Parquet sources, read by pyarrow (the ``parquet`` extra) a record batch at a time.

This is the one module that imports pyarrow, and only when a Parquet source is read:
a build without one loads none of it. A file is checked against the limits before
pyarrow parses it (its footer's size, each row group's size as the footer states it),
then only the page-field columns are read, ``BATCH_ROWS`` rows at a time
(``ParquetFile.iter_batches``), never a whole file.

A row's values are given as JSON Lines would give them (strings, numbers, booleans,
lists), with a null as an empty CSV cell (``""``: no value) and a date or time as its
ISO 8601 text, so a Parquet column means what the CSV column of its name means.
"""

from __future__ import annotations

import datetime
import decimal
import os
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from ..limits import MAX_PARQUET_FOOTER, MAX_PARQUET_ROW_GROUP
from ..safeio import Refused, open_regular

# (Named as the live extra's message names it: the extra, and a command that names no
# package of ours, since an index may hold another's under our name.)
INSTALL = "pyarrow (sitemap-ext's 'parquet' extra), which is not installed: pip install pyarrow"
BATCH_ROWS = 4096  # rows decoded at a time: a few MiB for any page's fields
_MAGIC = b"PAR1"


class Unreadable(Exception):
    """A Parquet file that cannot be read (the reason, and the row reading stopped at)."""

    def __init__(self, reason: str, row: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.row = reason, row


def missing_pyarrow() -> str | None:
    """None when pyarrow can be imported; otherwise what to do about it."""
    try:
        import pyarrow.parquet  # noqa: F401  (imported here only to learn that it can be)
    except ImportError:
        return f"Parquet is read by {INSTALL}"
    return None


def _footer_size(handle: BinaryIO) -> int:
    """The size the file's footer states, checked before pyarrow reads the footer."""
    size = os.fstat(handle.fileno()).st_size
    if size < 12:
        raise Unreadable("it is too short to be a Parquet file")
    handle.seek(size - 8)
    tail = handle.read(8)
    if tail[4:] != _MAGIC:
        raise Unreadable("it does not end with the Parquet marker PAR1 (is it another format, or cut short?)")
    length = int.from_bytes(tail[:4], "little")
    if length > MAX_PARQUET_FOOTER:
        raise Unreadable(f"its footer states {length:,} bytes of metadata, more than {MAX_PARQUET_FOOTER:,}")
    handle.seek(0)
    return length


class ParquetPart:
    """An open Parquet file: its column names, then its rows (``rows``). Raises
    ``Unreadable`` for a file pyarrow cannot read or the limits refuse, and ImportError
    without pyarrow."""

    def __init__(self, path: str) -> None:
        import pyarrow.parquet as pq

        try:
            self._handle = open_regular(path)
        except (OSError, Refused) as exc:
            raise Unreadable(str(getattr(exc, "strerror", None) or exc)) from exc
        try:
            _footer_size(self._handle)
            self._file = pq.ParquetFile(self._handle)
        except (OSError, ValueError) as exc:  # (pyarrow's ArrowInvalid is a ValueError)
            self._handle.close()
            raise Unreadable(f"it cannot be read as Parquet ({exc})") from exc
        except Unreadable:
            self._handle.close()
            raise
        self.names: list[str] = list(self._file.schema_arrow.names)

    def __enter__(self) -> ParquetPart:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._file.close()
        self._handle.close()

    def rows(self, columns: list[str], meter: list[int] | None = None) -> Iterator[list[Any]]:
        """The values of ``columns`` of each row, in order; ``meter[0]`` gets the file's
        bytes as its rows are read (for progress), a batch's share at a time."""
        metadata = self._file.metadata
        first = 1
        for group in range(metadata.num_row_groups):
            stated = metadata.row_group(group).total_byte_size
            if stated > MAX_PARQUET_ROW_GROUP:
                raise Unreadable(f"row group {group + 1} holds {stated:,} bytes uncompressed, more than "
                                 f"{MAX_PARQUET_ROW_GROUP:,}; write smaller row groups (row_group_size=)", first)
            first += metadata.row_group(group).num_rows
        if not columns:
            return
        named = {name.strip(): name for name in self.names}  # (the columns are judged by their stripped names)
        columns = [named.get(column, column) for column in columns]  # (pyarrow skips a name it lacks: no rows)
        row = 1
        size, total = os.fstat(self._handle.fileno()).st_size, max(metadata.num_rows, 1)
        try:
            for batch in self._file.iter_batches(batch_size=BATCH_ROWS, columns=columns, use_threads=False):
                values = [plain_values(batch.column(i).to_pylist()) for i in range(batch.num_columns)]
                for found in zip(*values, strict=True):
                    yield list(found)
                if meter is not None:
                    meter[0] += size * (row - 1 + batch.num_rows) // total - size * (row - 1) // total
                row += batch.num_rows
        except (OSError, ValueError, OverflowError) as exc:  # (a date or time past Python's years 1 to 9999)
            raise Unreadable(f"it cannot be read to the end ({exc})", row) from exc


def _text(value: Any) -> Any:
    """A value as JSON Lines would give it (see the module's docstring)."""
    if value is None:
        return ""
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, list):
        return [_text(item) for item in value]
    if isinstance(value, dict):
        return {key: _text(item) for key, item in value.items()}
    return value


_SAME: tuple[type, ...] = (str, int, float)


def plain_values(values: list[Any]) -> list[Any]:
    """A column's values (``to_pylist()``) as ``_text`` gives them (strings and numbers
    as they are): a Parquet file's, and a program's partitions' (``frames``)."""
    convert: Callable[[Any], Any] = _text
    return [value if type(value) in _SAME else convert(value) for value in values]
