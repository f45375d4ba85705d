"""The shuffle on the URL key of a build on Dask (``dask_build.identity``) over the
partitions' facts files: each range task reads only its range of keys from every
partition's file, so what one worker holds does not grow with the site; the client is
given the repeats only (positions, never keys or URLs); and what it finds is what a
plain count over every key finds (the first partition keeps a key; each later one
that wrote it has a repeat)."""

from __future__ import annotations

from array import array
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
distributed = pytest.importorskip("distributed")

from sitemap_ext.dask_build import identity  # noqa: E402
from sitemap_ext.dask_build.partition import KEYS_FILE, PartitionBuilt  # noqa: E402


def partitions(folder: Path, keys: list[list[int]]) -> list[PartitionBuilt]:
    """One partition a list of keys (in the order its URLs were written), its facts sorted."""
    built = []
    for number, written in enumerate(keys, 1):
        where = folder / f"p{number:05d}"
        where.mkdir(parents=True)
        (where / KEYS_FILE).write_bytes(array("q", written).tobytes())
        built.append(identity.sort_facts(PartitionBuilt(number, str(where), urls=len(written))))
    return built


def plainly(keys: list[list[int]]) -> dict[int, list[int]]:
    """The repeats, by counting every key in one dictionary."""
    first: dict[int, int] = {}
    found: dict[int, list[int]] = {}
    for number, written in enumerate(keys, 1):
        for position, key in enumerate(written):
            kept = first.setdefault(key, number)
            if kept < number:
                found.setdefault(number, []).append(position)
    return found


BOUNDS = sorted({bound + step for n in range(1, 10) for first, end in identity.key_ranges(n)
                 for bound in (first, end) if bound is not None for step in (-1, 0, 1)
                 if -(1 << 63) <= bound + step < (1 << 63)})  # (each range's bounds and their neighbours)
KEY = st.one_of(st.integers(-(1 << 63), (1 << 63) - 1), st.sampled_from([-(1 << 63), -1, 0, 1, (1 << 63) - 1]),
                st.sampled_from(BOUNDS))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keys=st.lists(st.lists(KEY, max_size=30), min_size=1, max_size=5), ranges=st.integers(1, 9))
def test_the_ranges_find_what_one_count_over_every_key_finds(tmp_path_factory: pytest.TempPathFactory,
                                                            keys: list[list[int]], ranges: int) -> None:
    built = partitions(tmp_path_factory.mktemp("facts"), keys)
    folders = [(one.number, one.folder) for one in built]
    found: dict[int, list[int]] = {}
    for first, end in identity.key_ranges(ranges):
        for part, positions in identity.range_repeats(folders, first, end).items():
            found.setdefault(part, []).extend(positions)
    assert {part: sorted(positions) for part, positions in found.items()} == plainly(keys)


def test_the_ranges_cover_every_key_once() -> None:
    ranges = identity.key_ranges(7)
    assert ranges[0][0] == -(1 << 63) and ranges[-1][1] is None
    assert [end for _, end in ranges[:-1]] == [first for first, _ in ranges[1:]]
    assert all(end is None or first < end for first, end in ranges)


def test_a_range_task_reads_its_range_only(tmp_path: Path) -> None:
    """Of 100,000 keys spread over four partitions, a task of one range in ten holds
    about a tenth: what a worker holds is a range, not the site."""
    rng = np.random.default_rng(7)
    keys = [rng.integers(-(1 << 63), (1 << 63) - 1, 25_000, dtype=np.int64).tolist() for _ in range(4)]
    built = partitions(tmp_path, keys)
    held = []
    for first, end in identity.key_ranges(10):
        held.append(sum(len(identity._in_range(str(Path(one.folder) / identity.FACTS_FILE), first, end))
                        for one in built))
    assert sum(held) == 100_000
    assert max(held) < 12_000
    # What it reads, not only what it gives: a partition's file is 400,000 bytes; a range's
    # slice of it a tenth. (Reading the whole file and filtering it would pass the above.)
    import tracemalloc

    first, end = identity.key_ranges(10)[3]
    tracemalloc.start()
    try:
        identity._in_range(str(Path(built[0].folder) / identity.FACTS_FILE), first, end)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 150_000


def test_the_client_gets_the_repeats_from_as_many_tasks_as_the_site_needs(tmp_path: Path, client: Any,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A range a task per ``RANGE_URLS`` keys, a multiple of the workers: what comes back
    is the repeats' positions, by partition."""
    monkeypatch.setattr(identity, "RANGE_URLS", 10)
    keys = [list(range(0, 60)), list(range(50, 90)), [5, 1000, 85, 2000]]
    built = partitions(tmp_path, keys)
    submitted: list[Any] = []
    real = client.submit

    def counted(*args: Any, **kwargs: Any) -> Any:
        submitted.append(args[0])
        return real(*args, **kwargs)
    monkeypatch.setattr(client, "submit", counted)
    assert identity.repeats(client, built, workers=2) == {2: list(range(10)), 3: [0, 2]}
    assert submitted == [identity.range_repeats] * 12  # 104 keys, 10 a range: 2 workers x 6 ranges


def test_a_partition_still_gives_its_facts_as_a_frame_for_a_pyspark_shuffle(tmp_path: Path) -> None:
    """``PartitionBuilt.facts()`` (docs/howto/large-sites.md's PySpark job) stays: key,
    part, position in the order written."""
    built = partitions(tmp_path, [[9, -3, 7]])[0]
    assert built.facts().to_dict("list") == {"key": [9, -3, 7], "part": [1, 1, 1], "position": [0, 1, 2]}
