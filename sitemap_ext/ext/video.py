"""Google's video extension (video 1.1), to Google's rules and the XSD's strict order.

Required: thumbnail_loc, title, description, and content_loc and/or player_loc
(neither the page's own URL). Deprecated since 2022 and warned: category,
gallery_loc, price, tvshow, and player_loc's allow_embed and autoplay.
tvshow is accepted but never written. The XSD's own content_segment_loc and id, which
Google does not document, are taken as given and written in their place.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .. import langtags, limits
from ..dates import Lastmod
from ..read.description_findings import wrong_shape
from ..write.xmlesc import escape, xml_safe
from .media import MediaContext, content_kind, date, integer, text, thumbnail_kind, unknown_keys, yes_no

NAME = "video"
URI = "http://www.google.com/schemas/sitemap-video/1.1"
PREFIX = "video"
FIELDS = (
    "thumbnail_loc", "title", "description", "content_loc", "player_loc", "duration", "expiration_date", "rating",
    "view_count", "publication_date", "tag", "category", "family_friendly", "restriction", "gallery_loc", "price",
    "requires_subscription", "uploader", "tvshow", "platform", "live",
)
DEPRECATED = ("category", "gallery_loc", "price", "tvshow")
# In the schema, not in Google's documentation: taken as given (text, and the XSD's
# attributes), judged by no rule, written in the XSD's place.
XSD_ONLY = ("content_segment_loc", "id")
_XSD_ONLY_ATTRIBUTES = {"content_segment_loc": ("duration",), "id": ("type",)}
_PLATFORMS = ("web", "mobile", "tv")


@dataclass(frozen=True, slots=True)
class Listed:
    """restriction / platform: allow or deny, and the space-separated list."""

    relationship: str
    items: tuple[str, ...]


# Treated as immutable, hashable by value, but not frozen: a frozen dataclass costs
# several times as much to make, and a build makes one per source row.
@dataclass(slots=True, unsafe_hash=True)
class Video:
    thumbnail_loc: str
    title: str
    description: str
    content_loc: str | None = None
    player_loc: str | None = None
    player_attrs: tuple[tuple[str, str], ...] = ()  # allow_embed, autoplay (deprecated)
    duration: int | None = None
    expiration_date: Lastmod | None = None
    rating: str | None = None
    view_count: int | None = None
    publication_date: Lastmod | None = None
    tags: tuple[str, ...] = ()
    category: str | None = None
    family_friendly: bool | None = None
    restriction: Listed | None = None
    gallery_loc: tuple[str, tuple[tuple[str, str], ...]] | None = None  # url, attributes
    prices: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()  # value, attributes
    requires_subscription: bool | None = None
    uploader: tuple[str, str | None] | None = None  # name, info URL
    platform: Listed | None = None
    live: bool | None = None
    xsd_only: tuple[tuple[str, tuple[tuple[str, str], ...], str], ...] = ()  # name, attributes, text (XSD_ONLY)


def _url_field(raw: Mapping[str, Any], key: str, ctx: MediaContext) -> tuple[str | None, dict[str, Any]]:
    """A URL field given as a URL or as a mapping {loc|value, attributes...}."""
    value = raw.get(key)
    attrs: dict[str, Any] = {}
    if isinstance(value, dict):
        attrs = {k: v for k, v in value.items() if k not in ("loc", "value")}
        value = value.get("loc", value.get("value"))
    if value in (None, ""):
        return None, attrs
    return ctx.resolve(value, key), attrs


def _listed(raw: Mapping[str, Any], key: str, ctx: MediaContext) -> Listed | None:
    value = raw.get(key)
    if value in (None, ""):
        return None
    if isinstance(value, list):
        ctx.report("V108" if key == "restriction" else "V109", f"one {key} per video; merge the lists", key)
        if not value:
            return None
        value = value[0]
    code = "V108" if key == "restriction" else "V109"
    relationship = _relationship(value, key, code, ctx)
    if relationship is None:
        return None
    items_raw = value.get("countries" if key == "restriction" else "platforms", value.get("value", ""))
    items = tuple(str(i) for i in items_raw) if isinstance(items_raw, list) else tuple(str(items_raw).split())
    return Listed(relationship, items) if _items_usable(items, key, code, ctx) else None


def _relationship(value: Any, key: str, code: str, ctx: MediaContext) -> str | None:
    """A restriction's or platform's relationship (allow or deny); None, reported, if none."""
    if not isinstance(value, dict):
        ctx.report(code, f"{key} needs its relationship, allow or deny (relationship=\"allow\" in a sitemap, "
                   f"{{relationship: allow, {'countries' if key == 'restriction' else 'platforms'}: ...}} in a "
                   "description); without it Google cannot tell whether the list allows or denies", key)
        return None
    relationship = str(value.get("relationship", "")).strip()
    if relationship not in ("allow", "deny"):
        ctx.report(code, f"{key} relationship must be allow or deny, not '{relationship}'", key)
        return None
    return relationship


def _items_usable(items: tuple[str, ...], key: str, code: str, ctx: MediaContext) -> bool:
    """Whether a restriction's countries or a platform's names are all valid (else reported)."""
    if key == "restriction":
        bad = [i for i in items if not langtags.is_country(i)]
        if bad:
            fixes = [langtags.country_fix(i) if i in bad else i for i in items]
            ctx.report(code, f"restriction countries must be upper-case ISO 3166-1 country codes separated by "
                       f"spaces: {', '.join(bad)}", key,
                       suggestion=" ".join(f for f in fixes if f) if all(fixes) else None)
            return False
        return True
    bad = [i for i in items if i not in _PLATFORMS]
    if bad:
        ctx.report(code, f"platform takes web, mobile and tv only, not {', '.join(bad)}", key)
        return False
    return True


def _deprecated(raw: Mapping[str, Any], ctx: MediaContext, key: str, what: str) -> bool:
    """Warn about a deprecated field; whether to keep it in the output."""
    if raw.get(key) in (None, "", [], {}):
        return False
    note = " A build never writes it." if key == "tvshow" else \
        " It is left out of the output (drop_deprecated)." if ctx.drop_deprecated else ""
    ctx.report("V115", f"{what} has been ignored by Google since 2022; remove it.{note}", key)
    return not (key == "tvshow" or ctx.drop_deprecated)


_KNOWN = frozenset(FIELDS + XSD_ONLY)
# The fields most videos have; parse_one() judges the others only when one is given.
_BASIC = frozenset({"thumbnail_loc", "title", "description", "content_loc", "player_loc", "duration"})


def parse_one(raw: Any, ctx: MediaContext) -> Video | None:
    if not isinstance(raw, dict):
        wrong_shape(ctx.report, "a video is a mapping of Google's video fields (thumbnail_loc, title, ...)", None)
        return None
    if not _KNOWN.issuperset(raw):  # (most videos name known fields only)
        unknown_keys(raw, FIELDS + XSD_ONLY, ctx, "video")
    fields = _basics(raw, ctx)
    if not _BASIC.issuperset(raw):  # (the common video gives none of the other fields: nothing more to judge)
        fields.update(_others(raw, ctx))  # every field is judged before giving up: one run reports every problem
    if fields["thumbnail_loc"] is None or fields["title"] is None or fields["description"] is None or \
            (fields["content_loc"] is None and fields["player_loc"] is None):
        return None
    return Video(**fields)


def _basics(raw: dict[str, Any], ctx: MediaContext) -> dict[str, Any]:
    """The fields most videos have, judged: Video's arguments (None where unusable)."""
    for key in ("thumbnail_loc", "title", "description"):
        if raw.get(key) in (None, ""):
            ctx.report("V101", f"a video needs {key}", key)
    thumbnail, _ = _url_field(raw, "thumbnail_loc", ctx)
    title = text(raw, "title", ctx, code="V105", what="video title", max_len=limits.MAX_VIDEO_TITLE)
    description = text(raw, "description", ctx, code="V104", what="video description",
                       max_len=limits.MAX_VIDEO_DESCRIPTION)
    content, _ = _url_field(raw, "content_loc", ctx)
    player, player_attrs = _url_field(raw, "player_loc", ctx)
    if raw.get("content_loc") in (None, "") and raw.get("player_loc") in (None, ""):
        ctx.report("V102", "a video needs content_loc (the media file) or player_loc (its player), or both", None)
    for key, url in (("content_loc", content), ("player_loc", player)):
        if url is not None and url == ctx.page_loc:
            ctx.report("V103", f"{key} is the page's own URL; it must point at the video file or its player", key)
    thumbnail, content = thumbnail_kind(thumbnail, content, ctx), content_kind(content, ctx)
    attrs = _player_attrs(player_attrs, ctx)
    duration = integer(raw, "duration", ctx, code="V106", what="duration (seconds)",
                       low=limits.VIDEO_DURATION_RANGE[0], high=limits.VIDEO_DURATION_RANGE[1])
    return {"thumbnail_loc": thumbnail, "title": title, "description": description, "content_loc": content,
            "player_loc": player, "player_attrs": attrs, "duration": duration}


