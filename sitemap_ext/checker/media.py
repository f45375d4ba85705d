"""Image, video and news rules on existing sitemaps: the builder's own parse() rules,
fed with each extension element turned into the same mapping shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lxml import etree

from ..ext import image, news, video
from ..ext.media import Field, MediaContext, element_fields
from ..limits import MAX_IMAGES_PER_URL, MAX_NEWS_PER_FILE
from ..urls import normalise

if TYPE_CHECKING:  # pragma: no cover
    from .entries import FileState

_IMAGE, _IMAGE_LOC = f"{{{image.URI}}}image", f"{{{image.URI}}}loc"


def _context(state: FileState, loc: str, element: etree._Element) -> MediaContext:
    return _context_at(state, loc, element_fields(element)[1], element.sourceline or 0)


def _context_at(state: FileState, loc: str, fields_lines: dict[str, int], base_line: int) -> MediaContext:

    def line_of(field: Field) -> int:
        key = field[0] if isinstance(field, tuple) and field else field
        return fields_lines.get(key, base_line) if isinstance(key, str) else base_line

    def report(code: str, message: str, field: Field = None, *, suggestion: str | None = None,
               once: str | None = None) -> None:
        state.report(code, message, line_of(field), url=loc, suggestion=suggestion, once=once)

    def resolve(value: Any, field: Field) -> str | None:
        url, problems = normalise(str(value).strip())
        for problem in problems:
            report(problem.code, f"{'.'.join(map(str, field if isinstance(field, tuple) else (field,)))}: "
                   f"{problem.message}", field, suggestion=problem.suggestion)
        return url

    return MediaContext(page_loc=loc, report=report, resolve=resolve, dates=state.shared.dates,
                        now=state.shared.now, writing=False, noted=state.shared.noted)


def _too_many_images(count: int, state: FileState, line: int | None, loc: str) -> None:
    if count > MAX_IMAGES_PER_URL:
        state.report("I102", f"{count:,} images in one <url>; Google takes at most {MAX_IMAGES_PER_URL:,}",
                     line, url=loc)


def check_plain_images(texts: list[str], state: FileState, loc: str, line: int) -> None:
    """Images that each hold one image:loc with this text, all on one line: the
    rules check_media() runs on such elements."""
    _too_many_images(len(texts), state, line, loc)
    noted = state.shared.noted
    for text in texts:
        if not (text and image.says_nothing(text, loc, noted)):
            image.parse_one({"loc": text.strip()}, _context_at(state, loc, {"loc": line}, line))


def check_media(children: list[etree._Element], state: FileState, loc: str) -> None:
    """The extension elements of one <url>."""
    images = [c for c in children if c.tag == _IMAGE]
    if len(images) > MAX_IMAGES_PER_URL:
        _too_many_images(len(images), state, images[MAX_IMAGES_PER_URL].sourceline, loc)
    noted = state.shared.noted
    for element in images:
        if len(element) == 1 and element[0].tag == _IMAGE_LOC:
            # The common case, an image with a clean loc on a host already judged:
            # image.parse_one would find nothing to say.
            text = element[0].text
            if text and image.says_nothing(text, loc, noted):
                continue
        image.parse_one(element_fields(element)[0], _context(state, loc, element))
    for element in (c for c in children if c.tag == f"{{{video.URI}}}video"):
        names = [etree.QName(c).localname for c in element if isinstance(c.tag, str)]
        ranks = [video.ORDER.index(n) for n in names if n in video.ORDER]
        if ranks != sorted(ranks):
            state.report("V116", "children of video:video are out of the XSD's order (thumbnail_loc, title, "
                         "description, content_loc, player_loc, duration, ...)", element.sourceline, url=loc)
        video.parse_one(element_fields(element)[0], _context(state, loc, element))
    articles = [c for c in children if c.tag == f"{{{news.URI}}}news"]
    if len(articles) > 1:
        state.report("N108", "more than one news:news in this <url>; one article per URL", articles[1].sourceline,
                     url=loc)
    for element in articles[:1]:
        state.news += 1
        if state.news == MAX_NEWS_PER_FILE + 1:
            state.report("N106", f"more than {MAX_NEWS_PER_FILE:,} news entries in one sitemap; Google reads "
                         f"{MAX_NEWS_PER_FILE:,} at most", element.sourceline, url=loc)
        names = [etree.QName(c).localname for c in element if isinstance(c.tag, str)]
        ranks = [news.ORDER.index(n) for n in names if n in news.ORDER]
        if ranks != sorted(ranks):
            state.report("N109", "children of news:news are out of order: publication, publication_date, title",
                         element.sourceline, url=loc)
        news.parse(element_fields(element)[0], _context(state, loc, element), None)
