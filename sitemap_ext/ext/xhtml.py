"""xhtml:link hreflang alternates (one block per cluster, shared by all its entries)."""

from __future__ import annotations

from ..model import Page
from ..xmlesc import escape
from . import XmlSink

NAME = "xhtml"
URI = "http://www.w3.org/1999/xhtml"
PREFIX = "xhtml"
_LINK = f"{{{URI}}}link"


def alternates(page: Page) -> list[tuple[str, str]]:
    """(hreflang, href) pairs every entry of the cluster lists: each version, then x-default."""
    pairs = [(v.hreflang, v.loc) for v in page.versions if v.hreflang is not None]
    if page.x_default is not None:
        pairs.append(("x-default", page.x_default))
    return pairs


_LINK_STARTS: dict[str, str] = {}


def _link_start(code: str) -> str:
    start = _LINK_STARTS.get(code)
    if start is None:
        start = _LINK_STARTS[code] = f'<xhtml:link rel="alternate" hreflang="{escape(code)}" href="'
    return start


def render_fast(page: Page) -> str:
    return "".join([_link_start(code) + escape(href) + '"/>' for code, href in alternates(page)])


def render_lxml(xf: XmlSink, page: Page) -> None:
    for code, href in alternates(page):
        with xf.element(_LINK, {"rel": "alternate", "hreflang": code, "href": href}):
            pass
