"""Where files are judged: in this process, in a pool of worker processes, or on a
Dask cluster (``on_dask.py``, which sends each batch to ``work_batch`` on a worker).

Files go to ``check_file`` in batches: a sitemap alone, built pages by the batch
(their entries in one cluster log). A batch is taken when the check asks for it,
so results are merged in a fixed order whatever the number of jobs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from ..diagnostics import Code, Collector
from ..pool import process_pool
from ..rules.cluster_log import ClusterLog
from .judge_file import FileResult, Options, Task, check_file

if TYPE_CHECKING:  # (the pool loads where one starts: a check of one file starts none)
    from concurrent.futures import ProcessPoolExecutor

    from ..rules.spill import Budget

PAGE_BATCH = 64  # built pages handed to a worker at once
IN_FLIGHT = 8  # batches of pages per worker handed over and not yet taken

# A worker's registry of codes: handed over once, as its pool starts (in place where the
# pool forks), not in the options of every batch (19 KB to pickle each time).
_WORKER_REGISTRY: dict[str, Code] = {}


class Planner(Protocol):
    """What the workers read of a check as each batch is planned."""

    options: Options
    noted: set[tuple[str, str]]


class Pending:
    """A batch of files handed to the workers (or, with one job, to be checked here when
    its turn comes): ``result()`` gives its results and the cluster log its pages share."""

    def __init__(self, run: Callable[[], tuple[list[FileResult], ClusterLog | None]]) -> None:
        self.result = run


class Cluster(Protocol):
    """Workers elsewhere (``on_dask.OnDask``): each batch judged there by ``work_batch``."""

    def slots(self) -> int: ...

    def submit(self, tasks: list[Task], options: Options) -> Pending: ...

    def across(self, logs: list[Any], collector: Collector, budget: Budget | None) -> tuple[int, int]: ...


class Workers:
    """The worker processes of one check (started at the first batch), a cluster's
    workers, or none."""

    def __init__(self, run: Planner, cluster: Cluster | None = None) -> None:
        self.run = run  # (its options as they are when a batch is planned: robots.txt files change them)
        self.pool: ProcessPoolExecutor | None = None
        self.cluster = cluster

    def in_flight(self) -> int | None:
        """How many batches of pages may be handed over and not yet taken (None: they are
        judged when taken, here, so any number)."""
        if self.cluster is not None:
            return IN_FLIGHT * self.cluster.slots()
        return IN_FLIGHT * max(self.run.options.jobs, 1) if self.pool is not None else None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)

    def batch(self, tasks: list[Task], *, alone: bool = False) -> Pending:
        """``tasks`` to check as one batch; in this process when there is one job, or
        when this is the check's one batch (``alone``: a pool would cost more). With a
        cluster, every batch goes there: its workers, not this process, read the files."""
        options = self.run.options
        if self.cluster is not None:
            return self.cluster.submit(tasks, options)
        if self.pool is None and (options.jobs < 2 or alone):
            return Pending(partial(work_batch, tasks, options, self.run.noted))
        if self.pool is None:
            self.pool = process_pool(options.jobs, _start, (options.registry,))
        return Pending(self.pool.submit(_pooled_batch, tasks, replace(options, registry={})).result)

    def plan(self, tasks: list[Task]) -> list[Pending]:
        """Sitemaps, each in a batch of its own (so that large files spread evenly), and
        pages in batches (one message each way per batch, and one cluster log)."""
        batches: list[list[Task]] = []
        for task in tasks:
            if batches and task.page and batches[-1][0].page and len(batches[-1]) < PAGE_BATCH:
                batches[-1].append(task)
            else:
                batches.append([task])
        return [self.batch(batch, alone=len(batches) == 1) for batch in batches]


def work_batch(tasks: list[Task], options: Options, noted: set[tuple[str, str]] | None = None
               ) -> tuple[list[FileResult], ClusterLog | None]:
    """In a worker process: one file, or a batch of built pages (whose entries share one
    cluster log, given back beside their results)."""
    if len(tasks) == 1 and not tasks[0].page:
        return [check_file(tasks[0], options, noted)], None
    log = ClusterLog(dated=options.lastmods)
    return [check_file(task, options, noted, log) for task in tasks], (log if log.keys else None)


def _start(registry: dict[str, Code]) -> None:
    """In a worker, as it starts: the registry its batches' options leave out."""
    _WORKER_REGISTRY.update(registry)


def _pooled_batch(tasks: list[Task], options: Options) -> tuple[list[FileResult], ClusterLog | None]:
    """In a worker process: ``work_batch`` with the options' registry put back."""
    return work_batch(tasks, replace(options, registry=_WORKER_REGISTRY))
