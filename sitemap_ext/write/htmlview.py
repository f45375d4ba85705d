"""A static HTML view of the sitemaps a build writes (``output.html``): for people, in any
browser, with no XSLT and no script.

Each sitemap gets pages of at most ``ROWS_PER_PAGE`` rows beside it
(``sitemap-1.html``, ``sitemap-1.2.html``, ...). A sitemap with hreflang alternates is
shown as the check's coverage picture is: a row a page of the site, a column a language,
each cell the URL of that version with its lastmod; one without, a row an entry. Media
are shown with what identifies them: an image's URL, a video's thumbnail, title,
duration and date, a news article's title, publication and date. Each host's folder gets ``sitemaps.html``
listing every sitemap with its count, newest lastmod and the link to its view. The
view is read back from the files just written (our own bytes, through the readers'
bounded opener), so it shows exactly what search engines get.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from html import escape
from typing import NamedTuple, cast
from urllib.parse import quote, urlsplit

from lxml import etree

from ..ext import SITEMAP_NS, image, news, video, xhtml
from ..folder import VIEW_GENERATOR

ROWS_PER_PAGE = 1_000
# Where output.html is not set, a host's views are written when its sitemaps list at
# most this many URLs (one sitemap's worth): a million URLs' views are gigabytes, and a
# minute of a build that otherwise takes seconds.
VIEWS_UP_TO = 50_000

_SM = f"{{{SITEMAP_NS}}}"
_XHTML_LINK = f"{{{xhtml.URI}}}link"
_IMAGE, _VIDEO, _NEWS = (f"{{{ext.URI}}}" for ext in (image, video, news))
# URLs wrap after their separators (<wbr>), and within a word only when one part is
# wider than the column; a sitemap with alternates is a table of pages by language that
# scrolls in its own box; on a phone each row is a block of labelled lines.
_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:1rem;color:#1b1b1b}
h1{font-size:1.3rem;overflow-wrap:anywhere}table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid #ddd;overflow-wrap:anywhere}
th{background:#f3f3f3;position:sticky;top:0;overflow-wrap:normal;white-space:nowrap}td.n{color:#777;width:3rem}
td.d,span.d{white-space:nowrap}span.d,.muted{color:#666;font-size:.85em}
tbody th{background:none;position:static;white-space:normal;overflow-wrap:anywhere;min-width:8rem}
.scroll{overflow-x:auto}.clusters td{min-width:9rem}li.media img{display:block;max-width:160px;margin:.2rem 0}
ul{margin:0;padding-left:1rem}nav{margin:.8rem 0}nav a{margin-right:.8rem}
@media (max-width:700px){thead{display:none}td,tbody th{display:block;border:0;padding:.1rem 0}td:empty{display:none}
.clusters td{min-width:0}
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


def _url(url: str) -> str:
    """A link showing ``url`` with a chance to wrap after each of its separators."""
    return f'<a href="{escape(url, quote=True)}">{_wrapped(url)}</a>'


def view_names(name: str, pages: int) -> list[str]:
    """``products/sitemap-1.xml`` (or ``.xml.gz``) -> ``products/sitemap-1.html``,
    ``products/sitemap-1.2.html``, ...: beside the sitemap."""
    stem = name[: -len(".xml.gz")] if name.endswith(".xml.gz") else name[: -len(".xml")]
    return [f"{stem}.html"] + [f"{stem}.{page}.html" for page in range(2, pages + 1)]


def _relative(target: str, page: str) -> str:
    """The link from the view ``page`` to ``target`` (both relative to the host's folder)."""
    return os.path.relpath(target, os.path.dirname(page) or ".").replace(os.sep, "/")


def _entries(path: str) -> Iterator[_Entry]:
    from ..read.sniff import open_bytes  # (here: read/ is below write/, a late import keeps htmlview light)

    parser = etree.XMLPullParser(events=("end",), tag=f"{_SM}url", resolve_entities=False, no_network=True)
    for chunk in open_bytes(path, lambda *args, **kwargs: None):  # gzip or not, bounded
        parser.feed(chunk)
        for _, found in parser.read_events():
            element = cast(etree._Element, found)  # (an "end" event's: an element; the stubs say any event's)
            yield _entry(element)
            element.clear()


class _Entry(NamedTuple):
    """What a view shows of one ``<url>``: its URL, lastmod, alternates (code, URL) in
    the file's order, and its media as list items (start tag, content), rendered while the
    element lives."""

    loc: str
    lastmod: str
    alternates: tuple[tuple[str, str], ...]
    media: tuple[tuple[str, str], ...]  # (the list item's start tag, its content)


def _entry(url: etree._Element) -> _Entry:
    alternates = tuple((link.get("hreflang", ""), link.get("href", ""))
                       for link in url.iter(_XHTML_LINK) if link.get("hreflang"))
    media = [("<li>", f"image {_url(i.findtext(f'{_IMAGE}loc') or '')}") for i in url.iter(f"{_IMAGE}image")]
    media += [_video(one) for one in url.iter(f"{_VIDEO}video")]
    media += [_article(one) for one in url.iter(f"{_NEWS}news")]
    return _Entry(url.findtext(f"{_SM}loc") or "", url.findtext(f"{_SM}lastmod") or "", alternates, tuple(media))


def _duration(seconds: str) -> str:
    """``125`` -> ``2:05``, ``3725`` -> ``1:02:05``; anything else as written."""
    if not seconds.isdigit():
        return seconds
    minutes, second = divmod(int(seconds), 60)
    hours, minute = divmod(minutes, 60)
    return f"{hours}:{minute:02}:{second:02}" if hours else f"{minute}:{second:02}"


def _video(video: etree._Element) -> tuple[str, str]:
    """A video: its thumbnail (loaded lazily, no referrer), title, duration and date."""
    thumbnail = video.findtext(f"{_VIDEO}thumbnail_loc") or ""
    picture = (f'<img src="{escape(thumbnail, quote=True)}" alt="" loading="lazy" referrerpolicy="no-referrer">'
               if thumbnail.startswith(("https://", "http://")) else "")
    facts = [_text(video.findtext(f"{_VIDEO}title") or "")]
    facts += [_duration(_text(video.findtext(f"{_VIDEO}duration") or ""))]
    facts += [_text(video.findtext(f"{_VIDEO}publication_date") or "")]
    return '<li class="media">', f'{picture}video: {" · ".join(fact for fact in facts if fact)}'


def _article(news: etree._Element) -> tuple[str, str]:
    """A news article: its title, its publication (name and language) and date."""
    name = news.findtext(f"{_NEWS}publication/{_NEWS}name") or ""
    language = news.findtext(f"{_NEWS}publication/{_NEWS}language") or ""
    publication = _text(name) + (f" ({_text(language)})" if language else "")
    facts = [_text(news.findtext(f"{_NEWS}title") or ""), publication,
             _text(news.findtext(f"{_NEWS}publication_date") or "")]
    return "<li>", f'news: {" · ".join(fact for fact in facts if fact)}'


def _rows(entries: list[_Entry]) -> list[list[_Entry]]:
    """The rows of a view: the entries that announce one list of alternates (a cluster:
    the versions of one page) share a row, in the order the file first lists them; an
    entry with no alternates is a row of its own."""
    rows: dict[object, list[_Entry]] = {}
    for number, entry in enumerate(entries):
        key: object = tuple(sorted(entry.alternates)) if entry.alternates else number
        rows.setdefault(key, []).append(entry)
    return list(rows.values())


def _codes(entries: list[_Entry]) -> list[str]:
    """The columns of a view with alternates: every code named, x-default last."""
    codes = {code.lower(): code for entry in entries for code, _ in entry.alternates}
    return [codes[key] for key in sorted(codes, key=lambda key: (key == "x-default", key))]


def _path(url: str, host: str = "") -> str:
    """A URL shown by its path, with its query, where its host is ``host`` or not said
    (the site's, in the title); another host's URL in full."""
    parts = urlsplit(url)
    if not parts.netloc or (host and parts.netloc != host):
        return url
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _listed(entry: _Entry, shown: str, dated: bool = True) -> str:
    """An entry of this sitemap: the link (classed ``entry``: one per ``<url>``) and its lastmod."""
    lastmod = f' <span class="d">{_text(entry.lastmod)}</span>' if entry.lastmod and dated else ""
    return (f'<a class="entry" href="{escape(entry.loc, quote=True)}" title="{escape(entry.loc, quote=True)}">'
            f"{_wrapped(shown)}</a>{lastmod}")


def _media(row: list[tuple[str, _Entry]]) -> str:
    """The media of a row's entries (code, entry), each named by its version's code
    where the row has several."""
    items = []
    for code, entry in row:
        prefix = f"{_text(code)}: " if len(row) > 1 and code else ""
        items += [f"{start}{prefix}{item}</li>" for start, item in entry.media]
    return _labelled("media", items)


def _cluster_row(number: int, row: list[_Entry], codes: list[str]) -> str:
    """One page and its versions: a cell per code, with the URL it names; where that URL
    is an entry of this sitemap, the link is the entry's, with its lastmod."""
    host = urlsplit(row[0].loc).netloc
    named: dict[str, list[str]] = {}
    for code, href in row[0].alternates:
        named.setdefault(code.lower(), []).append(href)
    waiting: dict[str, list[_Entry]] = {}
    for entry in row:
        waiting.setdefault(entry.loc, []).append(entry)
    cells, shown_entries = [], []
    for code in codes:
        shown = []
        for href in named.get(code.lower(), []):
            entries = waiting.get(href)
            if entries:
                entry = entries.pop(0)
                shown_entries.append((code, entry))
                shown.append(_listed(entry, _path(href, host)))
            else:  # (shown under another code, x-default mostly; or an entry of no view of this sitemap)
                note = "" if href in waiting else ' <span class="muted">not in this sitemap</span>'
                shown.append(f'<a href="{escape(href, quote=True)}">{_wrapped(_path(href, host))}</a>{note}')
        cells.append(f'<td data-label="{_text(code)}">{"<br>".join(shown)}</td>' if shown else "<td></td>")
    unnamed = [entry for entries in waiting.values() for entry in entries]  # (listed, but no code names it)
    shown_entries += [("", entry) for entry in unnamed]
    page = "".join(f"<br>{_listed(entry, entry.loc)}" for entry in unnamed) if row[0].alternates else ""
    title = _wrapped(_path(row[0].loc, host)) if row[0].alternates else _listed(row[0], row[0].loc)
    return (f'<tr><td class="n">{number}</td><th class="page" title="{escape(row[0].loc, quote=True)}">{title}'
            f'{page}</th>{"".join(cells)}{_media(shown_entries)}</tr>')


def _plain_row(number: int, entry: _Entry) -> str:
    dated = f'<td class="d" data-label="lastmod">{_text(entry.lastmod)}</td>' if entry.lastmod else "<td></td>"
    return (f'<tr><td class="n">{number}</td><td>{_listed(entry, entry.loc, dated=False)}</td>{dated}'
            f'{_media([("", entry)])}</tr>')


def _table(rows: list[list[_Entry]], codes: list[str], first: int) -> str:
    """A table of rows: with a column per language where the sitemap has alternates."""
    if codes:
        head = ("<tr><th>#</th><th>page</th>" + "".join(f"<th>{_text(code)}</th>" for code in codes)
                + "<th>media</th></tr>")
        body = "".join(_cluster_row(first + n, row, codes) for n, row in enumerate(rows))
        return f'<div class="scroll"><table class="clusters"><thead>{head}</thead><tbody>{body}</tbody></table></div>'
    head = "<tr><th>#</th><th>URL</th><th>lastmod</th><th>media</th></tr>"
    body = "".join(_plain_row(first + n, row[0]) for n, row in enumerate(rows))
    return f"<table><thead>{head}</thead><tbody>{body}</tbody></table>"


def _labelled(label: str, items: list[str]) -> str:
    return f'<td data-label="{label}"><ul>{"".join(items)}</ul></td>' if items else "<td></td>"


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
                        listing: str, site: str = "") -> list[tuple[str, int]]:
    """The HTML pages of one written sitemap (``source``, named ``name`` relative to its
    host's folder, ``urls`` entries): (view name, size) of each. A page is a row per
    page of the site with a column per language (as the check's coverage picture),
    ``ROWS_PER_PAGE`` rows a view. ``target(view_name)`` gives the path to write a
    view to; ``listing`` names the list of all sitemaps (relative to the host's
    folder); ``site``, the public URL of that folder, names the site in the title
    (which is then the sitemap's own URL)."""
    entries = list(_entries(source))  # (one sitemap: at most 50,000 entries, each a few strings)
    rows = _rows(entries)
    codes = _codes(entries)
    pages = max(1, -(-len(rows) // ROWS_PER_PAGE))
    names = view_names(name, pages)
    out: list[tuple[str, int]] = []
    for page in range(1, pages + 1):
        nav = _nav(names, page) if pages > 1 else ""
        title = (f"{site + name if site else os.path.basename(name)}: {_count(urls, 'URL')}"
                 + (f", page {page} of {pages}" if pages > 1 else ""))
        listing_link = _href(_relative(listing, names[page - 1]))
        first = (page - 1) * ROWS_PER_PAGE
        data = _page(title, f'<p><a href="{listing_link}">all sitemaps</a></p>{nav}'
                            f"{_table(rows[first:first + ROWS_PER_PAGE], codes, first + 1)}{nav}")
        with open(target(names[page - 1]), "wb") as handle:
            handle.write(data)
        out.append((names[page - 1], len(data)))
    return out


def _count(number: int, noun: str) -> str:
    """``1 URL``, ``2 URLs``: a count and its noun."""
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def write_index_view(path: str, listed: list[tuple[str, str, int, str | None]], site: str = "") -> int:
    """The list of sitemaps: (sitemap name, its first view, URLs, newest lastmod), titled
    with the site's name (its public URL) where given."""
    rows = [f'<tr><td><a href="{_href(view)}">{_text(name)}</a></td><td data-label="URLs">{urls:,}</td>'
            + (f'<td class="d" data-label="newest lastmod">{_text(lastmod)}</td>' if lastmod else "<td></td>")
            + "</tr>" for name, view, urls, lastmod in listed]
    total = sum(urls for _, _, urls, _ in listed)
    data = _page((f"{site}: " if site else "") + f"{_count(len(listed), 'sitemap')}, {_count(total, 'URL')}",
                 f'<table><thead><tr><th>sitemap</th><th>URLs</th><th>newest lastmod</th></tr></thead>'
                 f'<tbody>{"".join(rows)}</tbody></table>')
    with open(path, "wb") as handle:
        handle.write(data)
    return len(data)
