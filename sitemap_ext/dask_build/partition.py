"""One partition of a site, built where it is (a Dask worker, a Spark executor): the
one-machine build's normaliser, flow, renderer, writer and judge (``write.build``,
``write.judge``, ``write.files``) over the partition's pages, into files named for the
partition (``sitemap-p00017-3.xml``), so partitions built anywhere never clash and the
same rows give the same bytes.

``build_partition`` is public: a PySpark job calls it from ``mapInPandas`` (see
docs/howto/large-sites.md). It returns a ``PartitionBuilt``: the files written (their
staging paths and final names), the findings, and the URLs written with their keys
(``urls.url_key``) for the check of identity across partitions (``identity``).

``seen``: URLs an earlier partition wrote (found by the shuffle): they are dropped here
as the one-machine build drops a URL it wrote before, with the same U104 at the row.
"""

from __future__ import annotations

import dataclasses
import os
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, cast

from ..codes import REGISTRY
from ..diagnostics import Collector, Diagnostic
from ..read.normalised import Defaults, OutputConfig, PageStream, Unit
from ..read.normalised import NormalisedSite as Site
from ..urls import url_key
from ..write.files import Files
from ..write.judge import BuildJudge, JudgedFiles
from ..write.output import Staging
from ..write.page_flow import PageFlow
from ..write.page_normaliser import PageNormaliser
from ..write.series import WrittenFile
from ..write.xml import Renderer

# What a partition is: some units of the site (its pages, a source or a part of a
# folder source), or a program's frame (a pandas DataFrame, a pyarrow Table).
Partition = Sequence[Unit] | Any


@dataclass
class PartitionBuilt:
    """What one partition's build gives: its files (``paths[i]`` is ``files[i]``'s
    staging path; ``files[i].name`` its name in the output folder), its findings, and
    its URLs with their keys (the facts the shuffle on the URL key takes)."""

    number: int
    files: list[WrittenFile] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    urls: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    suppressed: Counter[str] = field(default_factory=Counter)
    ignored: Counter[str] = field(default_factory=Counter)
    # Its URLs, joined by newlines (no URL written holds one), and their keys: compact
    # while they wait for the shuffle (a list of str costs about 100 bytes a URL more).
    joined: str = ""
    keys: array[int] = field(default_factory=lambda: array("q"))

    def summary(self) -> PartitionBuilt:
        """This result without its URLs: what the client takes."""
        return dataclasses.replace(self, joined="", keys=array("q"))

    @property
    def locs(self) -> list[str]:
        return self.joined.split("\n") if self.joined else []

    def facts(self) -> Any:
        """Its URLs as a pandas DataFrame (key, loc, part), for the shuffle."""
        pandas = import_module("pandas")
        return pandas.DataFrame({"key": pandas.Series(self.keys, dtype="int64"),
                                 "loc": pandas.Series(self.locs, dtype="object"),
                                 "part": pandas.Series([self.number] * len(self.keys), dtype="int64")})


class _Folder:
    """A partition's folder, standing in for the output's ``Staging`` (which only the
    client holds, with the output folder's lock): the writer asks it for paths only."""

    def __init__(self, folder: str) -> None:
        os.makedirs(folder, exist_ok=True)
        self.folder = folder

    def path(self, name: str) -> str:
        full = os.path.join(self.folder, *name.split("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        return full


def part_pattern(pattern: str, number: int) -> str:
    """``sitemap-{n}.xml`` as partition 17's ``sitemap-p00017-{n}.xml``."""
    return pattern.replace("{n}", f"p{number:05d}-{{n}}")


def partition_output(output: OutputConfig, number: int) -> OutputConfig:
    """The output settings a partition writes with: its own names, no index, views,
    robots line or stylesheet of its own (the client writes those for the whole site)."""
    return dataclasses.replace(output, pattern=part_pattern(output.pattern, number),
                               news_pattern=part_pattern(output.news_pattern, number), index="always",
                               index_file=f".index-p{number:05d}.xml", robots=None, html=False, xsl=False)


def build_partition(site: Site, partition: Partition, number: int, folder: str, *, out_dir: str | None = None,
                    seen: Iterable[str] = (), settings: dict[str, Any] | None = None,
                    shown: int | None = None) -> PartitionBuilt:
    """Build partition ``number`` of ``site`` into ``folder`` (made if missing): its
    pages through the one-machine build's pipeline, its files named for it. A frame's
    rows are named ``<partition N>:ROW`` (N = ``shown``, else ``number``), as ``build(pages=[...])``
    names its N-th partition. ``out_dir``: how findings name the output folder;
    ``settings``: the collector's (``policy``, ``redactions``)."""
    from ..write import build as one_machine

    assert site.scope is not None
    collector = Collector(REGISTRY, limit=None, **(settings or {}))
    local = dataclasses.replace(site, output=partition_output(site.output, number), units=())
    files = Files(local, cast(Staging, _Folder(folder)))
    judged = JudgedFiles(BuildJudge(collector, site.now), files, local)
    flow = PageFlow(collector, site.now, Renderer(), [locale.base for locale in site.scope.locales])
    for loc in seen:
        if loc not in flow.seen:
            flow.seen.add(loc)
    normaliser = PageNormaliser(site.scope, collector)
    built = PartitionBuilt(number)
    taken = _Taken(judged, built)
    if isinstance(partition, Sequence):
        units = dataclasses.replace(local, units=tuple(partition))
        built.urls = one_machine._units(units, normaliser, flow, collector, cast(JudgedFiles, taken), None, 1)
    else:
        built.urls = _frame(partition, shown or number, _defaults(site), normaliser, flow, taken)
    moves, written = files.finish(collector)
    judged.finish(out_dir)
    staged = dict((name, path) for path, name in moves)
    for stats in written:
        if stats.kind == "urlset":
            built.files.append(stats)
            built.paths.append(staged[stats.name])
    built.joined = "\n".join(taken.locs)
    built.diagnostics, built.suppressed, built.ignored = collector.diagnostics, collector.suppressed, \
        collector.ignored
    return built


def _defaults(site: Site) -> Defaults:
    """The defaults a program's pages take (those ``build(pages=)`` gives its stream)."""
    return next((unit.defaults for unit in site.units if isinstance(unit, PageStream)), Defaults())


def _frame(frame: Any, number: int, defaults: Defaults, normaliser: PageNormaliser, flow: PageFlow,
           taken: _Taken) -> int:
    from ..write.partition_rows import partition_records

    records = partition_records(frame, number, defaults, normaliser, flow)
    if records is None:
        raise TypeError(f"a partition is a pandas DataFrame or a pyarrow Table, not {type(frame).__name__}")
    urls = 0
    for record in records:
        urls += len(record.locs)
        taken.add(record)
    return urls


class _Taken:
    """The judged files, and each URL written kept with its key (for the shuffle)."""

    def __init__(self, judged: JudgedFiles, built: PartitionBuilt) -> None:
        self.judged = judged
        self.built = built
        self.files = judged.files
        self.judge = judged.judge
        self.locs: list[str] = []

    def add(self, record: Any) -> None:
        self.judged.add(record)
        self.locs.extend(record.locs)
        self.built.keys.extend(url_key(loc) for loc in record.locs)
