"""Page fields to a ``Page``: one normaliser for YAML entries and source rows alike.

The caller hands over raw values and a function that says where each key was
written (a YAML position, or a CSV row); every problem is reported, and a page
that cannot be written (no valid URL) comes back as None.

``PageNormaliser`` calls three objects, each with one job and its own state: a
``FieldNormaliser`` judges single fields and URLs (``page_fields``), a
``LocaleResolver`` makes a page's URLs per locale (``page_locales``), a
``MediaNormaliser`` its images, videos and news (``page_media``). The page
normaliser itself tells which fields a page (or a source row) has and puts the page
together.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..dates import DateCache, Lastmod, of_versions
from ..diagnostics import Collector, Where
from ..read.description_findings import missing, mixed_forms
from ..read.normalised import Defaults, Layout, Placed, Scope
from ..read.normalised import NormalisedPage as Page
from .page_fields import (
    IMAGE_COLUMN,
    LASTMOD_COLUMN,
    MEDIA_KEYS,
    MEMO_LIMIT,
    PAGE_KEYS,
    URL_COLUMN,
    FieldNormaliser,
    RowShape,
    WhereOf,
    source_column,
)
from .page_locales import Dated, LocaleResolver, parse_x_default, path_under
from .page_media import MediaNormaliser


class PageNormaliser:
    """A page from its fields (``page``): the single fields judged by ``fields``, the
    URLs per locale made by ``resolver``, the media by ``media``."""

    def __init__(self, scope: Scope, collector: Collector, dates: DateCache | None = None) -> None:
        self.scope = scope
        self._placed: list[Placed] = []  # the page's findings the engine says of its entries: its URLs', its media's
        self.fields = FieldNormaliser(scope, collector, dates, placed=self._placed)
        self.resolver = LocaleResolver(scope, self.fields, collector)
        self.media = MediaNormaliser(scope, self.fields, collector, self._placed)
        self._shapes: dict[tuple[str, ...], RowShape] = {}  # a row's keys -> what they hold

    @property
    def collector(self) -> Collector:
        return self.fields.collector

    @collector.setter
    def collector(self, collector: Collector) -> None:
        """Where the parts report from now on (a worker's own collector, or one whose
        findings are not said)."""
        for part in (self.fields, self.resolver, self.media):
            part.report_to(collector)

    def page(
        self, raw: Mapping[str, Any], where_of: WhereOf, defaults: Defaults, where: Where, *, row: bool = False,
        shape: RowShape | None = None,
    ) -> Page | None:
        """A page from its fields; ``where`` is the entry's (or row's) own position.

        ``row`` says the fields come from a source row (url:<code> columns, and
        list values written as text). YAML entries and source rows of every shape
        take this one way; what makes it cheap per row is that every verdict on a
        value that repeats (a lastmod, a changefreq, a priority, an image host, a
        row shape) is memoised, and a path over every locale is joined to the
        locales' bases once, as a ``Layout`` the writer renders from. ``shape``: the
        row's keys told by ``row_shape``, when the caller has it (a CSV source's rows
        share their header's).
        """
        get = raw.get
        value = get("loc")
        path = get("path")
        urls = get("urls")
        media = digest_fields = True
        placed = self._placed
        placed.clear()
        if row:  # url:<code> columns (CSV) join a urls object (JSON Lines)
            urls, media, digest_fields = self._row_fields(raw, urls, shape)
        has_path = path is not None and path != ""
        multilingual = has_path or bool(urls)
        if multilingual == (value is not None and value != ""):  # (loc and path / urls, or neither)
            self._one_kind(multilingual, value, where_of, where)
            return None
        layout: Layout | None = None
        rest = ""
        codes: tuple[str, ...] | None = None
        x_default: str | None = None
        dated: Dated = {}
        if multilingual and not urls and not self.resolver.known.codes:
            # A site with no locales: a path is its one page's URL under base_url.
            self.resolver.subset(raw.get("locales"), where_of, row)  # (a page naming locales: C112 for each)
            loc = self.fields.url(path_under(self.scope.base_url, path), where_of("path"), what="path")
            locs: tuple[str, ...] = (loc,) if loc else ()
        elif multilingual:
            locs, codes, x_default, layout, rest = self.resolver.cluster(raw, path if has_path else None, urls,
                                                                         where_of, where, row, dated)
        else:
            loc = self.fields.url(value, where_of("loc"))
            locs = (loc,) if loc else ()
        lastmod, changefreq, priority = self.fields.values(raw, where_of, defaults)
        if not locs:
            return None
        lastmods = None
        if dated and codes is not None:
            lastmod, lastmods = versions_dated(codes, dated, lastmod)
        digest = self._digest_of(raw, where_of) if digest_fields else None
        page = Page(locs, codes, lastmod, changefreq, priority, x_default,
                    self.media.media(raw, where_of, locs[0], row) if media else (), where, layout, rest,
                    lastmods=lastmods, digests=None if digest is None else (digest,))
        if placed:
            page.placed = tuple(placed)
        return page

    def _row_fields(self, raw: Mapping[str, Any], urls: Any, shape: RowShape | None) -> tuple[Any, bool, bool]:
        """A row's urls with its url:<code> columns joined in, whether it has media
        fields and whether digest fields (``shape``: its keys told, if known)."""
        url_columns, lastmod_columns, media, digest_fields = shape or self.row_shape(tuple(raw))
        columns = {name: raw[key] for key, name in url_columns if raw[key] not in (None, "")} if url_columns else None
        if lastmod_columns:
            columns = _dated_columns(raw, lastmod_columns, columns or {}, urls)
        if columns:
            urls = {**urls, **columns} if isinstance(urls, Mapping) else columns
        return urls, media, digest_fields

    def _digest_of(self, raw: Mapping[str, Any], where_of: WhereOf) -> bytes | None:
        return self.fields.digest(raw, where_of) if "digest" in raw or "content" in raw else None

    def _one_kind(self, multilingual: bool, loc: Any, where_of: WhereOf, where: Where) -> bool:
        """C111 (loc beside path or urls), C104 (neither): whether the page can be made."""
        given = loc is not None and loc != ""
        if multilingual and given:
            mixed_forms(self.collector.report, "a page has either loc (one URL) or path / urls (one URL per locale), "
                                  "not both", where_of("loc"))
            return False
        if not multilingual and not given:
            missing(self.collector.report, "a page needs a loc (its URL, absolute or relative to site.base_url), "
                                  "or a path / urls for its locales", where)
            return False
        return True

    def row_shape(self, shape: tuple[str, ...]) -> RowShape:
        """A row's url:<code> and lastmod:<code> columns (each with the key it gives
        urls), whether it has media fields and whether digest fields, from its keys:
        once per shape (a CSV source has one; JSON Lines, a few)."""
        found = self._shapes.get(shape)
        if found is None:
            if len(self._shapes) >= MEMO_LIMIT:
                self._shapes.clear()
            found = self._shapes[shape] = (
                tuple((key, key[len(URL_COLUMN):]) for key in shape if key.startswith(URL_COLUMN)),
                tuple((key, key[len(LASTMOD_COLUMN):]) for key in shape if key.startswith(LASTMOD_COLUMN)),
                not MEDIA_KEYS.isdisjoint(shape), "digest" in shape or "content" in shape)
        return found


def _dated_columns(raw: Mapping[str, Any], lastmod_columns: tuple[tuple[str, str], ...], columns: dict[str, Any],
                   urls: Any) -> dict[str, Any]:
    """A row's lastmod:<code> columns joined to their code's URL (its url:<code> column,
    or its urls entry) as a version's own lastmod: ``{url, lastmod}``, or ``{lastmod}``
    for a version its path gives."""
    for key, name in lastmod_columns:
        value = raw[key]
        if value is None or value == "":
            continue
        url = columns.get(name)
        if url is None and isinstance(urls, Mapping):
            url = urls.get(name)
        columns[name] = {"lastmod": value} if url is None else \
            {**url, "lastmod": value} if isinstance(url, Mapping) else {"url": url, "lastmod": value}
    return columns


def versions_dated(codes: tuple[str, ...], dated: Dated, lastmod: Lastmod | None
                   ) -> tuple[Lastmod | None, tuple[Lastmod | None, ...] | None]:
    """A cluster's lastmod and each version's (None when they are all one): a version
    that gives its own keeps it, the others take the page's ``lastmod``. The page's
    lastmod is then the newest of them, as a built site's cluster has it."""
    return of_versions(tuple([dated.get(code, lastmod) for code in codes]))


__all__ = ["IMAGE_COLUMN", "LASTMOD_COLUMN", "PAGE_KEYS", "URL_COLUMN", "FieldNormaliser", "LocaleResolver",
           "MediaNormaliser", "PageNormaliser", "WhereOf", "parse_x_default", "source_column"]
