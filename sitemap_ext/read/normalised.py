"""The typed model a site description normalises into: ``NormalisedSite``,
``NormalisedPage``, ``NormalisedLocale``.

These are not the public API's ``Site``, ``Page`` and ``Locale`` (``model.py``): those
are what a caller gives, loose (a page by ``loc`` or ``path``, dates as text or
``datetime``, a locale by prefix or host), checked by the one normaliser
(``write/page_normaliser.py``, ``write/site_yaml.py``) as a description's YAML is. These
are what it gives back, strict and resolved (absolute URLs, hreflang codes in
canonical form, a ``Lastmod``), which the writer and the rules read.

A ``NormalisedPage`` is one logical page: one version (a plain ``loc``) or several, one per
language (a hreflang cluster). Each version becomes one ``<url>`` entry; the
entries of a cluster share everything but their ``<loc>``, so the writer
renders the shared part once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from ..dates import Lastmod
from ..diagnostics import NOWHERE, Where
from ..urls import Origin

Placed = tuple[str, str, Where, str | None, str | None]

CHANGEFREQS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")


@dataclass(frozen=True, slots=True)
class Version:
    """One URL of a page; ``hreflang`` is None for a page with no alternates."""

    loc: str
    hreflang: str | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Layout:
    """Locales whose URLs are each one's base followed by one and the same rest.

    The normaliser makes one per site (every locale, in written order) and hands it
    to each page expanded from a path; the writer keeps a template per layout, so
    such a page is rendered from its rest alone. Compared by identity (a cheap key).
    """

    codes: tuple[str, ...]  # hreflang codes, in written order
    bases: tuple[str, ...]  # each code's base URL, ending in '/'
    x_default: int | None = None  # the index of the base x-default points to, if any


@dataclass(slots=True)
class NormalisedPage:
    """One logical page: one URL (``codes`` None) or a hreflang cluster (a code per URL).

    Treated as immutable (``dataclasses.replace`` makes changed copies) but not
    frozen: a frozen dataclass costs five times as much to make, and a build makes
    one per source row.
    """

    locs: tuple[str, ...]
    codes: tuple[str, ...] | None = None  # hreflang of each loc, in written order
    lastmod: Lastmod | None = None
    changefreq: str | None = None
    priority: str | None = None  # already formatted ("0.8"), as written
    x_default: str | None = None  # the URL for x-default, if any
    # Extension payloads, keyed by extension name ("image", "video", "news"); each
    # extension module owns the type of its value.
    extensions: tuple[tuple[str, Any], ...] = ()
    where: Where = NOWHERE
    # When every loc is layout.bases[i] + rest (and x_default, if any, is
    # bases[layout.x_default] + rest): what the writer renders the page from.
    layout: Layout | None = None
    rest: str = ""
    # Each loc's own lastmod, when the versions of a cluster changed at different
    # times (``lastmod`` is then the newest of them); None: they share ``lastmod``.
    lastmods: tuple[Lastmod | None, ...] | None = None
    # Digests of the page's content (a ``digest`` or ``content`` field, a built page's
    # main content), for the build state: one shared by every loc, or one per loc.
    digests: tuple[bytes | None, ...] | None = None
    # Findings on media values the engine says of the written entries (write/page_media.py):
    # (code, message, where the description gives the value, suggestion, once).
    placed: tuple[Placed, ...] = ()

    @property
    def is_cluster(self) -> bool:
        return self.codes is not None

    @property
    def versions(self) -> tuple[Version, ...]:
        """The page's URLs with their hreflang codes (made on demand)."""
        codes = self.codes if self.codes is not None else (None,) * len(self.locs)
        return tuple(Version(loc, code) for loc, code in zip(self.locs, codes, strict=True))


@dataclass(frozen=True, slots=True)
class Defaults:
    """Values pages inherit (top-level ``defaults:``, or a section's own)."""

    lastmod: Lastmod | None = None
    changefreq: str | None = None
    priority: str | None = None


@dataclass(frozen=True, slots=True)
class Source:
    """A CSV or JSON Lines file of page rows, read as a stream when pages are iterated."""

    path: str  # as the user wrote it, resolved against its YAML file's folder
    display: str  # the name diagnostics show
    format: str  # "csv" | "jsonl"
    defaults: Defaults
    where: Where


@dataclass(frozen=True, slots=True, eq=False)
class PageStream:
    """Pages given by a program (``build(site, pages=...)``): any iterable of
    ``model.Page`` or of mappings with a page's keys, read once, as it is built."""

    items: Any  # Iterable[model.Page | Mapping[str, Any]]
    defaults: Defaults
    display: str = "<pages>"  # findings name a page by its place: <pages>:N


