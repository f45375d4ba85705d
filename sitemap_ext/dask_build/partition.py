"""One partition of a site, built where it is (a Dask worker, a Spark executor): the
one-machine build's normaliser, flow, renderer, writer and judge (``write.build``,
``write.judge``, ``write.files``) over the partition's pages, into files named for the
partition (``sitemap-p00017-3.xml``), so partitions built anywhere never clash and the
same rows give the same bytes.

``build_partition`` is public: a PySpark job calls it from ``mapInPandas`` (see
docs/howto/large-sites.md). It returns a ``PartitionBuilt``: the files written (their
staging paths and final names), the findings; the URLs written and their keys
(``urls.url_key``) wait in files of its folder for the check of identity across
partitions (``identity``).

``seen``: URLs an earlier partition wrote (found by the shuffle): they are dropped here
as the one-machine build drops a URL it wrote before, with the same U104 at the row.
"""

from __future__ import annotations

import dataclasses
import os
import sys
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
from ..write.output import Staging, staged_path
from ..write.page_flow import PageFlow
from ..write.page_normaliser import PageNormaliser
from ..write.series import WrittenFile
from ..write.xml import Renderer

# What a partition is: some units of the site (its pages, a source or a part of a
# folder source), or a program's frame (a pandas DataFrame, a pyarrow Table).
Partition = Sequence[Unit] | Any


URLS_FILE = ".urls"  # in a partition's folder: its URLs, a line each (never moved into the output)
KEYS_FILE = ".keys"  # and their keys (``urls.url_key``), 8 bytes each


@dataclass
class PartitionBuilt:
    """What one partition's build gives: its files (``paths[i]`` is ``files[i]``'s
    staging path; ``files[i].name`` its name in the output folder), its findings, and
    the folder that holds its URLs and their keys (the facts the shuffle on the URL key
    takes). Small: its URLs and keys stay in files, never in memory."""

    number: int
    folder: str = ""
    files: list[WrittenFile] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    urls: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    suppressed: Counter[str] = field(default_factory=Counter)
    ignored: Counter[str] = field(default_factory=Counter)

    def facts(self) -> Any:
        """Its URLs' keys as a pandas DataFrame (key, part, position): what a shuffle on
        the key takes (a PySpark job's: docs/howto/large-sites.md; the Dask build reads its
        facts file by key range instead, ``identity``)."""
        numpy = import_module("numpy")
        pandas = import_module("pandas")
        keys = numpy.fromfile(os.path.join(self.folder, KEYS_FILE), dtype="<i8")
        return pandas.DataFrame({"key": keys, "part": numpy.full(len(keys), self.number, dtype="int64"),
                                 "position": numpy.arange(len(keys), dtype="int64")})

    def locs_at(self, positions: Iterable[int]) -> list[str]:
        """The URLs at these positions (a URL a line of its file, in the order written)."""
        wanted = set(positions)
        found = []
        with open(os.path.join(self.folder, URLS_FILE), encoding="utf-8", errors="surrogatepass",
                  newline="\n") as handle:
            for position, line in enumerate(handle):
                if position in wanted:
                    found.append(line[:-1])
        return found


class _Folder:
    """A partition's folder, standing in for the output's ``Staging`` (which only the
    client holds, with the output folder's lock): the writer asks it for paths only."""

    def __init__(self, folder: str) -> None:
        os.makedirs(folder, exist_ok=True)
        self.folder = folder

    def path(self, name: str) -> str:
        return staged_path(self.folder, name)


def part_pattern(pattern: str, number: int) -> str:
    """``sitemap-{n}.xml`` as partition 17's ``sitemap-p00017-{n}.xml``."""
    return pattern.replace("{n}", f"p{number:05d}-{{n}}")


def partition_output(output: OutputConfig, number: int) -> OutputConfig:
    """The output settings a partition writes with: its own names, no index, views,
    robots line of its own (the client writes those, and the stylesheet, for the whole site)."""
    return dataclasses.replace(output, pattern=part_pattern(output.pattern, number),
                               news_pattern=part_pattern(output.news_pattern, number), index="always",
                               index_file=f".index-p{number:05d}.xml", robots=None, html=False)


