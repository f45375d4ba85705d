"""Where a finding about the project's sitemaps is, in Django's terms: the Sitemap
class and the URL (``trails.sitemaps.RoutesSitemap: https://www.example.com/en/routes/ridge/``),
not the place ``build()`` gives a page handed to it by a program (``<pages>:N``).

A language code comes from Django (``LANGUAGES``, or a Sitemap's ``languages``),
which writes a region in lower case (``pt-br``) and uses the code as the URL prefix
(``/pt-br/``). Hreflang is case-insensitive and the sitemaps are written with the
canonical case (``pt-BR``), so that code is valid as Django writes it: its L108 is
said once per distinct code, with no fix (changing LANGUAGES would change the URL
prefixes and break Django's own language matching)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from ... import Diagnostic, Page
from ...diagnostics import Collector, Related
from .. import _common

PAGES = "<pages>"  # the file build() names a page given by a program: <pages>:N
_Place = TypeVar("_Place", Diagnostic, Related)


class Origins:
    """Each page's Sitemap class (its dotted path) and first URL, in the order the
    pages are built: page N of ``<pages>:N`` is entry N - 1."""

    def __init__(self) -> None:
        self.pages: list[tuple[str, str]] = []

    def follow(self, placed: Iterable[tuple[str, Page]]) -> Iterator[Page]:
        """The pages, each noted as it is handed on (the build reads them once)."""
        for origin, page in placed:
            url = page.loc or (page.alternates[0].url if page.alternates else "")
            self.pages.append((origin, url))
            yield page

    def of(self, diagnostic: Diagnostic) -> Diagnostic:
        """The finding (and its related places) placed at the Sitemap class and URL
        where it names a page."""
        related = tuple(self._placed(place) for place in diagnostic.related)
        placed = self._placed(diagnostic)
        return placed if related == diagnostic.related else dataclasses.replace(placed, related=related)

    def _placed(self, place: _Place) -> _Place:
        if place.file != PAGES or not place.line or place.line > len(self.pages):
            return place
        origin, url = self.pages[place.line - 1]
        return dataclasses.replace(place, file=origin, line=None, column=None, url=place.url or url)

    def place(self, collector: Collector) -> None:
        """Every finding of ``collector`` placed in Django's terms, and a language code
        Django writes in lower case said once (see the module's docstring)."""
        collector.diagnostics = [_language_case(self.of(d)) for d in collector.diagnostics]
        seen: set[str] = set()
        repeated = []
        for diagnostic in collector.diagnostics:
            if diagnostic.code == "L108" and diagnostic.hreflang:
                key = diagnostic.hreflang.lower()
                if key in seen:
                    repeated.append(diagnostic)
                seen.add(key)
        collector.forget(repeated)


def _language_case(diagnostic: Diagnostic) -> Diagnostic:
    if diagnostic.code != "L108" or not diagnostic.hreflang or diagnostic.hreflang != diagnostic.hreflang.lower():
        return diagnostic
    written = f" the sitemaps write it as {diagnostic.suggestion}, its usual case;" if diagnostic.suggestion else ""
    message = (f"{diagnostic.hreflang!r} is a Django language code (LANGUAGES, lower case, also the URL prefix "
               f"/{diagnostic.hreflang}/):{written} hreflang is case-insensitive, so nothing needs to change")
    return dataclasses.replace(diagnostic, message=message, suggestion=None)


def origin_of(sitemap: Any) -> str:
    """A Sitemap's dotted path (``trails.sitemaps.RoutesSitemap``)."""
    kind = sitemap if isinstance(sitemap, type) else type(sitemap)
    return f"{kind.__module__}.{kind.__qualname__}"


def line(diagnostic: Diagnostic, root: str | None = None) -> str:
    """One finding as one line: a page's at ``SitemapClass: URL``, a written file's at
    ``FILE:LINE:COL`` (relative to ``root``; a file in a folder has a separator, a
    dotted class path none)."""
    file = diagnostic.file
    if file and diagnostic.url and diagnostic.line is None and "/" not in file and os.sep not in file:
        return _common.line(dataclasses.replace(diagnostic, file=f"{file}: {diagnostic.url}"))
    return _common.line(diagnostic, root)
