"""Build: site description -> pages (streamed) -> checks -> files, committed atomically.

Nothing is held per page after it is written but a hash of each URL, for the
duplicate check. The output folder changes only when the whole build succeeded.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Iterator, Mapping
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
from .writer import RENDERERS, TextSeries, UrlsetSeries, WrittenFile, file_names, page_namespaces, write_index

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

    def __init__(self, site: Site, staging: Staging, engine: str) -> None:
        assert site.scope is not None
        self.site = site
        self.staging = staging
        self.renderer = RENDERERS[engine]()
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

    def add(self, page: Page) -> None:
        entries = self.renderer.entries(page)
        prefixes = page_namespaces(page)
        news = any(name == NEWS for name, _ in page.extensions)
        if not self.several:
            files = self._host(self.base)
            (files.news if news else files.urlsets).add(entries, prefixes, page.lastmod)
            if files.text is not None:
                files.text.add(v.loc for v in page.versions)
            return
        for version, entry in zip(page.versions, entries):
            files = self._host(_origin_text(version.loc))
            (files.news if news else files.urlsets).add((entry,), prefixes, page.lastmod)
            if files.text is not None:
                files.text.add((version.loc,))

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
) -> BuildResult:
    """Build the sitemaps of the site described at ``path``.

    ``dry_run`` checks without writing; ``strict`` treats warnings as failures (no
    files are replaced); ``collector`` lets a caller gather several runs' findings.
    """
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
        files = _Files(site, staging, engine)
    try:
        result.urls = _run(site, collector, files)
        if files is None or staging is None:
            return result
        moves, written = files.finish(collector)
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


def _run(site: Site, collector: Collector, files: _Files | None) -> int:
    """Check every page and hand it to the writer; the count of URLs written."""
    seen: set[int] = set()
    now = site.now
    urls = 0
    for page in iter_pages(site, collector):
        page = _drop_duplicates(page, seen, collector)
        if page is None:
            continue
        if now is not None and page.lastmod is not None and page.lastmod.instant > now:
            collector.report(
                "D102", f"lastmod {page.lastmod.text} is after the build time {format_instant(now)}; "
                "lastmod is when the page last changed", page.where, url=page.versions[0].loc,
            )
        urls += len(page.versions)
        if files is not None:
            files.add(page)
    if urls == 0 and collector.errors == 0:
        collector.report("O102", "the site lists no pages: add pages: or sources:", Where(site.file, 1, 1))
    return urls


def _drop_duplicates(page: Page, seen: set[int], collector: Collector) -> Page | None:
    # A hash per URL keeps memory small on millions of URLs; hash() of a str is
    # computed once and cached on the string.
    kept = []
    for version in page.versions:
        key = hash(version.loc)
        if key in seen:
            collector.report("U104", f"{version.loc} is listed more than once; it is written once",
                             page.where, url=version.loc)
            continue
        seen.add(key)
        kept.append(version)
    if len(kept) == len(page.versions):
        return page
    return dataclasses.replace(page, versions=tuple(kept)) if kept else None


__all__ = ["BuildResult", "build", "iter_pages", "Lastmod"]
