"""A static HTML view of the sitemaps a build writes (``output.html``): for people, in any
browser, with no XSLT and no script.

Each sitemap gets pages of at most ``ROWS_PER_PAGE`` entries beside it
(``sitemap-1.html``, ``sitemap-1.2.html``, ...): a table of URL, lastmod, alternates
by language, images, videos and news titles. Each host's folder gets ``sitemaps.html``
listing every sitemap with its count, newest lastmod and the link to its view. The
view is read back from the files just written (our own bytes, through the readers'
bounded opener), so it shows exactly what search engines get.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import cast

from lxml import etree
from lxml.html import builder as E

from ..ext import SITEMAP_NS, image, news, video, xhtml
from ..folder import VIEW_GENERATOR

ROWS_PER_PAGE = 1_000

_SM = f"{{{SITEMAP_NS}}}"
_XHTML_LINK = f"{{{xhtml.URI}}}link"
_IMAGE, _VIDEO, _NEWS = (f"{{{ext.URI}}}" for ext in (image, video, news))
# URLs wrap after their separators (<wbr>), and within a word only when one part is
# wider than the column; on a phone each entry is a block of labelled lines.
_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:1rem;color:#1b1b1b}
h1{font-size:1.3rem;overflow-wrap:anywhere}table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid #ddd;overflow-wrap:anywhere}
th{background:#f3f3f3;position:sticky;top:0;overflow-wrap:normal;white-space:nowrap}td.n{color:#777;width:3rem}
td.d{white-space:nowrap}
ul{margin:0;padding-left:1rem}nav{margin:.8rem 0}nav a{margin-right:.8rem}
@media (max-width:700px){thead{display:none}td{display:block;border:0;padding:.1rem 0}td:empty{display:none}
tr{display:block;border-bottom:1px solid #ccc;padding:.4rem 0}
td[data-label]::before{content:attr(data-label) ": ";color:#666}ul{padding-left:1.2rem}}
"""
_SEPARATORS = ("/", "?", "&", "=", "-", "_", ".")


def _url(url: str) -> etree._Element:
    """A link showing ``url`` with a chance to wrap after each of its separators."""
    parts: list[object] = []
    text = ""
    for char in url:
        text += char
        if char in _SEPARATORS:
            parts += [text, E.WBR()]
            text = ""
    link: etree._Element = E.A(*parts, text, href=url)  # (lxml.html.builder is untyped)
    return link


def view_names(name: str, pages: int) -> list[str]:
    """``products/sitemap-1.xml`` (or ``.xml.gz``) -> ``products/sitemap-1.html``,
    ``products/sitemap-1.2.html``, ...: beside the sitemap."""
    stem = name[: -len(".xml.gz")] if name.endswith(".xml.gz") else name[: -len(".xml")]
    return [f"{stem}.html"] + [f"{stem}.{page}.html" for page in range(2, pages + 1)]


def _relative(target: str, page: str) -> str:
    """The link from the view ``page`` to ``target`` (both relative to the host's folder)."""
    return os.path.relpath(target, os.path.dirname(page) or ".").replace(os.sep, "/")


def _entries(path: str) -> Iterator[etree._Element]:
    from ..read.sniff import open_bytes  # (here: read/ is below write/, a late import keeps htmlview light)

    parser = etree.XMLPullParser(events=("end",), tag=f"{_SM}url", resolve_entities=False, no_network=True)
    for chunk in open_bytes(path, lambda *args, **kwargs: None):  # gzip or not, bounded
        parser.feed(chunk)
        for _, found in parser.read_events():
            element = cast(etree._Element, found)  # (an "end" event's: an element; the stubs say any event's)
            yield element
            element.clear()


