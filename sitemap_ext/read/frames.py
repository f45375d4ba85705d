"""Partitions a program gives (``build(site, pages=[...])``): a pyarrow ``Table`` or
``RecordBatch``, or a pandas ``DataFrame`` (converted by pyarrow's ``from_pandas``, so a
NaN or NaT is no value), read as a source's rows: the same columns, meant as a CSV's
(``url:<code>``, lists written as text) and judged as a CSV header is, the values as
a Parquet file's give them (see ``parquet``). A partition is taken by its type's name
and module, so telling one costs no import; pyarrow is imported only to read one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..diagnostics import Collector, Where
from .sources import KnownColumn, SourceReader, unreadable_source

_KINDS = {("pyarrow", "Table"), ("pyarrow", "RecordBatch"), ("pandas", "DataFrame")}


def is_partition(item: Any) -> bool:
    """Whether ``item`` is a partition: a pyarrow Table or RecordBatch, a pandas DataFrame."""
    kind = type(item)
    return (kind.__module__.partition(".")[0], kind.__name__) in _KINDS


def is_dask_frame(value: Any) -> bool:
    """Whether ``value`` is a Dask DataFrame (told by its type's module: no import)."""
    kind = type(value)
    return kind.__module__.partition(".")[0] in ("dask", "dask_expr") and kind.__name__ == "DataFrame"


class FrameReader(SourceReader):
    """A partition's rows, ``(values, row)`` with its rows numbered from 1, as
    ``SourceReader`` gives a source's (``columns``: its page-field columns)."""

    def __init__(self, item: Any, display: str, collector: Collector, known: KnownColumn) -> None:
        super().__init__("", display, "frame", collector, known)
        self.item = item

    def __iter__(self) -> Iterator[tuple[list[Any], int]]:
        from .parquet import BATCH_ROWS, plain_values

        display = self.display
        try:
            table = _table(self.item)
        except ImportError:
            unreadable_source(self.collector.report, "a partition is read through pyarrow (sitemap-ext's 'parquet' "
                              "extra), which is not installed: pip install pyarrow", Where(display))
            return
        except (TypeError, ValueError, NotImplementedError) as exc:  # (pyarrow's ArrowTypeError, ArrowInvalid:
            # a mixed column; ArrowNotImplementedError: a type it has none for, complex numbers)
            unreadable_source(self.collector.report, f"partition cannot be read as a table: {exc}", Where(display))
            return
        header = self._judge_header([str(name).strip() for name in table.schema.names], None, Where(display))
        if header is None:
            return
        keep = [k for k, name in enumerate(header) if self.known(name)]
        self.columns = [header[k] for k in keep]
        row = 1
        for batch in table.select(keep).to_batches(max_chunksize=BATCH_ROWS):
            try:
                values = [plain_values(batch.column(i).to_pylist()) for i in range(batch.num_columns)]
            except (OverflowError, ValueError) as exc:  # (a date or time past Python's years 1 to 9999)
                unreadable_source(self.collector.report, f"partition cannot be read to the end: {exc}",
                                  Where(display, row))
                return
            for number, found in enumerate(zip(*values, strict=True), row):
                yield list(found), number
            row += batch.num_rows


def _table(item: Any) -> Any:
    """The partition as a pyarrow Table."""
    import pyarrow as pa

    if isinstance(item, pa.Table):
        return item
    if isinstance(item, pa.RecordBatch):
        return pa.Table.from_batches([item])
    return pa.Table.from_pandas(item, preserve_index=False)
