"""URL identity across partitions, found by a shuffle on the URL key over files: each
partition's worker sorts the keys of the URLs it wrote (``urls.url_key``, the check's
key: two spellings of one URL are one key) into its folder's facts file (``sort_facts``:
(key, position) records, 16 bytes a URL); then each of a few tasks takes one range of
keys, reads that range of every partition's facts file (a binary search and one slice:
it reads its range only) and finds there each key written by more than one partition.
The first partition keeps it; it is a repeat in every later one. No worker holds more
than one range (``RANGE_URLS``) and the client holds no key: only the repeats (rare)
come back to it, as positions in their partition, never the URLs themselves; the worker
that rebuilds a partition reads its repeats' URLs from the partition's folder
(``PartitionBuilt.locs_at``).

The one-machine build drops a URL it wrote before (U104, ``rules.clusters``), where it
comes again; the Dask build gives each later partition its repeats to drop
(``partition.build_partition(seen=)``), so the same rows give the same entries and
the same findings."""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib import import_module
from typing import Any

from .partition import KEYS_FILE, PartitionBuilt

FACTS_FILE = ".facts"  # in a partition's folder: (key, position) records, sorted by key, little-endian
# The keys one range task holds: some 70 bytes each while it sorts them (its slices of the
# facts files, their keys, partitions and positions, the sort's order and sorted copies), so
# some 70 MiB a task, whatever the site's size (a worker measured 210-225 MiB at its peak at
# 1M and 5M URLs, benchmarks/dask_build.py).
RANGE_URLS = 1_000_000
_KEYS = 1 << 64  # url_key is a signed 64-bit integer, blake2b's: spread evenly over its range


def _fact() -> Any:
    return import_module("numpy").dtype([("key", "<i8"), ("position", "<i8")])


def sort_facts(built: PartitionBuilt) -> PartitionBuilt:
    """On the partition's worker, after its build: its keys (in the order written) as
    its facts file, sorted by key (a partition's keys fit in memory: the partition did)."""
    numpy = import_module("numpy")
    keys = numpy.fromfile(os.path.join(built.folder, KEYS_FILE), dtype="<i8")
    order = numpy.argsort(keys, kind="stable")
    facts = numpy.empty(len(keys), dtype=_fact())
    facts["key"] = keys[order]
    facts["position"] = order
    facts.tofile(os.path.join(built.folder, FACTS_FILE))
    return built


def key_ranges(count: int) -> list[tuple[int, int | None]]:
    """``count`` ranges of keys of equal width, covering them all: (first, end) with
    end None for the last (no int64 lies past it)."""
    low = -(1 << 63)
    bounds = [low + _KEYS * k // count for k in range(count)]
    return [(first, bounds[k + 1] if k + 1 < count else None) for k, first in enumerate(bounds)]


def _in_range(path: str, first: int, end: int | None) -> Any:
    """The records of one facts file whose key is in [first, end)."""
    numpy = import_module("numpy")
    if os.path.getsize(path) == 0:
        return numpy.empty(0, dtype=_fact())
    facts = numpy.memmap(path, dtype=_fact(), mode="r")
    keys = facts["key"]
    start = int(numpy.searchsorted(keys, first, side="left"))
    stop = len(keys) if end is None else int(numpy.searchsorted(keys, end, side="left"))
    taken = numpy.array(facts[start:stop])
    del facts
    return taken


def range_repeats(folders: Sequence[tuple[int, str]], first: int, end: int | None) -> dict[int, list[int]]:
    """In one range of keys, over every partition's facts file (``folders``: (number,
    folder), in build order): the positions, by partition, of the keys an earlier partition wrote."""
    numpy = import_module("numpy")
    chunks = [(number, _in_range(os.path.join(folder, FACTS_FILE), first, end)) for number, folder in folders]
    keys = numpy.concatenate([facts["key"] for _, facts in chunks] or [numpy.empty(0, "<i8")])
    if len(keys) == 0:
        return {}
    parts = numpy.concatenate([numpy.full(len(facts), number, dtype="<i8") for number, facts in chunks])
    positions = numpy.concatenate([facts["position"] for _, facts in chunks])
    del chunks
    order = numpy.argsort(keys, kind="stable")  # (stable: a key's rows stay in build order)
    keys, parts, positions = keys[order], parts[order], positions[order]
    starts = numpy.ones(len(keys), dtype=bool)
    starts[1:] = keys[1:] != keys[:-1]
    first_of = numpy.maximum.accumulate(numpy.where(starts, numpy.arange(len(keys)), 0))
    later = parts > parts[first_of]
    found: dict[int, list[int]] = {}
    for part, position in zip(parts[later].tolist(), positions[later].tolist(), strict=True):
        found.setdefault(part, []).append(position)
    return found


def repeats(client: Any, built: Sequence[PartitionBuilt], workers: int = 1) -> dict[int, list[int]]:
    """For each partition (by number) whose URLs an earlier partition wrote: their
    positions among the URLs it wrote (sorted). ``built``: every partition's result, its
    facts file sorted (``sort_facts``); ``workers``: the cluster's, to give each some ranges."""
    urls = sum(one.urls for one in built)
    if urls == 0:
        return {}
    per_worker = max(1, -(-urls // (max(1, workers) * RANGE_URLS)))
    folders = sorted((one.number, one.folder) for one in built)
    tasks = [client.submit(range_repeats, folders, first, end, pure=False)
             for first, end in key_ranges(max(1, workers) * per_worker)]
    found: dict[int, list[int]] = {}
    for one in client.gather(tasks):
        for part, positions in one.items():
            found.setdefault(part, []).extend(positions)
    return {part: sorted(positions) for part, positions in found.items()}
