"""Google's image extension (image 1.1): <image:image> with a required <image:loc>.

caption, geo_location, title and license are in the schema but Google stopped
using them in 2022: they are accepted, warned about (I103), and left out of
what is written with ``output.drop_deprecated: true``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..limits import MAX_IMAGES_PER_URL
from ..read.description_findings import wrong_shape
from ..urls import is_clean, named_kind, origin_text, template_token
from ..write.xmlesc import escape
from .media import MediaContext, image_kind, text, unknown_keys

NAME = "image"
URI = "http://www.google.com/schemas/sitemap-image/1.1"
PREFIX = "image"
FIELDS = ("loc", "caption", "geo_location", "title", "license")
DEPRECATED = FIELDS[1:]


# Treated as immutable, hashable by value, but not frozen: a frozen dataclass costs
# several times as much to make, and a build makes one per source row.
@dataclass(slots=True, unsafe_hash=True)
class Image:
    loc: str
    caption: str | None = None
    geo_location: str | None = None
    title: str | None = None
    license: str | None = None


def parse_one(raw: Any, ctx: MediaContext) -> Image | None:
    if isinstance(raw, str):
        raw = {"loc": raw}
    if not isinstance(raw, dict):
        wrong_shape(ctx.report, "an image is a URL or a mapping with loc:", None)
        return None
    unknown_keys(raw, FIELDS, ctx, "image")
    if raw.get("loc") in (None, ""):
        ctx.report("I101", "an image needs loc, the image's URL", "loc")
        return None
    loc = ctx.resolve(raw["loc"], "loc")
    if loc is None:
        return None
    if image_kind(loc, ctx) is None:
        return None
    host = origin_text(loc)
    if host != origin_text(ctx.page_loc) and ("image-host", host) not in ctx.noted:
        ctx.noted.add(("image-host", host))
        ctx.report("I104", other_host(host), "loc", once=f"image-host {host}")
    extra: dict[str, str | None] = {}
    for field in DEPRECATED:
        value = text(raw, field, ctx, what=f"image {field}")
        if value is not None:
            dropped = " It is left out of the output (drop_deprecated)." if ctx.drop_deprecated else ""
            ctx.report("I103", f"image:{field} has been ignored by Google since 2022; remove it.{dropped}", field)
            if field == "license" and not ctx.drop_deprecated:
                value = ctx.resolve(value, field)
            extra[field] = None if ctx.drop_deprecated else value
    return Image(loc, **extra)


def other_host(host: str) -> str:
    """I104's message: images on another host than their pages (once per host)."""
    return f"images on {host}, another host than their pages (a CDN?): allowed, and that host must let search " \
        "engines crawl them (reported once per host)"


def says_nothing(url: str, page_loc: str, noted: set[tuple[str, str]]) -> bool:
    """A bare image URL parse_one() takes without a word: clean, naming no other kind of
    file than an image (I105), holding no template's variable (U118), and on its page's
    host or on one already noted (I104 is reported once per host)."""
    host = _bare_host(url)
    return host is not None and (page_loc.startswith(host + "/") or ("image-host", host) in noted)


@lru_cache(maxsize=1 << 12)
def _bare_host(url: str) -> str | None:
    """The host of an image URL ``says_nothing`` of (its own verdict), else None. Memoised:
    a page's entries (one per version) list the same images."""
    if not is_clean(url) or named_kind(url) not in (None, "image") or template_token(url) is not None:
        return None
    return origin_text(url)


def too_many(count: int, in_sitemap: bool = False) -> tuple[str, str]:
    """I102: more images on one page (or in one <url> of a sitemap) than Google takes."""
    if in_sitemap:
        return "I102", f"{count:,} images in one <url>; Google takes at most {MAX_IMAGES_PER_URL:,}"
    return "I102", (f"{count:,} images on one page; Google takes at most {MAX_IMAGES_PER_URL:,} per <url>, keep the "
                    "most important")


def parse(raw: Any, ctx: MediaContext) -> tuple[Image, ...]:
    """The images of one page: a list of URLs or mappings (a single one is taken too)."""
    items = raw if isinstance(raw, list) else [raw]
    if len(items) > MAX_IMAGES_PER_URL:
        ctx.report(*too_many(len(items)), None)
        items = items[:MAX_IMAGES_PER_URL]
    images = (parse_one(item, ctx.within(i) if isinstance(raw, list) else ctx) for i, item in enumerate(items))
    return tuple(image for image in images if image is not None)


def fields(image: Image) -> list[tuple[str, str]]:
    """(name, value) of an image's children, in the XSD's order."""
    return [(name, value) for name in FIELDS if (value := getattr(image, name)) is not None]


def render_loc(escaped_loc: str) -> str:
    """An image with a loc only (the common case)."""
    return f"<image:image><image:loc>{escaped_loc}</image:loc></image:image>"


def render(images: tuple[Image, ...]) -> str:
    out = []
    for image in images:
        if image.caption is None and image.geo_location is None and image.title is None and image.license is None:
            out.append(render_loc(escape(image.loc)))  # loc only, the common case
        else:
            out.append("<image:image>" + "".join(f"<image:{n}>{escape(v)}</image:{n}>" for n, v in fields(image))
                       + "</image:image>")
    return "".join(out)
