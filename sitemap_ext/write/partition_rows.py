"""A program's partitions (``build(site, pages=[...])``: a pyarrow Table or RecordBatch,
a pandas DataFrame) through the one normaliser and the flow, as a source's rows are:
each is a source of its own, named ``<partition N>`` by its place among the pages
given, its rows numbered from 1 in it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from ..diagnostics import Where
from ..read.frames import FrameReader, is_partition
from ..read.normalised import Defaults, Source
from ..read.normalised import NormalisedSite as Site
from .page_flow import PageFlow, SourceRows
from .page_normaliser import PageNormaliser, source_column
from .xml import RenderedPage as Rendered


def partition_records(item: Any, number: int, defaults: Defaults, normaliser: PageNormaliser,
                      flow: PageFlow) -> Iterator[Rendered] | None:
    """The records of a partition's rows, in order; None when ``item`` is no partition."""
    if not is_partition(item):
        return None
    display = f"<partition {number}>"
    source = Source(path="", display=display, format="frame", defaults=defaults, where=Where(display))
    reader = FrameReader(item, display, normaliser.collector, source_column)
    rows = SourceRows(cast(Site, None), source, normaliser, flow)  # (a source's rows need no site)
    return (record for record in rows.records(reader) if record is not None)
