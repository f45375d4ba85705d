"""The project's ``django.contrib.sitemaps.Sitemap`` classes as pages of a site, and
their build and check through the package's one API."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from types import SimpleNamespace
from typing import Any
from urllib.parse import urljoin, urlsplit

from django.conf import settings
from django.contrib.sitemaps import Sitemap, views
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.module_loading import import_string

from ... import Alternate, BuildResult, CheckResult, Image, Page, Site, build, check
from .. import _common
from .places import Origins, line, origin_of


def settings_value(key: str) -> Any:
    """SITEMAP_EXT[key], None where it is not set (or SITEMAP_EXT is no mapping: the
    system check says so)."""
    configured = getattr(settings, "SITEMAP_EXT", None)
    return configured.get(key) if isinstance(configured, Mapping) else None


def is_sitemap(value: Any) -> bool:
    """A django.contrib.sitemaps.Sitemap class or instance."""
    return isinstance(value, Sitemap) or (isinstance(value, type) and issubclass(value, Sitemap))


def find_sitemaps(named: Any = None) -> Mapping[str, Any]:
    """The Sitemap classes of the project: ``named`` or ``SITEMAP_EXT["sitemaps"]`` (a
    dotted path, or the mapping), else the ``sitemaps`` argument the URLconf gives
    Django's sitemap (or index) view."""
    named = named or settings_value("sitemaps")
    if named:
        found: Mapping[str, Any] = import_string(named) if isinstance(named, str) else named
        return found

    def walk(patterns: Any) -> Iterator[Mapping[str, Any]]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns)
            elif isinstance(pattern, URLPattern) and pattern.callback in (views.sitemap, views.index):
                found = (pattern.default_args or {}).get("sitemaps")
                if found:
                    yield found

    for found in walk(get_resolver().url_patterns):
        return found
    raise LookupError("no sitemaps found: the URLconf routes no django.contrib.sitemaps view with "
                      "{'sitemaps': ...}; name them in SITEMAP_EXT['sitemaps'] (a dotted path)")


def site(base_url: str | None = None, now: Any = None) -> Site:
    """The ``Site`` of the project: ``base_url`` (or ``SITEMAP_EXT["base_url"]``) and
    ``SITEMAP_EXT["output"]``."""
    base_url = base_url or settings_value("base_url")
    if not base_url:
        raise ValueError("the sitemaps need the URL the site is served at: SITEMAP_EXT['base_url'] or --base-url")
    return Site(base_url=_common.folder_url(base_url), output=_common.output_of(settings_value("output")),
                now=now if now is not None else settings_value("now"))


def _images(sitemap: Any, item: Any, base_url: str) -> tuple[Image, ...]:
    method = getattr(sitemap, "images", None)
    if not callable(method):
        return ()
    return tuple(image if isinstance(image, Image) else Image(loc=urljoin(base_url, str(image)))
                 for image in method(item) or ())


def pages(sitemaps: Mapping[str, Any] | None = None, base_url: str | None = None) -> Iterator[Page]:
    """One page per item of each Sitemap (its language versions as alternates),
    read as Django's sitemap view reads them, a paginator page at a time."""
    return (page for _, page in _placed_pages(sitemaps, base_url))


def _placed_pages(sitemaps: Mapping[str, Any] | None, base_url: str | None) -> Iterator[tuple[str, Page]]:
    """``pages()``, each with the dotted path of its Sitemap class."""
    sitemaps = find_sitemaps() if sitemaps is None else sitemaps
    base_url = _common.folder_url(base_url or settings_value("base_url") or "")
    parts = urlsplit(base_url)
    host = SimpleNamespace(domain=parts.netloc, name=parts.netloc)
    for sitemap in sitemaps.values():
        origin = origin_of(sitemap)
        if isinstance(sitemap, type):
            sitemap = sitemap()
        seen: set[frozenset[str]] = set()
        for number in sitemap.paginator.page_range:
            for info in sitemap.get_urls(page=number, site=host, protocol=parts.scheme):
                item = info["item"][0] if getattr(sitemap, "i18n", False) else info["item"]
                fields = {"lastmod": info.get("lastmod"), "changefreq": info.get("changefreq"),
                          "priority": info.get("priority") or None, "images": _images(sitemap, item, base_url)}
                versions = [a for a in info.get("alternates") or () if a["lang_code"] != "x-default"]
                if not versions:
                    yield origin, Page(loc=info["location"], **fields)
                    continue
                cluster = frozenset(a["location"] for a in versions)
                if cluster in seen:  # the same item in another language: its cluster is written
                    continue
                seen.add(cluster)
                x_default = next((a["location"] for a in info["alternates"] if a["lang_code"] == "x-default"), None)
                yield origin, Page(alternates=tuple(Alternate(code=a["lang_code"], url=a["location"])
                                                    for a in versions), x_default=x_default, **fields)


def build_sitemaps(out_dir: str | os.PathLike[str], *, sitemaps: Mapping[str, Any] | None = None,
                   base_url: str | None = None, now: Any = None, dry_run: bool = False) -> BuildResult:
    """``sitemap_ext.build`` of the project's sitemaps into ``out_dir`` (a page's
    findings placed at its Sitemap class and URL)."""
    origins = Origins()
    result = build(site(base_url, now), os.fspath(out_dir), pages=origins.follow(_placed_pages(sitemaps, base_url)),
                   now=now, dry_run=dry_run)
    origins.place(result.collector)
    return result


def check_sitemaps(*, sitemaps: Mapping[str, Any] | None = None, base_url: str | None = None,
                   now: Any = None) -> CheckResult:
    """``sitemap_ext.check`` of the project's sitemaps (a dry build, nothing written;
    a page's findings placed at its Sitemap class and URL)."""
    origins = Origins()
    # (with a Site, check()'s pages= are the site's pages; its annotation names only the other use, a count)
    result = check(site(base_url, now), pages=origins.follow(_placed_pages(sitemaps, base_url)),  # type: ignore[arg-type]
                   now=now)
    origins.place(result.collector)
    return result


def assert_sitemaps_ok(*, sitemaps: Mapping[str, Any] | None = None, base_url: str | None = None,
                       now: Any = None, strict: bool = False) -> CheckResult:
    """For a project's test suite: fails, listing the findings, when the project's
    sitemaps have an error (with ``strict``, a warning too)."""
    result = check_sitemaps(sitemaps=sitemaps, base_url=base_url, now=now)
    failing = [d for d in result.collector.sorted()
               if d.severity.value == "error" or (strict and d.severity.value == "warning")]
    assert not failing, "the sitemaps have findings:\n" + "\n".join(line(d) for d in failing)
    return result
