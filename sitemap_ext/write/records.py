"""A page's entries as the record the reader makes of what the writer writes for it,
made from the page itself (no XML is parsed): the engine judges a build's entries as
``check OUT`` judges them read back.

Each value is the text the writer renders, as an XML reader gets it back: escaping
undone (the writer escapes every value, the reader unescapes it), line ends
normalised (XML reads a carriage return as a line feed) and, in an attribute, white
space as a space. The records equal ``read.xml.read_xml``'s of the written bytes field
by field, lines aside (every value is placed at the page's line):
tests/test_build_records.py proves it over generated pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..ext import image as image_ext
from ..ext import news as news_ext
from ..ext import video as video_ext
from ..ext.xhtml import X_DEFAULT
from ..read.normalised import NormalisedPage as Page
from ..read.record import Link, Media, UrlEntry, Value

_ALTERNATE = "alternate"


def _read(text: str) -> str:
    """Text as an XML reader gets it back: a carriage return (with the line feed
    after it, if any) is a line feed."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _attribute(text: str) -> str:
    """An attribute's value as read back: white space (tab, line end) is a space.
    (A printable text holds none: one look at it, the common case.)"""
    if not text.isprintable() and ("\r" in text or "\n" in text or "\t" in text):
        return _read(text).replace("\n", " ").replace("\t", " ")
    return text


# A cluster's codes as read back (its links' hreflang), once per tuple of codes: the
# pages of a site share a few.
_CODES: dict[tuple[str, ...], tuple[str, ...]] = {}


def _codes(codes: tuple[str, ...]) -> tuple[str, ...]:
    found = _CODES.get(codes)
    if found is None:
        if len(_CODES) >= 4096:
            _CODES.clear()
        found = _CODES[codes] = tuple([_attribute(code) for code in codes])
    return found


def page_links(page: Page) -> tuple[Link, ...]:
    """The page's alternates as every one of its entries lists them: each version,
    then x-default."""
    links: list[Link] = []
    if page.codes is not None:
        links = [(_ALTERNATE, code, loc if loc.isprintable() else _attribute(loc), None)
                 for code, loc in zip(_codes(page.codes), page.locs, strict=True)]
    if page.x_default is not None:
        links.append((_ALTERNATE, X_DEFAULT, _attribute(page.x_default), None))
    return tuple(links)


_LOC_ONLY = ("loc",)


def _images(images: tuple[image_ext.Image, ...], line: int) -> list[Media]:
    out = []
    for image in images:
        if image.caption is None and image.geo_location is None and image.title is None and image.license is None:
            loc = image.loc  # (a loc only, the common case: its one field, as fields() would give it)
            out.append(Media("image", {"loc": _read(loc)}, {"loc": line}, line, _LOC_ONLY))
            continue
        fields = {name: _read(value) for name, value in image_ext.fields(image)}
        out.append(Media("image", fields, dict.fromkeys(fields, line), line, tuple(fields)))
    return out


def _put(fields: dict[str, Any], name: str, value: Any) -> None:
    """A child into its element's mapping as the reader's ``element_fields`` puts it:
    a repeated name becomes a list."""
    if name in fields:
        previous = fields[name]
        fields[name] = (previous if isinstance(previous, list) else [previous]) + [value]
    else:
        fields[name] = value


def _videos(videos: tuple[video_ext.Video, ...], line: int) -> list[Media]:
    out = []
    for video in videos:
        fields: dict[str, Any] = {}
        order = []
        for name, attrs, text in video_ext.elements(video):
            value: Any = _read(text) if "\r" in text else text
            if attrs:
                value = {"value": value, **{key: _attribute(given) for key, given in attrs.items()}}
            if name in fields:
                _put(fields, name, value)
            else:  # (the common case: a name given once)
                fields[name] = value
            order.append(name)
        out.append(Media("video", fields, dict.fromkeys(fields, line), line, tuple(order)))
    return out


def _news(article: news_ext.News, line: int) -> Media:
    publication = {"name": _read(article.publication.name), "language": _read(article.publication.language)}
    fields: dict[str, Any] = {"publication": publication}
    order = ["publication"]
    for name, text in news_ext.children(article):
        _put(fields, name, _read(text))
        order.append(name)
    return Media("news", fields, dict.fromkeys(fields, line), line, tuple(order))


def page_media(page: Page, line: int) -> tuple[Media, ...]:
    """The page's images, videos and news, in the order they are written."""
    media: list[Media] = []
    for name, value in page.extensions:
        if name == image_ext.NAME:
            media += _images(value, line)
        elif name == video_ext.NAME:
            media += _videos(value, line)
        elif name == news_ext.NAME:
            media.append(_news(value, line))
    return tuple(media)


_CORE_ORDER: dict[tuple[bool, bool, bool], tuple[str, ...]] = {}


def _order(lastmod: bool, changefreq: bool, priority: bool, links: int, media: tuple[Media, ...]) -> tuple[str, ...]:
    key = (lastmod, changefreq, priority)
    core = _CORE_ORDER.get(key)
    if core is None:
        core = _CORE_ORDER[key] = ("loc",) + tuple(name for name, there in zip(
            ("lastmod", "changefreq", "priority"), key, strict=True) if there)
    if not links and not media:
        return core
    return core + ("xhtml:link",) * links + tuple(item.kind for item in media)


def page_entries(page: Page, locs: Sequence[str], line: int) -> list[UrlEntry]:
    """The records of the entries written for ``page`` (``locs``: the URLs it is
    written with, each once), each placed at ``line``."""
    links = page_links(page) if page.codes is not None or page.x_default is not None else ()
    media = page_media(page, line) if page.extensions else ()
    changefreq = Value(page.changefreq, line) if page.changefreq is not None else None
    priority = Value(page.priority, line) if page.priority is not None else None
    link_lines = (line,) * len(links)
    if page.lastmods is None:  # (the common case: every entry alike but its loc)
        lastmod = page.lastmod
        written = Value(lastmod.text, line) if lastmod is not None else None
        order = _order(written is not None, changefreq is not None, priority is not None, len(links), media)
        # (positional: the fields line, locs, lastmod, changefreq, priority, links,
        # link_lines, link_columns, media, order; a loc is read back as written unless
        # it holds a carriage return)
        return [UrlEntry(line, (Value(loc if "\r" not in loc else _read(loc), line),), written, changefreq,
                         priority, links, link_lines, (), media, order) for loc in locs]
    first = dict(zip(reversed(page.locs), reversed(page.lastmods), strict=True))  # (a loc's first lastmod)
    out = []
    for loc in locs:
        lastmod = first[loc]
        written = Value(lastmod.text, line) if lastmod is not None else None
        order = _order(written is not None, changefreq is not None, priority is not None, len(links), media)
        out.append(UrlEntry(line, (Value(_read(loc), line),), written, changefreq, priority, links, link_lines,
                            media=media, order=order))
    return out
