"""xhtml:link hreflang alternates (one block per cluster, shared by all its entries)."""

from __future__ import annotations

from ..read.normalised import NormalisedPage as Page
from ..write.xmlesc import escape

NAME = "xhtml"
URI = "http://www.w3.org/1999/xhtml"
PREFIX = "xhtml"
X_DEFAULT = "x-default"


def alternates(page: Page) -> list[tuple[str, str]]:
    """(hreflang, href) pairs every entry of the cluster lists: each version, then x-default."""
    pairs = list(zip(page.codes, page.locs, strict=True)) if page.codes is not None else []
    if page.x_default is not None:
        pairs.append(("x-default", page.x_default))
    return pairs


_LINK_STARTS: dict[str, str] = {}
LINK_END = '"/>'  # after link_start(code) and the escaped href


def link_start(code: str) -> str:
    """'<xhtml:link rel="alternate" hreflang="CODE" href="': the href and '"/>' follow."""
    start = _LINK_STARTS.get(code)
    if start is None:
        start = _LINK_STARTS[code] = f'<xhtml:link rel="alternate" hreflang="{escape(code)}" href="'
    return start


def render(page: Page, escaped: list[str] | None = None) -> str:
    """The links; ``escaped`` holds the versions' locs escaped already (the renderer's)."""
    if escaped is None:
        escaped = [escape(loc) for loc in page.locs]
    links = [link_start(code) + href + LINK_END for code, href in zip(page.codes, escaped, strict=True)] \
        if page.codes is not None else []
    if page.x_default is not None:
        links.append(link_start(X_DEFAULT) + escape(page.x_default) + LINK_END)
    return "".join(links)
