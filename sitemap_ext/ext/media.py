"""What the image, video and news modules share: how they report, field readers, and what a
media URL names (I105, V118).

Each extension parses a plain mapping (from YAML, a JSON Lines row, or an XML
element turned into the same shape by the checker) and reports through a
``Reporter`` that knows where each field was written. So one set of rules
serves the builder and the checker.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..dates import DateCache, Lastmod, from_python, judge_date
from ..diagnostics import did_you_mean, unknown_field
from ..read.description_findings import wrong_shape
from ..urls import named_kind
from ..write.xmlesc import xml_safe

# A field is a key, or a path of keys and list positions below the extension's key.
Field = str | int | tuple[str | int, ...] | None


class Reporter(Protocol):
    def __call__(self, code: str, message: str, field: Field = None, *,
                 suggestion: str | None = None, once: str | None = None) -> None: ...


# Normalises a URL field (resolving it, reporting U-codes); None if unusable.
UrlResolver = Callable[[Any, Field], "str | None"]


def _path(field: Field) -> tuple[str | int, ...]:
    if field is None:
        return ()
    return field if isinstance(field, tuple) else (field,)


@dataclass(slots=True)
class MediaContext:
    """What an extension's parser needs of its page: treated as immutable (within()
    makes changed copies), not frozen, which costs more to make: one per page."""

    page_loc: str
    report: Reporter
    resolve: UrlResolver
    dates: DateCache
    now: float | None = None
    drop_deprecated: bool = False  # leave deprecated fields out of what is written
    drop_old_news: bool = False  # old articles are left out (N110 says so; no N104)
    # The writer writes this value anew (a description's, not a sitemap's): a date form
    # the XSD rejects is then a note (D106), the file written passing; it changes what
    # is said of a date's spelling only, never a verdict on a value as written.
    rewrites_dates: bool = False
    # Facts already reported once per run (an image host, say); shared across pages.
    noted: set[tuple[str, str]] = dataclasses.field(default_factory=set)
    # How a field the extension does not define is reported: C102 in a description,
    # X112 in a sitemap being checked (``rules.structure.unknown_field``).
    unknown: Callable[[Reporter, str, Field, str | None], None] = unknown_field

    def within(self, *path: str | int) -> MediaContext:
        """The same context, its fields reported below ``path`` (an item of a list, say)."""
        report, resolve = self.report, self.resolve

        def sub_report(code: str, message: str, field: Field = None, *, suggestion: str | None = None,
                       once: str | None = None) -> None:
            report(code, message, path + _path(field), suggestion=suggestion, once=once)

        def sub_resolve(value: Any, field: Field) -> str | None:
            return resolve(value, path + _path(field))

        return MediaContext(self.page_loc, sub_report, sub_resolve, self.dates, self.now, self.drop_deprecated,
                            self.drop_old_news, self.rewrites_dates, self.noted, self.unknown)


def text(raw: Mapping[str, Any], key: str, ctx: MediaContext, *, what: str, max_len: int | None = None,
         code: str | None = None) -> str | None:
    """A text field: a string (numbers are taken as their text), XML-safe, within max_len
    (``code``: the caller's code for a value over it)."""
    value = raw.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, (bool, dict, list)):
        wrong_shape(ctx.report, f"{what} must be text", key)
        return None
    result = str(value).strip()
    if not xml_safe(result):
        wrong_shape(ctx.report, f"{what} holds control characters XML cannot carry; remove them", key)
        return None
    if max_len is not None and code is not None and len(result) > max_len:
        ctx.report(code, f"{what} has {len(result):,} characters; at most {max_len:,} are allowed", key)
        return None
    return result


_YES_NO = frozenset({"yes", "Yes", "YES", "no", "No", "NO"})  # the XSD's tYesNo


def yes_no(raw: Mapping[str, Any], key: str, ctx: MediaContext, *, code: str, what: str) -> bool | None:
    """yes/no fields: YAML 1.1 reads them as booleans, XML as text; both are taken, a
    text in one of the XSD's spellings (yes, Yes, YES and the same of no)."""
    value = raw.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    word = str(value).strip()
    if word in _YES_NO:
        return word.lower() == "yes"
    ctx.report(code, f"{what} must be yes or no, not '{value}'", key)
    return None


def integer(raw: Mapping[str, Any], key: str, ctx: MediaContext, *, code: str, what: str,
            low: int, high: int | None = None) -> int | None:
    value = raw.get(key)
    if value is None or value == "":
        return None
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():  # (a superscript two is a
        number = int(value.strip())  # digit to isdigit, and no number to int)
    if number is None or number < low or (high is not None and number > high):
        bounds = f"from {low:,} to {high:,}" if high is not None else f"of at least {low:,}"
        ctx.report(code, f"{what} must be a whole number {bounds}, not '{value}'", key)
        return None
    return number


def date(raw: Mapping[str, Any], key: str, ctx: MediaContext, *, code: str, what: str) -> Lastmod | None:
    value = raw.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, dt.date):  # a program's date or datetime (naive means UTC): its W3C text
        value = from_python(value).text
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        ctx.report(code, f"{what} must be a W3C date or date-time", key)
        return None
    parsed, _ = ctx.dates.parse(str(value))
    if parsed is None:
        ctx.report(code, f"{what} '{value}' is not a W3C date or date-time (2026-11-21 or "
                   "2026-11-21T09:30:00+01:00)", key)
        return None
    # The one judgement of a date (a page's lastmod's too): a form the XSD rejects is
    # D106 in a description, which the writer writes in the XSD's form, else D108.
    return judge_date(str(value), ctx.dates, _at(ctx.report), key, what=what, rewritten=ctx.rewrites_dates)