@dataclass(frozen=True, slots=True)
class BuiltSite:
    """A built site's folder (a source ``site:``): its HTML pages are the pages."""

    path: str  # the folder, resolved against its YAML file's folder
    display: str  # the name diagnostics show
    url: str  # where the folder is served, ending in '/'
    drop_ext: bool  # a page's URL has no .html (servers that map /about to about.html)
    exclude: tuple[str, ...]  # patterns of files (relative, '/'-separated) that are no pages
    # Where a page's lastmod is looked for, in order: ("meta", NAME), ("time", None),
    # ("time", "class" | "id", NAME) or ("git",).
    lastmod: tuple[tuple[str, ...], ...]
    defaults: Defaults
    where: Where
    # The element whose content is a page's digest: (tag, "class" | "id" | None, name).
    content: tuple[str, str | None, str | None] = ("main", None, None)


@dataclass(frozen=True, slots=True)
class OutputConfig:
    dir: str | None = None
    pattern: str = "sitemap-{n}.xml"
    news_pattern: str = "news-{n}.xml"
    index_file: str = "sitemap.xml"
    index: str = "auto"  # "auto": an index when there is more than one file; "always"
    gzip: bool = False
    max_urls: int = 50_000
    max_bytes: int = 52_428_800
    text: bool = False
    robots: str | None = None  # file name of the robots.txt snippet, or None
    public_url: str | None = None  # where the files are served; default base_url
    drop_deprecated: bool = False  # leave deprecated image and video fields out of the output
    drop_old_news: bool = False  # leave articles older than 48 hours out of news sitemaps
    versioned: bool = False  # name an index's files by their content; keep the previous build's
    # A static HTML view of every sitemap, for people (false: none, as before 0.4); not
    # set (None): the views of a host whose sitemaps list at most VIEWS_UP_TO URLs.
    html: bool | None = None
    xsl: bool = False  # a stylesheet beside the files, named by each of them, for browsers
    headers: str | None = None  # "netlify" (_headers) or "vercel" (vercel.json): Link headers of non-HTML files
    state: str | None = None  # the build state file, as written (relative to the description's folder)


@dataclass(frozen=True, slots=True)
class NormalisedLocale:
    """One entry of ``locales:``: a hreflang code and the URL its pages live under."""

    code: str  # canonical form, as written into hreflang
    base: str  # host + prefix, ending in '/': "https://example.de/" or "https://e.com/de/"
    host_root: str  # the host's root, for relative urls: "https://example.de/"


# x_default given as a locale code, a URL, or switched off.
XDefault = Union["XDefaultCode", "XDefaultUrl", None]


@dataclass(frozen=True, slots=True)
class XDefaultCode:
    code: str


@dataclass(frozen=True, slots=True)
class XDefaultUrl:
    url: str


@dataclass(frozen=True, slots=True)
class Scope:
    """What the site's sitemaps may list: the origins, and the folder they are served from."""

    base_url: str
    origins: frozenset[Origin]
    folder: str  # the public URL's folder on base_url's host, "https://example.com/" or deeper
    robots: bool  # a robots.txt line submits the sitemaps (allows out-of-folder URLs)
    locales: tuple[NormalisedLocale, ...] = ()
    x_default: XDefault = None  # the site-wide x_default
    now: float | None = None  # the clock for date checks, when one is given
    news_publication: Any = None  # ext.news.Publication inherited by every article
    drop_deprecated: bool = False  # leave deprecated image and video fields out
    drop_old_news: bool = False  # leave articles older than 48 hours out of news sitemaps
    versioned: bool = False  # name an index's files by their content; keep the previous build's
    html: bool = False  # a static HTML view of every sitemap, for people
    # False: the description gives no usable base_url and ``base_url`` is a stand-in
    # (``site_yaml.stand_in``): a URL joined to it is not judged (nor its host and
    # folder), and a finding about a page at such a URL is not the page's own.
    based: bool = True


Unit = NormalisedPage | Source | BuiltSite | PageStream  # what a site's pages come from, in description order


@dataclass(frozen=True, slots=True)
class NormalisedSite:
    file: str
    base_url: str
    output: OutputConfig
    # YAML pages (already normalised) and sources (read lazily), in description order.
    units: tuple[Unit, ...] = ()
    now: float | None = None
    scope: Scope | None = None
    clock: str = "--now"  # where ``now`` came from: --now, site.now, SOURCE_DATE_EPOCH, the system clock