def _player_attrs(player_attrs: dict[str, Any], ctx: MediaContext) -> tuple[tuple[str, str], ...]:
    """player_loc's deprecated attributes (V115), as written unless they are dropped."""
    attrs: list[tuple[str, str]] = []
    for name in ("allow_embed", "autoplay"):
        if name in player_attrs:
            ctx.report("V115", f"player_loc's {name} attribute has been ignored by Google since 2022; remove it."
                       + (" It is left out of the output (drop_deprecated)." if ctx.drop_deprecated else ""),
                       "player_loc")
            value = player_attrs[name]
            if not ctx.drop_deprecated:
                attrs.append((name, ("yes" if value else "no") if isinstance(value, bool) else str(value)))
    return tuple(attrs)


def _others(raw: dict[str, Any], ctx: MediaContext) -> dict[str, Any]:
    """The other fields, judged: Video's arguments (None where unusable)."""
    rating = _rating(raw, ctx)
    view_count = integer(raw, "view_count", ctx, code="V117", what="view_count", low=0)
    expiration = date(raw, "expiration_date", ctx, code="V113", what="expiration_date")
    if expiration is not None and ctx.now is not None and expiration.instant < ctx.now:
        ctx.report("V114", f"the video expired on {expiration.text}; Google stops showing it: remove it or move the "
                   "date", "expiration_date")
    publication = date(raw, "publication_date", ctx, code="V113", what="publication_date")
    tags = _tags(raw, ctx)
    category = text(raw, "category", ctx, what="category") \
        if _deprecated(raw, ctx, "category", "video:category") else None
    gallery = None
    if _deprecated(raw, ctx, "gallery_loc", "video:gallery_loc"):
        url, extra = _url_field(raw, "gallery_loc", ctx)
        gallery = (url, tuple(sorted((k, str(v)) for k, v in extra.items()))) if url else None
    prices = _prices(raw, ctx) if _deprecated(raw, ctx, "price", "video:price") else ()
    _deprecated(raw, ctx, "tvshow", "video:tvshow")
    uploader = _uploader(raw, ctx)
    flags = {key: yes_no(raw, key, ctx, code="V110", what=key)
             for key in ("family_friendly", "requires_subscription", "live")}
    restriction, platform = _listed(raw, "restriction", ctx), _listed(raw, "platform", ctx)
    xsd_only = _xsd_only(raw, ctx) if "content_segment_loc" in raw or "id" in raw else ()
    return {"xsd_only": xsd_only,
            "expiration_date": expiration, "rating": rating, "view_count": view_count, "publication_date": publication,
            "tags": tags, "category": category, "restriction": restriction, "gallery_loc": gallery, "prices": prices,
            "uploader": uploader, "platform": platform, **flags}


