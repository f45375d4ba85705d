"""Build: site description -> pages (streamed) -> checks -> files, committed atomically.

Nothing is held per page after it is written but a hash of each URL, for the
duplicate check. The output folder changes only when the whole build succeeded.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import time
from dataclasses import dataclass, field
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Callable

from ..codes import REGISTRY
from ..dates import format_instant, now_argument
from ..diagnostics import Collector, Where, unknown_keys
from ..limits import MAX_STORED_PER_CODE
from ..ext.news import PREFIX as NEWS_PREFIX
from ..read.normalised import BuiltSite, Layout, Page, PageStream, Site, Source
from ..model import Page as PageObject, Site as SiteObject
from .output import OutputError, Staging, owner_key
from ..read.pages import PAGE_KEYS, PageNormaliser, source_column
from ..read.site_yaml import OBJECTS, load_site, load_site_data
from ..read.sources import SourceReader
from .. import arguments
from ..pool import default_jobs
from . import parallel
from .files import Files
from .hashes import SeenUrls
from .series import WrittenFile
from .xml import RENDERERS, Rendered, Renderer, page_namespaces

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

    @property
    def ok(self) -> bool:
        return self.collector.errors == 0


class SourceRows:
    """A source's rows to rendered records: each row's fields as a mapping, through the
    one normaliser (as YAML pages are), then the flow."""

    def __init__(self, site: Site, source: Source, normaliser: PageNormaliser, flow: PageFlow) -> None:
        self.source = source
        self.normaliser = normaliser
        self.flow = flow

    def records(self, reader: SourceReader) -> Iterator[Rendered | None]:
        """Each row's record (None for a row that gives no page), in order."""
        display, defaults, page, flow = self.source.display, self.source.defaults, self.normaliser.page, self.flow
        columns: list[str] | None = None
        first = True
        for values, line in reader:
            if first:  # the header has been read
                first = False
                columns = reader.columns
            raw = dict(zip(columns, values)) if columns is not None else values
            where = Where(display, line)
            found = page(raw, lambda _key, where=where: where, defaults, where, row=True)
            yield flow(found) if found is not None else None


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
) -> BuildResult:
    """Build the sitemaps of the site described at ``path`` (a YAML file), or of a
    ``Site`` object.

    ``pages``: more pages, from any iterable (a database cursor, a generator) of
    ``Page`` objects or mappings with a page's keys; it is read once, as the site is
    built, with the same rules, diagnostics, splitting, gzip and atomic output as the
    pages of a YAML file (a page of it is located as ``<pages>:N``).

    ``dry_run`` checks without writing; ``strict`` treats warnings as failures (no
    files are replaced); ``collector`` lets a caller gather several runs' findings;
    ``jobs`` is how many processes share a large source (default: one per core, at
    most four; the same output either way); ``progress`` is called now and then with
    a ``Progress``;
    ``allow_read``: folders besides the description's own that sources and includes
    may come from; ``max_per_code``: findings kept per code (the rest are counted;
    None: all).
    """
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, (str, SiteObject)):
        raise TypeError(f"build() takes the path of a site description (str or os.PathLike) or a Site, not "
                        f"{type(path).__name__}")
    if pages is not None and (isinstance(pages, (str, bytes, Mapping)) or not isinstance(pages, Iterable)):
        raise TypeError(f"pages must be an iterable of Page objects or mappings, not {type(pages).__name__}")
    if out_dir is not None and not isinstance(out_dir, (str, os.PathLike)):
        raise TypeError(f"build(out_dir=...) takes a folder's path, not {type(out_dir).__name__}")
    if out_dir is not None:
        out_dir = os.fspath(out_dir)
    if gzip is not None:
        arguments.flag("build", "gzip", gzip)
    for name, value in (("dry_run", dry_run), ("strict", strict)):
        arguments.flag("build", name, value)
    arguments.choice("build", "engine", engine, tuple(RENDERERS))
    arguments.instance("build", "collector", collector, Collector, "a Collector")
    arguments.whole("build", "jobs", jobs, least=1)
    arguments.whole("build", "max_per_code", max_per_code, least=1)
    arguments.callback("build", "progress", progress)
    arguments.strings("build", "allow_read", allow_read)
    if env is not None and not (isinstance(env, Mapping) and all(isinstance(k, str) and isinstance(v, str)
                                                                  for k, v in env.items())):
        raise TypeError("build(env=...) takes a mapping of strings to strings")
    now = now_argument(now)
    fresh = collector
    collector = collector if collector is not None else Collector(REGISTRY, limit=max_per_code)
    result = BuildResult(collector)
    allow_read = tuple(allow_read)
    if isinstance(path, SiteObject):
        site = load_site_data(path.as_yaml(), collector, now=now, pages=pages)
    else:
        site = load_site(path, collector, env=env, now=now, allow_read=allow_read, pages=pages)
    if site is None:
        return result
    if gzip is not None:
        site = dataclasses.replace(site, output=dataclasses.replace(site.output, gzip=gzip))
    result.site = site
    files: Files | None = None
    staging: Staging | None = None
    if not dry_run:
        result.out_dir = resolve_out_dir(site, out_dir)
        try:
            staging = Staging(result.out_dir, OBJECTS if isinstance(path, SiteObject) else
                              owner_key(path, result.out_dir))
        except OutputError as exc:
            collector.report(exc.code, str(exc), Where(result.out_dir))
            return result
        result.recovered = staging.recovered
        files = Files(site, staging)
    try:
        if jobs is None:
            jobs = default_jobs()
        if files is None or fresh is not None or pages is not None:
            jobs = 1  # two processes only for writing builds with a collector of their own (and no stream)
        try:
            result.urls = _run(site, collector, files, engine, jobs, progress)
        except OSError as exc:  # the disk filled, the folder went away, ...
            collector.report("F102", f"cannot write into {result.out_dir}: {exc.strerror or exc}",
                             Where(result.out_dir))
            return result
        except parallel.Sequential:
            # A worker's page repeats a URL from an earlier chunk: start again in one
            # process, which drops duplicates exactly where a sequential build does.
            # (Never with pages=: jobs is 1 then, and an iterable is read once.)
            if staging is not None:
                staging.discard()  # and its lock, which the new attempt takes
            return build(path, out_dir, gzip=gzip, now=now, env=env, engine=engine, dry_run=dry_run,
                         strict=strict, collector=fresh, jobs=1, progress=progress, allow_read=allow_read,
                         max_per_code=max_per_code)
        if files is None or staging is None:
            return result
        try:
            moves, written = files.finish(collector)
        except OutputError as exc:
            collector.report(exc.code, str(exc), Where(result.out_dir))
            return result
        except OSError as exc:
            collector.report("F102", f"cannot write into {result.out_dir}: {exc.strerror or exc}",
                             Where(result.out_dir))
            return result
        if collector.errors or (strict and collector.warnings):
            staging.discard()
            return result
        try:
            result.removed = staging.commit(moves, keep_previous=site.output.versioned)
        except OutputError as exc:
            collector.report(exc.code, str(exc), Where(result.out_dir))
            result.partial = exc.partial
            return result
        result.files = written
        return result
    finally:
        if staging is not None:
            staging.discard()