def build_partition(site: Site, partition: Partition, number: int, folder: str, *, out_dir: str | None = None,
                    seen: Iterable[str] = (), settings: dict[str, Any] | None = None,
                    shown: int | None = None) -> PartitionBuilt:
    """Build partition ``number`` of ``site`` into ``folder`` (made if missing): its
    pages through the one-machine build's pipeline, its files named for it. A frame's
    rows are named ``<partition N>:ROW`` (N = ``shown``, else ``number``), as ``build(pages=[...])``
    names its N-th partition. ``out_dir``: how findings name the output folder;
    ``settings``: the client collector's (``policy``, ``redactions``, ``limit``,
    ``errors_kept``: ``steps.Opened.settings``). Of each code the partition keeps what the
    client's collector keeps at most (``limit``, None: all) and counts the rest as
    suppressed, so what it sends is bounded and the client's merge in partition order
    keeps the same first findings; it keeps every once-keyed one, which the merge says
    once over the build (a partition that counted one past its limit would count it
    again where another partition says it)."""
    from ..write import build as one_machine

    assert site.scope is not None
    collector = Collector(REGISTRY, **{"limit": None, **(settings or {})}, once_kept=True)
    local = dataclasses.replace(site, output=partition_output(site.output, number), units=())
    files = Files(local, cast(Staging, _Folder(folder)))
    judged = JudgedFiles(BuildJudge(collector, site.now), files, local)
    flow = PageFlow(collector, site.now, Renderer(), [locale.base for locale in site.scope.locales])
    for loc in seen:
        flow.seen.add(loc)
    normaliser = PageNormaliser(site.scope, collector)
    built = PartitionBuilt(number, folder)
    taken = _Taken(judged, folder)
    try:
        if isinstance(partition, Sequence):
            units = dataclasses.replace(local, units=tuple(partition))
            built.urls = one_machine._units(units, normaliser, flow, collector, cast(JudgedFiles, taken), None, 1)
        else:
            built.urls = _frame(partition, shown or number, _defaults(site), normaliser, flow, taken)
    finally:
        taken.close()
    moves, written = files.finish(collector)
    judged.finish(out_dir)
    staged = dict((name, path) for path, name in moves)
    for stats in written:
        if stats.kind == "urlset":
            built.files.append(stats)
            built.paths.append(staged[stats.name])
    built.diagnostics, built.suppressed, built.ignored = collector.diagnostics, collector.suppressed, \
        collector.ignored
    return built


def rebuild(site: Site, partition: Partition, first: PartitionBuilt, positions: Iterable[int], folder: str,
            **options: Any) -> PartitionBuilt:
    """Partition ``first.number`` built again into ``folder``, without the URLs at
    ``positions`` of its first build (an earlier partition wrote them: the shuffle said)."""
    return build_partition(site, partition, first.number, folder, seen=first.locs_at(positions), **options)


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
    """The judged files, and each URL written kept in the partition's folder with its key
    (for the shuffle)."""

    def __init__(self, judged: JudgedFiles, folder: str) -> None:
        self.judged = judged
        self.files = judged.files
        self.judge = judged.judge
        self.urls = open(os.path.join(folder, URLS_FILE), "w", encoding="utf-8", errors="surrogatepass",  # noqa: SIM115
                         newline="\n")
        self.keys = open(os.path.join(folder, KEYS_FILE), "wb")  # noqa: SIM115 (closed by close())

    def add(self, record: Any) -> None:
        self.judged.add(record)
        locs = record.locs
        self.urls.write("".join(loc + "\n" for loc in locs))
        keys = array("q", [url_key(loc) for loc in locs])
        if sys.byteorder == "big":
            keys.byteswap()  # (the file is little-endian: read on any machine)
        self.keys.write(keys.tobytes())

    def close(self) -> None:
        self.urls.close()
        self.keys.close()
