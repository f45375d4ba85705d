"""Page fields to a ``Page``: one normaliser for YAML entries and source rows alike.

The caller hands over raw values and a function that says where each key was
written (a YAML position, or a CSV row); every problem is reported, and a page
that cannot be written (no valid URL) comes back as None.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, Mapping

from .dates import DateCache, Lastmod, from_python
from .diagnostics import Collector, Where
from .model import CHANGEFREQS, Defaults, Page, Scope, Version
from .urls import normalise, origin_of

WhereOf = Callable[[str], Where]

# The keys a page (YAML entry or source row) may have.
PAGE_KEYS = ("loc", "lastmod", "changefreq", "priority")


def format_priority(value: float) -> str:
    text = f"{value:.3f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


class PageNormaliser:
    def __init__(self, scope: Scope, collector: Collector, dates: DateCache | None = None) -> None:
        self.scope = scope
        self.collector = collector
        self.dates = dates or DateCache()

    # --- single fields -------------------------------------------------------------

    def lastmod(self, value: Any, where: Where) -> Lastmod | None:
        if isinstance(value, dt.date):
            return from_python(value)
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            self.collector.report("C103", f"lastmod must be a date such as 2026-11-21, not {_kind(value)}", where)
            return None
        lastmod, problems = self.dates.parse(str(value))
        for problem in problems:
            self.collector.report(problem.code, problem.message, where, suggestion=problem.suggestion)
        return lastmod

    def changefreq(self, value: Any, where: Where) -> str | None:
        if isinstance(value, str) and value in CHANGEFREQS:
            return value
        text = str(value)
        fix = text.strip().lower()
        if fix in CHANGEFREQS:
            self.collector.report(
                "D104", f"changefreq '{text}' must be written in lower case: '{fix}'", where, suggestion=fix
            )
        else:
            self.collector.report(
                "D104", f"changefreq '{text}' is not one of: {', '.join(CHANGEFREQS)}", where
            )
        return None

    def priority(self, value: Any, where: Where) -> str | None:
        number: float | None = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        elif isinstance(value, str):
            try:
                number = float(value)
            except ValueError:
                number = None
        if number is None or not 0.0 <= number <= 1.0 or number != number:
            self.collector.report(
                "D105", f"priority '{value}' must be a number from 0.0 to 1.0 (0.5 is the default)", where
            )
            return None
        return format_priority(number)

    def url(self, value: Any, where: Where, *, what: str = "loc", check_scope: bool = True) -> str | None:
        if not isinstance(value, str):
            self.collector.report("C103", f"{what} must be a URL string, not {_kind(value)}", where)
            return None
        url, problems = normalise(value, self.scope.base_url)
        for problem in problems:
            self.collector.report(problem.code, f"{what}: {problem.message}", where, url=url or value,
                                  suggestion=problem.suggestion)
        if url is None or not check_scope:
            return url
        if origin_of(url) not in self.scope.origins:
            self.collector.report(
                "U107",
                f"{what} {url} is not on {', '.join(sorted(map(str, self.scope.origins)))}: a sitemap lists "
                "URLs of its own host only; use a relative URL or that host's base_url",
                where,
                url=url,
            )
            return None
        if not self.scope.robots and not url.startswith(self.scope.folder):
            self.collector.report(
                "U108",
                f"{what} {url} lies outside {self.scope.folder}, where the sitemaps are served: "
                "search engines accept it only from a sitemap submitted in robots.txt "
                "(set output.robots: true, or output.public_url to a folder above it)",
                where,
                url=url,
            )
        return url

    # --- whole pages ---------------------------------------------------------------

    def defaults(self, raw: Mapping[str, Any], where_of: WhereOf, inherited: Defaults) -> Defaults:
        return Defaults(
            lastmod=self.lastmod(raw["lastmod"], where_of("lastmod")) if "lastmod" in raw else inherited.lastmod,
            changefreq=(
                self.changefreq(raw["changefreq"], where_of("changefreq"))
                if "changefreq" in raw else inherited.changefreq
            ),
            priority=self.priority(raw["priority"], where_of("priority")) if "priority" in raw else inherited.priority,
        )

    def page(self, raw: Mapping[str, Any], where_of: WhereOf, defaults: Defaults, where: Where) -> Page | None:
        """A page from its fields; ``where`` is the entry's (or row's) own position."""
        value = raw.get("loc")
        if value is None or value == "":
            self.collector.report("C104", "a page needs a loc (its URL, absolute or relative to site.base_url)", where)
            return None
        loc = self.url(value, where_of("loc"))
        lastmod = self.lastmod(raw["lastmod"], where_of("lastmod")) if _given(raw, "lastmod") else defaults.lastmod
        changefreq = (
            self.changefreq(raw["changefreq"], where_of("changefreq"))
            if _given(raw, "changefreq") else defaults.changefreq
        )
        priority = self.priority(raw["priority"], where_of("priority")) if _given(raw, "priority") else defaults.priority
        if loc is None:
            return None
        return Page(
            versions=(Version(loc),),
            lastmod=lastmod,
            changefreq=changefreq,
            priority=priority,
            where=where,
        )


def _given(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key)
    return value is not None and value != ""


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}"
