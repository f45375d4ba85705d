"""Files probed ahead by worker processes (``check --jobs N``).

Most of a clean file's check is its bulk probe (canonical.probe), which reads
nothing other files left behind. So when the checker knows the files it is about
to check (a folder's, an index's children), forked workers each probe a later
share of them and spool what they find, while the main process checks the first
share itself. The main process still takes every file in order: for a probed one
it only records the probe (duplicates across files, the cluster index, I104), so
findings and their order are those of one process. A file a worker could not
take (another shape, something to report, a worker that died) is checked by the
main process as usual.

Workers are forked: they share the main process's hash() seed, which the probes'
URL hashes rely on.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import shutil
import signal
import tempfile
import time
from typing import Any, NamedTuple

from ..site import display_name
from . import canonical
from .bulk import Probe
from .entries import FileState, Shared

MIN_BYTES = 8 << 20  # less than this in all is not worth the processes
MAIN_WEIGHT = 0.6  # the main process also records every probe: it takes a smaller share
SPOOL_BYTES = 1 << 30  # a worker waits while its probes not yet taken hold more (about 5 MB per 50,000 URLs)


class Planned(NamedTuple):
    """A file about to be checked, with what its FileState is made of."""

    path: str
    url: str | None
    submitted: bool


def default_jobs() -> int:
    """Two where two cores are there to use (measured: benchmarks/run.py), else one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return 2 if cores >= 2 else 1


class Ahead:
    """Workers probing the later files of a plan; ``take(path)`` in the main process."""

    def __init__(self, plan: list[Planned], shared: Shared, jobs: int) -> None:
        self.workers: list[tuple[Any, Any]] = []  # (process, connection)
        self.share_of: dict[Planned, tuple[int, int]] = {}  # file -> (worker, place in the plan)
        self.ready: dict[int, bool] = {}  # place -> whether a probe was spooled
        self.share: dict[int, int] = {}  # place -> worker
        self.folder: str | None = None
        shares = _shares(plan, jobs)
        if not shares:
            return
        try:
            self.folder = tempfile.mkdtemp(prefix="sitemap-ext-check-")
            context = multiprocessing.get_context("fork")
            for number, share in enumerate(shares):
                receiving, sending = context.Pipe(duplex=False)
                os.mkdir(os.path.join(self.folder, str(number)))  # each worker's own spool
                process = context.Process(target=_work, daemon=True,
                                          args=(share, shared, os.path.join(self.folder, str(number)), sending))
                process.start()
                sending.close()
                self.workers.append((process, receiving))
                for place, planned in share:
                    self.share_of.setdefault(planned, (number, place))
                    self.share[place] = number
        except OSError:  # no temporary folder, no fork: the main process checks what is not taken
            pass

    def take(self, planned: Planned) -> Probe | None | bool:
        """A worker's probe of the file (with that URL and submission: what its state
        is made of); None when it found the file not clean; False when no worker
        probed it so (the main process then does all)."""
        found = self.share_of.pop(planned, None)
        if found is None:
            return False
        number, place = found
        connection = self.workers[number][1]
        # Files are taken in the plan's order: a probe of this worker's before this
        # place that is still here will not be taken (its file was checked already),
        # and goes at once, so that the worker, if it waits for room, goes on.
        for skipped in [other for other in self.ready if other < place and self.share[other] == number]:
            self._drop(skipped)
        while place not in self.ready:
            try:
                done, spooled = connection.recv()
            except (EOFError, OSError):
                return False  # the worker is gone: the main process checks the file
            self.ready[done] = spooled
            if done < place:
                self._drop(done)
        if not self.ready.pop(place):
            return None
        spool = self._spool(place)
        try:
            with open(spool, "rb") as handle:
                probed: Probe = pickle.load(handle)
            os.unlink(spool)
        except (OSError, pickle.UnpicklingError, EOFError):
            return False
        return probed

    def _drop(self, place: int) -> None:
        if self.ready.pop(place):
            with contextlib.suppress(OSError):
                os.unlink(self._spool(place))

    def _spool(self, place: int) -> str:
        return os.path.join(self.folder or "", str(self.share[place]), f"{place}.pickle")

    def close(self) -> None:
        for process, connection in self.workers:
            connection.close()
            if process.is_alive():
                process.terminate()
            process.join()
        self.workers = []
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def __enter__(self) -> Ahead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _shares(plan: list[Planned], jobs: int) -> list[list[tuple[int, Planned]]]:
    """The workers' shares: contiguous runs of the plan after the main process's own,
    by size. None at all when there is one job, little to do, or no fork here."""
    if jobs < 2 or len(plan) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return []
    sizes = []
    for planned in plan:
        try:
            sizes.append(os.path.getsize(planned.path))
        except OSError:
            sizes.append(0)
    total = sum(sizes)
    if total < MIN_BYTES:
        return []
    main_bytes = total * MAIN_WEIGHT / (MAIN_WEIGHT + jobs - 1)
    per_worker = (total - main_bytes) / (jobs - 1)
    shares: list[list[tuple[int, Planned]]] = [[] for _ in range(jobs - 1)]
    before = 0
    for place, (planned, size) in enumerate(zip(plan, sizes)):
        middle = before + size / 2  # a file goes to the share its middle falls in
        if middle >= main_bytes:
            shares[min(int((middle - main_bytes) // per_worker), jobs - 2)].append((place, planned))
        before += size
    return [share for share in shares if share]


def _work(share: list[tuple[int, Planned]], shared: Shared, folder: str, connection: Any) -> None:
    """A worker: probe each file of its share in order, spool each probe in its own
    folder, and say so; wait while its probes not yet taken hold more than
    SPOOL_BYTES (the main process takes them in order, so it never waits for this)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle (it ends workers)
    parent = os.getppid()
    try:
        for place, planned in share:
            while _spooled(folder) > SPOOL_BYTES:
                if os.getppid() != parent:
                    return  # the main process is gone
                time.sleep(0.02)
            state = FileState(display_name(planned.path), planned.url, shared, submitted=planned.submitted)
            try:
                probed = canonical.probe(planned.path, state)
            except Exception:  # whatever it was, the main process checks the file and reports it
                probed = None
            if probed is not None:
                spool = os.path.join(folder, f"{place}.pickle")
                with open(spool + ".part", "wb") as handle:
                    pickle.dump(probed, handle, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(spool + ".part", spool)
            connection.send((place, probed is not None))
    except Exception:  # a full disk, say: the main process checks the rest itself
        pass
    finally:
        connection.close()


def _spooled(folder: str) -> int:
    """Bytes of the probes in a worker's spool folder."""
    total = 0
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            with contextlib.suppress(OSError):
                total += entry.stat().st_size
    return total
