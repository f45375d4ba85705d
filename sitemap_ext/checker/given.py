"""A check of what a caller gives: paths, URLs, bytes and binary file objects (bytes
and file objects held in files of the check's own), its arguments checked; the public
``check()`` (api.py) and the command line's both start here. A site description among
them is judged by the build's dry run, which loads where one is given: a check of
sitemaps loads no build.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, Union

from .. import arguments
from ..codes import REGISTRY
from ..diagnostics import Code, Collector, Where
from ..limits import MAX_BYTES_PER_FILE, MAX_STORED_PER_CODE
from ..read.http_types import FetchOptions
from ..read.sniff import cannot_read
from ..rules.config import Policy
from .check import CheckResult, check_inputs

if TYPE_CHECKING:
    from ..rules.spill import Budget

Checkable = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]  # what check() reads


def check(paths: Sequence[Checkable] | Checkable, *,
          now: Any = None, base_urls: Sequence[str] = (),
          jobs: int | None = None, policy: Policy | None = None,
          cross_submitted: Sequence[str] = (), allow_read: Sequence[str] = (),
          max_per_code: int | None = MAX_STORED_PER_CODE, only_site_yaml: bool = False,
          coverage: int = 0, html: str = "on", fetch: FetchOptions | None = None,
          pages: int | str | None = 0, delay: float = 0.0,
          progress: Callable[[str], None] | None = None,
          memory_budget: Budget | int | str | None = None, client: Any = None) -> CheckResult:
    """api.check() of paths, URLs, bytes and binary file objects (its docstring says
    what each argument does): each argument of its type (TypeError) and range
    (ValueError), then the check. ``memory_budget``: a size (``"512M"``), a number of
    bytes or a ``Budget`` (its page size and pages kept too): past it, the cluster index
    spills to a private temporary folder; too small to run at all is ValueError
    (``BudgetTooSmall``, with the minimum). ``client``: a ``distributed.Client`` whose
    workers judge the files (``on_dask.py``): it takes paths its workers can read, not
    URLs, bytes or file objects (ValueError)."""
    check_arguments(base_urls, jobs, policy, cross_submitted, allow_read, max_per_code, only_site_yaml, coverage,
                    html, fetch, pages, delay, progress)
    if client is not None:
        refuse_unseen(paths)
    budget = None if memory_budget is None else _budget(memory_budget)
    with tempfile.TemporaryDirectory(prefix="sitemap-ext-check-") as held:
        named, displays = _inputs(paths, held)

        def describe(path: str, given: Any, collector: Collector) -> int:
            from ..write.build import build  # (a site description among the inputs: its dry run)

            return build(path, now=given, dry_run=True, collector=collector, allow_read=allow_read).urls

        try:
            return check_inputs(named, displays, now, base_urls, jobs, policy, cross_submitted, max_per_code,
                                only_site_yaml, coverage, html, fetch, pages, delay, progress, describe,
                                registry=REGISTRY, memory_budget=budget, client=client)
        except BaseException as exc:  # (asyncio's CancelledError is no Exception)
            failed = None if client is None else _cluster_failed(exc, client, policy, max_per_code)
            if failed is None:
                raise
            return failed


def _cluster_failed(exc: BaseException, client: Any, policy: Policy | None, max_per_code: int | None
                    ) -> CheckResult | None:
    """A check whose Dask cluster failed (a worker that died or that Dask gave up on, the
    scheduler lost): F101 at the scheduler's address, exit 3, and no other finding (the
    files were not all judged); None for an exception that is not the cluster's."""
    from ..dask_build.driver import cluster_failed

    said = cluster_failed(exc)
    if said is None:
        return None
    address = getattr(getattr(client, "scheduler", None), "address", None) or "the Dask cluster"
    return cannot_judge(REGISTRY, policy, max_per_code, str(address), f"the cluster failed before the check was "
                        f"done ({said}): check again (a worker killed for its memory: give the workers more)")


def cannot_judge(registry: dict[str, Code], policy: Policy | None, max_per_code: int | None, address: str,
                 reason: str) -> CheckResult:
    """A check that could not run on its Dask cluster (the scheduler not reached, the
    cluster failed before every file was judged): F101 at the scheduler's address, exit 3."""
    result = CheckResult(Collector(registry, policy=policy, limit=max_per_code))
    result.collector.report(*cannot_read("the inputs on the Dask cluster", reason), Where(address))
    return result


