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
import time
from dataclasses import dataclass, field
from collections.abc import Iterable, Iterator, Mapping, Sequence
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
from ..rules.clusters import listed_twice
from ..rules.config import Policy
from ..rules.values import future
from .. import arguments
from ..pool import default_jobs
from . import parallel
from .files import Files
from .series import WrittenFile
from .xml import ENGINES, Rendered, Renderer, deprecated_engine, page_namespaces

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
    policy: Policy | None = None,
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
    None: all); ``policy``: which codes are shown and at which severity, as for
    ``check`` (``rules.config.make_policy``; the config file's select, ignore and
    severity). A finding the policy does not show is still counted, and an error it
    shows as a warning no longer stops the build (every rule runs either way).
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
    now = now_argument(now)
    fresh = collector
    collector = collector if collector is not None else Collector(REGISTRY, policy=policy, limit=max_per_code)
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
            result.urls = _run(site, collector, files, jobs, progress)
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
                         max_per_code=max_per_code, policy=policy)
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


class SeenUrls:
    """Every URL written so far, by hash(), in plain sets (a measurement showed a
    hand-written table saves 4 MiB of 124 at a million URLs: not worth its code).

    A page of a layout has one URL per locale, each locale's base followed by one and
    the same rest (``/products/x``): it is kept as the hash of that rest, once for all
    its URLs (``rests``). Other pages' URLs are kept one by one (``urls``). A URL under
    a base is also judged against ``rests`` (by its rest); a layout page is also judged
    against ``urls`` (each of its URLs), but only once some URL under a base was kept
    one by one (``based``). This is sound when no base is a prefix of another (a URL
    then starts with at most one base); otherwise there are no rests and every URL is
    kept one by one (``clusters`` is False).
    """

    def __init__(self, bases: Iterable[str]) -> None:
        found = sorted(set(bases))
        prefix_free = all(not b.startswith(a) for a, b in zip(found, found[1:]))
        self.bases = tuple(found) if found and prefix_free else ()
        self.clusters = bool(self.bases)
        self._lengths = sorted({len(base) for base in self.bases})
        self._base_set = frozenset(self.bases)
        self.urls: set[int] = set()
        self.rests: set[int] = set()
        self.based = False  # a URL under a base is in urls

    def _base_length(self, loc: str) -> int:
        for length in self._lengths:
            if loc[:length] in self._base_set:  # (prefix-free: at most one base matches)
                return length
        return 0

    def _rest(self, loc: str) -> int | None:
        length = self._base_length(loc)
        return hash(loc[length:]) if length else None

    def __contains__(self, loc: str) -> bool:
        if hash(loc) in self.urls:
            return True
        if self.rests:
            rest = self._rest(loc)
            return rest is not None and rest in self.rests
        return False

    def add(self, loc: str) -> None:
        self.urls.add(hash(loc))
        if not self.based and self.bases and self._base_length(loc):
            self.based = True

    def add_if_new(self, locs: Sequence[str]) -> bool:
        """Add a page's URLs when none was seen (True); else nothing (False)."""
        urls = self.urls
        if not self.bases and len(locs) == 1:  # a plain page of a site with no locales
            key = hash(locs[0])
            if key in urls:
                return False
            urls.add(key)
            return True
        if self.rests:
            rests = [rest for rest in map(self._rest, locs) if rest is not None]
            if rests and not self.rests.isdisjoint(rests):
                return False
        keys = [hash(loc) for loc in locs]
        if not urls.isdisjoint(keys) or len(set(keys)) != len(keys):
            return False
        urls.update(keys)
        if self.bases and not self.based and any(map(self._base_length, locs)):
            self.based = True
        return True

    def add_cluster_if_new(self, rest: str) -> int | None:
        """A layout page, whose URLs are every base + ``rest`` (needs ``clusters``):
        the key it is kept as, or None when one of its URLs was seen (nothing added)."""
        key = hash(rest)
        if key in self.rests or (self.based and not self.urls.isdisjoint([hash(base + rest) for base in self.bases])):
            return None
        self.rests.add(key)
        return key

    def claim(self, rests: Sequence[int], others: Sequence[str], keyed: Callable[[], Sequence[str]]) -> bool:
        """Add the pages of another process: the keys of its layout pages (``keyed``
        gives their URLs, needed only when URLs under a base were kept one by one) and
        the URLs of its other pages. False (nothing added) when one was seen here."""
        if not self.rests.isdisjoint(rests):
            return False
        if self.based and rests and not self.urls.isdisjoint([hash(loc) for loc in keyed()]):
            return False
        keys = [hash(loc) for loc in others]
        if not self.urls.isdisjoint(keys):
            return False
        if self.bases:
            under = [rest for rest in map(self._rest, others) if rest is not None]
            if under and not self.rests.isdisjoint(under):
                return False
            self.based = self.based or bool(under)
        self.urls.update(keys)
        self.rests.update(rests)
        return True


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
            # A page's own URLs are distinct but where regions of one language share
            # one (hreflang.may_share), so one test against every earlier URL decides
            # the common case.
            page = self._drop_duplicates(page)
        if page is None:
            return None
        lastmod = page.lastmod
        if lastmod is not None and self.now is not None:
            future(lastmod, self.now, self.collector.report, page.where, url=page.locs[0])
        blob, sizes = self.renderer.render(page) if self.renderer is not None else (b"", [])
        prefixes = page_namespaces(page)
        locs: Sequence[str] = page.locs
        if page.codes is not None and page.layout is None and len(set(locs)) != len(locs):
            locs, blob, sizes = _once_each(locs, blob, sizes)
        return Rendered(locs, blob, sizes, prefixes, lastmod, NEWS_PREFIX in prefixes, key)

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
        own: set[str] = set()  # (regions of one language that share a URL: one entry, every code)
        lastmods = page.lastmods or (page.lastmod,) * len(page.locs)
        for loc, code, lastmod in zip(page.locs, page.codes or (None,) * len(page.locs), lastmods):
            if loc not in own:
                if loc in seen:
                    listed_twice(self.collector.report, loc, page.where, consequence="; it is written once")
                    continue
                seen.add(loc)
                own.add(loc)
            kept.append((loc, code, lastmod))
        if not kept:
            return None
        return dataclasses.replace(page, locs=tuple(loc for loc, _, _ in kept),
                                   codes=tuple(code for _, code, _ in kept) if page.codes is not None else None,
                                   layout=None, rest="",
                                   lastmods=tuple(lastmod for _, _, lastmod in kept) if page.lastmods else None)


