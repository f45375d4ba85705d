"""Google's news extension (news 0.9): one <news:news> per article.

publication (name, language), publication_date and title are required, in that
order. Google reads only articles of the last two days. keywords, stock_tickers,
genres and access are in the XSD but no longer documented: accepted, warned
(N107), and written in the XSD's places.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .. import langtags
from ..dates import Lastmod, format_instant
from ..limits import MAX_NEWS_STOCK_TICKERS, NEWS_MAX_AGE_HOURS
from ..read.description_findings import wrong_shape
from ..write.xmlesc import escape
from .media import MediaContext, date, text, unknown_keys

NAME = "news"
URI = "http://www.google.com/schemas/sitemap-news/0.9"
PREFIX = "news"
FIELDS = ("publication", "publication_date", "title", "access", "genres", "keywords", "stock_tickers")
UNDOCUMENTED = ("access", "genres", "keywords", "stock_tickers")
_LANGUAGE = re.compile(r"zh-cn|zh-tw|[a-z]{2,3}")


@dataclass(frozen=True, slots=True)
class Publication:
    name: str
    language: str


# Treated as immutable, hashable by value, but not frozen: a frozen dataclass costs
# several times as much to make, and a build makes one per source row.
@dataclass(slots=True, unsafe_hash=True)
class News:
    publication: Publication
    publication_date: Lastmod
    title: str
    extra: tuple[tuple[str, str], ...] = ()  # undocumented fields, in XSD order


def language(value: Any) -> tuple[str | None, str | None]:
    """(the language as Google's news schema wants it, a suggestion when it is not)."""
    text_value = str(value).strip()
    if _LANGUAGE.fullmatch(text_value):
        return text_value, None
    lower = text_value.lower().replace("_", "-")
    if lower in ("zh-cn", "zh-hans", "zh-hans-cn", "zh-sg"):
        return None, "zh-cn"
    if lower in ("zh-tw", "zh-hant", "zh-hant-tw", "zh-hk"):
        return None, "zh-tw"
    verdict = langtags.judge(text_value.replace("_", "-"))
    if verdict.canonical and verdict.canonical != langtags.X_DEFAULT:
        return None, verdict.canonical.split("-")[0]
    first = lower.split("-")[0]
    return None, first if _LANGUAGE.fullmatch(first) else None


def parse_publication(raw: Any, ctx: MediaContext, field: str = "publication") -> Publication | None:
    if not isinstance(raw, dict):
        ctx.report("N101", "news publication needs name and language", field)
        return None
    unknown_keys(raw, ("name", "language"), ctx, "news publication")
    name = text(raw, "name", ctx, what="publication name")
    given = raw.get("language")
    if not name or given in (None, ""):
        ctx.report("N101", f"news publication needs {'name' if not name else 'language'}", field)
        return None
    code, suggestion = language(given)
    if code is None:
        ctx.report("N102", f"news language '{given}' must be an ISO 639 code in lower case (or zh-cn, zh-tw)"
                   + (f": {suggestion}" if suggestion else ""), field, suggestion=suggestion)
        return None
    return Publication(name, code)


def more_than_one(in_sitemap: bool = False) -> tuple[str, str]:
    """N108: more than one article for one page (or in one <url> of a sitemap)."""
    if in_sitemap:
        return "N108", "more than one news:news in this <url>; one article per URL"
    return "N108", "one news entry per page; a <url> holds one <news:news>"


def parse(raw: Any, ctx: MediaContext, default: Publication | None) -> News | None:
    """One article; ``default`` is the site's news.publication."""
    if isinstance(raw, list):
        ctx.report(*more_than_one(), None)
        raw = raw[0] if raw else None
    if not isinstance(raw, dict):
        wrong_shape(ctx.report, "news must be a mapping (title, publication_date, ...)", None)
        return None
    unknown_keys(raw, FIELDS, ctx, "news")
    publication = parse_publication(raw["publication"], ctx) if "publication" in raw else default
    if publication is None and "publication" not in raw:
        ctx.report("N101", "news needs a publication: set news.publication (name, language) at the top level or "
                   "on the article", None)
    for key in ("publication_date", "title"):
        if raw.get(key) in (None, ""):
            ctx.report("N101", f"news needs {key}", key)
    published = date(raw, "publication_date", ctx, code="N103", what="news publication_date")
    title = text(raw, "title", ctx, what="news title")
    if published is not None and ctx.now is not None:
        _age(published, ctx.now, ctx)
    extra = _undocumented(raw, ctx)
    if publication is None or published is None or title is None:
        return None
    return News(publication, published, title, extra)


def _age(published: Lastmod, now: float, ctx: MediaContext) -> None:
    """N104 (older than Google News reads) and N105 (after the build or check time)."""
    age = (now - published.instant) / 3600
    if age > NEWS_MAX_AGE_HOURS and not ctx.drop_old_news:
        ctx.report("N104", f"published {published.text}, {age:.0f} hours before {format_instant(now)}: "
                   f"Google News reads articles of the last {NEWS_MAX_AGE_HOURS} hours only",
                   "publication_date")
    elif age < 0:
        ctx.report("N105", f"publication_date {published.text} is after {format_instant(now)}",
                   "publication_date")


def _undocumented(raw: dict[str, Any], ctx: MediaContext) -> tuple[tuple[str, str], ...]:
    """N107: the fields Google no longer documents, kept as written (at most so many tickers)."""
    extra = []
    for key in UNDOCUMENTED:
        value = raw.get(key)
        if value in (None, "", []):
            continue
        ctx.report("N107", f"news:{key} is no longer documented by Google; it is probably ignored", key)
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        if key == "stock_tickers" and len(str(value).split(",")) > MAX_NEWS_STOCK_TICKERS:
            ctx.report("N107", f"at most {MAX_NEWS_STOCK_TICKERS} stock_tickers", key)
            continue
        extra.append((key, str(value)))
    return tuple(extra)


def is_old(article: News, now: float | None) -> bool:
    return now is not None and (now - article.publication_date.instant) / 3600 > NEWS_MAX_AGE_HOURS


def children(article: News) -> list[tuple[str, str]]:
    """(name, text) of an article's children after its publication, in the XSD's order."""
    extra = dict(article.extra)
    out: list[tuple[str, str]] = [(key, extra[key]) for key in ("access", "genres") if key in extra]
    out += [("publication_date", article.publication_date.text), ("title", article.title)]
    out += [(key, extra[key]) for key in ("keywords", "stock_tickers") if key in extra]
    return out


def render(article: News) -> str:
    pub = article.publication
    return ("<news:news><news:publication>"
            f"<news:name>{escape(pub.name)}</news:name><news:language>{escape(pub.language)}</news:language>"
            "</news:publication>"
            + "".join(f"<news:{k}>{escape(v)}</news:{k}>" for k, v in children(article))
            + "</news:news>")


# The XSD's order of a <news:news>'s children.
ORDER = ("publication", "access", "genres", "publication_date", "title", "keywords", "stock_tickers")
