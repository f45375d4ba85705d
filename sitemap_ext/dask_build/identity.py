"""URL identity across partitions, found by a shuffle on the URL key: each partition's
URLs (with ``urls.url_key``, the check's key: two spellings of one URL are one key)
go to the worker that owns their key; there, a key written by more than one partition
is kept by the first partition and is a repeat in every later one. Only the repeats
(rare) come back to the client, as positions in their partition, never the URLs
themselves; the worker that rebuilds a partition reads its repeats' URLs from the
partition's folder (``PartitionBuilt.locs_at``).

The one-machine build drops a URL it wrote before (U104, ``rules.clusters``), where it
comes again; the Dask build gives each later partition its repeats to drop
(``partition.build_partition(seen=)``), so the same rows give the same entries and
the same findings."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Any


def _meta() -> Any:
    pandas = import_module("pandas")
    return pandas.DataFrame({name: pandas.Series([], dtype="int64") for name in ("key", "part", "position")})


def _later(frame: Any) -> Any:
    """In one shuffled partition: the rows of a key that an earlier partition wrote."""
    first = frame.groupby("key")["part"].transform("min")
    return frame.loc[frame["part"] > first]


def _facts(built: Any) -> Any:
    return built.facts()


def repeats(client: Any, built: Sequence[Any]) -> dict[int, list[int]]:
    """For each partition (by number) whose URLs an earlier partition wrote: their
    positions among the URLs it wrote.
    ``built``: the futures of every partition's ``PartitionBuilt``, held by the workers."""
    dd = import_module("dask.dataframe")
    facts = [client.submit(_facts, future, pure=False) for future in built]
    if not facts:
        return {}
    frame = dd.from_delayed(facts, meta=_meta(), verify_meta=False)
    shuffled = frame.shuffle(on="key", npartitions=max(1, frame.npartitions))
    later = client.compute(shuffled.map_partitions(_later, meta=_meta())).result()
    found: dict[int, list[int]] = {}
    for part, position in zip(later["part"], later["position"], strict=True):
        found.setdefault(int(part), []).append(int(position))
    return found
