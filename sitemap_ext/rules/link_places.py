"""Where an alternate link of a sitemap entry stands: a second look at the file.

The cluster index keeps an entry's line only (light records: a sitemap's links have no
line of their own in it). A finding about one link (H104: this link has no return) is
placed at that link by reading the file once more, once for all of its findings, when
they are made: the entry's text from its line to its ``</url>`` is searched for the
link's ``href``. A file that cannot be read again (a URL, one past the limit, gone) or
a link not found as written keeps the entry's place.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from xml.sax.saxutils import escape

from ..limits import MAX_BYTES_PER_FILE
from ..safeio import Refused, read_bounded

# How far past an entry's line its links are looked for: an entry of 1,000 alternates of
# 1 KiB each (MAX_LINKS_PER_URL's order) is well within it.
_ENTRY_SPAN = 1 << 20
_CLOSE = re.compile(r"</(?:[^\s<>/:]+:)?url\s*>")  # an entry's end tag, with any prefix (sm:url)
_HREF = re.compile(r"""href=(["'])(.*?)\1""", re.DOTALL)

Wanted = tuple[int, str]  # (the entry's line, the href as the index holds it)


def link_places(file: str, wanted: Iterable[Wanted]) -> dict[Wanted, tuple[int, int]]:
    """(line, column) of each wanted link found in ``file`` (1-based; the column of its
    ``<``), read once; what is not found is left out."""
    text = _text(file)
    if text is None:
        return {}
    places: dict[Wanted, tuple[int, int]] = {}
    line, start = 1, 0  # the line that begins at ``start``
    indexed, hrefs = None, dict[tuple[str, str], int]()  # the entry read, its links (read once for all)
    for entry_line, href in sorted(set(wanted)):
        while line < entry_line:
            found = text.find("\n", start)
            if found < 0:
                return places
            line, start = line + 1, found + 1
        if indexed != entry_line:
            indexed, hrefs = entry_line, _hrefs(text, start)
        place = _find(hrefs, href)
        if place is not None:
            tag = text.rfind("<", start, place)
            place = tag if tag >= 0 else place
            places[(entry_line, href)] = (line + text.count("\n", start, place), place - text.rfind("\n", 0, place))
    return places


def _hrefs(text: str, start: int) -> dict[tuple[str, str], int]:
    """Each ``href`` of the entry that begins at ``start`` (to its end tag, whatever its
    prefix, or ``_ENTRY_SPAN``), read once for all of its links: where the first of each
    value stands."""
    close = _CLOSE.search(text, start, start + _ENTRY_SPAN)
    end = close.start() if close is not None else start + _ENTRY_SPAN
    found: dict[tuple[str, str], int] = {}
    for match in _HREF.finditer(text, start, end):
        found.setdefault((match.group(1), match.group(2)), match.start())
    return found


def _find(hrefs: dict[tuple[str, str], int], href: str) -> int | None:
    """Where the link to ``href`` stands in its entry (its ``href=``), as either quote writes it."""
    for quote in ('"', "'"):
        at = hrefs.get((quote, escape(href, {quote: '&quot;' if quote == chr(34) else '&apos;'})))
        if at is not None:
            return at
    return None


def _text(file: str) -> str | None:
    """A local sitemap's text (gzip undone), bounded as a sitemap is; None when it
    cannot be read again."""
    if not file or file.startswith("<") or "://" in file:
        return None
    try:
        data = read_bounded(file, MAX_BYTES_PER_FILE)
        if data[:2] == b"\x1f\x8b":
            inflate = zlib.decompressobj(wbits=47)
            data = inflate.decompress(data, MAX_BYTES_PER_FILE)
    except (OSError, Refused, zlib.error):
        return None
    return data.decode("utf-8", errors="replace")
