"""The process pool of a build and of a check, and how many processes they may use.

Both take results in the order they handed work over (never as they complete), so
what they write or report is the same for any number of processes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (multiprocessing and the pool load where a pool starts: a small build or check starts none)
    from concurrent.futures import ProcessPoolExecutor


class Sequential(Exception):
    """A parallel run cannot match a sequential one here; run sequentially."""


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def default_jobs() -> int:
    """One process per core, at most four: the most a build or a check may use. Where
    its cores are free, two processes beat one on every shape of
    benchmarks/build_shapes.py (0.3's run on two idle cores: W 3.29 -> 2.73 s, one
    locale 8.18 -> 5.89 s, videos 4.10 -> 2.76 s); where they are busy with other
    work a second process only adds the cost of handing pieces over, so a build starts
    its workers only for cores found spare (``write.parallel.spare_cores``). A build's
    sources under 4 MiB, and a check of one file, use one process whatever this says."""
    return min(usable_cores(), 4)


def can_fork() -> bool:
    """Whether this platform starts a process as a copy of this one."""
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def pool_context() -> Any:
    """The start method of the pool: fork where the platform has it (a worker starts as
    a copy of this process), else the platform's default."""
    import multiprocessing

    return multiprocessing.get_context("fork" if can_fork() else None)


def process_pool(jobs: int, initializer: Callable[..., None] | None = None,
                 initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A pool of ``jobs`` processes, forked where the platform can: a worker starts as a
    copy of this process, with its modules loaded and ``initargs`` in place (not
    pickled), in milliseconds. All of them start at the first task."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=jobs, mp_context=pool_context(), initializer=initializer,
                               initargs=initargs)
