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
from .limits import MAX_SITEMAPS_PER_INDEX
from .model import Page, Site, Source
from .output import OutputError, Staging
from .pages import PAGE_KEYS, PageNormaliser
from .site import load_site
from .sources import read_rows
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
    """Whether a source column is a page field."""
    return name in PAGE_KEYS


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
        page = normaliser.page(raw, lambda _key, _w=where: _w, source.defaults, where)
        if page is not None:
            yield page


def _public_base(site: Site) -> str:
    assert site.scope is not None
    base = site.output.public_url or site.scope.base_url
    return base[: base.rindex("/") + 1]


def _url_of(base: str, name: str) -> str:
    return base + quote(name, safe="/")


class _Files:
    """The files of one build: urlset parts, text parts, then index and robots."""

    def __init__(self, site: Site, staging: Staging, engine: str) -> None:
        self.site = site
        self.staging = staging
        self.renderer = RENDERERS[engine]()
        out = site.output
        self.urlsets = UrlsetSeries(staging.folder, out.max_urls, out.max_bytes, out.gzip)
        self.text = TextSeries(staging.folder, out.max_urls, out.max_bytes) if out.text else None

    def add(self, page: Page) -> None:
        self.urlsets.add(self.renderer.entries(page), page_namespaces(page), page.lastmod)
        if self.text is not None:
            self.text.add(v.loc for v in page.versions)

    def finish(self, collector: Collector) -> tuple[list[tuple[str, str]], list[WrittenFile]]:
        out = self.site.output
        base = _public_base(self.site)
        moves: list[tuple[str, str]] = []
        written: list[WrittenFile] = []
        parts = self.urlsets.finish()
        names = file_names(out, len(parts))
        for (scratch, stats), name in zip(parts, names):
            stats.name, stats.url = name, _url_of(base, name)
            moves.append((self._place(scratch, name), name))
            written.append(stats)
        entry_point = written[0].url if len(written) == 1 else None
        if len(parts) > 1 or out.index == "always":
            if len(parts) > MAX_SITEMAPS_PER_INDEX:
                collector.report(
                    "O101", f"{len(parts):,} sitemaps would be needed; an index lists at most "
                    f"{MAX_SITEMAPS_PER_INDEX:,}: split the site by section", Where(self.site.file),
                )
            index_path = self.staging.path(out.index_file)
            size = write_index(index_path, [(f.url or "", f.lastmod) for f in written])
            index = WrittenFile(name=out.index_file, kind="index", urls=len(written), bytes=size,
                                uncompressed=size, url=_url_of(base, out.index_file))
            moves.append((index_path, out.index_file))
            written.append(index)
            entry_point = index.url
        if self.text is not None:
            text_parts = self.text.finish()
            for (scratch, stats), name in zip(text_parts, file_names(out, len(text_parts), text=True)):
                stats.name, stats.url = name, _url_of(base, name)
                moves.append((self._place(scratch, name), name))
                written.append(stats)
        if out.robots is not None and entry_point is not None:
            path = self.staging.path(out.robots)
            line = f"Sitemap: {entry_point}\n".encode()
            with open(path, "wb") as handle:
                handle.write(line)
            moves.append((path, out.robots))
            written.append(WrittenFile(name=out.robots, kind="robots", bytes=len(line), uncompressed=len(line)))
        # Children first, the index after them, then the rest: a reader never sees an
        # index naming a file that is not in place yet.
        order = {"urlset": 0, "text": 0, "index": 1, "robots": 2}
        kinds = {f.name: f.kind for f in written}
        moves.sort(key=lambda move: order[kinds[move[1]]])
        return moves, written

    def _place(self, scratch: str, name: str) -> str:
        target = self.staging.path(name)
        os.replace(scratch, target)
        return target


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