def _xsd_only(raw: Mapping[str, Any], ctx: MediaContext) -> tuple[tuple[str, tuple[tuple[str, str], ...], str], ...]:
    """content_segment_loc (a URL) and id (a text): each a value or {value, attribute: ...},
    or a list of them; the XSD's attributes kept (duration, type), nothing judged but
    what writing needs (a URL resolved, text XML can carry)."""
    out: list[tuple[str, tuple[tuple[str, str], ...], str]] = []
    for key in XSD_ONLY:
        given = raw.get(key)
        items = given if isinstance(given, list) else [given] if given not in (None, "") else []
        for number, item in enumerate(items):
            field: tuple[str | int, ...] = (key, number) if isinstance(given, list) else (key,)
            mapping = item if isinstance(item, dict) else {"value": item}
            attrs = tuple((name, str(mapping[name])) for name in _XSD_ONLY_ATTRIBUTES[key] if name in mapping)
            given_text = mapping.get("value", mapping.get("loc"))
            value = str(given_text).strip() if isinstance(given_text, (str, int, float)) else None
            if not value or not xml_safe(value) or not all(xml_safe(v) for _, v in attrs):
                wrong_shape(ctx.report, f"video {key} must be text XML can carry, or {{value: ..., "
                            f"{_XSD_ONLY_ATTRIBUTES[key][0]}: ...}}", field)
                continue
            resolved = ctx.resolve(value, field) if key == "content_segment_loc" else value
            if resolved is not None:
                out.append((key, attrs, resolved))
    return tuple(out)


