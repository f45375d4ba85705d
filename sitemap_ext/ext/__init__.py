"""Sitemap XML namespaces: each extension owns its URI, prefix, parsing and writing.

Registered explicitly here (no discovery by import), in the order their elements
are written inside a <url>. The writer declares a namespace in a file only when
an entry of that file uses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


class XmlSink(Protocol):
    """The part of ``lxml.etree.xmlfile`` the reference renderer uses."""

    def element(self, tag: str, attrib: dict[str, str] | None = None, **kw: Any) -> Any: ...

    def write(self, *args: Any) -> None: ...


@dataclass(frozen=True)
class Extension:
    name: str  # the key in Page.extensions, and in a page's YAML (images, videos, news)
    uri: str
    prefix: str
    render_fast: Callable[[Any], str]  # one page's value -> XML text, escaped via xmlesc
    render_lxml: Callable[[XmlSink, Any], None]  # the same through lxml (the reference)


def _registry() -> dict[str, Extension]:
    from . import image, news, video

    return {m.NAME: Extension(m.NAME, m.URI, m.PREFIX, m.render_fast, m.render_lxml) for m in (image, video, news)}


EXTENSIONS: dict[str, Extension] = _registry()
