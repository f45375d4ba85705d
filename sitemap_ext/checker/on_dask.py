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

This module imports no Dask: it is handed a ``distributed.Client``, made (and closed)
by the build's ``dask_build.driver.connect`` and ``close``.
"""

from __future__ import annotations

import uuid
from collections import deque
from dataclasses import dataclass, replace
from typing import Any, cast

from ..diagnostics import Code
from ..rules.cluster_log import ClusterLog
from .judge_file import FileResult, Options, Task
from .workers import IN_FLIGHT, Pending, work_batch


class DaskUnsupportedCheck(ValueError):
    """An input a check on Dask cannot hand to its workers (a usage error)."""


class OnDask:
    """The batches of one check sent to a Dask cluster; the registry of codes is sent to
    every worker once (as the pool hands it to each process as it starts), not with
    each batch. At most ``IN_FLIGHT`` batches a worker thread are on the cluster at
    once: the rest wait here, as paths, and go as earlier ones are taken, so the results
    the client has not yet taken never pile up in the workers' memory."""

    def __init__(self, client: Any, registry: dict[str, Code]) -> None:
        self.client = client
        self._registry: Any = None  # (its future on the workers, sent with the first batch)
        self.registry = registry
        self._slots: int | None = None
        self._waiting: deque[_Batch] = deque()  # handed over, not yet sent, in the order handed
        self._sent = 0  # sent and not yet taken
        self._token = uuid.uuid4().hex[:8]  # (this check's task keys: another client's are others)
        self._count = 0

    def slots(self) -> int:
        """How many batches the cluster judges at once (its workers' threads, asked once)."""
        if self._slots is None:
            self._slots = max(1, sum(self.client.nthreads().values()))
        return self._slots

    def submit(self, tasks: list[Task], options: Options) -> Pending:
        """``tasks`` judged on a worker; ``Pending.result()`` waits for them."""
        batch = _Batch(tasks, replace(options, registry={}))
        self._waiting.append(batch)
        self._send()
        return Pending(lambda: self._take(batch))

    def _send(self) -> None:
        """Batches sent, in the order handed over, while fewer than the window are out."""
        while self._waiting and self._sent < IN_FLIGHT * self.slots():
            self._sent_now(self._waiting.popleft())

    def _sent_now(self, batch: _Batch) -> None:
        if self._registry is None:
            # (in a list: a dict scattered is its values, each under its key; a key of its own)
            [self._registry] = self.client.scatter([self.registry], broadcast=True, hash=False)
        self._count += 1
        # The task's key names its first file: a worker that dies on it is named in KilledWorker's message.
        key = f"sitemap-ext-judge-{self._token}-{self._count} {batch.tasks[0].path if batch.tasks else ''}"
        batch.future = self.client.submit(judge_on_worker, batch.tasks, batch.options, self._registry, key=key,
                                          pure=False)
        self._sent += 1

    def _take(self, batch: _Batch) -> tuple[list[FileResult], ClusterLog | None]:
        if batch.future is None:  # (taken before its turn came: sent now)
            self._waiting.remove(batch)
            self._sent_now(batch)
        assert batch.future is not None
        # (a failed cluster raises here and the check stops: nothing more is sent to it)
        done = cast("tuple[list[FileResult], ClusterLog | None]", batch.future.result())
        batch.future = None
        self._sent -= 1
        self._send()
        return done


@dataclass(slots=True, eq=False)
class _Batch:
    tasks: list[Task]
    options: Options
    future: Any = None  # its future on the cluster once sent


def judge_on_worker(tasks: list[Task], options: Options, registry: dict[str, Code]
                    ) -> tuple[list[FileResult], ClusterLog | None]:
    """On a Dask worker: the pool's ``work_batch`` with the registry put back."""
    return work_batch(tasks, replace(options, registry=registry))
