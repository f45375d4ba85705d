"""Files judged on a Dask cluster (``check --dask``, ``check(client=)``).

The check is planned as on one machine (``run.py``): the folder walk, the indexes and
their children, the fixed order results are taken in all stay in this process, the
client's. Only the batches the process pool would judge go to the cluster: each is
judged on a worker by the pool's own function (``workers.work_batch``, which calls
``check_file``), from its paths: the workers read the files (one machine, or storage
every worker sees, as the build on Dask assumes); the client sends paths and options,
never a file's bytes. Results come back as the pool's do (findings, a file's record,
its cluster log) and are taken in the same order, so the findings are the same.

The join across files runs on the workers too (``across``): each batch's cluster log
stays on the worker that made it, and when every file is taken the rules across files
are judged in shares of the URL keys (``rules/cluster_shards.py``), each share a task
(within ``--memory-budget``, spilled on its worker past it); the client merges their
findings. A check that reads built pages or Link headers (whose rules ask the built
site's facts, which the client holds), or draws the coverage picture, takes every log
back here, one at a time in the fixed order, and joins them as on one machine.

This module imports no Dask: it is handed a ``distributed.Client``, made (and closed)
by the build's ``dask_build.driver.connect`` and ``close``.
"""

from __future__ import annotations

import os
import uuid
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from operator import getitem
from typing import TYPE_CHECKING, Any, cast

from ..diagnostics import Code, Collector
from ..read.description_file import display_name
from ..rules.cluster_log import ClusterLog
from ..rules.cluster_shards import (
    Piece,
    Share,
    Split,
    absent,
    context,
    context_again,
    first_holders,
    judge_share,
    merge_shares,
    mixed_lists,
    piece,
    split,
)
from .judge_file import FileResult, Options, Task
from .workers import IN_FLIGHT, Pending, work_batch

if TYPE_CHECKING:
    from ..rules.spill import Budget


class DaskUnsupportedCheck(ValueError):
    """An input a check on Dask cannot hand to its workers (a usage error)."""


class OnDask:
    """The batches of one check sent to a Dask cluster; the registry of codes is sent to
    every worker once (as the pool hands it to each process as it starts), not with
    each batch. At most ``IN_FLIGHT`` batches a worker thread are on the cluster at
    once: the rest wait here, as paths, and go as earlier ones are taken, so the results
    the client has not yet taken never pile up in the workers' memory."""

    def __init__(self, client: Any, registry: dict[str, Code], *, apart: bool = False) -> None:
        self.client = client
        self.apart = apart  # each batch's cluster log kept on its worker, for the join there (``across``)
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
        # (a worker's working folder is its own: it gets each file's absolute path, and the
        # name findings give the file, as this process names it)
        tasks = [replace(task, path=os.path.abspath(task.path), display=task.display or display_name(task.path))
                 for task in tasks]
        batch = _Batch(tasks, replace(options, registry={}))
        self._waiting.append(batch)
        self._send()
        return Pending(lambda: self._take(batch))

    def _send(self) -> None:
        """Batches sent, in the order handed over, while fewer than the window are out."""
        while self._waiting and self._sent < IN_FLIGHT * self.slots():
            self._sent_now(self._waiting.popleft())

    def across(self, logs: list[Any], collector: Collector, budget: Budget | None) -> tuple[int, int]:
        """The rules across files judged on the workers (``across``), their findings merged
        into ``collector``; the distinct URLs listed and the alternates given."""
        settings = {"policy": collector.policy, "limit": collector.limit, "errors_kept": collector.errors_kept,
                    "redactions": collector.redactions, "budget": budget}
        return merge_shares(collector, across(self.client, self._registry_on_workers(), logs, settings))

    def _registry_on_workers(self) -> Any:
        if self._registry is None:
            # (in a list: a dict scattered is its values, each under its key; a key of its own)
            [self._registry] = self.client.scatter([self.registry], broadcast=True, hash=False)
        return self._registry

    def _sent_now(self, batch: _Batch) -> None:
        self._registry_on_workers()
        self._count += 1
        # The task's key names its first file: a worker that dies on it is named in KilledWorker's message.
        key = f"sitemap-ext-judge-{self._token}-{self._count} {batch.tasks[0].path if batch.tasks else ''}"
        batch.future = self.client.submit(judge_on_worker, batch.tasks, batch.options, self._registry, self.apart,
                                          key=key, pure=False)
        self._sent += 1

    def _take(self, batch: _Batch) -> tuple[list[FileResult], ClusterLog | None]:
        if batch.future is None:  # (taken before its turn came: sent now)
            self._waiting.remove(batch)
            self._sent_now(batch)
        assert batch.future is not None
        # (a failed cluster raises here and the check stops: nothing more is sent to it)
        if self.apart:  # (its results here; its log stays on the worker, as a future)
            results = self.client.submit(getitem, batch.future, 0, pure=False)
            done = (cast("list[FileResult]", results.result()),
                    self.client.submit(getitem, batch.future, 1, pure=False))
        else:
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


