"""The client's steps of a partitioned build, for any engine (the Dask driver, a PySpark
job: docs/howto/large-sites.md):

1. ``open_build``: the site description loaded, the output folder locked and its
   staging folder made (``Opened.folder``: where the partitions write, on storage every
   worker and the client see);
2. ``partition.build_partition`` on each partition, where it is (URLs an earlier
   partition wrote given as ``seen=``: found by a shuffle on ``urls.url_key``);
3. ``finish_build``: the partitions' findings merged in partition order, the index tree
   written, everything committed at once (``write.output.Staging``); ``Opened.close``
   then lets the folder go (a build that never commits leaves the old output whole).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..codes import REGISTRY
from ..diagnostics import Collector, Where
from ..limits import MAX_STORED_PER_CODE
from ..model import Site as SiteObject
from ..read.normalised import NormalisedSite as Site
from ..rules.config import Policy
from ..write.build import BuildResult, _staging, resolve_out_dir
from ..write.files import no_pages
from ..write.output import OutputError, Staging
from ..write.site_yaml import load_site, load_site_data
from .index_tree import write_tree
from .partition import PartitionBuilt


class DaskUnsupported(ValueError):
    """What a partitioned build does not do (yet): a usage error, before anything is read."""


@dataclass
class Opened:
    """A partitioned build under way: its site (None when the description has errors:
    see ``result.collector``), the output folder's staging (None when it cannot be
    had), the result being made."""

    site: Site | None
    staging: Staging | None
    result: BuildResult

    @property
    def folder(self) -> str:
        """The staging folder the partitions write into (each into a folder of its own)."""
        assert self.staging is not None
        return self.staging.folder

    @property
    def settings(self) -> dict[str, Any]:
        """The collector settings a partition's findings are made with: the client's
        limit per code too, so a partition sends no more of a code than the client keeps."""
        collector = self.result.collector
        return {"policy": collector.policy, "redactions": dict(collector.redactions), "limit": collector.limit,
                "errors_kept": collector.errors_kept}

    def close(self) -> None:
        """Let the output folder go (what was not committed is removed)."""
        if self.staging is not None:
            self.staging.discard()


def open_build(path: str | os.PathLike[str] | SiteObject, out_dir: str | os.PathLike[str] | None = None, *,
               frames: bool = False, gzip: bool | None = None, now: str | dt.datetime | dt.date | None = None,
               env: Mapping[str, str] | None = None, collector: Collector | None = None,
               allow_read: Iterable[str] = (), max_per_code: int | None = MAX_STORED_PER_CODE,
               policy: Policy | None = None) -> Opened:
    """Step 1: the site loaded (``frames``: a program gives partitions besides its
    description's pages and sources) and the output folder staged. Raises
    DaskUnsupported for a setting a partitioned build does not write."""
    from ..dates import now_argument

    path = os.fspath(path) if isinstance(path, os.PathLike) else path
    collector = collector if collector is not None else Collector(REGISTRY, policy=policy, limit=max_per_code)
    result = BuildResult(collector)
    moment = now_argument(now)
    stream = () if frames else None
    if isinstance(path, SiteObject):
        site = load_site_data(path.as_yaml(), collector, now=moment, pages=stream)
    else:
        site = load_site(path, collector, env=env, now=moment, allow_read=tuple(allow_read), pages=stream)
    if site is None:
        return Opened(None, None, result)
    if gzip is not None:
        site = dataclasses.replace(site, output=dataclasses.replace(site.output, gzip=gzip))
    unsupported(site)
    result.site = site
    result.out_dir = resolve_out_dir(site, None if out_dir is None else os.fspath(out_dir))
    return Opened(site, _staging(path, result.out_dir, result), result)


def unsupported(site: Site) -> None:
    """DaskUnsupported for a setting a partitioned build does not write."""
    out = site.output
    assert site.scope is not None
    for name, given in (("output.text", out.text), ("output.headers", out.headers is not None),
                        ("output.state", out.state is not None), ("output.versioned", out.versioned),
                        ("pages on several hosts", len(site.scope.origins) > 1)):
        if given:
            raise DaskUnsupported(f"a build on Dask does not support {name} yet: build without --dask")


def finish_build(opened: Opened, summaries: Iterable[PartitionBuilt], strict: bool = False) -> BuildResult:
    """Step 3: every partition's result (``PartitionBuilt``, in any order) merged in
    partition order, the index tree written and the output
    committed, unless the build failed (an error, or a warning when ``strict``)."""
    site, staging, result = opened.site, opened.staging, opened.result
    assert site is not None and staging is not None
    collector = result.collector
    sitemaps, moves = [], []
    for one in sorted(summaries, key=lambda built: built.number):
        collector.merge(one.diagnostics, one.suppressed, one.ignored)
        result.urls += one.urls
        sitemaps += one.files
        moves += [(path, stats.name) for path, stats in zip(one.paths, one.files, strict=True)]
    if result.urls == 0 and collector.errors == 0:
        no_pages(collector, site.file)
    if collector.failed(strict):
        return result
    tree_moves, tree = write_tree(site, staging, sitemaps)
    try:
        result.removed = staging.commit(moves + tree_moves)
    except OutputError as exc:
        collector.report(exc.code, str(exc), Where(result.out_dir))
        result.partial = exc.partial
        return result
    result.files = sitemaps + tree
    return result
