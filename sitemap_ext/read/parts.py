"""A folder of parts (``sources: - file: parts/``): the files a table export wrote,
listed in one order on every machine, and each part's columns.

A part is a regular file below the folder, in any sub-folder (``date=2026-11-01/``, as
Hive-style exports write them; the folder names give no columns). As pyarrow's
datasets do, names that start with ``.`` or ``_`` are not parts (``_SUCCESS``,
``_metadata``, ``.part-0.crc``, ``.DS_Store``), in a file's name or in any folder's
above it; nor is a folder reached by a link. Parts are in the order of their paths
relative to the folder, compared as bytes of UTF-8, which no locale or file system
changes.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from dataclasses import dataclass

from ..limits import MAX_SOURCE_LINE, MAX_SOURCE_PARTS
from ..safeio import Refused, walk_inside
from .sources import _open, delimiter_of


@dataclass(frozen=True, slots=True)
class Listed:
    """A part: its path relative to the folder ('/'-separated), its path, and whether
    a link takes it out of the folder (then the rule of where a source may lie decides)."""

    relative: str
    path: str
    leaves: bool


def _order(relative: str) -> bytes:
    return relative.encode("utf-8", "surrogateescape")  # (a name that is no UTF-8 still sorts one way)


def parts_of(folder: str) -> list[Listed] | None:
    """The parts below ``folder`` in order; None when there are more than
    ``MAX_SOURCE_PARTS`` (the listing stops there)."""
    found: list[Listed] = []
    for listed in _walk(folder):
        if len(found) == MAX_SOURCE_PARTS:
            return None
        found.append(listed)
    return sorted(found, key=lambda part: _order(part.relative))


def _walk(folder: str) -> Iterator[Listed]:
    for path, real in walk_inside(folder):  # (hidden files and folders are passed over there)
        relative = "/".join(os.path.relpath(path, folder).split(os.sep))
        if any(name.startswith("_") for name in relative.split("/")):
            continue
        yield Listed(relative, path, real is None)


def columns_of(path: str, fmt: str) -> list[str] | None:
    """A part's column names (a CSV's header, a Parquet file's schema), None when it has
    none to compare: JSON Lines, an empty file, or one its reader will report."""
    if fmt == "csv":
        return _csv_columns(path)
    if fmt == "parquet":
        from .parquet import ParquetPart, Unreadable  # (pyarrow: only for Parquet parts)

        try:
            with ParquetPart(path) as part:
                return [name.strip() for name in part.names]
        except (Unreadable, ImportError):
            return None
    return None


def _csv_columns(path: str) -> list[str] | None:
    try:
        with _open(path) as stream:
            line = stream.readline(MAX_SOURCE_LINE)
    except (OSError, EOFError, Refused, ValueError):  # (a damaged .gz: its reader reports it)
        return None
    try:
        text = line.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    if not text.strip():
        return None
    try:
        header = next(csv.reader([text], delimiter=delimiter_of(text), strict=True))
    except (csv.Error, StopIteration):
        return None
    return [name.strip() for name in header]