def _once_each(locs: Sequence[str], blob: bytes | memoryview, sizes: Sequence[int]
               ) -> tuple[list[str], bytes, list[int]]:
    """A page's entries with a URL that several codes share written once (the first)."""
    kept_locs: list[str] = []
    parts: list[bytes | memoryview] = []
    kept_sizes: list[int] = []
    start = 0
    for loc, size in zip(locs, sizes):
        if loc not in kept_locs:
            kept_locs.append(loc)
            parts.append(blob[start:start + size])
            kept_sizes.append(size)
        start += size
    return kept_locs, b"".join(parts), kept_sizes


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


def _run(site: Site, collector: Collector, files: Files | None, jobs: int,
         progress: Callable[[Progress], None] | None = None) -> int:
    """Check every page and hand it to the writer; the count of URLs written."""
    assert site.scope is not None
    meter = _Meter(site, files, progress) if progress is not None else None
    flow = PageFlow(collector, site.now, Renderer() if files is not None else None,
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
        pieces = parallel.split(unit, jobs) if files is not None else None
        if pieces is None:
            urls += _rows(site, unit, normaliser, flow, collector, files, meter, urls)
            continue
        assert files is not None

        def own(piece: parallel.Part, unit: Source = unit, before: int = urls) -> int:
            return _rows(site, unit, normaliser, flow, collector, files, meter, before, piece)
        urls += parallel.render(pieces, jobs, unit, site, (SourceRows, PageFlow, type(flow.renderer)), collector,
                                flow.seen, files, own, meter.read if meter is not None else None)
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
