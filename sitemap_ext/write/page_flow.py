"""A page's way to the files: a source's rows through the one normaliser, then the flow
(duplicates dropped, dates judged, entries rendered) that makes each page's record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence

from ..dates import ContentDated, newest
from ..diagnostics import Collector, Where
from ..ext.news import PREFIX as NEWS_PREFIX
from ..read.normalised import Layout, Source
from ..read.normalised import NormalisedPage as Page
from ..read.normalised import NormalisedSite as Site
from ..read.sources import SourceReader
from ..rules.cluster_findings import listed_twice
from .page_normaliser import PageNormaliser
from .records import page_entries
from .seen_urls import SeenUrls
from .state import BuildState, content_unknown
from .xml import RenderedPage as Rendered
from .xml import Renderer, page_namespaces


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
        shape = None  # (a CSV's rows share their header's keys: told once)
        first = True
        for values, line in reader:
            if first:  # the header has been read
                first = False
                columns = reader.columns
                if columns is not None:
                    shape = self.normaliser.row_shape(tuple(dict.fromkeys(columns)))
            raw = dict(zip(columns, values, strict=False)) if columns is not None else values
            where = Where(display, line)

            def where_of(_key: str | tuple[str, ...], where: Where = where) -> Where:
                return where  # (every field of a row is at the row; as a lambda would cost)
            found = page(raw, where_of, defaults, where, row=True, shape=shape)
            yield flow(found) if found is not None else None


class PageFlow:
    """What happens to each page, in description order: duplicates are dropped, dates
    judged, entries rendered. The result is a ``Rendered`` record for the files."""

    def __init__(self, collector: Collector, now: float | None, renderer: Renderer | None,
                 bases: Iterable[str] = (), state: BuildState | None = None) -> None:
        self.collector = collector
        self.state = state  # the build state, which dates ``lastmod: content`` and records each URL
        self.now = now
        self.renderer = renderer  # None: checking only, nothing to render
        # The URLs written, as hashes (``bases``: the locales' bases, see SeenUrls).
        self.seen = SeenUrls(bases)
        self._keyed: dict[Layout, bool] = {}  # layouts whose pages are kept by their rest

    def __call__(self, given: Page) -> Rendered | None:
        page: Page | None = given
        key = None
        layout = given.layout
        if layout is not None and (self._keyed.get(layout) or self._by_rest(layout)):
            key = self.seen.add_cluster_if_new(given.rest)
            if key is None:
                page = self._drop_duplicates(given)  # (None: nothing added; it reports which)
        elif not self.seen.add_if_new(given.locs):
            # A page's own URLs are distinct but where regions of one language share
            # one (hreflang.may_share), so one test against every earlier URL decides
            # the common case.
            page = self._drop_duplicates(given)
        if page is None:
            return None
        if self.state is not None:
            page = self.state.date(page)
        elif isinstance(page.lastmod, ContentDated) or page.lastmods is not None:
            page = self._undated(page)
        lastmod = page.lastmod
        blob, sizes = self.renderer.render(page) if self.renderer is not None else (b"", [])
        prefixes = page_namespaces(page)
        locs: Sequence[str] = page.locs
        if page.codes is not None and page.layout is None and len(set(locs)) != len(locs):
            locs, blob, sizes = _once_each(locs, blob, sizes)
        where = page.where
        return Rendered(locs, blob, sizes, prefixes, lastmod, NEWS_PREFIX in prefixes, key, where,
                        page_entries(page, locs, where.line or 0), page.placed)

    def _undated(self, page: Page) -> Page:
        """``lastmod: content`` in a build that keeps no state (C120): left out."""
        lastmods = page.lastmods or (page.lastmod,)
        if not any(isinstance(one, ContentDated) for one in lastmods):
            return page
        asks = next((loc for loc, one in zip(page.locs, lastmods, strict=False) if isinstance(one, ContentDated)),
                    page.locs[0])  # (the version that asks, when versions have their own lastmods)
        content_unknown(self.collector.report, asks, "this build keeps no state (output.state, --state)", page.where)
        kept = tuple(None if isinstance(one, ContentDated) else one for one in lastmods)
        return dataclasses.replace(page, lastmod=newest(kept), lastmods=kept if page.lastmods is not None else None)

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
        each = page.digests is not None and len(page.digests) == len(page.locs)  # (else one shared by all)
        digests = page.digests if each and page.digests is not None else (None,) * len(page.locs)
        for loc, code, lastmod, digest in zip(page.locs, page.codes or (None,) * len(page.locs), lastmods, digests,
                                              strict=False):
            if loc not in own:
                if loc in seen:
                    listed_twice(self.collector.report, loc, page.where, consequence="; it is written once")
                    continue
                seen.add(loc)
                own.add(loc)
            kept.append((loc, code, lastmod, digest))
        if not kept:
            return None
        codes = tuple(code for _, code, _, _ in kept if code is not None) if page.codes is not None else None
        return dataclasses.replace(page, locs=tuple(loc for loc, _, _, _ in kept), codes=codes, layout=None, rest="",
                                   lastmods=tuple(lastmod for _, _, lastmod, _ in kept) if page.lastmods else None,
                                   digests=tuple(digest for _, _, _, digest in kept) if each else page.digests)


def _once_each(locs: Sequence[str], blob: bytes | memoryview, sizes: Sequence[int]
               ) -> tuple[list[str], bytes, list[int]]:
    """A page's entries with a URL that several codes share written once (the first).
    With nothing rendered (a dry run, or ``check`` of a description) the URLs alone."""
    if not sizes:  # (else none would be counted, and a site of such pages would be O102)
        return list(dict.fromkeys(locs)), b"", []
    kept_locs: list[str] = []
    parts: list[bytes | memoryview] = []
    kept_sizes: list[int] = []
    start = 0
    for loc, size in zip(locs, sizes, strict=False):
        if loc not in kept_locs:
            kept_locs.append(loc)
            parts.append(blob[start:start + size])
            kept_sizes.append(size)
        start += size
    return kept_locs, b"".join(parts), kept_sizes
