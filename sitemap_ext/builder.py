"""Build: site description -> pages (streamed) -> checks -> files, committed atomically.

Nothing is held per page after it is written but a hash of each URL, for the
duplicate check. The output folder changes only when the whole build succeeded.
"""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping
from urllib.parse import quote

from .codes import REGISTRY
from .dates import Lastmod, format_instant
from .diagnostics import Collector, Where
from .ext.news import NAME as NEWS
from .limits import MAX_NEWS_PER_FILE, MAX_SITEMAPS_PER_INDEX
from .model import Page, Site, Source
from .output import OutputError, Staging
from .pages import IMAGE_COLUMN, PAGE_KEYS, URL_COLUMN, PageNormaliser
from .site import load_site
from .sources import read_rows
from .urls import Origin, origin_of
from . import parallel
from .fastrows import FastRows
from .writer import (
    RENDERERS, FastRenderer, Renderer, TextSeries, UrlsetSeries, WrittenFile, file_names, page_namespaces, write_index,
)

DEFAULT_OUT_DIR = "sitemaps"


@dataclass
class BuildResult:
    collector: Collector
    files: list[WrittenFile] = field(default_factory=list)
    out_dir: str | None = None
    site: Site | None = None
    urls: int = 0

    @property
    def ok(self) -> bool:
        return self.collector.errors == 0


def source_column(name: str) -> bool:
    """Whether a source column is a page field (url:<code> and image columns included)."""
    return name in PAGE_KEYS or name == IMAGE_COLUMN or name.startswith(URL_COLUMN)


def iter_pages(site: Site, collector: Collector) -> Iterator[Page]:
    """Every page of the site in description order, sources read as streams."""
    assert site.scope is not None
    normaliser = PageNormaliser(site.scope, collector)
    for unit in site.units:
        if isinstance(unit, Page):
            yield unit
            continue
        yield from _source_pages(unit, normaliser, collector)


@dataclass(slots=True)
class Rendered:
    """One page as the files need it: its URLs, their entries, and what the file notes."""

    locs: tuple[str, ...]
    entries: list[bytes | memoryview]  # a worker's entries are slices of its chunk
    prefixes: frozenset[str]
    lastmod: Lastmod | None
    news: bool


class SourceRows:
    """One source row to its rendered record: the fast path where it applies, else the
    generic way (a Page through the flow)."""

    def __init__(self, site: Site, source: Source, normaliser: PageNormaliser, flow: PageFlow) -> None:
        self.source = source
        self.normaliser = normaliser
        self.flow = flow
        self.fast = FastRows(site, normaliser, source.defaults, flow.seen, flow.now) \
            if isinstance(flow.renderer, FastRenderer) else None
        self.row_function: Callable[[Mapping[str, Any]], Any] | None = None
        self.shaped = False

    def __call__(self, raw: Mapping[str, Any], where: Where) -> Rendered | None:
        if not self.shaped:
            self.shaped = True
            self.row_function = self.fast.shape(raw) if self.fast is not None else None
        if self.row_function is not None:
            found = self.row_function(raw)
            if found is not None:
                return Rendered(*found)
        page = self.normaliser.page(raw, lambda _key: where, self.source.defaults, where, row=True)
        return self.flow(page) if page is not None else None


def _source_pages(source: Source, normaliser: PageNormaliser, collector: Collector) -> Iterator[Page]:
    for raw, where in read_rows(source.path, source.display, source.format, collector, source_column):
        page = normaliser.page(raw, lambda _key, _w=where: _w, source.defaults, where, row=True)
        if page is not None:
            yield page


def _url_of(base: str, name: str) -> str:
    return base + quote(name, safe="/")


def host_folder(origin: Origin) -> str:
    """The output subfolder of one host's files when a site spans several hosts."""
    return origin.netloc.replace(":", "_")


