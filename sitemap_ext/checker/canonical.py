"""Urlsets written in the canonical shape, checked without building elements.

Most sitemaps a site checks are ones a generator wrote: the XML declaration, a
``<urlset>`` with its namespaces, then one ``<url>`` per line, children in schema
order, no comments, no whitespace between elements. For a file in exactly that
shape (this module's regular expressions, which admit only text without markup
and the five predefined entities), the file is well-formed by construction, each
element's line is its entry's line, and every rule can be run on the matched text
directly: the same functions ``check_url`` runs, fed strings instead of elements.

The whole file is matched before anything is reported; any difference from the
shape (a comment, a line break inside an entry, a video, another attribute order,
a character reference, gzip over the size limit) returns False and the file takes
the general path through libxml2. Tests check both paths report the same.
"""

from __future__ import annotations

import mmap
import os
import re
import zlib

from ..ext import SITEMAP_NS
from ..ext import image, xhtml
from ..limits import MAX_BYTES_PER_FILE, MAX_URLS_PER_FILE
from . import bulk
from .entries import FileState, check_changefreq, check_lastmod, check_links, check_loc, check_priority
from .media import check_plain_images

# Characters that need no escaping (and that XML 1.0 allows), runs of them between
# the five predefined entities; written as a loop unrolled, which the engine runs fast.
_PLAIN = r"[^<>&\"'\n\r\t\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]*"
_TEXT = rf"{_PLAIN}(?:&(?:amp|lt|gt|quot|apos);{_PLAIN})*"
_NAMESPACES = {image.PREFIX: image.URI, xhtml.PREFIX: xhtml.URI}
_HEAD = re.compile(
    r"<\?xml version=(['\"])1\.0\1 encoding=(['\"])UTF-8\2\?>\n<urlset xmlns=\"" + re.escape(SITEMAP_NS) + r'"'
    r'((?: xmlns:[a-z]+="[^"<&]*")*)>\n')
_DECLARATION = re.compile(r' xmlns:([a-z]+)="([^"<&]*)"')
# What follows an entry's loc: lastmod, changefreq, priority, links, images.
_AFTER_LOC = (
    rf"(?:<lastmod>({_TEXT})</lastmod>)?(?:<changefreq>({_TEXT})</changefreq>)?(?:<priority>({_TEXT})</priority>)?"
    rf"((?:<xhtml:link rel=\"{_TEXT}\" hreflang=\"{_TEXT}\" href=\"{_TEXT}\"/>)*)"
    rf"((?:<image:image><image:loc>{_TEXT}</image:loc></image:image>)*)</url>")
_ENTRY = re.compile(rf"<url><loc>({_TEXT})</loc>{_AFTER_LOC}\n")
# For the bulk path. What follows the loc, for rows joined by line breaks; and when
# the links are split out at their quotes, what lies around them (lastmod and the
# like before a run's first link; images and the line break after its last), those
# pieces joined by NUL; and the links' URLs joined by spaces (absolute, nothing to strip).
_BEFORE_LINKS = (rf"(?:<lastmod>{_PLAIN}</lastmod>)?(?:<changefreq>{_PLAIN}</changefreq>)?"
                 rf"(?:<priority>{_PLAIN}</priority>)?<xhtml:link rel=")
_AFTER_LINKS = rf"/>(?:<image:image><image:loc>{_PLAIN}</image:loc></image:image>)*</url>\n"
_HREF = r"https?://[^\s<>&\"'\x00-\x1f\ufffe\uffff]*"
_SHAPE = bulk.Shape(
    rests=re.compile(rf"(?:{_AFTER_LOC}\n)*"),
    around_links=re.compile(rf"{_BEFORE_LINKS}(?:\x00{_AFTER_LINKS}{_BEFORE_LINKS})*\x00{_AFTER_LINKS}"),
    next_link="/><xhtml:link rel=",
    hrefs=re.compile(rf"{_HREF}(?: {_HREF})*"))
_LINK = re.compile(rf"<xhtml:link rel=\"({_TEXT})\" hreflang=\"({_TEXT})\" href=\"({_TEXT})\"/>")
_IMAGE_LOC = re.compile(rf"<image:loc>({_TEXT})</image:loc>")
_TAIL = re.compile(r"</urlset>\n?")
_SLACK = 1 << 20
_PEEK = 1 << 16


def _text(raw: str) -> str:
    """Element text or attribute value as the XML parser gives it (entities decoded)."""
    if "&" not in raw:
        return raw
    return raw.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&apos;", "'") \
        .replace("&amp;", "&")


def _read(path: str) -> bytes | None:
    """The file's bytes (inflated), or None when over the size limit or unreadable."""
    try:
        with open(path, "rb") as handle:
            # Compressed data a little larger than its limit is still possible (stored
            # blocks); anything larger is left to the element path, which reports it.
            data = handle.read(MAX_BYTES_PER_FILE + _SLACK + 1)
            if len(data) > MAX_BYTES_PER_FILE + _SLACK:
                return None
            if data[:2] == b"\x1f\x8b":
                inflater = zlib.decompressobj(wbits=31)
                data = inflater.decompress(data, MAX_BYTES_PER_FILE + 1)
                if not inflater.eof or inflater.unused_data:
                    return None  # over the limit, truncated, or more than one member
    except (OSError, zlib.error):
        return None
    return data if len(data) <= MAX_BYTES_PER_FILE else None