def _row(number: int, url: etree._Element) -> etree._Element:
    loc = url.findtext(f"{_SM}loc") or ""
    alternates = [E.LI(link.get("hreflang", ""), " ", _url(link.get("href", "")))
                  for link in url.iter(_XHTML_LINK) if link.get("hreflang")]
    images = [E.LI(_url(loc_)) for loc_ in (i.findtext(f"{_IMAGE}loc") or "" for i in url.iter(f"{_IMAGE}image"))]
    media = [E.LI("video: ", video.findtext(f"{_VIDEO}title") or "") for video in url.iter(f"{_VIDEO}video")]
    media += [E.LI("news: ", news.findtext(f"{_NEWS}title") or "") for news in url.iter(f"{_NEWS}news")]
    lastmod = url.findtext(f"{_SM}lastmod") or ""
    row: etree._Element = E.TR(  # (lxml.html.builder is untyped)
        E.TD(str(number), E.CLASS("n")), E.TD(_url(loc)),
        E.TD(lastmod, E.CLASS("d"), {"data-label": "lastmod"}) if lastmod else E.TD(),
        E.TD(E.UL(*alternates), {"data-label": "alternates"}) if alternates else E.TD(),
        E.TD(E.UL(*images), {"data-label": "images"}) if images else E.TD(),
        E.TD(E.UL(*media), {"data-label": "video, news"}) if media else E.TD())
    return row


def _page(title: str, body: list[etree._Element]) -> bytes:
    document = E.HTML(E.HEAD(E.META(charset="utf-8"), E.META(name="viewport", content="width=device-width"),
                             E.META(name="generator", content=VIEW_GENERATOR),
                             E.META(name="robots", content="noindex"), E.TITLE(title), E.STYLE(_STYLE)),
                      E.BODY(E.H1(title), *body))
    return b"<!DOCTYPE html>\n" + etree.tostring(document, method="html", encoding="utf-8") + b"\n"


def _nav(names: list[str], current: int) -> etree._Element:
    links = [E.SPAN(f"page {n}") if n == current else E.A(f"page {n}", href=_relative(name, names[current - 1]))
             for n, name in enumerate(names, 1)]
    nav: etree._Element = E.NAV(*links)  # (lxml.html.builder is untyped)
    return nav


def write_sitemap_views(source: str, name: str, urls: int, target: Callable[[str], str],
                        listing: str) -> list[tuple[str, int]]:
    """The HTML pages of one written sitemap (``source``, named ``name`` relative to its
    host's folder, ``urls`` entries), a page at a time: (view name, size) of each.
    ``target(view_name)`` gives the path to write a view to; ``listing`` names the
    list of all sitemaps (relative to the host's folder)."""
    pages = max(1, -(-urls // ROWS_PER_PAGE))
    names = view_names(name, pages)
    head = E.TR(E.TH("#"), E.TH("URL"), E.TH("lastmod"), E.TH("alternates"), E.TH("images"), E.TH("video, news"))
    out: list[tuple[str, int]] = []
    chunk: list[etree._Element] = []

    def flush() -> None:
        page = len(out) + 1
        nav = [_nav(names, page)] if pages > 1 else []
        title = f"{os.path.basename(name)}: {urls:,} URLs" + (f", page {page} of {pages}" if pages > 1 else "")
        data = _page(title, [E.P(E.A("all sitemaps", href=_relative(listing, names[page - 1]))), *nav,
                             E.TABLE(E.THEAD(head), E.TBODY(*chunk)), *nav])
        with open(target(names[page - 1]), "wb") as handle:
            handle.write(data)
        out.append((names[page - 1], len(data)))
        chunk.clear()

    for number, url in enumerate(_entries(source), 1):
        chunk.append(_row(number, url))
        if len(chunk) == ROWS_PER_PAGE and len(out) + 1 < pages:
            flush()
    flush()
    return out


def write_index_view(path: str, listed: list[tuple[str, str, int, str | None]]) -> int:
    """The list of sitemaps: (sitemap name, its first view, URLs, newest lastmod)."""
    rows = [E.TR(E.TD(E.A(name, href=view)), E.TD(f"{urls:,}", {"data-label": "URLs"}),
                 E.TD(lastmod, E.CLASS("d"), {"data-label": "newest lastmod"}) if lastmod else E.TD())
            for name, view, urls, lastmod in listed]
    total = sum(urls for _, _, urls, _ in listed)
    data = _page(f"{len(listed):,} sitemaps, {total:,} URLs",
                 [E.TABLE(E.THEAD(E.TR(E.TH("sitemap"), E.TH("URLs"), E.TH("newest lastmod"))), E.TBODY(*rows))])
    with open(path, "wb") as handle:
        handle.write(data)
    return len(data)