class _HostFiles:
    """One host's files: urlset parts, text parts, then its index and robots line."""

    def __init__(self, site: Site, staging: Staging, folder: str, public: str) -> None:
        out = site.output
        self.site = site
        self.staging = staging
        self.folder = folder  # "" for a one-host site, else "www.example.de/"
        self.public = public  # where this host serves the files, ending in '/'
        scratch = os.path.join(staging.folder, f".scratch-{len(os.listdir(staging.folder))}")
        os.mkdir(scratch)
        self.urlsets = UrlsetSeries(scratch, out.max_urls, out.max_bytes, out.gzip)
        # News pages get files of their own: Google reads at most 1,000 news entries a file.
        self.news = UrlsetSeries(os.path.join(scratch, "news"), min(out.max_urls, MAX_NEWS_PER_FILE),
                                 out.max_bytes, out.gzip)
        os.mkdir(self.news.folder)
        self.text = TextSeries(scratch, out.max_urls, out.max_bytes) if out.text else None

    def finish(self, collector: Collector) -> tuple[list[tuple[str, str]], list[WrittenFile]]:
        out = self.site.output
        moves: list[tuple[str, str]] = []
        written: list[WrittenFile] = []
        parts = self.urlsets.finish()
        news = self.news.finish()
        single = len(parts) + len(news) == 1 and out.index == "auto"
        for (scratch, stats), name in zip(parts, file_names(out, len(parts), single=single)):
            self._place(scratch, name, stats, moves, written)
        for (scratch, stats), name in zip(news, file_names(out, len(news), pattern=out.news_pattern, single=single)):
            self._place(scratch, name, stats, moves, written)
        parts = parts + news
        entry_point = written[0].url if len(written) == 1 else None
        if len(parts) > 1 or out.index == "always":
            if len(parts) > MAX_SITEMAPS_PER_INDEX:
                collector.report(
                    "O101", f"{len(parts):,} sitemaps would be needed; an index lists at most "
                    f"{MAX_SITEMAPS_PER_INDEX:,}: split the site by section", Where(self.site.file),
                )
            name = self.folder + out.index_file
            path = self.staging.path(name)
            size = write_index(path, [(f.url or "", f.lastmod) for f in written])
            index = WrittenFile(name=name, kind="index", urls=len(written), bytes=size, uncompressed=size,
                                url=_url_of(self.public, out.index_file))
            moves.append((path, name))
            written.append(index)
            entry_point = index.url
        if self.text is not None:
            text_parts = self.text.finish()
            for (scratch, stats), name in zip(text_parts, file_names(out, len(text_parts), text=True)):
                self._place(scratch, name, stats, moves, written)
        if out.robots is not None and entry_point is not None:
            name = self.folder + out.robots
            path = self.staging.path(name)
            line = f"Sitemap: {entry_point}\n".encode()
            with open(path, "wb") as handle:
                handle.write(line)
            moves.append((path, name))
            written.append(WrittenFile(name=name, kind="robots", bytes=len(line), uncompressed=len(line)))
        return moves, written

    def _place(self, scratch: str, name: str, stats: WrittenFile, moves: list[tuple[str, str]],
               written: list[WrittenFile]) -> None:
        stats.name, stats.url = self.folder + name, _url_of(self.public, name)
        target = self.staging.path(stats.name)
        os.replace(scratch, target)
        moves.append((target, stats.name))
        written.append(stats)


class _Files:
    """The files of one build, grouped per host: a sitemap lists URLs of its own host only."""

    def __init__(self, site: Site, staging: Staging) -> None:
        assert site.scope is not None
        self.site = site
        self.staging = staging
        base = origin_of(site.scope.base_url)
        public = site.output.public_url or site.scope.base_url
        self.publics = {base: public[: public.rindex("/") + 1]}
        for origin in site.scope.origins - {base}:
            self.publics[origin] = f"{origin}/"
        self.base = str(base)
        self.several = len(site.scope.origins) > 1
        self.hosts: dict[str, _HostFiles] = {}
        self.text = site.output.text

    def _host(self, origin_text: str) -> _HostFiles:
        files = self.hosts.get(origin_text)
        if files is None:
            origin = origin_of(origin_text + "/")
            folder = host_folder(origin) + "/" if self.several else ""
            files = self.hosts[origin_text] = _HostFiles(self.site, self.staging, folder, self.publics[origin])
        return files

    def add(self, record: Rendered) -> None:
        if not self.several:
            files = self._host(self.base)
            (files.news if record.news else files.urlsets).add(record.entries, record.prefixes, record.lastmod)
            if files.text is not None:
                files.text.add(record.locs)
            return
        for loc, entry in zip(record.locs, record.entries):
            files = self._host(_origin_text(loc))
            (files.news if record.news else files.urlsets).add([entry], record.prefixes, record.lastmod)
            if files.text is not None:
                files.text.add((loc,))

    def finished(self) -> int:
        """Files closed so far (for progress)."""
        return sum(len(h.urlsets.parts) + len(h.news.parts) for h in self.hosts.values())

    def add_chunk(self, chunk: parallel.Chunk) -> None:
        """A worker's chunk: in runs of whole pages where it can, page by page where not."""
        if self.several or self.text or not chunk.uniform():
            for record in chunk.records():
                self.add(record)
            return
        series = self._host(self.base).urlsets
        sizes, counts, lastmods = list(chunk.sizes), list(chunk.counts), chunk.lastmods
        prefixes = chunk.prefixes[0]
        start = offset = 0
        while start < len(counts):
            taken = series.add_run(chunk.blob[offset:], sizes[start:], counts[start:], prefixes, lastmods[start:])
            offset += sum(sizes[start:start + taken])
            start += taken
            if start < len(counts):  # this page starts a new file (or opens the first)
                self.add(next(chunk.records(start)))
                offset += sizes[start]
                start += 1

    def finish(self, collector: Collector) -> tuple[list[tuple[str, str]], list[WrittenFile]]:
        moves: list[tuple[str, str]] = []
        written: list[WrittenFile] = []
        for key in sorted(self.hosts):
            host_moves, host_written = self.hosts[key].finish(collector)
            moves += host_moves
            written += host_written
        # Children first, the index after them, then the rest: a reader never sees an
        # index naming a file that is not in place yet.
        order = {"urlset": 0, "text": 0, "index": 1, "robots": 2}
        kinds = {f.name: f.kind for f in written}
        moves.sort(key=lambda move: order[kinds[move[1]]])
        return moves, written


