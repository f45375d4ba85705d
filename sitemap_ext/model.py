"""The public model: a site and its pages as Python objects, for programs that hold
their pages in a database or a CMS instead of a YAML file.

Each class is a frozen dataclass with keyword-only fields that mirror the keys of a
site description (specs/site-format.md) one for one, and ``as_yaml()`` gives the
very mapping a YAML file would hold. ``build()`` and ``render()`` take these objects
on the same path as a YAML file: the same normaliser judges every value, so a page
made here gives the same bytes and the same findings as the same page written in
YAML (only the location differs: a page of an iterable is located by its position,
``<pages>:N``). Values are plain Python: URLs and codes as ``str``, dates as
``datetime.date`` / ``datetime.datetime`` or ISO 8601 strings, priority as a ``float``
or a string. A bad value is a finding of the build (data), never an exception, as
the same value in YAML would be; what YAML cannot hold (a locale code that is no
string, a locale that is no ``Locale``, an ``output`` that is no ``Output``, ``extra``
that is no mapping) is a ``TypeError`` (a programming error) when the object is made.
They are the loose input; what the normaliser makes of them (and of YAML) is the
strict ``NormalisedSite``, ``NormalisedPage`` and ``NormalisedLocale`` of
``read/normalised.py``, which the writer and the rules read::

    from sitemap_ext import Site, Locale, Page, Alternate, Image, build

    site = Site(base_url="https://www.example.com/",
                locales=(Locale(code="en", prefix="/en/"), Locale(code="de", prefix="/de/")),
                x_default="en")
    pages = (Page(path=f"/{row['slug']}", lastmod=row["updated"],
                  images=(Image(loc=row["photo"]),)) for row in rows)
    result = build(site, "public/", pages=pages)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any


def _plain(value: Any) -> Any:
    """A value as YAML would hold it (dates stay dates: the normaliser takes both;
    a mapping's keys are text, as a YAML key is its scalar's text)."""
    if isinstance(value, (Image, Video, NewsArticle, NewsPublication)):
        return value.as_yaml()
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {key if isinstance(key, str) else str(key): _plain(item) for key, item in value.items()}
    return value


def _require(owner: object, name: str, value: Any, kind: type | tuple[type, ...], what: str) -> None:
    """A TypeError naming the class, the field and what it takes, unless ``value`` is a ``kind``."""
    if not isinstance(value, kind):
        raise TypeError(f"{type(owner).__name__}({name}=...) takes {what}, not {type(value).__name__}")


def _items(owner: object, name: str, value: Any, kind: type) -> None:
    """A tuple (or list) whose items are all ``kind``; stored as a tuple."""
    what = f"a tuple of {kind.__name__} objects"
    _require(owner, name, value, (tuple, list), what)
    for item in value:
        _require(owner, f"{name}[...]", item, kind, f"{kind.__name__} objects")
    object.__setattr__(owner, name, tuple(value))


def _mapping(obj: Any, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in fields(obj):
        if item.name in skip or item.name == "extra":
            continue
        value = getattr(obj, item.name)
        if value is None or value == ():
            continue
        out[item.name] = _plain(value)
    out.update(_plain(getattr(obj, "extra", {})))
    return out


@dataclass(frozen=True, kw_only=True)
class Locale:
    """A language version of the site: its hreflang ``code`` (BCP 47, as ``de-AT``) and
    where its URLs live: a ``prefix`` on the site's host (``/de/``), or a ``host`` of
    its own (``https://www.example.de/``)."""

    code: str
    prefix: str | None = None
    host: str | None = None

    def __post_init__(self) -> None:
        _require(self, "code", self.code, str, "a language code as a string ('de-AT')")

    def as_yaml(self) -> dict[str, Any] | str:
        if self.host is None and self.prefix is not None:
            return self.prefix
        return _mapping(self, skip=("code",))


@dataclass(frozen=True, kw_only=True)
class NewsPublication:
    """A news publication: its ``name`` as Google News knows it, and its ``language``."""

    name: str
    language: str

    def as_yaml(self) -> dict[str, Any]:
        return _mapping(self)


@dataclass(frozen=True, kw_only=True)
class Output:
    """Where and how sitemaps are written: the keys of ``output:`` in a site
    description (None: the default)."""

    dir: str | None = None
    pattern: str | None = None
    news_pattern: str | None = None
    index_file: str | None = None
    index: bool | str | None = None
    gzip: bool | None = None
    max_urls: int | None = None
    max_bytes: int | None = None
    text: bool | None = None
    robots: bool | None = None
    public_url: str | None = None
    drop_deprecated: bool | None = None
    drop_old_news: bool | None = None
    versioned: bool | None = None
    html: bool | None = None
    xsl: bool | None = None
    headers: str | None = None  # "netlify" or "vercel": Link headers of non-HTML files
    state: bool | str | None = None  # the build state: True (beside the manifest) or a path

    def as_yaml(self) -> dict[str, Any]:
        return _mapping(self)


@dataclass(frozen=True, kw_only=True)
class Site:
    """A site: its ``base_url`` (relative page URLs resolve against it), its
    ``locales``, which version ``x_default`` names (a locale code, a URL, or None), a
    news ``publication`` its articles inherit, the ``defaults`` pages inherit
    (``lastmod``, ``changefreq``, ``priority``), the ``output`` settings, and ``now``
    (the instant dates are judged against; default: the build's clock)."""

    base_url: str
    locales: tuple[Locale, ...] = ()
    x_default: str | None = None
    publication: NewsPublication | None = None
    defaults: Mapping[str, Any] = field(default_factory=dict)
    output: Output = field(default_factory=Output)
    now: str | dt.datetime | dt.date | None = None

    def __post_init__(self) -> None:
        _items(self, "locales", self.locales, Locale)
        _require(self, "publication", self.publication, (NewsPublication, type(None)), "a NewsPublication or None")
        _require(self, "defaults", self.defaults, Mapping, "a mapping (lastmod, changefreq, priority)")
        _require(self, "output", self.output, Output, "an Output")

    def as_yaml(self) -> dict[str, Any]:
        """The mapping of the equivalent site description (without its pages)."""
        data: dict[str, Any] = {"site": {"base_url": self.base_url}}
        if self.now is not None:
            data["site"]["now"] = self.now.isoformat() if isinstance(self.now, dt.date) else self.now
        if self.locales:
            data["locales"] = {locale.code: locale.as_yaml() for locale in self.locales}
        if self.x_default is not None:
            data["x_default"] = self.x_default
        if self.publication is not None:
            data["news"] = {"publication": self.publication.as_yaml()}
        if self.defaults:
            data["defaults"] = _plain(self.defaults)
        output = self.output.as_yaml()
        if output:
            data["output"] = output
        return data


@dataclass(frozen=True, kw_only=True)
class Alternate:
    """One language version of a page: its hreflang ``code``, its URL, and its own
    ``lastmod`` when it changed at another time than the page's other versions (None:
    the page's ``lastmod`` applies)."""

    code: str
    url: str
    lastmod: str | dt.date | dt.datetime | None = None

    def __post_init__(self) -> None:
        _require(self, "code", self.code, str, "a language code as a string ('de-AT')")

    def as_yaml(self) -> dict[str, Any] | str:
        """The value of its code in a page's ``urls:``: the URL, or ``{url, lastmod}``."""
        if self.lastmod is None:
            return self.url
        return {"url": self.url, "lastmod": _plain(self.lastmod)}


@dataclass(frozen=True, kw_only=True)
class Image:
    """An image of a page (Google's image extension): its ``loc``; ``caption``,
    ``geo_location``, ``title`` and ``license`` are read and reported as deprecated."""

    loc: str
    caption: str | None = None
    geo_location: str | None = None
    title: str | None = None
    license: str | None = None

    def as_yaml(self) -> dict[str, Any]:
        return _mapping(self)


@dataclass(frozen=True, kw_only=True)
class Video:
    """A video of a page (Google's video extension). ``extra`` takes the other keys of a
    video in a site description (``restriction``, ``platform``, ``uploader``, ...)."""

    thumbnail_loc: str
    title: str
    description: str
    content_loc: str | None = None
    player_loc: str | None = None
    duration: int | None = None
    expiration_date: str | dt.date | dt.datetime | None = None
    rating: float | None = None
    view_count: int | None = None
    publication_date: str | dt.date | dt.datetime | None = None
    family_friendly: bool | None = None
    requires_subscription: bool | None = None
    live: bool | None = None
    tag: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _require(self, "extra", self.extra, Mapping, "a mapping of a video's other keys")

    def as_yaml(self) -> dict[str, Any]:
        return _mapping(self)


@dataclass(frozen=True, kw_only=True)
class NewsArticle:
    """A news article (Google's news extension): its ``title`` and
    ``publication_date``; the ``publication`` defaults to the site's."""

    title: str
    publication_date: str | dt.date | dt.datetime
    publication: NewsPublication | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _require(self, "extra", self.extra, Mapping, "a mapping of an article's other keys")

    def as_yaml(self) -> dict[str, Any]:
        return _mapping(self)


@dataclass(frozen=True, kw_only=True)
class Page:
    """One page: a single URL (``loc``), or one URL per locale, as a ``path`` joined to
    each locale's base (limited to ``locales`` if given) or as ``alternates`` (each
    locale's own URL, translated slugs, and a version's own ``lastmod`` where it
    changed at another time: each entry is written with its version's). ``x_default`` names the version for other
    languages (a locale code or a URL). URLs may be relative to the site's base_url.
    ``digest`` (any text that changes with the page) or ``content`` (its text) dates
    it with ``lastmod="content"`` and a build state."""

    loc: str | None = None
    path: str | None = None
    alternates: tuple[Alternate, ...] = ()
    locales: tuple[str, ...] = ()
    x_default: str | None = None
    lastmod: str | dt.date | dt.datetime | None = None
    changefreq: str | None = None
    priority: float | str | None = None
    images: tuple[Image, ...] = ()
    videos: tuple[Video, ...] = ()
    news: NewsArticle | None = None
    digest: str | None = None
    content: str | None = None

    def __post_init__(self) -> None:
        _items(self, "alternates", self.alternates, Alternate)

    def as_yaml(self) -> dict[str, Any]:
        """The mapping of the equivalent page in a site description."""
        data = _mapping(self, skip=("alternates",))
        if self.alternates:
            data["urls"] = {alternate.code: alternate.as_yaml() for alternate in self.alternates}
        return data


__all__ = ["Alternate", "Image", "Locale", "NewsArticle", "NewsPublication", "Output", "Page", "Site", "Video"]