_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _rating(raw: Mapping[str, Any], ctx: MediaContext) -> str | None:
    value = raw.get("rating")
    if value in (None, ""):
        return None
    text = str(value).strip()
    # (an xsd:float in ASCII: float() also takes full-width digits and '4_5', written as given)
    number = float(text) if _FLOAT.fullmatch(text) else -1.0
    low, high = limits.VIDEO_RATING_RANGE
    if isinstance(value, bool) or not low <= number <= high:
        ctx.report("V107", f"rating must be a number from {low} to {high}, not '{value}'", "rating")
        return None
    return str(value).strip() if isinstance(value, str) else f"{number:g}"


def _tags(raw: Mapping[str, Any], ctx: MediaContext) -> tuple[str, ...]:
    value = raw.get("tag", raw.get("tags"))
    if value in (None, ""):
        return ()
    items = value if isinstance(value, list) else [value]
    tags = tuple(str(t).strip() for t in items if str(t).strip())
    if len(tags) > limits.MAX_VIDEO_TAGS:
        ctx.report("V112", f"{len(tags)} tags; Google takes at most {limits.MAX_VIDEO_TAGS}", "tag")
        tags = tags[: limits.MAX_VIDEO_TAGS]
    return tags


def _prices(raw: Mapping[str, Any], ctx: MediaContext) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    value = raw.get("price")
    out = []
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, dict):
            amount = item.get("value")
            attrs = tuple(sorted((k, str(v)) for k, v in item.items() if k != "value"))
        else:
            amount, attrs = item, ()
        if amount not in (None, ""):
            out.append((str(amount), attrs))
    return tuple(out)


def _uploader(raw: Mapping[str, Any], ctx: MediaContext) -> tuple[str, str | None] | None:
    value = raw.get("uploader")
    if value in (None, ""):
        return None
    name, info = (value.get("name", value.get("value")), value.get("info")) if isinstance(value, dict) \
        else (value, None)
    name = str(name or "").strip()
    if not name or len(name) > limits.MAX_VIDEO_UPLOADER:
        ctx.report("V111", f"uploader must be a name of 1 to {limits.MAX_VIDEO_UPLOADER} characters "
                   f"({len(name)} given)", "uploader")
        return None
    info_url = ctx.resolve(info, "uploader") if info not in (None, "") else None
    if info_url is not None and _host(info_url) != _host(ctx.page_loc):
        ctx.report("V111", f"uploader info {info_url} must be on the page's domain ({_host(ctx.page_loc)})",
                   "uploader")
        info_url = None
    return name, info_url


