"""Build: site description -> pages (streamed) -> checks -> files, committed atomically.

The build judges nothing of its own: every finding about a page comes from the rule
module that owns its code (``rules/values`` for dates, changefreq and priority,
``rules/hreflang`` for a cluster's codes, ``rules/clusters`` for duplicates, ...),
called by the normaliser with the page's place, and what a rule says cannot be
written is left out by the predicate the same module exposes. The findings go
through the same ``Policy`` as a check's (``policy=``; the CLI reads the config file).

Nothing is held per page after it is written but a hash of each URL, for the
duplicate check. The output folder changes only when the whole build succeeded.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import arguments
from ..codes import REGISTRY
from ..dates import now_argument
from ..diagnostics import Collector, Where, unknown_keys
from ..folder import StateError, report_set_aside
from ..limits import MAX_STORED_PER_CODE
from ..pool import Sequential, default_jobs
from ..read.description_file import OBJECTS
from ..read.normalised import BuiltSite, PageStream, Source
from ..read.normalised import NormalisedPage as Page
from ..read.normalised import NormalisedSite as Site
from ..read.sources import Part, SourceReader
from ..rules.config import Policy
from ..write.site_yaml import load_site, load_site_data
from .files import Files, no_pages
from .judge import BuildJudge, JudgedFiles
from .output import OutputError, Staging, cannot_write, owner_key
from .page_flow import PageFlow, SourceRows
from .page_normaliser import PAGE_KEYS, PageNormaliser, source_column
from .progress import Meter as _Meter  # (the tests set its interval here)
from .progress import Progress
from .series import WrittenFile
from .state import BuildState, open_state
from .xml import ENGINES, Renderer, deprecated_engine
from .xml import RenderedPage as Rendered

if TYPE_CHECKING:  # (the public model loads where objects are given: a build from a description loads none)
    from ..model import Page as PageObject
    from ..model import Site as SiteObject

DEFAULT_OUT_DIR = "sitemaps"


@dataclass
class BuildResult:
    """What a build did: its findings (``collector``), the files written (each with
    its name, URL count and bytes), the output folder, the URLs written, the stale
    files of this site's last build that were removed; ``ok`` when no error."""

    collector: Collector
    files: list[WrittenFile] = field(default_factory=list)
    out_dir: str | None = None
    site: Site | None = None
    urls: int = 0
    removed: list[str] = field(default_factory=list)  # stale files of this description's last build
    recovered: bool = False  # a killed build's commit into the folder was finished first
    partial: bool = False  # this build's commit stopped part-way (the next build finishes it)
    state: str | None = None  # the build state written with the files (output.state, state=)

    @property
    def ok(self) -> bool:
        return not self.collector.failed()


def resolve_out_dir(site: Site, out_dir: str | None) -> str:
    if out_dir is not None:
        return out_dir
    if site.output.dir is not None:
        return os.path.join(os.path.dirname(site.file), site.output.dir)
    return DEFAULT_OUT_DIR