class PageFlow:
    """What happens to each page, in description order: duplicates are dropped, dates
    judged, entries rendered. The result is a ``Rendered`` record for the files."""

    def __init__(self, collector: Collector, now: float | None, renderer: Renderer | None,
                 bases: Iterable[str] = ()) -> None:
        self.collector = collector
        self.now = now
        self.renderer = renderer  # None: checking only, nothing to render
        # The URLs written, as hashes (``bases``: the locales' bases, see SeenUrls).
        self.seen = SeenUrls(bases)
        self._keyed: dict[Layout, bool] = {}  # layouts whose pages are kept by their rest

    def __call__(self, page: Page) -> Rendered | None:
        key = None
        layout = page.layout
        if layout is not None and self._by_rest(layout):
            key = self.seen.add_cluster_if_new(page.rest)
            if key is None:
                page = self._drop_duplicates(page)  # (None: nothing added; it reports which)
        elif not self.seen.add_if_new(page.locs):
            # A page's own URLs are distinct (the normaliser makes them so: H107), so
            # one test against every earlier URL decides the common case.
            page = self._drop_duplicates(page)
        if page is None:
            return None
        lastmod = page.lastmod
        if lastmod is not None and self.now is not None and lastmod.instant > self.now:
            self.collector.report(
                "D102", f"lastmod {lastmod.text} is after the build time {format_instant(self.now)}; "
                "lastmod is when the page last changed", page.where, url=page.locs[0],
            )
        blob, sizes = self.renderer.render(page) if self.renderer is not None else (b"", [])
        prefixes = page_namespaces(page)
        return Rendered(page.locs, blob, sizes, prefixes, lastmod, NEWS_PREFIX in prefixes, key)

    def _by_rest(self, layout: Layout) -> bool:
        """Whether a layout's pages are kept as one key, their rest (see SeenUrls)."""
        found = self._keyed.get(layout)
        if found is None:
            found = self._keyed[layout] = self.seen.clusters and tuple(sorted(layout.bases)) == self.seen.bases
        return found

    def _drop_duplicates(self, page: Page) -> Page | None:
        """A page some of whose URLs were written before: reported, and kept without them."""
        seen = self.seen
        kept = []
        lastmods = page.lastmods or (page.lastmod,) * len(page.locs)
        for loc, code, lastmod in zip(page.locs, page.codes or (None,) * len(page.locs), lastmods):
            if loc in seen:
                self.collector.report("U104", f"{loc} is listed more than once; it is written once",
                                      page.where, url=loc)
                continue
            seen.add(loc)
            kept.append((loc, code, lastmod))
        if not kept:
            return None
        return dataclasses.replace(page, locs=tuple(loc for loc, _, _ in kept),
                                   codes=tuple(code for _, code, _ in kept) if page.codes is not None else None,
                                   layout=None, rest="",
                                   lastmods=tuple(lastmod for _, _, lastmod in kept) if page.lastmods else None)