def _host(url: str) -> str:
    host = url.split("//", 1)[-1].split("/", 1)[0].split(":")[0].lower()
    return host[4:] if host.startswith("www.") else host


def parse(raw: Any, ctx: MediaContext) -> tuple[Video, ...]:
    if not isinstance(raw, list):
        one = parse_one(raw, ctx)
        return () if one is None else (one,)
    videos = []
    for i, item in enumerate(raw):
        video = parse_one(item, ctx.within(i))
        if video is not None:
            videos.append(video)
    return tuple(videos)


_NO_ATTRIBUTES: dict[str, str] = {}  # shared, never changed


def elements(video: Video) -> Iterator[tuple[str, dict[str, str], str]]:
    """(name, attributes, text) in the XSD's order."""
    none = _NO_ATTRIBUTES
    yield "thumbnail_loc", none, video.thumbnail_loc
    yield "title", none, video.title
    yield "description", none, video.description
    if video.content_loc:
        yield "content_loc", none, video.content_loc
    if video.player_loc:
        yield "player_loc", dict(video.player_attrs), video.player_loc
    if video.duration is not None:
        yield "duration", none, str(video.duration)
    if video.expiration_date:
        yield "expiration_date", none, video.expiration_date.text
    if video.rating is not None:
        yield "rating", none, video.rating
    if video.xsd_only:
        yield from _xsd_only_elements(video, "content_segment_loc")
    yield from _later_elements(video)
    if video.xsd_only:
        yield from _xsd_only_elements(video, "id")


def _xsd_only_elements(video: Video, name: str) -> Iterator[tuple[str, dict[str, str], str]]:
    for given, attrs, value in video.xsd_only:
        if given == name:
            yield name, dict(attrs), value


def _later_elements(video: Video) -> Iterator[tuple[str, dict[str, str], str]]:
    """The children after rating and content_segment_loc, up to live."""
    def yn(flag: bool) -> str:
        return "yes" if flag else "no"

    none = _NO_ATTRIBUTES
    if video.view_count is not None:
        yield "view_count", none, str(video.view_count)
    if video.publication_date:
        yield "publication_date", none, video.publication_date.text
    for tag in video.tags:
        yield "tag", none, tag
    if video.category:
        yield "category", none, video.category
    if video.family_friendly is not None:
        yield "family_friendly", none, yn(video.family_friendly)
    if video.restriction:
        yield "restriction", {"relationship": video.restriction.relationship}, " ".join(video.restriction.items)
    if video.gallery_loc:
        yield "gallery_loc", dict(video.gallery_loc[1]), video.gallery_loc[0]
    for amount, attrs in video.prices:
        yield "price", dict(attrs), amount
    if video.requires_subscription is not None:
        yield "requires_subscription", none, yn(video.requires_subscription)
    if video.uploader:
        yield "uploader", ({"info": video.uploader[1]} if video.uploader[1] else {}), video.uploader[0]
    if video.platform:
        yield "platform", {"relationship": video.platform.relationship}, " ".join(video.platform.items)
    if video.live is not None:
        yield "live", none, yn(video.live)


def render(videos: tuple[Video, ...]) -> str:
    out = []
    for video in videos:
        out.append("<video:video>")
        for name, attrs, value in elements(video):
            attributes = "".join([f' {k}="{escape(v)}"' for k, v in attrs.items()]) if attrs else ""
            out.append(f"<video:{name}{attributes}>{escape(value)}</video:{name}>")
        out.append("</video:video>")
    return "".join(out)


# The XSD's order of a <video:video>'s children (strict).
ORDER = ("thumbnail_loc", "title", "description", "content_loc", "player_loc", "duration", "expiration_date",
         "rating", "content_segment_loc", "view_count", "publication_date", "tag", "category", "family_friendly",
         "restriction", "gallery_loc", "price", "requires_subscription", "uploader", "tvshow", "platform", "live",
         "id")