def build(
    path: str | os.PathLike[str] | SiteObject,
    out_dir: str | os.PathLike[str] | None = None,
    *,
    pages: Iterable[PageObject | Mapping[str, Any]] | None = None,
    gzip: bool | None = None,
    now: str | dt.datetime | dt.date | None = None,
    env: Mapping[str, str] | None = None,
    engine: str = "fast",
    dry_run: bool = False,
    strict: bool = False,
    collector: Collector | None = None,
    jobs: int | None = None,
    progress: Callable[[Progress], None] | None = None,
    allow_read: Iterable[str] = (),
    max_per_code: int | None = MAX_STORED_PER_CODE,
    policy: Policy | None = None,
    state: str | os.PathLike[str] | None = None,
) -> BuildResult:
    """Build the sitemaps of the site described at ``path`` (a YAML file), or of a
    ``Site`` object.

    ``pages``: more pages, from any iterable (a database cursor, a generator) of
    ``Page`` objects or mappings with a page's keys; it is read once, as the site is
    built, with the same rules, diagnostics, splitting, gzip and atomic output as the
    pages of a YAML file (a page of it is located as ``<pages>:N``). An item may be a
    partition instead, a pandas DataFrame or a pyarrow Table or RecordBatch: its rows
    are read as a CSV source's (``<partition N>:ROW``; pyarrow reads them).

    ``dry_run`` checks without writing; ``strict`` treats warnings as failures (no
    files are replaced); ``collector`` lets a caller gather several runs' findings;
    ``jobs`` is how many processes share a large source (default: one per core, at
    most four; the same output either way); ``progress`` is called now and then with
    a ``Progress``;
    ``allow_read``: folders besides the description's own that sources and includes
    may come from; ``max_per_code``: findings kept per code (the rest are counted;
    None: all); ``policy``: which codes are shown and at which severity, as for
    ``check`` (``rules.config.make_policy``; the config file's select, ignore and
    severity). A finding the policy does not show is still counted, and an error it
    shows as a warning no longer stops the build (every rule runs either way).
    ``state``: the build state's file (default ``output.state``; see README, "Between
    deploys"), written in the same commit as the sitemaps.
    """
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    _arguments(path, out_dir, pages, gzip, dry_run, strict, engine, collector, jobs, max_per_code, progress, policy,
               allow_read, env, state)
    if out_dir is not None:
        out_dir = os.fspath(out_dir)
    if state is not None:
        state = os.fspath(state)
    now = now_argument(now)
    fresh = collector
    collector = collector if collector is not None else Collector(REGISTRY, policy=policy, limit=max_per_code)
    result = BuildResult(collector)
    allow_read = tuple(allow_read)
    if not isinstance(path, str):  # (a Site: _arguments let nothing else through)
        site = load_site_data(path.as_yaml(), collector, now=now, pages=pages)
    else:
        site = load_site(path, collector, env=env, now=now, allow_read=allow_read, pages=pages)
    if site is None:
        return result
    if gzip is not None:
        site = dataclasses.replace(site, output=dataclasses.replace(site.output, gzip=gzip))
    result.site = site
    opened = _open(path, site, out_dir, state, result, dry_run)
    if opened is None:
        return result
    staging, files, kept = opened
    try:
        # Two processes only for writing builds with a collector of their own (and no
        # stream, and no state, which dates pages in order).
        alone = files is None or any(given is not None for given in (fresh, pages, kept))
        jobs = 1 if alone else default_jobs() if jobs is None else jobs
        judged = JudgedFiles(BuildJudge(collector, site.now), files, site)
        try:
            result.urls = _run(site, collector, judged, jobs, progress, kept)
        except OSError as exc:  # the disk filled, the folder went away, ...
            cannot_write(collector, result.out_dir, exc)
            return result
        except Sequential:
            # A worker's page repeats a URL from an earlier chunk: start again in one
            # process, which drops duplicates exactly where a sequential build does.
            # (Never with pages=: jobs is 1 then, and an iterable is read once.)
            if staging is not None:
                staging.discard()  # and its lock, which the new attempt takes
            return build(path, out_dir, gzip=gzip, now=now, env=env, engine=engine, dry_run=dry_run,
                         strict=strict, collector=fresh, jobs=1, progress=progress, allow_read=allow_read,
                         max_per_code=max_per_code, policy=policy, state=state)
        if files is not None and staging is not None:
            _commit(site, judged, staging, strict, result, kept)
        else:
            judged.finish(None)
        return result
    finally:
        if kept is not None:
            kept.discard()
        if staging is not None:
            staging.discard()


def _open(path: str | SiteObject, site: Site, out_dir: str | None, given: str | None, result: BuildResult,
          dry_run: bool) -> tuple[Staging | None, Files | None, BuildState | None] | None:
    """The output folder's staging and files (none for a dry run) and the build state
    (None when none is kept); None when either cannot be had (reported)."""
    staging: Staging | None = None
    files: Files | None = None
    folder = resolve_out_dir(site, out_dir)
    if not dry_run:
        result.out_dir = folder
        staging = _staging(path, folder, result)
        if staging is None:
            return None
        files = Files(site, staging)
    kept = open_state(site, folder, path if isinstance(path, str) else None, given, result.collector.report,
                      write=not dry_run)
    if kept is False:
        if staging is not None:
            staging.discard()
        return None
    return staging, files, kept