def _decoded(path: str) -> str | None:
    """The file's text, when it is UTF-8 that starts with an XML declaration; None
    otherwise. A plain file is decoded straight from a memory map (no copy of its
    bytes), gzip through _read."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if 0 < size <= MAX_BYTES_PER_FILE and handle.read(2) != b"\x1f\x8b":
                with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
                    if mapped[:5] != b"<?xml":
                        return None
                    return str(mapped, "utf-8")
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    data = _read(path)
    if data is None or not data.startswith(b"<?xml"):
        return None
    try:
        return data.decode()
    except UnicodeDecodeError:
        return None


def _starts_canonical(path: str) -> bool:
    """Whether the file begins in the shape (its head and first entry): a look at its
    first bytes, so that files in other shapes are not read whole twice."""
    try:
        with open(path, "rb") as handle:
            start = handle.read(_PEEK)
        if start[:2] == b"\x1f\x8b":
            start = zlib.decompressobj(wbits=31).decompress(start, _PEEK)
    except (OSError, zlib.error):
        return False
    text = start.decode(errors="replace")
    head = _HEAD.match(text)
    return head is not None and text.startswith(("<url><loc>", "</urlset>"), head.end())


def _declared(head: re.Match[str]) -> dict[str, str] | None:
    """The prefixes a head declares, when each is once, and one the shape knows."""
    declarations = head.group(3)
    declared = dict(_DECLARATION.findall(declarations))
    if len(declared) != declarations.count(" xmlns:") or \
            any(_NAMESPACES.get(prefix) != uri for prefix, uri in declared.items()):
        return None
    return declared


def _load(path: str) -> tuple[str, re.Match[str], dict[str, str]] | None:
    """The file's text, its head and the prefixes it declares, when it is in the
    shape as far as its head and first entry; None otherwise (looking at its first
    bytes before reading it whole). Such a head declares UTF-8 in so many words,
    without a byte order mark: the encoding rule has nothing to say about it."""
    if not _starts_canonical(path):
        return None
    text = _decoded(path)
    if text is None:
        return None
    head = _HEAD.match(text)
    if head is None:
        return None
    declared = _declared(head)
    if declared is None:
        return None
    return text, head, declared


def probe(path: str, state: FileState) -> bulk.Probe | None:
    """What the bulk path keeps of a file in the shape with nothing to report (read
    by a worker process: nothing shared is touched); None otherwise. The file's
    bytes are matched as they are; only its pieces are decoded."""
    if not _starts_canonical(path):
        return None
    data = _read(path)
    if data is None:
        return None
    head = _HEAD.match(data[:_PEEK].decode(errors="replace"))
    if head is None or "\ufffd" in head.group(0):
        return None
    declared = _declared(head)
    if declared is None:
        return None
    start = len(head.group(0).encode())
    for tail in (b"</urlset>\n", b"</urlset>"):
        if data.endswith(tail):
            end = len(data) - len(tail)
            break
    else:
        return None  # cut short, or something after the urlset
    with bulk.no_cycle_collection():
        rows = bulk.rows(data, start, end)
        del data
        return None if rows is None else bulk.probe(rows, state, declared, _SHAPE)


def check(path: str, state: FileState, probed: bulk.Probe | None | bool = False) -> bool:
    """Check a urlset in the canonical shape (True); False, with nothing reported,
    when the file is in any other shape. ``probed``: the file's probe() already made
    (by a worker), or None when it gave nothing."""
    if probed is False:
        probed = probe(path, state)
    if isinstance(probed, bulk.Probe) and bulk.record(probed, state):
        return True
    return _entry_by_entry(path, state)


def _entry_by_entry(path: str, state: FileState) -> bool:
    loaded = _load(path)
    if loaded is None:
        return False
    text, head, declared = loaded
    entries = []
    position, match = head.end(), _ENTRY.match
    while True:
        found = match(text, position)
        if found is None:
            break
        entries.append(found)
        position = found.end()
    if _TAIL.fullmatch(text, position) is None:
        return False
    if "xhtml" not in declared and any(found.group(5) for found in entries):
        return False
    if "image" not in declared and any(found.group(6) for found in entries):
        return False
    _entries(entries, state)
    return True


def _entries(entries: list[re.Match[str]], state: FileState) -> None:
    shared = state.shared
    clusters = shared.clusters
    display = state.display
    line = 2  # the urlset's line; each entry has a line of its own after it
    # A cluster's members follow each other with the same links: read them once.
    previous_links: str = ""
    previous_raw: tuple[tuple[str, str, str], ...] = ()
    for found in entries:
        line += 1
        state.entries += 1
        shared.urls += 1
        if state.entries == MAX_URLS_PER_FILE + 1:
            state.report("X108", f"more than {MAX_URLS_PER_FILE:,} URLs in one sitemap; split it and list the "
                         "parts in an index", line)
        raw_loc, lastmod, changefreq, priority, links, images = found.groups()
        loc = check_loc(_text(raw_loc) or None, state, line)
        if loc is not None and clusters.seen(loc, display, line):
            state.report("U104", f"{loc} is listed more than once", line, url=loc)
        if lastmod is not None:
            check_lastmod(_text(lastmod) or None, state, line, loc)
        if changefreq is not None:
            check_changefreq(_text(changefreq) or None, state, line, loc)
        if priority is not None:
            check_priority(_text(priority) or None, state, line, loc)
        if links:
            if links == previous_links:
                raw = previous_raw
            else:
                raw = tuple(_LINK.findall(links)) if "&" not in links else \
                    tuple([(_text(rel), _text(code), _text(href)) for rel, code, href in _LINK.findall(links)])
                previous_links, previous_raw = links, raw
            check_links(raw, [line] * len(raw), state, line, loc)
        if loc is not None and images:
            check_plain_images([_text(value) for value in _IMAGE_LOC.findall(images)], state, loc, line)
