"""The one record every reader produces and every rule judges.

A reader (XML urlset or index in any layout, text sitemap, RSS or Atom feed,
and later HTML pages or HTTP) turns its input into these records; the rules in
``rules/`` never know which reader fed them. Each value keeps the line where it
was written, so a finding names its place whatever the format.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Value:
    """A value as written (None: the element was present but empty), with its line."""

    text: str | None
    line: int


# An alternate link of an entry (xhtml:link in a sitemap, <link> in a page): its
# attributes rel, hreflang, href and media (rel="alternate" media="..." is a separate
# mobile URL, not hreflang) as written. Plain tuples: the members of a cluster carry
# equal ones, so the tuple of an entry's links is the key its verdict is memoised on.
Link = tuple[str | None, str | None, str | None, str | None]


@dataclass(frozen=True, slots=True)
class Media:
    """An image, video or news element as the mapping its ext module's parse() takes."""

    kind: str  # "image", "video", "news"
    fields: dict[str, Any]
    lines: dict[str, int]
    line: int
    order: tuple[str, ...] = ()  # child names in the order written (XML only)


@dataclass(slots=True)
class UrlEntry:
    """One page of a sitemap or feed: a <url>, a text line, a feed item."""

    line: int
    locs: tuple[Value, ...]  # exactly one in a valid entry
    lastmod: Value | None = None
    changefreq: Value | None = None
    priority: Value | None = None
    links: tuple[Link, ...] = ()
    link_lines: tuple[int, ...] = ()  # the line of each link
    link_columns: tuple[int, ...] = ()  # the column of each link, where a reader knows it (a Link header)
    media: tuple[Media, ...] = ()
    # Element names in the order written (XML only: the XSD's order rule), and
    # children no schema defines: (name, line).
    order: tuple[str, ...] = ()
    unknown: tuple[tuple[str, int], ...] = ()
    # The reader: "url" (a sitemap <url>), "line" (a text sitemap), "item" (a feed).
    source: str = "url"


@dataclass(slots=True)
class IndexEntry:
    """One <sitemap> of a sitemap index."""

    line: int
    locs: tuple[Value, ...]
    lastmod: Value | None = None
    unknown: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Stray:
    """An element where entries belong that is no entry (a <title> in a <urlset>)."""

    name: str
    line: int


@dataclass
class FileFacts:
    """What a file is, learnt by its reader: rules on whole files read it."""

    display: str
    kind: str | None = None  # urlset, sitemapindex, text, rss, atom; None: unreadable
    url: str | None = None  # where the file is served, when known
    submitted: bool = False  # named in a robots.txt: may list URLs outside its folder
    complete: bool = True  # False when reading stopped early
    crowded: bool = False  # two entries on one line (a minified file): a line places no finding there
    entries: int = 0
    news: int = 0
    lastmods: set[str] = field(default_factory=set)  # distinct lastmods, up to two (D103)
    lastmod_count: int = 0
    first_lastmod: str | None = None
    # For D109: the newest lastmod (UTC seconds), how many entries have it, the oldest.
    lastmod_newest: float | None = None
    lastmod_at_newest: int = 0
    lastmod_oldest: float = 0.0
    # For D109's spread: the lastmods counted in one-second buckets, kept for the newest
    # bucket and the one before it (two counters, whatever the file's size): how many
    # entries lie within about a second of the newest (a clock stamping each entry).
    lastmod_bucket: float | None = None  # (a whole number of seconds)
    lastmod_in_bucket: int = 0
    lastmod_in_bucket_before: int = 0
    # A built page (HTML): (its URL, the line it is judged at, noindex, the URL its
    # canonical names when that is another URL), for the cross-checks with sitemaps.
    page: tuple[str, int, bool, str | None] | None = None
