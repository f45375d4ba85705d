"""A page's images, videos and news article: each parsed by its extension (``ext/``)
with a ``MediaContext`` that reports at the page's place; a source row's one image
column is taken in one step when there is nothing to say about it.

``MediaNormaliser`` keeps the media facts noted once per build (an image host, say);
the media URLs it resolves are judged by the ``FieldNormaliser`` it is handed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..diagnostics import Collector, Where
from ..ext import image as image_ext
from ..ext import news as news_ext
from ..ext import video as video_ext
from ..ext.media import Field, MediaContext
from ..read.normalised import Placed, Scope
from ..urls import is_clean, origin_text
from .page_fields import IMAGE_COLUMN, FieldNormaliser, WhereOf

# What the engine's media rules (rules/media.py) say of a written value: said of the
# entry the build writes, placed where the description gives the value (``placed``);
# the build says one itself only of a value it does not write (write/judge.py).
SAID_OF_OUTPUT = frozenset({"I103", "V103", "V114", "V115", "N104", "N105", "N107"})


class MediaNormaliser:
    """The media of a page (see ``media``). ``placed``: where the page's findings that
    the engine says of its entries go, with their places (``SAID_OF_OUTPUT``)."""

    def __init__(self, scope: Scope, fields: FieldNormaliser, collector: Collector, placed: list[Placed]) -> None:
        self.scope = scope
        self.fields = fields
        self.collector = collector
        self.placed = placed
        self.noted: set[tuple[str, str]] = set()  # media facts reported once per build: (kind, value)
        self._quiet_image_hosts: tuple[str, ...] = ()  # "scheme://host/" of image hosts already noted (I104)

    def report_to(self, collector: Collector) -> None:
        self.collector = collector

    def media(self, raw: Mapping[str, Any], where_of: WhereOf, page_loc: str, row: bool
               ) -> tuple[tuple[str, Any], ...]:
        images = raw.get("images")
        column = raw.get(IMAGE_COLUMN) if row else None
        if column not in (None, ""):
            if images in (None, "", []) and raw.get("videos") in (None, "", []) and raw.get("news") in (None, ""):
                # One image from a CSV column, the common case: the rules of
                # image.parse_one for a bare URL, without building a mapping for it.
                one = self._column_image(column, where_of, page_loc)
                return ((image_ext.NAME, (one,)),) if one is not None else ()
            images = (images if isinstance(images, list) else [images] if images else []) + [column]
        if images in (None, "", []) and raw.get("videos") in (None, "", []) and raw.get("news") in (None, ""):
            return ()
        return self._parsed(raw, images, where_of, page_loc)

    def _parsed(self, raw: Mapping[str, Any], images: Any, where_of: WhereOf, page_loc: str
                ) -> tuple[tuple[str, Any], ...]:
        """A page's images (``images``: with a source row's image column), videos and news
        article, each parsed by its extension."""
        out: list[tuple[str, Any]] = []
        if images not in (None, "", []):
            parsed = image_ext.parse(images, self._media_context("images", where_of, page_loc))
            if parsed:
                out.append((image_ext.NAME, parsed))
        if raw.get("videos") not in (None, "", []):
            videos = video_ext.parse(raw["videos"], self._media_context("videos", where_of, page_loc))
            if videos:
                out.append((video_ext.NAME, videos))
        if raw.get("news") not in (None, ""):
            article = self._news(raw["news"], where_of, page_loc)
            if article is not None:
                out.append((news_ext.NAME, article))
        return tuple(out)

    def _news(self, value: Any, where_of: WhereOf, page_loc: str) -> news_ext.News | None:
        """A page's news article; None when it has none to write (an old one is N110 when
        drop_old_news says to leave it out)."""
        ctx = self._media_context("news", where_of, page_loc)
        article = news_ext.parse(value, ctx, self.scope.news_publication)
        if article is not None and self.scope.drop_old_news and news_ext.is_old(article, self.scope.now):
            ctx.report("N110", f"{page_loc}: the article is older than 48 hours; it is left out of the news "
                       "sitemap (drop_old_news) and listed as a plain page", "publication_date")
            return None
        return article

    def _column_image(self, value: Any, where_of: WhereOf, page_loc: str) -> image_ext.Image | None:
        if type(value) is str:
            if value.startswith(self._quiet_image_hosts) and is_clean(value):
                return image_ext.Image(value)  # a host noted before: nothing more to say about it
            if image_ext.says_nothing(value, page_loc, self.noted):
                host = origin_text(value)
                if ("image-host", host) in self.noted:
                    self._quiet_image_hosts += (host + "/",)
                return image_ext.Image(value)
        return image_ext.parse_one(value, self._media_context(IMAGE_COLUMN, where_of, page_loc))

    def _media_context(self, key: str, where_of: WhereOf, page_loc: str) -> MediaContext:
        def where(field: Field) -> Where:
            # (a list's index is an int: every reader's where_of takes one, WhereOf does not say so)
            return where_of(_path(key, field))  # type: ignore[arg-type]

        def report(code: str, message: str, field: Field = None, *, suggestion: str | None = None,
                   once: str | None = None) -> None:
            if code in SAID_OF_OUTPUT:  # (the engine says it of the entry written: placed here)
                self.placed.append((code, message, where(field), suggestion, once))
                return
            self.collector.report(code, message, where(field), url=page_loc, suggestion=suggestion, once=once)

        def resolve(value: Any, field: Field) -> str | None:
            if type(value) is str and is_clean(value):
                return value  # (a media URL may be on any host: nothing else to judge)
            return self.fields.url(value, where(field), what=".".join(str(p) for p in _path(key, field)),
                                   check_scope=False)

        return MediaContext(page_loc=page_loc, report=report, resolve=resolve, dates=self.fields.dates,
                            now=self.scope.now, drop_deprecated=self.scope.drop_deprecated,
                            drop_old_news=self.scope.drop_old_news, rewrites_dates=True, noted=self.noted)


def _path(key: str, field: Field) -> tuple[str | int, ...]:
    """Where a media field was written: the page's key, then the field's own path."""
    return (key,) + (field if isinstance(field, tuple) else (field,) if field is not None else ())
