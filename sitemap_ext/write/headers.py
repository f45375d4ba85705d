"""``output.headers``: the hreflang alternates of non-HTML files as Link headers.

Google reads hreflang from HTTP ``Link`` headers too, the method it names for files
that have no HTML head (PDFs and the like). A static host sets headers from a file
deployed with the site: ``_headers`` (Netlify, Cloudflare Pages) or ``vercel.json``
(Vercel). With ``output.headers: netlify | vercel``, the build writes that file into
the output folder, in the same atomic commit as the sitemaps: for each URL of the
site's own host whose last segment names a file that is no HTML page (an extension
other than ``.html``/``.htm``) and that the sitemaps give alternates, a rule for its
path with one ``Link`` header of those alternates, as the sitemap gives them (the two
methods then agree). The alternates are read back from the sitemaps just written,
with the one XML reader, so every page of every source gets them alike.

Deterministic: rules sorted by path, nothing dated. A path or a value with CR, LF or
another control character would end the header and start another, and a path that
``_headers`` would read as a pattern (``*``, ``:name``, whitespace) would give its
headers to other files: either is refused (O106) and nothing is written. A
``_headers`` or ``vercel.json`` already in the output folder that no build of this
description wrote is never replaced (O107).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable
from urllib.parse import unquote, urlsplit

from ..diagnostics import Collector, Where
from ..limits import MAX_WRITTEN_LINK_BYTES
from ..read.record import FileFacts, UrlEntry
from ..read.sniff import open_bytes
from ..read.xml import read_xml
from .output import Staging
from .series import WrittenFile

FILE_NAMES = {"netlify": "_headers", "vercel": "vercel.json"}
_PAGE_EXTENSIONS = frozenset({"html", "htm"})
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_PATH_TO_REGEXP = re.compile(r"([:*?+(){}\[\]\\])")  # characters vercel.json source patterns give a meaning

Alternates = list[tuple[str, str]]  # (hreflang, href), as the sitemap gives them


def is_file_url(url: str) -> bool:
    """Whether a URL names a file that is no HTML page (its last segment has another extension)."""
    name = posixpath.basename(urlsplit(url).path)
    stem, dot, extension = name.rpartition(".")
    return bool(dot and stem and extension) and extension.lower() not in _PAGE_EXTENSIONS


def file_alternates(sitemaps: Iterable[str], origin: str) -> dict[str, tuple[str, Alternates]]:
    """From the sitemaps written (their staged paths): each non-HTML file of ``origin``
    (scheme://host[:port]) that has alternates, by its path: (its URL, its alternates)."""
    found: dict[str, tuple[str, Alternates]] = {}
    prefix = origin.rstrip("/") + "/"
    for path in sitemaps:
        facts = FileFacts(path)
        for record in read_xml(open_bytes(path, _ignore), facts, _ignore):
            if not isinstance(record, UrlEntry) or not record.links or len(record.locs) != 1:
                continue
            loc = (record.locs[0].text or "").strip()
            if not loc.startswith(prefix) or not is_file_url(loc):
                continue
            pairs = [(code, href.strip()) for rel, code, href, media in record.links
                     if rel == "alternate" and code and href and media is None]
            if pairs:
                found.setdefault(unquote(urlsplit(loc).path), (loc, pairs))
    return found


def _ignore(*_args: object, **_kwargs: object) -> None:
    """(The sitemaps read back are this build's own, judged as they were written.)"""


def link_values(pairs: Alternates) -> list[str]:
    """The Link header values of a file's alternates: as few as fit ``MAX_WRITTEN_LINK_BYTES`` each."""
    values: list[str] = []
    current = ""
    for code, href in pairs:
        link = f'<{href}>; rel="alternate"; hreflang="{code}"'
        if current and len(current) + 2 + len(link) > MAX_WRITTEN_LINK_BYTES:
            values.append(current)
            current = ""
        current = f"{current}, {link}" if current else link
    if current:
        values.append(current)
    return values


def render(host: str, files: dict[str, tuple[str, Alternates]]) -> str:
    """The file's text for ``host`` ("netlify" or "vercel"), rules sorted by path."""
    rules = [(path, link_values(pairs)) for path, (_, pairs) in sorted(files.items())]
    if host == "vercel":
        document = {"headers": [{"source": _PATH_TO_REGEXP.sub(r"\\\1", path),
                                 "headers": [{"key": "Link", "value": value} for value in values]}
                                for path, values in rules]}
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    lines = ["# hreflang alternates of the files below, as HTTP Link headers (written by sitemap-ext)"]
    for path, values in rules:
        lines.append(path)
        lines += [f"  Link: {value}" for value in values]
    return "\n".join(lines) + "\n"


def injected(files: dict[str, tuple[str, Alternates]], host: str = "netlify") -> tuple[str, str, str] | None:
    """The first URL whose path or alternates the header file cannot hold, the value,
    and why; None: none. A control character (or a line or paragraph separator) in any
    value would end the header and start another. In ``_headers``, which has no escape,
    a path holding whitespace, ``*`` or a segment that starts with ``:`` would be read as
    a pattern (a splat, a placeholder) and give these Link headers to other files."""
    for path, (url, pairs) in sorted(files.items()):
        for value in (path, *(part for pair in pairs for part in pair)):
            if _CONTROL.search(value) or not value.isprintable():
                return url, value, "a control character: CR or LF ends a header and starts another (header injection)"
        if host != "vercel" and (any(c.isspace() for c in path) or "*" in path or "/:" in path):
            return url, path, "whitespace, '*' or a segment starting with ':', which _headers reads as a pattern"
    return None


def write_headers(host: str, sitemaps: list[str], origin: str, staging: Staging, site_file: str | None,
                  collector: Collector) -> tuple[list[tuple[str, str]], list[WrittenFile]]:
    """The header file for ``host`` staged: its move and its record (none when no file
    has alternates, or when it is refused: O106, O107)."""
    name = FILE_NAMES[host]
    files = file_alternates(sitemaps, origin)
    if not files:
        return [], []
    bad = injected(files, host)
    if bad is not None:
        url, value, why = bad
        collector.report("O106", f"the Link header of {url} cannot be written: {value!r} holds {why}; {name} is not "
                         "written: fix the URL or the code", Where(site_file), url=url)
        return [], []
    if staging.foreign(name):
        collector.report("O107", f"{name} stands in the output folder and was not written by this build (the site "
                         f"generator's own?); it is never replaced: add the Link lines to it by hand, or drop "
                         "output.headers", Where(site_file))
        return [], []
    data = render(host, files).encode("utf-8")
    path = staging.path(name)
    with open(path, "wb") as handle:
        handle.write(data)
    return [(path, name)], [WrittenFile(name=name, kind="headers", urls=len(files), bytes=len(data),
                                        uncompressed=len(data))]


__all__ = ["FILE_NAMES", "file_alternates", "injected", "is_file_url", "link_values", "render",
           "write_headers"]