@dataclass(frozen=True)
class Progress:
    """How far a build is: for a progress display (the CLI's, on a terminal)."""

    urls: int
    files: int  # files finished so far
    seconds: float
    fraction: float | None  # of the sources' bytes read, when it can be told


class _Meter:
    """Calls the progress callback at most every ``INTERVAL`` seconds."""

    INTERVAL = 0.25

    def __init__(self, site: Site, files: Files | None, callback: Callable[[Progress], None]) -> None:
        self.callback = callback
        self.files = files
        self.started = self.last = time.monotonic()
        self.read = [0]  # bytes of sources read (the source readers add to it)
        sizes = [os.path.getsize(u.path) for u in site.units if isinstance(u, Source) and os.path.isfile(u.path)]
        plain = all(not u.path.lower().endswith(".gz") for u in site.units if isinstance(u, Source))
        self.total = sum(sizes) if sizes and plain else 0
        self.scaled: tuple[int, float] | None = None  # (bytes read before, factor) while a source is split

    def scale(self, share: float | None) -> None:
        """While a source is split, its first part's bytes count for the whole (the
        part is ``share`` of it); None when that is over."""
        if share is None:
            if self.scaled is not None:
                self.read[0] = self.scaled[0] + round((self.read[0] - self.scaled[0]) * self.scaled[1])
            self.scaled = None
        else:
            self.scaled = (self.read[0], 1 / share if share > 0 else 1.0)

    def tick(self, urls: int) -> None:
        now = time.monotonic()
        if now - self.last >= self.INTERVAL:
            self.last = now
            done = self.files.finished() if self.files is not None else 0
            read: float = self.read[0]
            if self.scaled is not None:
                read = self.scaled[0] + (read - self.scaled[0]) * self.scaled[1]
            fraction = min(read / self.total, 1.0) if self.total else None
            self.callback(Progress(urls, done, now - self.started, fraction))