def _origin_text(url: str) -> str:
    """scheme://host[:port] of a URL we normalised (cheaper than urlsplit on a hot path)."""
    return url[: url.find("/", url.find("//") + 2)]


def resolve_out_dir(site: Site, out_dir: str | None) -> str:
    if out_dir is not None:
        return out_dir
    if site.output.dir is not None:
        return os.path.join(os.path.dirname(site.file), site.output.dir)
    return DEFAULT_OUT_DIR


def build(
    path: str,
    out_dir: str | None = None,
    *,
    gzip: bool | None = None,
    now: str | None = None,
    env: Mapping[str, str] | None = None,
    engine: str = "fast",
    dry_run: bool = False,
    strict: bool = False,
    collector: Collector | None = None,
    jobs: int | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> BuildResult:
    """Build the sitemaps of the site described at ``path``.

    ``dry_run`` checks without writing; ``strict`` treats warnings as failures (no
    files are replaced); ``collector`` lets a caller gather several runs' findings;
    ``jobs`` is the number of processes for large sources (default: 2 where the
    machine has two cores; the output is the same either way).
    """
    fresh = collector
    collector = collector if collector is not None else Collector(REGISTRY)
    result = BuildResult(collector)
    site = load_site(path, collector, env=env, now=now)
    if site is None:
        return result
    if gzip is not None:
        site = dataclasses.replace(site, output=dataclasses.replace(site.output, gzip=gzip))
    result.site = site
    files: _Files | None = None
    staging: Staging | None = None
    if not dry_run:
        result.out_dir = resolve_out_dir(site, out_dir)
        try:
            staging = Staging(result.out_dir)
        except OutputError as exc:
            collector.report("F102", f"{exc}; choose another folder with -o", Where(result.out_dir))
            return result
        files = _Files(site, staging)
    try:
        if jobs is None:
            jobs = parallel.default_jobs()
        if files is None or fresh is not None:
            jobs = 1  # two processes only for writing builds with a collector of their own
        try:
            result.urls = _run(site, collector, files, engine, jobs, progress)
        except OSError as exc:  # the disk filled, the folder went away, ...
            collector.report("F102", f"cannot write into {result.out_dir}: {exc.strerror or exc}",
                             Where(result.out_dir))
            return result
        except parallel.Sequential:
            # A worker's page repeats a URL from an earlier chunk: start again in one
            # process, which drops duplicates exactly where a sequential build does.
            return build(path, out_dir, gzip=gzip, now=now, env=env, engine=engine, dry_run=dry_run,
                         strict=strict, collector=fresh, jobs=1, progress=progress)
        if files is None or staging is None:
            return result
        try:
            moves, written = files.finish(collector)
        except OSError as exc:
            collector.report("F102", f"cannot write into {result.out_dir}: {exc.strerror or exc}",
                             Where(result.out_dir))
            return result
        if collector.errors or (strict and collector.warnings):
            staging.discard()
            return result
        try:
            staging.commit(moves)
        except OutputError as exc:
            collector.report("F102", str(exc), Where(result.out_dir))
            return result
        result.files = written
        return result
    finally:
        if staging is not None:
            staging.discard()


class PageFlow:
    """What happens to each page, in description order: duplicates are dropped, dates
    judged, entries rendered. The result is a ``Rendered`` record for the files."""

    def __init__(self, collector: Collector, now: float | None, renderer: Renderer | None) -> None:
        self.collector = collector
        self.now = now
        self.renderer = renderer  # None: checking only, nothing to render
        # A hash per URL keeps memory small on millions of URLs; hash() of a str is
        # computed once and cached on the string.
        self.seen: set[int] = set()

    def __call__(self, page: Page) -> Rendered | None:
        page = self._drop_duplicates(page)
        if page is None:
            return None
        if self.now is not None and page.lastmod is not None and page.lastmod.instant > self.now:
            self.collector.report(
                "D102", f"lastmod {page.lastmod.text} is after the build time {format_instant(self.now)}; "
                "lastmod is when the page last changed", page.where, url=page.versions[0].loc,
            )
        entries = self.renderer.entries(page) if self.renderer is not None else []
        return Rendered(tuple(v.loc for v in page.versions), entries, page_namespaces(page), page.lastmod,
                        any(name == NEWS for name, _ in page.extensions))

    def _drop_duplicates(self, page: Page) -> Page | None:
        seen = self.seen
        keys = [hash(version.loc) for version in page.versions]
        # A page's own URLs are distinct (the normaliser makes them so: H107), so
        # one test against every earlier URL decides the common case.
        if seen.isdisjoint(keys):
            seen.update(keys)
            return page
        kept = []
        for version in page.versions:
            key = hash(version.loc)
            if key in seen:
                self.collector.report("U104", f"{version.loc} is listed more than once; it is written once",
                                      page.where, url=version.loc)
                continue
            seen.add(key)
            kept.append(version)
        if len(kept) == len(page.versions):
            return page
        return dataclasses.replace(page, versions=tuple(kept)) if kept else None

    def claim(self, keys: Iterable[int]) -> bool:
        """Record the hash() of URLs rendered elsewhere (a worker); False if one was seen."""
        if not self.seen.isdisjoint(keys):
            return False
        self.seen.update(keys)
        return True


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

    def __init__(self, site: Site, files: _Files | None, callback: Callable[[Progress], None]) -> None:
        self.callback = callback
        self.files = files
        self.started = self.last = time.monotonic()
        self.read = [0]  # bytes of sources read (read_rows adds to it)
        sizes = [os.path.getsize(u.path) for u in site.units if isinstance(u, Source) and os.path.isfile(u.path)]
        plain = all(not u.path.lower().endswith(".gz") for u in site.units if isinstance(u, Source))
        self.total = sum(sizes) if sizes and plain else 0

    def tick(self, urls: int) -> None:
        now = time.monotonic()
        if now - self.last >= self.INTERVAL:
            self.last = now
            done = self.files.finished() if self.files is not None else 0
            fraction = min(self.read[0] / self.total, 1.0) if self.total else None
            self.callback(Progress(urls, done, now - self.started, fraction))


def _run(site: Site, collector: Collector, files: _Files | None, engine: str, jobs: int,
         progress: Callable[[Progress], None] | None = None) -> int:
    """Check every page and hand it to the writer; the count of URLs written."""
    assert site.scope is not None
    meter = _Meter(site, files, progress) if progress is not None else None
    flow = PageFlow(collector, site.now, RENDERERS[engine]() if files is not None else None)
    normaliser = PageNormaliser(site.scope, collector)
    urls = 0
    for unit in site.units:
        if isinstance(unit, Source) and files is not None and jobs > 1 and parallel.worth_it(unit):
            for chunk in parallel.source_chunks(unit, site, flow, collector, jobs):
                urls += len(chunk.hashes)
                files.add_chunk(chunk)
                if meter is not None:
                    meter.read[0] += chunk.blob.nbytes // 4  # rows are about a quarter of their XML
                    meter.tick(urls)
            continue
        if isinstance(unit, Page):
            records: Iterable[Rendered | None] = (flow(unit),)
        else:
            rows = SourceRows(site, unit, normaliser, flow)
            records = (rows(raw, where) for raw, where in read_rows(
                unit.path, unit.display, unit.format, collector, source_column,
                meter.read if meter is not None else None))
        for record in records:
            if record is not None:
                urls += len(record.locs)
                if files is not None:
                    files.add(record)
                if meter is not None and not urls & 4095:
                    meter.tick(urls)
    if urls == 0 and collector.errors == 0:
        collector.report("O102", "the site lists no pages: add pages: or sources:", Where(site.file, 1, 1))
    return urls


__all__ = ["BuildResult", "build", "iter_pages", "Lastmod"]
