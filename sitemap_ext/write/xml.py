"""The one XML writer: pages to the bytes of their <url> entries, file heads, the index.

``Renderer`` turns a page into the bytes of its ``<url>`` entries: strings, every
value escaped through ``xmlesc.escape``, each cluster's shared part rendered once
and a template kept per layout. It is the only code that writes entries; the tests
hold lxml's incremental writer as the reference (``tests/reference_xml.py``) and
prove both give the same canonical XML for every feature.

File envelopes (declaration, ``<urlset>`` with only the namespaces the file's
entries use) and the index are written by lxml. Filling files, splitting them
and compressing them is ``series.py``'s job.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import BinaryIO

from lxml import etree

from ..dates import Lastmod
from ..diagnostics import Where
from ..ext import EXTENSIONS, SITEMAP_NS, xhtml
from ..folder import XSL_FILE
from ..read.normalised import Layout, Placed
from ..read.normalised import NormalisedPage as Page
from ..read.record import UrlEntry
from .xmlesc import escape

URLSET_TAIL = b"</urlset>\n"


def all_prefixes() -> dict[str, str]:
    out = {xhtml.PREFIX: xhtml.URI}
    out.update({ext.prefix: ext.uri for ext in EXTENSIONS.values()})
    return out


_NAMESPACES: dict[tuple[bool, tuple[str, ...]], frozenset[str]] = {}


_NONE: frozenset[str] = frozenset()


def page_namespaces(page: Page) -> frozenset[str]:
    """Prefixes of the extension namespaces a page's entries use."""
    extensions = page.extensions
    if not extensions and page.codes is None and page.x_default is None:
        return _NONE  # (a plain page: the common case of a site in one language)
    shape = (page.codes is not None or page.x_default is not None,
             tuple([name for name, _ in extensions]) if extensions else ())
    found = _NAMESPACES.get(shape)
    if found is None:
        used = {EXTENSIONS[name].prefix for name in shape[1]}
        if shape[0]:
            used.add(xhtml.PREFIX)
        found = _NAMESPACES[shape] = frozenset(used)
    return found


# output.xsl: the stylesheet written beside the files, and what points to it. The
# reference is relative, so the files show the same on any host they are served from.
_STYLESHEET = etree.tostring(etree.PI("xml-stylesheet", f'type="text/xsl" href="{XSL_FILE}"')) + b"\n"


def _start(xf: etree.xmlfile, sink: BinaryIO, stylesheet: bool) -> None:
    """The declaration (lxml ends it with a newline) and, with output.xsl, the
    stylesheet instruction on a line of its own (lxml writes nothing but the root
    element after the declaration, so the instruction goes to the sink directly)."""
    xf.write_declaration()
    if stylesheet:
        xf.flush()
        sink.write(_STYLESHEET)


@lru_cache(maxsize=64)
def urlset_head(prefixes: frozenset[str], stylesheet: bool = False) -> bytes:
    """Declaration and <urlset> start tag declaring exactly ``prefixes`` (sorted)."""
    known = all_prefixes()
    nsmap: dict[str | None, str] = {None: SITEMAP_NS}
    nsmap.update({p: known[p] for p in sorted(prefixes)})
    buffer = io.BytesIO()
    with etree.xmlfile(buffer, encoding="UTF-8") as xf:
        _start(xf, buffer, stylesheet)
        with xf.element(f"{{{SITEMAP_NS}}}urlset", nsmap=nsmap):
            xf.flush()
            head = buffer.getvalue() + b"\n"
    return head


@dataclass(slots=True)
class RenderedPage:
    """One page as the files need it: its URLs, their entries one after another in
    ``blob`` (each entry's size in ``sizes``), and what the files note."""

    locs: Sequence[str]
    blob: bytes | memoryview  # a spooled page's blob is a slice of its chunk
    sizes: Sequence[int]
    prefixes: frozenset[str]
    lastmod: Lastmod | None
    news: bool
    key: int | None = None  # a fast-path page: the key its URLs are kept as (write.seen_urls.SeenUrls)
    where: Where | None = None  # where the page is described (the engine's findings on its entries go there)
    # The records of its entries, as the reader makes them of the bytes (``records.page_entries``).
    entries: Sequence[UrlEntry] = ()
    placed: tuple[Placed, ...] = ()  # the page's findings the engine says of its entries (Page.placed)


def core_fields(lastmod: Lastmod | None, changefreq: str | None, priority: str | None) -> str:
    """lastmod, changefreq, priority as the string renderer writes them (values are valid already)."""
    out = ""
    if lastmod is not None:
        out += f"<lastmod>{lastmod.text}</lastmod>"
    if changefreq is not None:
        out += f"<changefreq>{changefreq}</changefreq>"
    if priority is not None:
        out += f"<priority>{priority}</priority>"
    return out


def entries(escaped_locs: list[str], tail: bytes) -> list[bytes]:
    """The <url>s of one page: each escaped loc, then the part they share (see tail())."""
    return [b"<url><loc>" + loc.encode() + tail for loc in escaped_locs]