def _run(site: Site, collector: Collector, files: Files | None, engine: str, jobs: int,
         progress: Callable[[Progress], None] | None = None) -> int:
    """Check every page and hand it to the writer; the count of URLs written."""
    assert site.scope is not None
    meter = _Meter(site, files, progress) if progress is not None else None
    flow = PageFlow(collector, site.now, RENDERERS[engine]() if files is not None else None,
                    [locale.base for locale in site.scope.locales])
    normaliser = PageNormaliser(site.scope, collector)
    urls = 0
    for unit in site.units:
        if isinstance(unit, Page):
            record = flow(unit)
            if record is not None:
                urls += len(record.locs)
                if files is not None:
                    files.add(record)
            continue
        if isinstance(unit, PageStream):
            for record in _stream(unit, normaliser, flow):
                urls += len(record.locs)
                if files is not None:
                    files.add(record)
                if meter is not None and not urls % 4096:
                    meter.tick(urls)
            continue
        if isinstance(unit, BuiltSite):
            from ..read import built_site as builtsite  # (here: it reads pages with the checker's HTML reader, which imports build)
            for page in builtsite.pages(unit, normaliser, collector):
                record = flow(page)
                if record is not None:
                    urls += len(record.locs)
                    if files is not None:
                        files.add(record)
                    if meter is not None:
                        meter.tick(urls)
            continue
        parts = parallel.split(unit, jobs) if files is not None else None
        if parts is None:
            urls += _rows(site, unit, normaliser, flow, collector, files, meter, urls)
            continue
        assert files is not None
        files.quiesce()  # no writer thread across the fork
        workers = parallel.Workers(unit, site, flow, parts, files.staging.folder)
        try:
            if meter is not None:  # the parts are about equal: the first one's progress stands for all
                meter.scale(parts[1].start / os.path.getsize(unit.path))
            urls += _rows(site, unit, normaliser, flow, collector, files, meter, urls, parts[0])
            if meter is not None:
                meter.scale(None)
            for chunk in workers.chunks(collector):
                urls += chunk.urls
                files.add_chunk(chunk)
                if meter is not None:
                    meter.tick(urls)
        finally:
            workers.close()
    if urls == 0 and collector.errors == 0:
        collector.report("O102", "the site lists no pages: add pages: or sources:", Where(site.file, 1, 1))
    return urls


def _rows(site: Site, source: Source, normaliser: PageNormaliser, flow: PageFlow, collector: Collector,
          files: Files | None, meter: _Meter | None, before: int, part: parallel.Part | None = None) -> int:
    """One source's rows (or one part's) through the flow and into the files."""
    rows = SourceRows(site, source, normaliser, flow)
    urls = 0
    reader = SourceReader(source.path, source.display, source.format, collector, source_column,
                          meter.read if meter is not None else None, part)
    for count, record in enumerate(rows.records(reader), 1):
        if record is not None:
            urls += len(record.locs)
            if files is not None:
                files.add(record)
        if meter is not None and not count % 4096:
            meter.tick(before + urls)
    return urls


def _stream(unit: PageStream, normaliser: PageNormaliser, flow: PageFlow) -> Iterator[Page]:
    """Pages a program gives, each through the one normaliser, as it comes."""
    for number, item in enumerate(unit.items, 1):
        if isinstance(item, PageObject):
            raw: Mapping[str, Any] = item.as_yaml()
        elif isinstance(item, Mapping):
            raw = item
            # (a page from YAML has its keys judged by the loader: a mapping, here)
            unknown_keys(normaliser.collector, raw, PAGE_KEYS, "a page", lambda key: Where(unit.display, number))
        else:
            raise TypeError(f"pages must give Page objects or mappings; item {number} is {type(item).__name__}")
        where = Where(unit.display, number)
        page = normaliser.page(raw, lambda key, where=where: where, unit.defaults, where)
        if page is None:
            continue
        record = flow(page)
        if record is not None:
            yield record


__all__ = ["BuildResult", "Progress", "build"]
