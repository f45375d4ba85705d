"""Images, videos and news: the build's own parse() rules of each extension module,
fed with the element turned into the same mapping a YAML page gives.

Sources: Google, "Image sitemaps" (image:loc required, up to 1,000 images per
<url>, caption/title/geo_location/license deprecated in 2022); "Video sitemaps"
(required and optional tags, limits); "News sitemaps" (publication, language,
publication_date, title; 1,000 per sitemap; articles of the last two days); the
XSDs for child order (a warning: search engines read any order).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from ..ext import image, news, video
from ..ext.media import Field, MediaContext
from ..limits import MAX_IMAGES_PER_URL, MAX_NEWS_PER_FILE
from ..read.record import Media, UrlEntry
from ..urls import origin_text
from .context import Context
from .locs import url_findings
from .registry import Rule
from .structure import unknown_field


def _context(ctx: Context, loc: str, item: Media) -> MediaContext:
    lines, base = item.lines, item.line

    def line_of(field: Field) -> int:
        key = field[0] if isinstance(field, tuple) and field else field
        return lines.get(key, base) if isinstance(key, str) else base

    def report(code: str, message: str, field: Field = None, *, suggestion: str | None = None,
               once: str | None = None) -> None:
        ctx.report(code, message, line_of(field), url=loc, suggestion=suggestion, once=once)

    def resolve(value: Any, field: Field) -> str | None:
        # (named as the element is: image:loc, video:thumbnail_loc; a bare "loc" reads as the page's)
        name = f"{item.kind}:" + ".".join(map(str, field if isinstance(field, tuple) else (field,)))
        _, fixed, findings = url_findings(str(value), name)
        for code, message, suggestion in findings:
            report(code, message, field, suggestion=suggestion)
        return fixed

    return MediaContext(page_loc=loc, report=report, resolve=resolve, dates=ctx.dates, now=ctx.now,
                        noted=ctx.noted, unknown=unknown_field)


def _raw_text(item: Media, key: str) -> str | None:
    """A field's text as written (readers keep whitespace; the rules judge it)."""
    value = item.fields.get(key)
    return value if isinstance(value, str) else None


def images(entry: UrlEntry, ctx: Context) -> None:
    """I101-I105 and the URL rules on each image:loc; I102 past 1,000 images."""
    items = [m for m in entry.media if m.kind == "image"]
    if not items or ctx.loc is None:
        return
    if len(items) > MAX_IMAGES_PER_URL:
        ctx.report(*image.too_many(len(items), in_sitemap=True), items[MAX_IMAGES_PER_URL].line, url=ctx.loc)
    for item in items:
        loc = _raw_text(item, "loc")
        if len(item.fields) == 1 and loc and image.says_nothing(loc, ctx.loc, ctx.noted):
            continue  # the common case, decided without building a context
        image.parse_one(dict(item.fields), _context(ctx, ctx.loc, item))


def videos(entry: UrlEntry, ctx: Context) -> None:
    """V101-V118: each video:video."""
    if ctx.loc is None:
        return
    for item in (m for m in entry.media if m.kind == "video"):
        ranks = [video.ORDER.index(n) for n in item.order if n in video.ORDER]
        if ranks != sorted(ranks):
            ctx.report("V116", "children of video:video are out of the XSD's order (thumbnail_loc, title, "
                       "description, content_loc, player_loc, duration, ...); search engines read any order",
                       item.line, url=ctx.loc)
        video.parse_one(dict(item.fields), _context(ctx, ctx.loc, item))


def news_article(entry: UrlEntry, ctx: Context) -> None:
    """N101-N109: one news:news per <url>, 1,000 per file, in the XSD's order."""
    articles = [m for m in entry.media if m.kind == "news"]
    if not articles or ctx.loc is None:
        return
    if len(articles) > 1:
        ctx.report(*news.more_than_one(in_sitemap=True), articles[1].line, url=ctx.loc)
    item = articles[0]
    ctx.facts.news += 1
    if ctx.facts.news == MAX_NEWS_PER_FILE + 1:
        ctx.report("N106", f"more than {MAX_NEWS_PER_FILE:,} news entries in one sitemap; Google reads "
                   f"{MAX_NEWS_PER_FILE:,} at most", item.line, url=ctx.loc)
    ranks = [news.ORDER.index(n) for n in item.order if n in news.ORDER]
    if ranks != sorted(ranks):
        ctx.report("N109", "children of news:news are out of the XSD's order: publication, publication_date, "
                   "title; search engines read any order", item.line, url=ctx.loc)
    news.parse(dict(item.fields), _context(ctx, ctx.loc, item), None)


def _without(kind: str) -> Callable[[UrlEntry], Hashable]:
    """The key of the rule on one kind of media: None for an entry without that kind (of
    which the rule says nothing), else the entry's own (it is judged each time)."""
    def key(entry: UrlEntry) -> Hashable:
        for item in entry.media:
            if item.kind == kind:
                return id(entry)
        return None
    return key


def _bare_images(entry: UrlEntry) -> Hashable:
    """The key of the image rule: where an entry's images are bare image:locs (the usual
    case), their URLs and the page's origin as written and the character after it (what
    ``image.says_nothing`` looks at; two pages written so resolve to one origin too),
    each after its length (a string: no object the collector of cycles walks); else the
    entry's own (it is judged each time)."""
    page = entry.locs[0].text if len(entry.locs) == 1 else None
    prefix = page[:len(origin_text(page)) + 1] if page is not None else ""
    key = f"{len(prefix)}:{prefix}"
    for item in entry.media:
        if item.kind == "image":
            loc = _raw_text(item, "loc")
            if len(item.fields) != 1 or loc is None:
                return id(entry)
            key += f"{len(loc)}:{loc}"
    return key


RULES: tuple[Rule, ...] = (
    Rule("images", "entry", ("I101", "I102", "I103", "I104", "I105"), images, reads="media", key=_bare_images),
    Rule("videos", "entry", ("V101", "V102", "V103", "V104", "V105", "V106", "V107", "V108", "V109", "V110", "V111",
                             "V112", "V113", "V114", "V115", "V116", "V117", "V118"), videos, reads="media",
         key=_without("video")),
    Rule("news", "entry", ("N101", "N102", "N103", "N104", "N105", "N106", "N107", "N108", "N109"),
         news_article, reads="media", key=_without("news")),
)
