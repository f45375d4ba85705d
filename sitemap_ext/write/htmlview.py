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
from functools import lru_cache
from html import escape
from typing import cast
from urllib.parse import quote

from lxml import etree

from ..ext import SITEMAP_NS, image, news, video, xhtml
from ..folder import VIEW_GENERATOR

ROWS_PER_PAGE = 1_000
# Where output.html is not set, a host's views are written when its sitemaps list at
# most this many URLs (one sitemap's worth): a million URLs' views are gigabytes, and a
# minute of a build that otherwise takes seconds.
VIEWS_UP_TO = 50_000
_HEAD = ("<tr><th>#</th><th>URL</th><th>lastmod</th><th>alternates</th><th>images</th><th>video, news</th>"
         "</tr>")

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
_SEPARATORS = ("/", "?", "=", "-", "_", ".")  # and "&", after its entity (see _wrapped)
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def _text(value: str) -> str:
    return value.translate(_TEXT)


def _href(relative: str) -> str:
    """A link to one of our own files, by its path: percent-encoded, so that no name
    (``output.pattern`` is the description's) reads as a scheme, a query or a fragment."""
    return escape(quote(relative, safe="/"), quote=True)


def _wrapped(value: str) -> str:
    """Text escaped for HTML, with a chance to wrap (<wbr>) after each separator. A
    chain of str.replace: four times quicker than a translate table on URLs, and the
    views of a million URLs are many of them."""
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    for char in _SEPARATORS:
        value = value.replace(char, f"{char}<wbr>")
    return value.replace("&amp;", "&amp;<wbr>")


@lru_cache(maxsize=4096)
def _url(url: str) -> str:
    """A link showing ``url`` with a chance to wrap after each of its separators
    (memoised: a cluster's URLs are each shown in every member's row)."""
    return f'<a href="{escape(url, quote=True)}">{_wrapped(url)}</a>'


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


def _labelled(label: str, items: list[str]) -> str:
    return f'<td data-label="{label}"><ul>{"".join(items)}</ul></td>' if items else "<td></td>"


def _row(number: int, url: etree._Element) -> str:
    loc = url.findtext(f"{_SM}loc") or ""
    alternates = [f"<li>{_text(link.get('hreflang', ''))} {_url(link.get('href', ''))}</li>"
                  for link in url.iter(_XHTML_LINK) if link.get("hreflang")]
    images = [f"<li>{_url(i.findtext(f'{_IMAGE}loc') or '')}</li>" for i in url.iter(f"{_IMAGE}image")]
    media = [f"<li>video: {_text(one.findtext(f'{_VIDEO}title') or '')}</li>" for one in url.iter(f"{_VIDEO}video")]
    media += [f"<li>news: {_text(one.findtext(f'{_NEWS}title') or '')}</li>" for one in url.iter(f"{_NEWS}news")]
    lastmod = url.findtext(f"{_SM}lastmod") or ""
    dated = f'<td class="d" data-label="lastmod">{_text(lastmod)}</td>' if lastmod else "<td></td>"
    return (f'<tr><td class="n">{number}</td><td>{_url(loc)}</td>{dated}{_labelled("alternates", alternates)}'
            f'{_labelled("images", images)}{_labelled("video, news", media)}</tr>')


def _page(title: str, body: str) -> bytes:
    head = (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
            f'<meta name="generator" content="{VIEW_GENERATOR}"><meta name="robots" content="noindex">'
            f"<title>{_text(title)}</title><style>{_STYLE}</style></head><body><h1>{_text(title)}</h1>")
    return (head + body + "</body></html>\n").encode("utf-8", "surrogatepass")


def _nav(names: list[str], current: int) -> str:
    links = [f"<span>page {n}</span>" if n == current else
             f'<a href="{_href(_relative(name, names[current - 1]))}">page {n}</a>'
             for n, name in enumerate(names, 1)]
    return f"<nav>{''.join(links)}</nav>"


def write_sitemap_views(source: str, name: str, urls: int, target: Callable[[str], str],
                        listing: str) -> list[tuple[str, int]]:
    """The HTML pages of one written sitemap (``source``, named ``name`` relative to its
    host's folder, ``urls`` entries), a page at a time: (view name, size) of each.
    ``target(view_name)`` gives the path to write a view to; ``listing`` names the
    list of all sitemaps (relative to the host's folder)."""
    pages = max(1, -(-urls // ROWS_PER_PAGE))
    names = view_names(name, pages)
    out: list[tuple[str, int]] = []
    chunk: list[str] = []

    def flush() -> None:
        page = len(out) + 1
        nav = _nav(names, page) if pages > 1 else ""
        title = f"{os.path.basename(name)}: {_count(urls, 'URL')}" + (f", page {page} of {pages}" if pages > 1 else "")
        listing_link = _href(_relative(listing, names[page - 1]))
        data = _page(title, f'<p><a href="{listing_link}">all sitemaps</a></p>{nav}<table><thead>{_HEAD}</thead>'
                            f'<tbody>{"".join(chunk)}</tbody></table>{nav}')
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


def _count(number: int, noun: str) -> str:
    """``1 URL``, ``2 URLs``: a count and its noun."""
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def write_index_view(path: str, listed: list[tuple[str, str, int, str | None]]) -> int:
    """The list of sitemaps: (sitemap name, its first view, URLs, newest lastmod)."""
    rows = [f'<tr><td><a href="{_href(view)}">{_text(name)}</a></td><td data-label="URLs">{urls:,}</td>'
            + (f'<td class="d" data-label="newest lastmod">{_text(lastmod)}</td>' if lastmod else "<td></td>")
            + "</tr>" for name, view, urls, lastmod in listed]
    total = sum(urls for _, _, urls, _ in listed)
    data = _page(f"{_count(len(listed), 'sitemap')}, {_count(total, 'URL')}",
                 f'<table><thead><tr><th>sitemap</th><th>URLs</th><th>newest lastmod</th></tr></thead>'
                 f'<tbody>{"".join(rows)}</tbody></table>')
    with open(path, "wb") as handle:
        handle.write(data)
    return len(data)
