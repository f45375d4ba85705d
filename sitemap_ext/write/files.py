"""The files of one build, grouped per host, and what is written once pages are done:
the index, text sitemaps, the robots.txt line, in the order a reader may see them.

A sitemap lists URLs of its own host only: with several hosts, each gets a folder
of its own (named after the host) with its own files, index and robots line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import quote

from ..diagnostics import Collector, Where
from ..folder import XSL_FILE, index_view
from ..limits import MAX_NEWS_PER_FILE, MAX_SITEMAPS_PER_INDEX
from ..read.normalised import NormalisedSite as Site
from ..urls import Origin, origin_of, origin_text
from .output import Staging
from .series import TextSeries, UrlsetSeries, WrittenFile, file_names, versioned_name
from .xml import RenderedPage as Rendered
from .xml import write_index

if TYPE_CHECKING:  # pragma: no cover
    from .parallel import Chunk


def _url_of(base: str, name: str) -> str:
    return base + quote(name, safe="/")


def host_folder(origin: Origin) -> str:
    """The output subfolder of one host's files when a site spans several hosts: the
    host and port, with anything but letters, digits, '.', '-' and '_' as '_' (hosts
    are validated before, so this is a last guard: never '.', '..' or a path)."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", origin.netloc)
    return name if name.strip(".") else "_" + name


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
        self.urlsets = UrlsetSeries(scratch, out.max_urls, out.max_bytes, out.gzip, out.xsl)
        # News pages get files of their own: Google reads at most 1,000 news entries a file.
        self.news = UrlsetSeries(os.path.join(scratch, "news"), min(out.max_urls, MAX_NEWS_PER_FILE),
                                 out.max_bytes, out.gzip, out.xsl)
        os.mkdir(self.news.folder)
        self.text = TextSeries(scratch, out.max_urls, out.max_bytes) if out.text else None
        self.names: dict[tuple[bool, int], str] = {}  # (news, number from 1): the file's name, once placed

    def finish(self, collector: Collector) -> tuple[list[tuple[str, str]], list[WrittenFile]]:
        out = self.site.output
        moves: list[tuple[str, str]] = []
        written: list[WrittenFile] = []
        parts = self.urlsets.finish()
        news = self.news.finish()
        single = len(parts) + len(news) == 1 and out.index == "auto"
        versioned = out.versioned and not single  # one file and no index: one rename switches it
        for number, ((scratch, stats), name) in enumerate(zip(parts, file_names(out, len(parts), single=single),
                                                              strict=False), 1):
            self._place(scratch, versioned_name(name, scratch) if versioned else name, stats, moves, written)
            self.names[False, number] = stats.name
        for number, ((scratch, stats), name) in enumerate(zip(news, file_names(out, len(news),
                                                                               pattern=out.news_pattern,
                                                                               single=single), strict=False), 1):
            self._place(scratch, versioned_name(name, scratch) if versioned else name, stats, moves, written)
            self.names[True, number] = stats.name
        parts = parts + news
        sitemaps = list(written)
        entry_point = written[0].url if len(written) == 1 else None
        if len(parts) > 1 or out.index == "always":
            entry_point = self._index(len(parts), moves, written, collector)
        if self.text is not None:
            text_parts = self.text.finish()
            for (scratch, stats), name in zip(text_parts, file_names(out, len(text_parts), text=True), strict=False):
                self._place(scratch, name, stats, moves, written)
        self._beside(sitemaps, entry_point, moves, written, collector)
        return moves, written

    def _index(self, count: int, moves: list[tuple[str, str]], written: list[WrittenFile],
               collector: Collector) -> str | None:
        """The index of the ``count`` sitemaps written; its URL."""
        out = self.site.output
        if count > MAX_SITEMAPS_PER_INDEX:
            collector.report(
                "O101", f"{count:,} sitemaps would be needed; an index lists at most "
                f"{MAX_SITEMAPS_PER_INDEX:,}: split the site by section", Where(self.site.file),
            )
        name = self.folder + out.index_file
        path = self.staging.path(name)
        size = write_index(path, [(f.url or "", f.lastmod) for f in written], out.xsl)
        index = WrittenFile(name=name, kind="index", urls=len(written), bytes=size, uncompressed=size,
                            url=_url_of(self.public, out.index_file))
        moves.append((path, name))
        written.append(index)
        return index.url

    def _beside(self, sitemaps: list[WrittenFile], entry_point: str | None, moves: list[tuple[str, str]],
                written: list[WrittenFile], collector: Collector) -> None:
        """What goes beside the sitemaps: the stylesheet, the HTML views, robots.txt."""
        out = self.site.output
        if out.xsl and sitemaps:
            from .stylesheet import STYLESHEET  # (only where output.xsl asks for it)

            name = self.folder + XSL_FILE
            path = self.staging.path(name)
            with open(path, "wb") as handle:
                handle.write(STYLESHEET)
            moves.append((path, name))
            written.append(WrittenFile(name=name, kind="xsl", bytes=len(STYLESHEET), uncompressed=len(STYLESHEET)))
        if sitemaps and self._viewed(sitemaps, collector):
            self._views(sitemaps, moves, written)
        if out.robots is not None and entry_point is not None:
            name = self.folder + out.robots
            path = self.staging.path(name)
            line = f"Sitemap: {entry_point}\n".encode()
            with open(path, "wb") as handle:
                handle.write(line)
            moves.append((path, name))
            written.append(WrittenFile(name=name, kind="robots", bytes=len(line), uncompressed=len(line)))

    def _viewed(self, sitemaps: list[WrittenFile], collector: Collector) -> bool:
        """Whether this host's sitemaps get their HTML views: output.html, or where it is
        not set, a host of at most VIEWS_UP_TO URLs (O109 says when they are left out)."""
        html = self.site.output.html
        if html is not None:
            return html
        from .htmlview import VIEWS_UP_TO  # (the views' module: not loaded where output.html is false)

        urls = sum(stats.urls for stats in sitemaps)
        if urls <= VIEWS_UP_TO:
            return True
        collector.report("O109", f"the sitemaps of {self.public} list {urls:,} URLs, more than {VIEWS_UP_TO:,}, so "
                         "their HTML views (a row for each URL) are not written; set output.html: true to write "
                         "them, or output.html: false to say you want none", Where(self.site.file))
        return False

    def _views(self, sitemaps: list[WrittenFile], moves: list[tuple[str, str]], written: list[WrittenFile]) -> None:
        """output.html: a static HTML view of each sitemap and a list of them all."""
        from .htmlview import write_index_view, write_sitemap_views

        listed = []
        listing = index_view(self.site.output.index_file)
        for stats in sitemaps:
            name = stats.name[len(self.folder):]  # relative to this host's folder
            views = write_sitemap_views(self.staging.path(stats.name), name, stats.urls,
                                        lambda view: self.staging.path(self.folder + view), listing, self.public)
            for view, size in views:
                moves.append((self.staging.path(self.folder + view), self.folder + view))
                written.append(WrittenFile(name=self.folder + view, kind="html", bytes=size, uncompressed=size))
            listed.append((name, views[0][0], stats.urls, stats.lastmod.text if stats.lastmod is not None else None))
        name = self.folder + listing
        size = write_index_view(self.staging.path(name), listed, self.public)
        moves.append((self.staging.path(name), name))
        written.append(WrittenFile(name=name, kind="html", bytes=size, uncompressed=size))

    def _place(self, scratch: str, name: str, stats: WrittenFile, moves: list[tuple[str, str]],
               written: list[WrittenFile]) -> None:
        stats.name, stats.url = self.folder + name, _url_of(self.public, name)
        target = self.staging.path(stats.name)
        os.replace(scratch, target)
        moves.append((target, stats.name))
        written.append(stats)


