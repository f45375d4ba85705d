"""The process pool of a build and of a check, and how many processes they may use.

Both take results in the order they handed work over (never as they complete), so
what they write or report is the same for any number of processes.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def default_jobs() -> int:
    """One process per core, at most four. Measured on two cores
    (benchmarks/build_shapes.py, 1,000,000 URLs a shape, medians of 3 in one run),
    two processes beat one on every shape: W 3.8 -> 3.3 s, one locale 8.9 -> 6.8 s,
    non-ASCII paths 6.5 -> 4.0 s, translated slugs 8.0 -> 5.9 s, three hosts 5.7 ->
    4.9 s, 40 locales 12.7 -> 10.4 s, videos 4.2 -> 2.6 s, query strings 3.6 -> 2.9 s.
    A build's sources under 4 MiB, and a check of one file, use one process whatever this says."""
    return min(usable_cores(), 4)


def process_pool(jobs: int, initializer: Callable[..., None] | None = None,
                 initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A pool of ``jobs`` processes, forked where the platform can: a worker starts as a
    copy of this process, with its modules loaded and ``initargs`` in place (not
    pickled), in milliseconds. All of them start at the first task."""
    fork = "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if fork else None)
    return ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=initializer, initargs=initargs)
