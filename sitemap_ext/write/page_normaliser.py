"""Page fields to a ``Page``: one normaliser for YAML entries and source rows alike.

The caller hands over raw values and a function that says where each key was
written (a YAML position, or a CSV row); every problem is reported, and a page
that cannot be written (no valid URL) comes back as None.

``PageNormaliser`` is put together from three parts: the single fields and the
site's scope (``page_fields``), the URLs per locale (``page_locales``) and the
media (``page_media``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..dates import Lastmod
from ..diagnostics import Where
from ..read.description_findings import missing, mixed_forms
from ..read.normalised import CHANGEFREQS, Defaults, Layout
from ..read.normalised import NormalisedPage as Page
from .page_fields import (
    IMAGE_COLUMN,
    MEDIA_KEYS,
    MEMO_LIMIT,
    PAGE_KEYS,
    URL_COLUMN,
    FieldNormaliser,
    RowShape,
    WhereOf,
    source_column,
)
from .page_locales import LocaleNormaliser, parse_x_default, path_under
from .page_media import MediaNormaliser


class PageNormaliser(LocaleNormaliser, MediaNormaliser):
    """A page from its fields (``page``), and its defaults (``defaults``)."""

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
        self.placed = []  # (the page's findings the engine says of its entries: its URLs', its media's)
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
        if multilingual and not urls and not self.locales:
            # A site with no locales: a path is its one page's URL under base_url.
            self._subset(raw.get("locales"), where_of, row)  # (a page naming locales: C112 for each)
            loc = self.url(path_under(self.scope.base_url, path), where_of("path"), what="path")
            locs: tuple[str, ...] = (loc,) if loc else ()
        elif multilingual:
            locs, codes, x_default, layout, rest = self._cluster(raw, path if has_path else None, urls, where_of,
                                                                 where, row)
        else:
            loc = self.url(value, where_of("loc"))
            locs = (loc,) if loc else ()
        lastmod, changefreq, priority = self._values(raw, where_of, defaults)
        if not locs:
            return None
        digest = self._digest_of(raw, where_of) if digest_fields else None
        page = Page(locs, codes, lastmod, changefreq, priority, x_default,
                    self._media(raw, where_of, locs[0], row) if media else (), where, layout, rest,
                    digests=None if digest is None else (digest,))
        if self.placed:
            page.placed = tuple(self.placed)
        return page

    def _row_fields(self, raw: Mapping[str, Any], urls: Any, shape: RowShape | None) -> tuple[Any, bool, bool]:
        """A row's urls with its url:<code> columns joined in, whether it has media
        fields and whether digest fields (``shape``: its keys told, if known)."""
        url_columns, media, digest_fields = shape or self.row_shape(tuple(raw))
        columns = {name: raw[key] for key, name in url_columns if raw[key] not in (None, "")} if url_columns else None
        if columns:
            urls = {**urls, **columns} if isinstance(urls, Mapping) else columns
        return urls, media, digest_fields

    def _digest_of(self, raw: Mapping[str, Any], where_of: WhereOf) -> bytes | None:
        return self.digest(raw, where_of) if "digest" in raw or "content" in raw else None

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

    def _values(self, raw: Mapping[str, Any], where_of: WhereOf, defaults: Defaults
                ) -> tuple[Lastmod | None, str | None, str | None]:
        """lastmod, changefreq and priority: the page's own (the values rules' verdicts),
        else its defaults."""
        get = raw.get
        text = get("lastmod")
        if text is None or text == "":
            lastmod = defaults.lastmod
        else:  # (a text judged before with nothing to say: one look-up)
            lastmod = self.quiet_dates.get(text) if type(text) is str else None
            if lastmod is None:
                lastmod = self.lastmod(text, where_of("lastmod"))
        text = get("changefreq")
        changefreq = defaults.changefreq if text is None or text == "" else \
            text if type(text) is str and text in CHANGEFREQS else self.changefreq(text, where_of("changefreq"))
        text = get("priority")
        priority = defaults.priority if text is None or text == "" else self.priority(text, where_of("priority"))
        return lastmod, changefreq, priority

    def row_shape(self, shape: tuple[str, ...]) -> RowShape:
        """A row's url:<code> columns (each with the key it gives urls), whether it has
        media fields and whether digest fields, from its keys: once per shape (a CSV
        source has one; JSON Lines, a few)."""
        found = self._shapes.get(shape)
        if found is None:
            if len(self._shapes) >= MEMO_LIMIT:
                self._shapes.clear()
            found = self._shapes[shape] = (
                tuple((key, key[len(URL_COLUMN):]) for key in shape if key.startswith(URL_COLUMN)),
                not MEDIA_KEYS.isdisjoint(shape), "digest" in shape or "content" in shape)
        return found


__all__ = ["IMAGE_COLUMN", "PAGE_KEYS", "URL_COLUMN", "FieldNormaliser", "PageNormaliser", "WhereOf",
           "parse_x_default", "source_column"]