def _at(report: Reporter) -> Callable[..., None]:
    """An extension's reporter as the date judgement calls it (the place, a URL the
    extension's context adds itself)."""
    def call(code: str, message: str, field: Field, *, url: str | None = None, suggestion: str | None = None) -> None:
        report(code, message, field, suggestion=suggestion)
    return call


def local_name(tag: str) -> str:
    """The local part of a Clark name ("{uri}loc" -> "loc"); any text libxml2 kept as a
    tag (an undeclared prefix leaves "a:b:") is returned as it is, never raised on."""
    return tag.rpartition("}")[2]


# An element below an image, video or news element as the XML reader hands it over:
# its local name, its attributes (a namespaced one in Clark notation, "{uri}name"), its
# text before its first child (None: none), its line, and its child elements.
MediaElement = tuple[str, dict[str, str], "str | None", int, tuple["MediaElement", ...]]


def element_fields(children: tuple[MediaElement, ...], line: int) -> tuple[dict[str, Any], dict[str, int]]:
    """An extension element (its children, and its own line) as the mapping its parse()
    takes, and each field's line.

    Repeated children become lists; a child with attributes becomes a mapping with
    its text under 'value'; nested children become nested mappings.
    """
    fields: dict[str, Any] = {}
    lines: dict[str, int] = {}
    for name, attrs, text, child_line, grandchildren in children:
        if grandchildren:
            value: Any = element_fields(grandchildren, child_line)[0]
        elif attrs:
            value = {"value": text or "", **attrs}
        else:
            value = text or ""  # as written: the rules strip, and say so where it matters
        if name in fields:
            previous = fields[name]
            fields[name] = (previous if isinstance(previous, list) else [previous]) + [value]
        else:
            fields[name] = value
            lines[name] = child_line or line
    return fields, lines


def unknown_keys(raw: Mapping[str, Any], known: tuple[str, ...], ctx: MediaContext, what: str) -> None:
    for key in raw:
        if key not in known:
            guess = did_you_mean(str(key), known)
            hint = f"; did you mean '{guess}'?" if guess else ""
            ctx.unknown(ctx.report, f"unknown {what} field '{key}'{hint}", str(key), guess)


# --- what a media URL names -----------------------------------------------------
# By its extension, where that says it (``urls.named_kind``), against what its field
# must be: an image for image:loc and video:thumbnail_loc, a video file for
# video:content_loc (I105, V118). Sources: Google, "Image sitemaps" and "Image SEO best
# practices" (the formats Google indexes); "Video sitemaps" (thumbnail_loc "the video
# thumbnail image file"; content_loc "the actual video media file ... HTML and Flash
# aren't supported formats"; player_loc "a player for a specific video", of any form:
# not judged).

_KIND_NAMES = {"image": "an image", "video": "a video file", "audio": "an audio file",
               "media": "an audio or video file", "document": "a document", "page": "an HTML page",
               "flash": "a Flash file"}
# The image formats Google indexes (Google, "Image SEO best practices").
IMAGE_FORMATS = "BMP, GIF, JPEG, PNG, WebP, SVG or AVIF"


def names(kind: str, url: str) -> str:
    """What a URL names, for a message: "a video file (hero.mp4)"."""
    name = url.partition("?")[0].rpartition("/")[2]
    return f"{_KIND_NAMES.get(kind, 'a ' + kind + ' file')} ({name or url})"


def image_kind(loc: str, ctx: MediaContext) -> str | None:
    """image:loc, None (I105) where it names another kind of file than an image."""
    kind = named_kind(loc)
    if kind is None or kind == "image":
        return loc
    ctx.report("I105", f"the image's URL names {names(kind, loc)}, not an image: Google indexes images only "
               f"({IMAGE_FORMATS}), so this one is ignored; give the image's own URL", "loc")
    return None


# What content_loc may not name: Google reads video files only ("HTML and Flash aren't
# supported formats"); audio, documents and images are no video either.
_NOT_VIDEO = frozenset({"page", "flash", "image", "audio", "document"})


def thumbnail_kind(thumbnail: str | None, content: str | None, ctx: MediaContext) -> str | None:
    """thumbnail_loc, None (V118) where it names another kind of file than an image, or
    is content_loc itself: Google needs an image there, and shows no video result
    without one."""
    if thumbnail is None:
        return None
    kind = named_kind(thumbnail)
    if thumbnail == content and kind != "image":
        kind = kind or "video"  # (content_loc is "the actual video media file")
    if kind is None or kind == "image":
        return thumbnail
    same = ", the same URL as content_loc" if thumbnail == content else ""
    ctx.report("V118", f"thumbnail_loc names {names(kind, thumbnail)}{same}, not an image: Google needs the "
               f"thumbnail image ({IMAGE_FORMATS}) and shows no video result without one; give the thumbnail's "
               "URL", "thumbnail_loc")
    return None


def content_kind(content: str | None, ctx: MediaContext) -> str | None:
    """content_loc, None (V118) where it names an HTML page, a Flash file, an image, an
    audio file or a document: Google reads a video file there, and ignores anything else."""
    if content is None:
        return None
    kind = named_kind(content)
    if kind is None or kind not in _NOT_VIDEO:
        return content
    ctx.report("V118", f"content_loc names {names(kind, content)}, not a video file: Google ignores it (HTML and "
               "Flash are no video formats); give the video file's URL, or the player's as player_loc", "content_loc")
    return None