def tail(shared: str) -> bytes:
    """The end of an entry after its loc: the part a page's entries share, closed."""
    return f"</loc>{shared}</url>\n".encode()


class _Template:
    """What every page of one layout writes alike, rendered once: the start of each
    entry (up to its base) and the start of each link (up to the rest of its href).
    Escaping works character by character, so escape(base + rest) is escape(base) +
    escape(rest): a page of the layout adds only its escaped rest."""

    __slots__ = ("starts", "start_sizes", "link_starts")

    def __init__(self, layout: Layout) -> None:
        escaped = [escape(base) for base in layout.bases]
        starts = [b"<url><loc>" + base.encode() for base in escaped]
        self.start_sizes = [len(start) for start in starts]
        self.starts = starts + [b""]  # shared.join(starts) is every entry: start + shared, in turn
        links = [xhtml.link_start(code) + base for code, base in zip(layout.codes, escaped, strict=True)]
        if layout.x_default is not None:
            links.append(xhtml.link_start(xhtml.X_DEFAULT) + escaped[layout.x_default])
        self.link_starts = links


class Renderer:
    """A page's ``<url>`` entries as bytes: a cluster's shared part (dates, alternates,
    media) rendered once, and a template per layout for pages expanded from a path."""

    def __init__(self) -> None:
        self._templates: dict[Layout, _Template] = {}
        self._cores: dict[tuple[str | None, str | None, str | None], str] = {}

    def _core(self, page: Page) -> str:
        lastmod = page.lastmod
        key = (lastmod.text if lastmod is not None else None, page.changefreq, page.priority)
        core = self._cores.get(key)
        if core is None:
            if len(self._cores) >= 4096:
                self._cores.clear()
            core = self._cores[key] = core_fields(lastmod, page.changefreq, page.priority)
        return core

    def render(self, page: Page) -> tuple[bytes, list[int]]:
        """A page's <url> entries, one after another, and each one's size in bytes."""
        extensions = page.extensions
        media = "".join([EXTENSIONS[name].render(value) for name, value in extensions]) if extensions else ""
        if page.codes is None and page.x_default is None and page.lastmods is None:
            # A page without alternates has one URL (the common case of a site in one language).
            entry = f"<url><loc>{escape(page.locs[0])}</loc>{self._core(page)}{media}</url>\n".encode()
            return entry, [len(entry)]
        if page.lastmods is not None:  # versions that changed at different times: an entry each
            locs = [escape(loc) for loc in page.locs]
            links = xhtml.render(page, locs) if page.codes is not None or page.x_default is not None else ""
            found = [b"<url><loc>" + loc.encode() + tail(core_fields(lastmod, page.changefreq, page.priority)
                                                          + links + media)
                     for loc, lastmod in zip(locs, page.lastmods, strict=True)]
            return b"".join(found), [len(entry) for entry in found]
        shared = self._core(page)
        layout = page.layout
        if layout is not None:
            template = self._templates.get(layout)
            if template is None:
                template = self._templates[layout] = _Template(layout)
            rest = escape(page.rest)
            close = rest + xhtml.LINK_END
            # Every link ends in the same escaped rest: one join writes them all.
            end = f"{rest}</loc>{shared}{close.join(template.link_starts)}{close}{media}</url>\n".encode()
            size = len(end)
            return end.join(template.starts), [start + size for start in template.start_sizes]
        locs = [escape(loc) for loc in page.locs]
        found = entries(locs, tail(shared + xhtml.render(page, locs) + media))
        return b"".join(found), [len(entry) for entry in found]


# build(engine=...) chose between two renderers until 0.4; both values are taken until 0.5.
ENGINES = ("fast", "lxml")


def deprecated_engine(engine: str) -> None:
    """build(engine="lxml") asked for lxml's writer: since 0.4 one writer writes every
    file (its canonical XML is lxml's, tested), so the value is taken, and warned of."""
    if engine != "fast":
        warnings.warn("build(engine=...) is deprecated and ignored since 0.4: one writer writes every file "
                      "(the same canonical XML as lxml's); remove the argument", DeprecationWarning, stacklevel=3)


def write_index(path: str, entries: list[tuple[str, Lastmod | None]], stylesheet: bool = False) -> int:
    """A <sitemapindex> of (URL, newest lastmod) entries, by lxml."""
    with open(path, "wb") as handle:
        with etree.xmlfile(handle, encoding="UTF-8") as xf:
            _start(xf, handle, stylesheet)
            with xf.element(f"{{{SITEMAP_NS}}}sitemapindex", nsmap={None: SITEMAP_NS}):
                xf.write("\n")
                for url, lastmod in entries:
                    with xf.element(f"{{{SITEMAP_NS}}}sitemap"):
                        with xf.element(f"{{{SITEMAP_NS}}}loc"):
                            xf.write(url)
                        if lastmod is not None:
                            with xf.element(f"{{{SITEMAP_NS}}}lastmod"):
                                xf.write(lastmod.text)
                    xf.write("\n")
        handle.write(b"\n")
        return handle.tell()