def _arguments(path: Any, out_dir: Any, pages: Any, gzip: Any, dry_run: Any, strict: Any, engine: Any,
               collector: Any, jobs: Any, max_per_code: Any, progress: Any, policy: Any, allow_read: Any,
               env: Any, state: Any = None) -> None:
    """build()'s arguments, each of its type (TypeError) and range (ValueError), in this
    order; ``path`` with an os.PathLike already made a str."""
    if not isinstance(path, str):
        from ..model import Site as SiteObject  # (the public model: where objects are given, and only there)

        if not isinstance(path, SiteObject):
            raise TypeError(f"build() takes the path of a site description (str or os.PathLike) or a Site, not "
                            f"{type(path).__name__}")
    if pages is not None and (isinstance(pages, (str, bytes, Mapping)) or not isinstance(pages, Iterable)):
        raise TypeError(f"pages must be an iterable of Page objects or mappings, not {type(pages).__name__}")
    for name, value in (("out_dir", out_dir), ("state", state)):
        if value is not None and not isinstance(value, (str, os.PathLike)):
            raise TypeError(f"build({name}=...) takes a path, not {type(value).__name__}")
    if gzip is not None:
        arguments.flag("build", "gzip", gzip)
    for name, value in (("dry_run", dry_run), ("strict", strict)):
        arguments.flag("build", name, value)
    arguments.choice("build", "engine", engine, ENGINES)
    deprecated_engine(engine)
    arguments.instance("build", "collector", collector, Collector, "a Collector")
    arguments.whole("build", "jobs", jobs, least=1)
    arguments.whole("build", "max_per_code", max_per_code, least=1)
    arguments.callback("build", "progress", progress)
    arguments.instance("build", "policy", policy, Policy, "a Policy (see config.make_policy)")
    arguments.strings("build", "allow_read", allow_read)
    if env is not None and not (isinstance(env, Mapping) and all(isinstance(k, str) and isinstance(v, str)
                                                                  for k, v in env.items())):
        raise TypeError("build(env=...) takes a mapping of strings to strings")


def _staging(path: str | SiteObject, out_dir: str, result: BuildResult) -> Staging | None:
    """The output folder's staging (its lock taken, a killed build's commit finished);
    None when it cannot be had (reported)."""
    try:
        staging = Staging(out_dir, owner_key(path, out_dir) if isinstance(path, str) else OBJECTS)
    except OutputError as exc:
        result.collector.report(exc.code, str(exc), Where(out_dir))
        return None
    result.recovered = staging.recovered
    for path, aside, reason in staging.set_aside:  # (a damaged manifest or journal, set aside)
        report_set_aside(result.collector, path, aside, reason)
    return staging


def _commit(site: Site, judged: JudgedFiles, staging: Staging, strict: bool, result: BuildResult,
            kept: BuildState | None) -> None:
    """The files finished and moved into the output folder, unless the build failed
    (an error, or a warning when ``strict``): then nothing changes there."""
    collector = result.collector
    assert judged.files is not None
    try:
        moves, written = judged.files.finish(collector)
    except OutputError as exc:
        collector.report(exc.code, str(exc), Where(result.out_dir))
        return
    except OSError as exc:
        cannot_write(collector, result.out_dir, exc)
        return
    judged.finish(result.out_dir)  # (the files' rules, then the rules across files)
    if collector.failed(strict):  # (a hidden finding that an input was not read too)
        staging.discard()
        return
    try:
        state = kept.finish() if kept is not None else None
    except StateError as exc:
        collector.report(exc.code, str(exc), Where(kept.path if kept is not None else None))
        return
    try:
        result.removed = staging.commit(moves, keep_previous=site.output.versioned, state=state)
    except OutputError as exc:
        collector.report(exc.code, str(exc), Where(result.out_dir))
        result.partial = exc.partial
        return
    result.files = written
    result.state = None if state is None else state[1]


def _run(site: Site, collector: Collector, files: JudgedFiles, jobs: int,
         progress: Callable[[Progress], None] | None = None, state: BuildState | None = None) -> int:
    """Check every page and hand it to the writer and the judge; the count of URLs written."""
    assert site.scope is not None
    meter = _Meter(site, files.files, progress) if progress is not None else None
    flow = PageFlow(collector, site.now, Renderer(), [locale.base for locale in site.scope.locales], state)
    normaliser = PageNormaliser(site.scope, collector)
    urls = 0
    try:
        urls = _units(site, normaliser, flow, collector, files, meter, jobs)
    except StateError as exc:  # (a state damaged where it is read)
        collector.report(exc.code, str(exc), Where(state.path if state is not None else None))
        return urls
    if urls == 0 and collector.errors == 0:
        no_pages(collector, site.file)
    return urls


