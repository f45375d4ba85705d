"""The client's side of a build on Dask: the site loaded and cut into partitions, each
built on a worker (``partition.build_partition``), the repeats across partitions found
by a shuffle (``identity``) and those partitions built again without them, the index
tree written (``index_tree``), everything committed into the output folder at once by
the one-machine build's commit (``write.output.Staging``: a failed or killed build
leaves the old output whole).

The workers write into the staging folder inside the output folder, so the client and
every worker must see that folder (one machine, or shared storage). The client holds
the site's description, each partition's list of files and its findings; never its
URLs.

Partitions, in the order of the one-machine build: the description's pages (each run
of them one partition), each source (each part of a folder source), each built site,
then each partition of a Dask DataFrame given as ``pages=``, named
``<partition N>:ROW`` as ``build(pages=[frame_1, ..., frame_n])`` names them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
from importlib import import_module
from typing import Any

from ..model import Site as SiteObject
from ..read.frames import is_dask_frame
from ..read.normalised import NormalisedPage, PageStream, Unit
from ..read.normalised import NormalisedSite as Site
from ..write.build import BuildResult, _arguments
from ..write.output import cannot_write
from . import identity
from .partition import PartitionBuilt, build_partition, rebuild
from .steps import DaskUnsupported, Opened, finish_build, open_build


def build_on_dask(path: str | os.PathLike[str] | SiteObject, out_dir: str | os.PathLike[str] | None = None, *,
                  pages: Any = None, client: Any = None, strict: bool = False, dry_run: bool = False,
                  state: Any = None, **options: Any) -> BuildResult:
    """``write.build.build`` with ``client=`` or a Dask DataFrame as ``pages=``
    (``options``: ``steps.open_build``'s)."""
    path = os.fspath(path) if isinstance(path, os.PathLike) else path
    taken = ("gzip", "now", "env", "collector", "allow_read", "max_per_code", "policy")
    for name in options:
        if name not in taken:
            raise TypeError(f"a build on Dask takes no {name}= (it takes {', '.join(taken)})")
    _arguments(path, out_dir, None, options.get("gzip"), dry_run, strict, "fast", options.get("collector"), None,
               options.get("max_per_code"), None, options.get("policy"), options.get("allow_read", ()),
               options.get("env"), state)  # (each of build()'s type and range, as a build here checks them)
    if dry_run or state is not None:
        raise DaskUnsupported("a build on Dask does not support dry_run or state= yet: build without Dask")
    if pages is not None and not is_dask_frame(pages):
        raise DaskUnsupported("a build on Dask takes pages= as a Dask DataFrame")
    opened = open_build(path, out_dir, frames=pages is not None, **options)
    if opened.site is None or opened.staging is None:
        return opened.result
    own = None
    try:
        if client is None:
            own = client = local_client()
        _run(opened, partitions(opened.site, pages), client, strict)
    except (Exception, asyncio.CancelledError) as exc:
        failed = cluster_failure(exc)
        if failed is None:
            raise
        cannot_write(opened.result.collector, opened.result.out_dir, failed)
    finally:
        opened.close()
        if own is not None:
            close(own, True)
    return opened.result


def cluster_failure(exc: BaseException) -> OSError | None:
    """What a build reports (F102, exit 3: nothing committed) for what stopped it: the
    cluster's own failure (``cluster_failed``) said as such; a worker's OSError (a full
    disk) as it is; None for anything else (raised)."""
    said = cluster_failed(exc)
    if said is not None:
        return OSError(f"the Dask cluster failed before the build was done ({said}); nothing was committed, the "
                       "old output is whole: build again (a worker killed for its memory: give the workers more)")
    return exc if isinstance(exc, OSError) else None


def cluster_failed(exc: BaseException) -> str | None:
    """The cluster's own failure, named with its words (a worker that died or that Dask
    gave up on, ``KilledWorker``; the scheduler lost, ``CommClosedError``; work
    cancelled; a timeout of distributed's own), or None for an exception that is not the cluster's."""
    cancelled = (concurrent.futures.CancelledError, asyncio.CancelledError)  # (a TimeoutError may be ours)
    if isinstance(exc, cancelled) or type(exc).__module__.split(".")[0] == "distributed":
        said = " ".join(str(exc).split())
        return f"{type(exc).__name__}: {said[:200]}" if said else type(exc).__name__
    return None


class NoDask(Exception):
    """dask or distributed is not installed (a usage error: install the extra)."""


def connect(scheduler: str, what: str = "a build on Dask") -> Any:
    """A client of the scheduler at ``scheduler`` (``local``: a local cluster). Raises
    NoDask without dask and distributed (``what`` needs them), OSError when the
    scheduler cannot be reached."""
    try:
        client = import_module("distributed").Client
    except ImportError as exc:
        raise NoDask(f"{what} needs dask and distributed ({exc}): pip install 'sitemap-ext[dask]'") from None
    if scheduler == "local":
        return local_client()
    try:
        return client(scheduler, timeout="10s")
    except (TimeoutError, ValueError) as exc:
        raise OSError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from exc


def local_client() -> Any:
    """A ``distributed.LocalCluster`` on this machine's cores, a process each."""
    from ..pool import usable_cores

    distributed = import_module("distributed")
    return distributed.Client(distributed.LocalCluster(n_workers=usable_cores(), threads_per_worker=1, processes=True))


def partitions(site: Site, pages: Any) -> list[tuple[Any, int]]:
    """The site's partitions in build order, each with the number its rows are named by
    (a frame's N in ``<partition N>``; the partition's own number otherwise)."""
    found: list[tuple[Any, int]] = []
    run: list[Unit] = []
    for unit in site.units:
        if isinstance(unit, NormalisedPage):
            run.append(unit)
            continue
        if run:
            found.append((tuple(run), len(found) + 1))
            run = []
        if not isinstance(unit, PageStream):
            found.append(((unit,), len(found) + 1))
    if run:
        found.append((tuple(run), len(found) + 1))
    if pages is not None:
        found += [(frame, number) for number, frame in enumerate(pages.to_delayed(), 1)]
    return found


def _submit(client: Any, site: Site, parts: list[tuple[Any, int]], folder: str, out_dir: str | None,
            settings: dict[str, Any], again: dict[int, tuple[PartitionBuilt, list[int]]] | None = None
            ) -> dict[int, Any]:
    """Each partition built on a worker (or, with ``again``, each partition named in it,
    built again without the URLs at those positions of its first build): its future,
    by its number (1, 2, ... in build order)."""
    delayed = import_module("dask").delayed
    tasks = {}
    for number, (part, shown) in enumerate(parts, 1):
        options = {"out_dir": out_dir, "settings": settings, "shown": shown}
        if again is None:
            where = os.path.join(folder, f"p{number:05d}")
            tasks[number] = delayed(_first_build, pure=False)(site, part, number, where, **options)
        elif number in again:
            first, positions = again[number]
            where = os.path.join(folder, f"p{number:05d}-again")
            tasks[number] = delayed(rebuild, pure=False)(site, part, first, positions, where, **options)
    futures = client.compute(list(tasks.values()))
    return dict(zip(tasks, futures, strict=True))


def _first_build(*args: Any, **options: Any) -> PartitionBuilt:
    """``build_partition`` on the worker, its keys then sorted for the shuffle (``identity``)."""
    return identity.sort_facts(build_partition(*args, **options))


def close(client: Any, own_cluster: bool) -> None:
    """The client closed, and its cluster too when this process started it (``local``),
    even when closing the client fails."""
    try:
        client.close()
    finally:
        if own_cluster:
            client.cluster.close()


def _workers(client: Any) -> int:
    return max(1, len(client.nthreads()))  # (scheduler_info() lists at most 5 workers in some versions)


def _run(opened: Opened, parts: list[tuple[Any, int]], client: Any, strict: bool) -> None:
    site, out_dir = opened.site, opened.result.out_dir
    assert site is not None
    futures = _submit(client, site, parts, opened.folder, out_dir, opened.settings)
    numbers = sorted(futures)
    built: dict[int, PartitionBuilt] = dict(zip(numbers, client.gather([futures[n] for n in numbers]), strict=True))
    del futures
    repeated = identity.repeats(client, list(built.values()), _workers(client))
    if repeated:
        again = {number: (built[number], positions) for number, positions in repeated.items()}
        rebuilt = _submit(client, site, parts, opened.folder, out_dir, opened.settings, again)
        built.update(zip(rebuilt, client.gather(list(rebuilt.values())), strict=True))
    finish_build(opened, [built[number] for number in numbers], strict)