def judge_on_worker(tasks: list[Task], options: Options, registry: dict[str, Code], apart: bool = False
                    ) -> tuple[list[FileResult], ClusterLog | None]:
    """On a Dask worker: the pool's ``work_batch`` with the registry put back; ``apart``:
    a file's cluster log taken out of its result, as the batch's one log (of many files)."""
    results, log = work_batch(tasks, replace(options, registry=registry))
    if apart:
        for result in results:
            if result.log is not None:
                log, result.log = result.log.of_file(str(result.record["file"])), None
    return results, log


# Logs split together in one task: a task holds its logs at once (a sitemap's is about
# 100 bytes a URL: 16 of 50,000 URLs, some 80 MB).
SPLIT_GROUP = 16
SHARES_PER_THREAD = 1  # shares of the URL keys per worker thread


def across(client: Any, registry: Any, logs: list[Any], settings: dict[str, Any]) -> list[Share]:
    """The rules across files on the workers (``rules/cluster_shards.py``): ``logs`` in the
    order taken (futures of the workers' logs, or logs of this process's files; the list
    is emptied, so that each log is let go once split), each share's findings back
    (``merge_shares`` merges them)."""
    shards = max(1, SHARES_PER_THREAD * sum(client.nthreads().values()))
    given = list(logs)
    logs.clear()
    local = [number for number, log in enumerate(given) if isinstance(log, ClusterLog)]
    if local:
        for number, future in zip(local, client.scatter([given[n] for n in local], hash=False), strict=True):
            given[number] = future
    run = partial(client.submit, pure=False)
    numbered = list(enumerate(given))
    splits = [run(split_logs, numbered[start:start + SPLIT_GROUP], shards)
              for start in range(0, len(numbered), SPLIT_GROUP)]
    numbered.clear()
    given.clear()
    pieces = [[run(piece, done, share) for done in splits] for share in range(shards)]
    splits.clear()
    # (the lists every share examines: held by a URL listed with different alternates)
    mixed = run(set().union, *[run(mixed_lists, pieces[share]) for share in range(shards)])
    firsts = [run(first_holders, pieces[share], shards) for share in range(shards)]
    replies = [run(context, pieces[share], shards) for share in range(shards)]
    asked = [[run(getitem, replies[other], share) for other in range(shards)] for share in range(shards)]
    replies.clear()
    # (the alternates no entry lists: their other spellings asked of the shares owning them)
    wants = [run(owned_absent, pieces[share], asked[share], share, shards) for share in range(shards)]
    more = [run(owned_again, pieces[share], [run(getitem, wants[other], share) for other in range(shards)], shards)
            for share in range(shards)]
    wants.clear()
    settings = dict(settings, registry=registry)
    shares = [run(judge_pieces, pieces[share], [*asked[share], *(run(getitem, more[other], share)
                                                                for other in range(shards)),
                                                *(run(getitem, firsts[other], share) for other in range(shards))],
                  share, shards, settings, mixed) for share in range(shards)]
    firsts.clear()
    pieces.clear()
    asked.clear()
    more.clear()
    return cast("list[Share]", client.gather(shares))


def split_logs(logs: Sequence[tuple[int, ClusterLog | None]], shards: int) -> Split:
    """On a worker: a group of logs split by share (a batch without entries has none)."""
    return split([(number, log) for number, log in logs if log is not None], shards)


def owned_absent(pieces: Sequence[Piece], asked: Sequence[ClusterLog | None], share: int, shards: int
                 ) -> list[dict[int, Any]]:
    """On a worker: what one share asks again (``absent``)."""
    return absent([part for part, *_ in pieces], asked, share, shards)


def owned_again(pieces: Sequence[Piece], asks: Sequence[dict[int, Any]], shards: int) -> list[ClusterLog | None]:
    """On a worker: what one share gives the others again (``context_again``)."""
    return context_again([part for part, *_ in pieces], asks, shards)


def judge_pieces(pieces: Sequence[Piece], asked: Sequence[ClusterLog | None], share: int, shards: int,
                 settings: dict[str, Any], mixed: set[int]) -> Share:
    """On a worker: one share judged (``judge_share``), its own entries and those it asked
    for or was given, within the check's memory budget."""
    return judge_share([part for part, *_ in pieces], asked, share, shards, settings, mixed)
