"""Files judged on a Dask cluster (``check --dask``, ``check(client=)``).

The check is planned as on one machine (``run.py``): the folder walk, the indexes and
their children, the fixed order results are taken in all stay in this process, the
client's. Only the batches the process pool would judge go to the cluster: each is
judged on a worker by the pool's own function (``workers.work_batch``, which calls
``check_file``), from its paths: the workers read the files (one machine, or storage
every worker sees, as the build on Dask assumes); the client sends paths and options,
never a file's bytes. Results come back as the pool's do (findings, a file's record,
its cluster log) and are taken in the same order, so the findings are the same.

The cluster index stays on the client (``results.Results``), within ``--memory-budget``
as on one machine: the join across files runs here, when every file is taken.

This module imports no Dask: it is handed a ``distributed.Client``. The client is
made by the build's ``dask_build.driver.connect`` (``connect`` below says what a check
needs first).
"""

from __future__ import annotations

from dataclasses import replace
from importlib import import_module
from typing import Any

from ..diagnostics import Code
from ..rules.cluster_log import ClusterLog
from .judge_file import FileResult, Options, Task
from .workers import Pending, work_batch


class DaskUnsupportedCheck(ValueError):
    """An input a check on Dask cannot hand to its workers (a usage error)."""


def connect(scheduler: str) -> Any:
    """A client of ``scheduler`` (``local``: a cluster on this machine's cores), by the
    build's ``connect``: ``NoDask`` (a usage error) without dask and distributed,
    OSError when the scheduler cannot be reached."""
    from ..dask_build.driver import NoDask
    from ..dask_build.driver import connect as connect_cluster

    try:
        import_module("distributed")
    except ImportError as exc:
        raise NoDask(f"--dask needs dask and distributed ({exc}): pip install 'sitemap-ext[dask]'") from None
    return connect_cluster(scheduler)


def close(client: Any, own_cluster: bool) -> None:
    """The client closed, and the cluster too when the check started it (``local``)."""
    client.close()
    if own_cluster:
        client.cluster.close()


class OnDask:
    """The batches of one check sent to a Dask cluster; the registry of codes is sent to
    every worker once (as the pool hands it to each process as it starts), not with
    each batch."""

    def __init__(self, client: Any, registry: dict[str, Code]) -> None:
        self.client = client
        self._registry: Any = None  # (its future on the workers, sent with the first batch)
        self.registry = registry
        self._slots: int | None = None

    def slots(self) -> int:
        """How many batches the cluster judges at once (its workers' threads, asked once)."""
        if self._slots is None:
            self._slots = max(1, sum(self.client.nthreads().values()))
        return self._slots

    def submit(self, tasks: list[Task], options: Options) -> Pending:
        """``tasks`` judged on a worker; ``Pending.result()`` waits for them."""
        if self._registry is None:
            # (in a list: a dict scattered is its values, each under its key; a key of its own)
            [self._registry] = self.client.scatter([self.registry], broadcast=True, hash=False)
        future = self.client.submit(judge_on_worker, tasks, replace(options, registry={}), self._registry,
                                    pure=False)
        return Pending(future.result)


def judge_on_worker(tasks: list[Task], options: Options, registry: dict[str, Code]
                    ) -> tuple[list[FileResult], ClusterLog | None]:
    """On a Dask worker: the pool's ``work_batch`` with the registry put back."""
    return work_batch(tasks, replace(options, registry=registry))
