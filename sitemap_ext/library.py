"""Sitemaps for programs: the bytes of a sitemap for a web view, and a writer that
takes pages one at a time.

Both are ``build()`` underneath (one writer, one set of rules): ``render`` builds into
a private temporary folder and gives back the files' bytes; ``SitemapWriter`` feeds
``build(site, pages=...)`` from a bounded queue on a thread of its own, so a
framework can hand over pages as it produces them and memory stays flat.
"""

from __future__ import annotations

import datetime as dt
import os
import queue
import tempfile
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .builder import BuildResult, build
from .diagnostics import Collector
from .objects import Page, Site

_END = object()  # the writer's last item


@dataclass
class Rendered:
    """The files a site renders to, by name (``sitemap.xml``, an index and its parts,
    ``robots-sitemap.txt`` ...), and the build's findings."""

    files: dict[str, bytes] = field(default_factory=dict)
    collector: Collector | None = None

    @property
    def ok(self) -> bool:
        return self.collector is not None and self.collector.errors == 0

    @property
    def sitemap(self) -> bytes:
        """The sitemap a view serves at the site's sitemap URL: the index when the
        pages needed several files, else the one sitemap (its bytes)."""
        for name in ("sitemap_index.xml", "sitemap-index.xml", "sitemap.xml", "sitemap_index.xml.gz",
                     "sitemap.xml.gz"):
            if name in self.files:
                return self.files[name]
        return next(iter(self.files.values()), b"")


def render(site: Site | str | os.PathLike[str], pages: Iterable[Page | Mapping[str, Any]] | None = None, *,
           now: str | dt.datetime | dt.date | None = None, gzip: bool | None = None) -> Rendered:
    """The bytes of a site's sitemaps (one sitemap, or an index and its parts, split at
    the protocol's limits), for a web view to serve; nothing is written where the
    caller can see it. The findings are in ``result.collector``; with an error the
    files are empty (as a build replaces nothing then)."""
    with tempfile.TemporaryDirectory(prefix="sitemap-ext-render-") as folder:
        result = build(site, folder, pages=pages, now=now, gzip=gzip)
        rendered = Rendered(collector=result.collector)
        for written in result.files:
            path = os.path.join(folder, *written.name.split("/"))
            with open(path, "rb") as handle:
                rendered.files[written.name] = handle.read()
        return rendered


class SitemapWriter:
    """Pages handed over one at a time (``add``), built as they come; ``close()`` (or
    the end of a ``with`` block) finishes the build and gives its ``BuildResult``. An
    exception in the block abandons the build: the output folder keeps its old files::

        with SitemapWriter(site, "public/") as writer:
            for row in cursor:
                writer.add(Page(loc=row.url, lastmod=row.updated))
        print(writer.result.ok)
    """

    def __init__(self, site: Site | str | os.PathLike[str], out_dir: str | os.PathLike[str] | None = None,
                 **options: Any) -> None:
        if "pages" in options:
            raise TypeError("SitemapWriter takes its pages from add(), not pages=")
        self._queue: queue.Queue[object] = queue.Queue(maxsize=1024)
        self._error: BaseException | None = None
        self.result: BuildResult | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._build, args=(site, out_dir, options), daemon=True,
                                        name="sitemap-ext-writer")
        self._thread.start()

    def _pages(self) -> Iterator[object]:
        while True:
            item = self._queue.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item  # the caller gave up: the build stops and replaces nothing
            yield item

    def _build(self, site: Any, out_dir: Any, options: dict[str, Any]) -> None:
        try:
            self.result = build(site, out_dir, pages=self._pages(), **options)
        except BaseException as exc:  # (handed to the caller's thread at close)
            self._error = exc
            while True:  # let a waiting add() return
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    break

    def add(self, page: Page | Mapping[str, Any]) -> None:
        """One more page (a ``Page`` or a mapping with a page's keys)."""
        if self._closed:
            raise ValueError("this SitemapWriter is closed")
        if not isinstance(page, (Page, Mapping)):
            raise TypeError(f"add() takes a Page or a mapping, not {type(page).__name__}")
        if not self._put(page):
            self._raise()  # the build ended early: its exception, here

    def _put(self, item: object) -> bool:
        """Hand ``item`` to the build (waiting while the queue is full); False when the
        build has ended and takes nothing more."""
        while self._thread.is_alive():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def close(self) -> BuildResult:
        """Finish the build; its result (also in ``self.result``)."""
        if not self._closed:
            self._closed = True
            self._put(_END)
            self._thread.join()
        self._raise()
        assert self.result is not None
        return self.result

    def abandon(self, reason: BaseException | None = None) -> None:
        """Stop without replacing anything in the output folder."""
        if not self._closed:
            self._closed = True
            self._put(reason or RuntimeError("the pages were abandoned"))
            self._thread.join()

    def _raise(self) -> None:
        if self._error is not None and not isinstance(self._error, _Abandoned):
            raise self._error

    def __enter__(self) -> SitemapWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is not None:
            self.abandon(_Abandoned(str(exc)))
            return
        self.close()


class _Abandoned(RuntimeError):
    """The block that fed a writer raised: its build is dropped, and the block's own
    exception goes on."""


__all__ = ["Rendered", "SitemapWriter", "render"]
