"""The reference the one writer is compared with: lxml's incremental writer.

``sitemap_ext.write.xml.Renderer`` writes every ``<url>`` entry as strings (escaped
through ``xmlesc.escape``, templates per layout). This is the same page written the
obvious way, element by element with Clark names, escaped by libxml2. The tests build
with both and compare the canonical XML (``reference_build``); lxml's bytes differ
only where canonical XML does not care (it writes ``'`` and ``"`` bare in text and
closes an empty element with an end tag).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterator
from typing import Any

from lxml import etree

import sitemap_ext.write.build as builder
from sitemap_ext import build
from sitemap_ext.ext import SITEMAP_NS, image, news, video, xhtml
from sitemap_ext.read.normalised import NormalisedPage as Page
from sitemap_ext.write.xml import all_prefixes

_URL, _LOC = f"{{{SITEMAP_NS}}}url", f"{{{SITEMAP_NS}}}loc"
_CORE = tuple(f"{{{SITEMAP_NS}}}{name}" for name in ("lastmod", "changefreq", "priority"))


def _image(xf: Any, images: tuple[image.Image, ...]) -> None:
    for found in images:
        with xf.element(f"{{{image.URI}}}image"):
            for name, value in image.fields(found):
                with xf.element(f"{{{image.URI}}}{name}"):
                    xf.write(value)


def _video(xf: Any, videos: tuple[video.Video, ...]) -> None:
    for found in videos:
        with xf.element(f"{{{video.URI}}}video"):
            for name, attrs, value in video.elements(found):
                with xf.element(f"{{{video.URI}}}{name}", attrs):
                    xf.write(value)


def _news(xf: Any, article: news.News) -> None:
    with xf.element(f"{{{news.URI}}}news"):
        with xf.element(f"{{{news.URI}}}publication"):
            with xf.element(f"{{{news.URI}}}name"):
                xf.write(article.publication.name)
            with xf.element(f"{{{news.URI}}}language"):
                xf.write(article.publication.language)
        for key, value in news.children(article):
            with xf.element(f"{{{news.URI}}}{key}"):
                xf.write(value)


EXTENSIONS: dict[str, Callable[[Any, Any], None]] = {image.NAME: _image, video.NAME: _video, news.NAME: _news}


class LxmlReference:
    """A page's entries through ``lxml.etree.xmlfile`` inside a <urlset> that declares
    every namespace; each entry is cut out of the stream after its </url> (the
    prefixes are fixed, so it is valid under any head declaring what it uses)."""

    def __init__(self) -> None:
        self._buffer = io.BytesIO()
        self._stack = contextlib.ExitStack()
        self._xf = self._stack.enter_context(etree.xmlfile(self._buffer, encoding="UTF-8"))
        nsmap: dict[str | None, str] = {None: SITEMAP_NS}
        nsmap.update(all_prefixes())
        self._stack.enter_context(self._xf.element(f"{{{SITEMAP_NS}}}urlset", nsmap=nsmap))
        self._xf.flush()
        self._take()

    def _take(self) -> bytes:
        data = self._buffer.getvalue()
        self._buffer.seek(0)
        self._buffer.truncate()
        return data

    def render(self, page: Page) -> tuple[bytes, list[int]]:
        found = self.entries(page)
        return b"".join(found), [len(entry) for entry in found]

    def entries(self, page: Page) -> list[bytes]:
        xf = self._xf
        out = []
        lastmods = page.lastmods if page.lastmods is not None else (page.lastmod,) * len(page.locs)
        for loc, lastmod in zip(page.locs, lastmods, strict=True):
            with xf.element(_URL):
                with xf.element(_LOC):
                    xf.write(loc)
                for tag, value in zip(_CORE, (lastmod.text if lastmod else None, page.changefreq, page.priority),
                                      strict=True):
                    if value is not None:
                        with xf.element(tag):
                            xf.write(value)
                if page.codes is not None or page.x_default is not None:
                    for code, href in xhtml.alternates(page):
                        with xf.element(f"{{{xhtml.URI}}}link", {"rel": "alternate", "hreflang": code,
                                                                  "href": href}):
                            pass
                for name, value in page.extensions:
                    EXTENSIONS[name](xf, value)
            xf.write("\n")
            xf.flush()
            out.append(self._take())
        return out


@contextlib.contextmanager
def reference_renderer() -> Iterator[None]:
    """Builds inside write their entries with the reference (workers too: they make
    the renderer of the build's own type)."""
    with contextlib.ExitStack() as stack:
        import pytest

        patch = stack.enter_context(pytest.MonkeyPatch.context())
        patch.setattr(builder, "Renderer", LxmlReference)
        yield


def reference_build(*args: Any, **kwargs: Any) -> Any:
    """``sitemap_ext.build`` with every entry written by the reference."""
    with reference_renderer():
        return build(*args, **kwargs)
