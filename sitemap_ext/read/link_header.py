"""The Link header reader: hreflang alternates given in HTTP headers (RFC 8288).

Google reads hreflang from three equal places: the sitemap, the HTML head, and the
HTTP ``Link`` header ("useful for non-HTML files, like PDFs"):
``Link: <https://example.com/file.pdf>; rel="alternate"; hreflang="en", <...>; ...``.
This reader turns the Link values of one URL (several headers, several links a
header, parameters quoted or not, a ``rel`` of several relation types, relative
targets resolved against the URL as RFC 8288 section 3.1 says) into the record the
HTML head reader gives: one entry whose links are ``(rel, hreflang, href, media)``,
each with its line and column, so that the same rules judge them.

Bounded: a value past ``MAX_LINK_HEADER_BYTES`` is read to that limit, and no more
than ``MAX_LINKS_PER_URL`` links are taken for one URL (H119). A part that is not a
link (no ``<target>``, an unterminated quoted string) is H118, and the value is read
on from the next link.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ..limits import MAX_LINK_HEADER_BYTES, MAX_LINKS_PER_URL
from ..urls import resolve_http
from .record import Link, UrlEntry, Value

_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # RFC 9110 token (a parameter's name)
_BARE = re.compile(r"[^;,\s]*")  # an unquoted parameter value, read leniently up to ; , or space
_SPACE = " \t"
_FEED_TYPES = frozenset({"application/rss+xml", "application/atom+xml", "application/feed+json"})

Problem = tuple[str, str, int, int]  # (code, message, line, column)
# Where a value's characters stand on its line: the column of its first (the next ones
# follow it), or the column of each (a value written with escapes, as JSON writes it).
Columns = int | tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Parsed:
    """One link of a value: where it starts (0-based), its target, its parameters
    (names in lower case; the first of each name, as RFC 8288 section 3.3 has it for rel)."""

    start: int
    target: str
    params: dict[str, str]


@dataclass(slots=True)
class HeaderLinks:
    """The alternates the Link values of one URL give, each with its line and column,
    and what could not be read (H118, H119) with theirs."""

    links: list[Link] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    columns: list[int] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    taken: int = 0  # links parsed (alternates or not), against MAX_LINKS_PER_URL

    def entry(self, url: str) -> UrlEntry | None:
        """The record of the URL these values were sent for; None when they give no alternate."""
        if not self.links:
            return None
        first = self.lines[0]
        return UrlEntry(line=first, locs=(Value(url, first),), links=tuple(self.links), link_lines=tuple(self.lines),
                        link_columns=tuple(self.columns), source="header")


@dataclass(slots=True)
class ParsedLinks:
    """Link values read once, for every URL they are sent for (a header file's rule
    applies to many files): their links, each with its line and column, up to one past
    ``MAX_LINKS_PER_URL`` (no URL takes more: the one past says where H119 stands), and
    which of them are hreflang alternates. What could not be read goes to the sink
    given to ``read``, once."""

    links: list[tuple[Parsed, int, int]] = field(default_factory=list)
    alternates: list[int] = field(default_factory=list)  # (their indices in links)

    def read(self, value: str, line: int, columns: Columns, sink: Callable[[Problem], object]) -> None:
        """One value (``line``: its line in a header file, or 0 for a fetched URL's)."""
        encoded = value.encode("utf-8", "surrogatepass")
        if len(encoded) > MAX_LINK_HEADER_BYTES:
            sink(("H119", f"this Link header has {len(encoded):,} bytes; only its first {MAX_LINK_HEADER_BYTES:,} "
                  "are read (search engines and servers may refuse a header this large): give the alternates of "
                  "this many versions in a sitemap instead", line, _column(columns, 0)))
            value = encoded[:MAX_LINK_HEADER_BYTES].decode("utf-8", "ignore")
            value = value[:max(value.rfind(","), 0)]  # (up to the last link that ends within the limit)
        for item in _parse(value):
            if isinstance(item, tuple):
                sink((item[0], item[1], line, _column(columns, item[2])))
            elif len(self.links) <= MAX_LINKS_PER_URL:
                if _is_alternate(item.params):
                    self.alternates.append(len(self.links))
                self.links.append((item, line, _column(columns, item.start)))


def gather(reads: Iterable[ParsedLinks], url: str, found: HeaderLinks | None = None) -> HeaderLinks:
    """The alternates the values read give ``url``, in order, up to ``MAX_LINKS_PER_URL``
    links in all (H119 at the first one past it); relative targets resolve against ``url``."""
    found = HeaderLinks() if found is None else found
    for parsed in reads:
        room = MAX_LINKS_PER_URL - found.taken
        for number in parsed.alternates:
            if number >= room:
                break
            item, line, column = parsed.links[number]
            found.links.append(_resolved(item, url))
            found.lines.append(line)
            found.columns.append(column)
        if len(parsed.links) > room:
            found.taken = MAX_LINKS_PER_URL
            _, line, column = parsed.links[room]
            found.problems.append(_too_many(url, line, column))
            break
        found.taken += len(parsed.links)
    return found


def read_links(values: Iterable[tuple[str, int, Columns]], url: str) -> HeaderLinks:
    """The Link values sent for ``url``: each ``(value, line, columns)`` where the value
    stands (its line in a ``_headers`` file, or 0 for a fetched URL's header; its
    ``Columns``). Relative targets resolve against ``url``."""
    found = HeaderLinks()
    parsed = ParsedLinks()
    for value, line, columns in values:
        parsed.read(value, line, columns, found.problems.append)
    return gather([parsed], url, found)


def _column(columns: Columns, offset: int) -> int:
    """The column of a value's character at ``offset``."""
    if isinstance(columns, int):
        return columns + offset
    return columns[min(offset, len(columns) - 1)] if columns else 1


def _too_many(url: str, line: int, column: int) -> Problem:
    return ("H119", f"more than {MAX_LINKS_PER_URL:,} links are sent for {url}; the rest are not read: a cluster "
            "this large belongs in a sitemap", line, column)


def _is_alternate(params: dict[str, str]) -> bool:
    """Whether a link is an hreflang alternate: rel has "alternate" and hreflang is
    given, and it names a version, not a feed."""
    if "alternate" not in params.get("rel", "").lower().split() or "hreflang" not in params:
        return False
    return params.get("type", "").split(";")[0].strip().lower() not in _FEED_TYPES


def _resolved(parsed: Parsed, url: str) -> Link:
    """An alternate, its target resolved against the URL it was sent for (an
    unresolvable one is kept as written: H102 says so)."""
    target = parsed.target
    if not target.lower().startswith(("http://", "https://")):
        target = resolve_http(target, url) or target
    return "alternate", parsed.params["hreflang"], target, parsed.params.get("media")


def _parse(value: str) -> Iterator[Parsed | tuple[str, str, int]]:
    """Each link of a value (RFC 8288 section 3: ``#link-value``), or ("H118", message,
    column offset) for a part that is none; reading goes on at the next link."""
    at, end = 0, len(value)
    while at < end:
        while at < end and value[at] in _SPACE + ",":
            at += 1
        if at >= end:
            return
        if value[at] != "<":
            yield "H118", f"a link must start with <target>, not {value[at:at + 20]!r}", at
            at = _next_link(value, at)
            continue
        close = value.find(">", at + 1)
        if close < 0:
            yield "H118", "'<' opens a link's target and no '>' closes it", at
            return
        start, target = at, value[at + 1:close].strip()
        params, at, problem = _params(value, close + 1)
        if problem is not None:
            yield "H118", problem[0], problem[1]
            at = _next_link(value, at)
            continue
        yield Parsed(start, target, params)


def _params(value: str, at: int) -> tuple[dict[str, str], int, tuple[str, int] | None]:
    """A link's parameters from ``at`` to its end (a top-level ',' or the value's end):
    the parameters, where reading stopped, and the problem met (message, offset)."""
    params: dict[str, str] = {}
    end = len(value)
    while True:
        at = _skip(value, at)
        if at >= end or value[at] == ",":
            return params, at, None
        if value[at] != ";":
            return params, at, (f"expected ';' or ',' after a link's target or parameter, found {value[at]!r}", at)
        at = _skip(value, at + 1)
        name = _TOKEN.match(value, at)
        if name is None:
            if at >= end or value[at] == ",":  # (a trailing ';': nothing more)
                return params, at, None
            return params, at, ("a parameter without its name", at)
        at = _skip(value, name.end())
        text = ""
        if at < end and value[at] == "=":
            at = _skip(value, at + 1)
            if at < end and value[at] == '"':
                quoted = _quoted(value, at)
                if quoted is None:
                    return params, end, ("a quoted parameter value that never ends (no closing '\"')", at)
                text, at = quoted
            else:
                bare = _BARE.match(value, at)
                assert bare is not None  # (it matches the empty string)
                text, at = bare.group(), bare.end()
        params.setdefault(name.group().lower(), text)


def _quoted(value: str, at: int) -> tuple[str, int] | None:
    """A quoted-string from its opening '"' at ``at``: its text (escapes undone) and where
    it ends; None when it does not end."""
    out: list[str] = []
    at += 1
    end = len(value)
    while at < end:
        char = value[at]
        if char == "\\" and at + 1 < end:
            out.append(value[at + 1])
            at += 2
            continue
        if char == '"':
            return "".join(out), at + 1
        out.append(char)
        at += 1
    return None


def _skip(value: str, at: int) -> int:
    while at < len(value) and value[at] in _SPACE:
        at += 1
    return at


def _next_link(value: str, at: int) -> int:
    """Where the next link starts after a part that is none: past the next ',' that is
    not inside <...> or a quoted string."""
    end = len(value)
    while at < end:
        char = value[at]
        if char == "<":
            close = value.find(">", at + 1)
            at = end if close < 0 else close + 1
            continue
        if char == '"':
            quoted = _quoted(value, at)
            at = end if quoted is None else quoted[1]
            continue
        if char == ",":
            return at + 1
        at += 1
    return end


__all__ = ["Columns", "HeaderLinks", "Parsed", "ParsedLinks", "Problem", "gather", "read_links"]