class Files:
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
        self.entry_bytes = 0  # of entries added (parallel.render measures a source's pieces by it)
        self.split: list[int] | None = None  # where the last page's entries went, if not all into one file (add)

    def _host(self, origin_text: str) -> _HostFiles:
        files = self.hosts.get(origin_text)
        if files is None:
            origin = origin_of(origin_text + "/")
            folder = host_folder(origin) + "/" if self.several else ""
            files = self.hosts[origin_text] = _HostFiles(self.site, self.staging, folder, self.publics[origin])
        return files

    def add(self, record: Rendered) -> None:
        """One page's entries, into their host's current file (the next where it is full).
        ``split`` says afterwards which file each entry went to (its number in its host's
        series) where that is not one file for all: a page across a split, or on several
        hosts; else it is None."""
        self.entry_bytes += len(record.blob)
        if not self.several:
            files = self.hosts.get(self.base) or self._host(self.base)
            series = files.news if record.news else files.urlsets
            series.add(record.blob, record.sizes, record.prefixes, record.lastmod)
            self.split = series.split
            if files.text is not None:
                files.text.add(record.locs)
            return
        blob, position = memoryview(record.blob), 0
        split = []
        for loc, size in zip(record.locs, record.sizes, strict=True):
            files = self._host(origin_text(loc))
            series = files.news if record.news else files.urlsets
            series.add(blob[position:position + size], (size,), record.prefixes, record.lastmod)
            split.append(len(series.parts) + 1)
            position += size
            if files.text is not None:
                files.text.add((loc,))
        self.split = split

    def parts(self, origin: str, news: bool) -> int:
        """The number of the file an entry of ``origin`` (news or not) went to last."""
        host = self.hosts.get(origin)
        if host is None:
            return 1
        series = host.news if news else host.urlsets
        return len(series.parts) + series.open

    @property
    def names(self) -> dict[tuple[str, bool, int], str]:
        """Each urlset file placed (after finish()): (origin, news, number) -> its name."""
        return {(origin, news, number): name for origin, host in self.hosts.items()
                for (news, number), name in host.names.items()}

    @property
    def scratch(self) -> str:
        """A folder for a build's passing files (removed with the staging)."""
        return self.staging.folder

    def quiesce(self) -> None:
        """Let every writer thread finish and end (it starts again on the next write):
        before a fork, so that no thread is mid-write in the child's copy."""
        for host in self.hosts.values():
            host.urlsets.quiesce()
            host.news.quiesce()

    def finished(self) -> int:
        """Files closed so far (for progress)."""
        return sum(len(h.urlsets.parts) + len(h.news.parts) for h in self.hosts.values())

    def add_chunk(self, chunk: Chunk, placed: Callable[[int, int], None] = lambda start, stop: None) -> None:
        """A worker's chunk: in runs of whole pages where it can, page by page where not;
        ``placed(start, stop)`` is told each run of pages once it is in its file."""
        if self.several or self.text or not chunk.uniform():
            for number, record in enumerate(chunk.records()):
                self.add(record)
                placed(number, number + 1)
            return
        series = self._host(self.base).urlsets
        sizes, counts, lastmods = list(chunk.sizes), list(chunk.counts), chunk.lastmods
        prefixes = chunk.prefixes[0]
        start = offset = 0
        while start < len(counts):
            taken = series.add_run(chunk.blob[offset:], sizes[start:], counts[start:], prefixes, lastmods[start:])
            offset += sum(sizes[start:start + taken])
            self.split = None  # (whole pages into the current file)
            placed(start, start + taken)
            start += taken
            if start < len(counts):  # this page starts a new file (or opens the first)
                self.add(next(chunk.records(start)))
                placed(start, start + 1)
                offset += sizes[start]
                start += 1

    def finish(self, collector: Collector) -> tuple[list[tuple[str, str]], list[WrittenFile]]:
        moves: list[tuple[str, str]] = []
        written: list[WrittenFile] = []
        for key in sorted(self.hosts):
            host_moves, host_written = self.hosts[key].finish(collector)
            moves += host_moves
            written += host_written
        if self.site.output.headers is not None:  # (read back from the sitemaps staged: every source alike)
            from .headers import write_headers  # (it reads the sitemaps back: only where output.headers asks)

            urlsets = {f.name for f in written if f.kind == "urlset"}
            staged = [path for path, name in moves if name in urlsets]
            header_moves, header_written = write_headers(self.site.output.headers, staged, self.base, self.staging,
                                                         self.site.file, collector)
            moves += header_moves
            written += header_written
        # Children first, the index after them, then the rest: a reader never sees an
        # index naming a file that is not in place yet.
        order = {"xsl": 0, "urlset": 0, "text": 0, "index": 1, "robots": 2, "headers": 2, "html": 3}
        kinds = {f.name: f.kind for f in written}
        moves.sort(key=lambda move: order[kinds[move[1]]])
        return moves, written


def no_pages(collector: Collector, site_file: str | None) -> None:
    """O102: a site that lists no pages (a urlset without entries fails the XSD)."""
    collector.report("O102", "the site lists no pages: add pages: or sources:", Where(site_file, 1, 1))