def _units(site: Site, normaliser: PageNormaliser, flow: PageFlow, collector: Collector, files: JudgedFiles,
           meter: _Meter | None, jobs: int) -> int:
    """Each unit of the site (its pages, sources, built sites) through the flow."""
    urls = 0
    digests = flow.state is not None
    for unit in site.units:
        if isinstance(unit, Page):
            record = flow(unit)
            if record is not None:
                urls += len(record.locs)
                files.add(record)
        elif isinstance(unit, PageStream):
            urls += _stream_unit(unit, normaliser, flow, files, meter, urls)
        elif isinstance(unit, BuiltSite):
            urls += _built_site(unit, normaliser, flow, collector, files, meter, urls, digests)
        else:
            urls += _source(site, unit, normaliser, flow, collector, files, meter, urls, jobs)
    return urls


def _stream_unit(unit: PageStream, normaliser: PageNormaliser, flow: PageFlow, files: JudgedFiles,
                 meter: _Meter | None, before: int) -> int:
    """The pages a program gives (``pages=``) through the flow and into the files."""
    urls = before
    for record in _stream(unit, normaliser, flow):
        urls += len(record.locs)
        files.add(record)
        if meter is not None and not urls % 4096:
            meter.tick(urls)
    return urls - before


def _built_site(unit: BuiltSite, normaliser: PageNormaliser, flow: PageFlow, collector: Collector,
                files: JudgedFiles, meter: _Meter | None, before: int, digests: bool) -> int:
    """A built site's pages through the flow and into the files."""
    from . import built_site as builtsite  # (here: it reads pages with the checker's HTML reader)
    urls = before
    for page in builtsite.pages(unit, normaliser, collector, digests=digests, heads=files.judge):
        record = flow(page)
        if record is not None:
            urls += len(record.locs)
            files.add(record)
            if meter is not None:
                meter.tick(urls)
    return urls - before


def _source(site: Site, unit: Source, normaliser: PageNormaliser, flow: PageFlow, collector: Collector,
            files: JudgedFiles, meter: _Meter | None, before: int, jobs: int) -> int:
    """A source's rows through the flow and into the files: by ``jobs`` processes when
    it can be split (see ``parallel``), else here."""
    from . import parallel  # (a source's: a build of pages alone loads none of it)

    pieces = parallel.split(unit, jobs) if files.files is not None else None
    if pieces is None or files.files is None:
        return _rows(site, unit, normaliser, flow, collector, files, meter, before)

    def own(piece: Part) -> int:
        return _rows(site, unit, normaliser, flow, collector, files, meter, before, piece)
    return parallel.render(pieces, jobs, unit, site, (SourceRows, PageFlow, type(flow.renderer)), collector,
                           flow.seen, files, own, meter.read if meter is not None else None)


def _rows(site: Site, source: Source, normaliser: PageNormaliser, flow: PageFlow, collector: Collector,
          files: JudgedFiles, meter: _Meter | None, before: int, part: Part | None = None) -> int:
    """One source's rows (or one part's) through the flow and into the files."""
    rows = SourceRows(site, source, normaliser, flow)
    urls = 0
    reader = SourceReader(source.path, source.display, source.format, collector, source_column,
                          meter.read if meter is not None else None, part, source=source.where)
    for count, record in enumerate(rows.records(reader), 1):
        if record is not None:
            urls += len(record.locs)
            files.add(record)
        if meter is not None and not count % 4096:
            meter.tick(before + urls)
    return urls


def _stream(unit: PageStream, normaliser: PageNormaliser, flow: PageFlow) -> Iterator[Rendered]:
    """Pages a program gives, each through the one normaliser, as it comes."""
    from ..model import Page as PageObject

    for number, item in enumerate(unit.items, 1):
        if isinstance(item, PageObject):
            raw: Mapping[str, Any] = item.as_yaml()
        elif isinstance(item, Mapping):
            raw = item
            # (a page from YAML has its keys judged by the loader: a mapping, here)

            def key_where(key: Any, at: int = number) -> Where:
                return Where(unit.display, at)
            unknown_keys(normaliser.collector, raw, PAGE_KEYS, "a page", key_where)
        else:
            from .partition_rows import partition_records  # (a DataFrame, Table or RecordBatch: a source's rows)
            found = partition_records(item, number, unit.defaults, normaliser, flow)
            if found is None:
                raise TypeError(f"pages must give Page objects, mappings or partitions (a pandas DataFrame, a "
                                f"pyarrow Table or RecordBatch); item {number} is {type(item).__name__}")
            yield from found
            continue
        where = Where(unit.display, number)

        def where_of(key: str | tuple[str, ...], where: Where = where) -> Where:
            return where
        page = normaliser.page(raw, where_of, unit.defaults, where)
        if page is None:
            continue
        record = flow(page)
        if record is not None:
            yield record


__all__ = ["BuildResult", "Progress", "build"]