def refuse_unseen(paths: Sequence[Checkable] | Checkable) -> None:
    """A check on Dask hands its workers paths to read (shared storage): a URL fetched,
    bytes or a file object held here, would be read where no worker may see it."""
    from ..read.live import is_url
    from .on_dask import DaskUnsupportedCheck

    single = isinstance(paths, (str, bytes, bytearray, memoryview)) or not isinstance(paths, Sequence)
    items: Sequence[object] = [paths] if single else paths  # type: ignore[assignment]
    for item in items:
        if not isinstance(item, (str, os.PathLike)) or is_url(os.fspath(item)):
            what = "URLs" if isinstance(item, str) else "bytes, file objects or standard input"
            raise DaskUnsupportedCheck("a check on Dask takes paths of files and folders its workers can read, "
                                       f"not {what}: check those without Dask")


def _budget(memory_budget: Budget | int | str) -> Budget:
    """A memory budget checked: its type (TypeError), its size, and no less than a spilled
    index keeps whatever its size (``BudgetTooSmall``, a ValueError naming the minimum)."""
    from ..rules.cluster_store import minimum_budget
    from ..rules.spill import Budget, BudgetTooSmall  # (loaded only for a check given a budget)

    budget = Budget.of(memory_budget)
    least = minimum_budget(budget)
    if budget.size < least:
        raise BudgetTooSmall(budget.size, least, "the pages each spilled column keeps")
    return budget


def _inputs(paths: Sequence[Checkable] | Checkable, held: str) -> tuple[list[str], dict[str, str]]:
    """The paths to check, bytes and file objects written into ``held``; the names to
    show for those (``<stdin>``, ``<input 2>``)."""
    if isinstance(paths, (str, os.PathLike, bytes, bytearray, memoryview)) or _readable(paths):
        paths = [paths]  # type: ignore[list-item]
    if not isinstance(paths, Sequence) or not all(isinstance(p, (str, os.PathLike, bytes, bytearray, memoryview))
                                                  or _readable(p) for p in paths):
        raise TypeError("check() takes a path (str or os.PathLike), a URL, bytes, a binary file object, a Site, "
                        "or a list of them")
    displays: dict[str, str] = {}
    named = []
    for number, item in enumerate(paths, 1):
        if isinstance(item, (str, os.PathLike)):
            named.append(os.fspath(item))
            continue
        local = os.path.join(held, f"input-{number}")
        _hold(item, local)
        name = getattr(item, "name", None)  # (sys.stdin.buffer is "<stdin>")
        displays[local] = name if isinstance(name, str) and name.startswith("<") else f"<input {number}>"
        named.append(local)
    return named, displays


def check_arguments(base_urls: Any, jobs: Any, policy: Any, cross_submitted: Any, allow_read: Any, max_per_code: Any,
                    only_site_yaml: Any, coverage: Any, html: Any, fetch: Any, pages: Any, delay: Any,
                    progress: Any, function: str = "check") -> None:
    """check()'s (or diff()'s) keyword arguments, each of its type (TypeError) and range (ValueError)."""
    arguments.choice(function, "html", html, ("on", "drop-ext", "off"))
    for name, value in (("base_urls", base_urls), ("cross_submitted", cross_submitted), ("allow_read", allow_read)):
        arguments.strings(function, name, value)
    bad = next((pair for pair in base_urls if "=" not in pair), None)
    if bad is not None:
        raise ValueError(f"{function}(base_urls=...) takes URL=DIR pairs, not {bad!r}")
    arguments.whole(function, "jobs", jobs, least=1)
    arguments.whole(function, "max_per_code", max_per_code, least=1)
    arguments.whole(function, "coverage", coverage, none=False)
    arguments.flag(function, "only_site_yaml", only_site_yaml)
    arguments.instance(function, "policy", policy, Policy, "a Policy (see config.make_policy)")
    arguments.instance(function, "fetch", fetch, FetchOptions, "a FetchOptions")
    if pages != "all":
        arguments.whole(function, "pages", pages)
    arguments.seconds(function, "delay", delay)
    arguments.callback(function, "progress", progress)


def _readable(item: object) -> bool:
    return hasattr(item, "read") and not isinstance(item, (str, bytes))


def _hold(item: object, local: str) -> None:
    """Bytes or a binary file object written to a file of the check's own, read no
    further than the protocol's limit (and one byte more, so that X109 still says so)."""
    with open(local, "wb") as out:
        if isinstance(item, (bytes, bytearray, memoryview)):
            out.write(bytes(item)[:MAX_BYTES_PER_FILE + 1])
            return
        left = MAX_BYTES_PER_FILE + 1
        while left > 0:
            chunk = item.read(min(left, 1 << 16))  # type: ignore[attr-defined]
            if not chunk:
                return
            if not isinstance(chunk, (bytes, bytearray)):
                raise TypeError("check() takes binary file objects (open(..., 'rb')), not text ones")
            out.write(chunk)
            left -= len(chunk)
