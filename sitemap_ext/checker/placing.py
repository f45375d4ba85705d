"""Where a finding in an XML file stands exactly: done only for files with findings.

The reader keeps each value's line (lxml's ``sourceline``: cheap), not its column. Two
things are then fixed after the file is judged, in passes over the files with findings
only (a clean file costs nothing):

* libxml2 gives an element the line where its start tag ends: a tag written over
  several lines is placed where it starts (a streaming pass that keeps the last lines,
  each cut to its first 64 KiB: a line's start is what shows where a tag starts).
* Where several entries share a line (a minified sitemap: the whole file is one line),
  a line says nothing: the finding is placed at the element it is about, with its
  line and column, found by a targeted pass over the file (expat, which counts both)
  that keeps the elements of the entries the findings name (their ``url``). Which
  element a code is about is the field its rule reads (``rules.rule_set.RULES``): the
  ``<loc>``, the ``<lastmod>``, the ``xhtml:link`` of the finding's hreflang, the
  image; else the entry itself.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from xml.parsers import expat

from ..diagnostics import Diagnostic
from ..ext import SITEMAP_NS, image, news, video, xhtml
from ..read.sniff import open_bytes
from ..rules.rule_set import RULES

_TAG_LINES = 64  # a start tag is looked for this many lines back
_LONG_LINE = 1 << 16  # a line is kept to its first 64 KiB
# The start of an entry in a line's bytes (a prefix of any name): more than one on a
# line says the line cannot place a finding. (Only a gate: expat places.)
_ENTRY_START = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(?:url|sitemap)[\s/>]")
_ENTRIES = {f"{SITEMAP_NS} url", f"{SITEMAP_NS} sitemap"}
# The element a rule's field is written in (Clark-like names as expat gives them).
_FIELD_ELEMENTS = {"locs": f"{SITEMAP_NS} loc", "lastmod": f"{SITEMAP_NS} lastmod",
                   "changefreq": f"{SITEMAP_NS} changefreq", "priority": f"{SITEMAP_NS} priority",
                   "links": f"{xhtml.URI} link"}
_MEDIA_ELEMENTS = {"images": f"{image.URI} image", "videos": f"{video.URI} video", "news": f"{news.URI} news"}


def _code_elements() -> dict[str, str]:
    """Each entry rule's codes to the element its rule reads (the first rule to name a code wins)."""
    found: dict[str, str] = {}
    for rule in RULES:
        if rule.scope not in ("entry", "index"):
            continue
        name = _MEDIA_ELEMENTS.get(rule.name) if rule.reads == "media" else _FIELD_ELEMENTS.get(rule.reads or "")
        for code in rule.codes:
            if name is not None:
                found.setdefault(code, name)
    return found


_CODE_ELEMENTS = _code_elements()


def place(path: str, diagnostics: list[Diagnostic], complete: bool) -> list[Diagnostic]:
    """The findings of one XML file, each where its element starts (at the element
    itself on a line of several entries, when the file was read to its end)."""
    wanted = {d.line for d in diagnostics if d.line is not None}
    if not wanted:
        return diagnostics
    moved, crowded = _scan(path, wanted)
    diagnostics = [replace(d, line=moved[d.line]) if d.line in moved else d for d in diagnostics]
    urls = {d.url for d in diagnostics if d.url is not None and d.line in crowded and d.column is None}
    if not urls or not complete:
        return diagnostics
    entries = _entries(path, urls)
    return [_at_element(d, entries) if d.url in entries and d.line in crowded else d for d in diagnostics]


def _scan(path: str, wanted: set[int]) -> tuple[dict[int, int], set[int]]:
    """One pass over the lines: where each wanted line's tag starts (when the line starts
    inside a tag), and which wanted lines hold more than one entry."""
    moved: dict[int, int] = {}
    crowded: set[int] = set()
    recent: deque[bytes] = deque(maxlen=_TAG_LINES)
    for number, text in enumerate(_file_lines(path), 1):
        recent.append(text)
        if number not in wanted:
            continue
        if len(_ENTRY_START.findall(text)) > 1:
            crowded.add(number)
        head = text.split(b">", 1)[0] if b">" in text else None
        if head is not None and b"<" not in head:  # the line starts inside a tag
            for back in range(2, len(recent) + 1):
                if b"<" in recent[-back]:
                    moved[number] = number - back + 1
                    break
    return moved, crowded


def _file_lines(path: str) -> Iterator[bytes]:
    """Each line's first 64 KiB."""
    pending = b""
    skipping = False  # in the rest of a line longer than that
    for chunk in open_bytes(path, lambda *args, **kw: None):
        *lines, rest = chunk.split(b"\n")
        for part in lines:
            if not skipping:
                pending += part
            yield pending[:_LONG_LINE]
            pending, skipping = b"", False
        if not skipping:
            pending += rest
            if len(pending) > _LONG_LINE:
                pending, skipping = pending[:_LONG_LINE], True
    yield pending


@dataclass
class _Entry:
    """An entry's start and its children's: (name, hreflang, line, column), 1-based."""

    start: tuple[int, int]
    children: list[tuple[str, str | None, int, int]] = field(default_factory=list)
    loc: str = ""


def _entries(path: str, urls: set[str]) -> dict[str, _Entry]:
    """The elements of the entries whose loc is one of ``urls`` (the first entry of each),
    read up to the last of them."""
    parser = expat.ParserCreate(namespace_separator=" ")
    found: dict[str, _Entry] = {}
    depth = entry_depth = 0
    current: _Entry | None = None
    in_loc = False

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal depth, entry_depth, current, in_loc
        depth += 1
        at = (parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        if name in _ENTRIES and current is None:
            current, entry_depth = _Entry(at), depth
        elif current is not None and depth == entry_depth + 1:
            current.children.append((name, attrs.get("hreflang"), *at))
            in_loc = name == f"{SITEMAP_NS} loc"

    def text(data: str) -> None:
        if in_loc and current is not None:
            current.loc += data

    def end(name: str) -> None:
        nonlocal depth, current, in_loc
        if current is not None and depth == entry_depth:
            url = current.loc.strip()
            if url in urls and url not in found:
                found[url] = current
            current = None
        in_loc = False
        depth -= 1

    parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = start, end, text
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        for chunk in open_bytes(path, lambda *args, **kw: None):
            parser.Parse(chunk, False)
            if len(found) == len(urls):
                return found  # (read no further than the last entry named)
        parser.Parse(b"", True)
    except expat.ExpatError:
        pass  # (the reader read it to its end: what was placed before stands)
    return found


def _at_element(diag: Diagnostic, entries: dict[str, _Entry]) -> Diagnostic:
    """The finding at the element of its entry its code is about (the entry when none is)."""
    entry = entries[diag.url or ""]
    name = _CODE_ELEMENTS.get(diag.code)
    if name is None and diag.hreflang is not None:
        name = f"{xhtml.URI} link"  # (a finding across files about one alternate)
    for child, hreflang, line, column in entry.children:
        if child == name and (diag.hreflang is None or hreflang == diag.hreflang or name != f"{xhtml.URI} link"):
            return replace(diag, line=line, column=column)
    return replace(diag, line=entry.start[0], column=entry.start[1])
