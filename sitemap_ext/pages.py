"""Page fields to a ``Page``: one normaliser for YAML entries and source rows alike.

The caller hands over raw values and a function that says where each key was
written (a YAML position, or a CSV row); every problem is reported, and a page
that cannot be written (no valid URL) comes back as None.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, Mapping, Union

import re

from . import langtags
from .dates import DateCache, Lastmod, from_python
from .diagnostics import Collector, Where
from .model import CHANGEFREQS, Defaults, Page, Scope, Version, XDefault, XDefaultCode, XDefaultUrl
from .ext import image as image_ext
from .ext import news as news_ext
from .ext import video as video_ext
from .ext.media import Field, MediaContext
from .limits import MAX_URL_CHARS
from .urls import is_clean, is_clean_path, normalise, origin_of

_LIST_SEPARATORS = re.compile(r"[\s,;]+")

# Where a page field was written: a key's value, or (a tuple path) a nested key itself.
WhereOf = Callable[[Union[str, tuple[str, ...]]], Where]

# The keys a page (YAML entry or source row) may have.
PAGE_KEYS = ("loc", "lastmod", "changefreq", "priority", "path", "urls", "locales", "x_default",
             "images", "videos", "news")
IMAGE_COLUMN = "image"  # a source column for the common one-image case
URL_COLUMN = "url:"  # source columns url:<code> give one locale's URL each


def source_column(name: str) -> bool:
    """Whether a source column is a page field (url:<code> and image columns included);
    others are reported once (S104) and ignored."""
    return name in PAGE_KEYS or name == IMAGE_COLUMN or name.startswith(URL_COLUMN)


def format_priority(value: float) -> str:
    text = f"{value:.3f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


class PageNormaliser:
    def __init__(self, scope: Scope, collector: Collector, dates: DateCache | None = None) -> None:
        self.scope = scope
        self.collector = collector
        self.dates = dates or DateCache()
        self.locales = {locale.code: locale for locale in scope.locales}
        self.locale_codes = tuple(self.locales)
        self._base_origin = str(origin_of(scope.base_url))
        # Scope checks as prefix tests (no URL parsing per URL): a URL is on an allowed
        # origin when it starts with "scheme://host[:port]/". These precomputed facts
        # (down to noted) are also what fastrows.FastRows relies on.
        self.origin_prefixes = tuple(sorted(f"{origin}/" for origin in scope.origins))
        self.in_folder = {code: self._folder_ok(locale.base) for code, locale in self.locales.items()}
        # Path expansion gives distinct URLs when the locales' bases are distinct.
        self.distinct_bases = len({locale.base for locale in scope.locales}) == len(scope.locales)
        self._code_order = {code: i for i, code in enumerate(sorted(self.locales, key=str.lower))}
        self.longest_base = max((len(locale.base) for locale in scope.locales), default=0)
        self.sorted_bases = tuple((code, self.locales[code].base) for code in sorted(self.locales, key=str.lower))
        self._url_keys: dict[tuple[str, ...], tuple[str, ...]] = {}  # row shape -> its url:<code> columns
        self.noted: set[tuple[str, str]] = set()  # media facts reported once per build: (kind, value)

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
            try:
                number = float(value)
            except OverflowError:  # a whole number of hundreds of digits
                number = float("inf")
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

    def _folder_ok(self, url: str) -> bool:
        """Whether URLs under ``url`` are in the sitemaps' folder (or need not be)."""
        return self.scope.robots or not url.startswith(self._base_origin) or url.startswith(self.scope.folder)

    def url(self, value: Any, where: Where, *, what: str = "loc", check_scope: bool = True) -> str | None:
        if type(value) is str and is_clean(value):
            url: str | None = value
        elif not isinstance(value, str):
            self.collector.report("C103", f"{what} must be a URL string, not {_kind(value)}", where)
            return None
        else:
            url, problems = normalise(value, self.scope.base_url)
            for problem in problems:
                self.collector.report(problem.code, f"{what}: {problem.message}", where, url=url or value,
                                      suggestion=problem.suggestion)
        if url is None or not check_scope:
            return url
        if not url.startswith(self.origin_prefixes):
            self.collector.report(
                "C113",
                f"{what} {url} is not on {', '.join(sorted(map(str, self.scope.origins)))}, so no sitemap of this "
                "site can list it and it is left out; use a relative URL, or add its host as a locale's host",
                where,
                url=url,
            )
            return None
        if not self._folder_ok(url):
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

    def page(
        self, raw: Mapping[str, Any], where_of: WhereOf, defaults: Defaults, where: Where, *, row: bool = False
    ) -> Page | None:
        """A page from its fields; ``where`` is the entry's (or row's) own position.

        ``row`` says the fields come from a source row (url:<code> columns, and
        list values written as text).
        """
        value = raw.get("loc")
        urls = raw.get("urls")
        if row:  # url:<code> columns (CSV) join a urls object (JSON Lines)
            columns = self._url_columns(raw)
            if columns:
                urls = {**urls, **columns} if isinstance(urls, Mapping) else columns
        multilingual = _given(raw, "path") or bool(urls)
        if multilingual and _given(raw, "loc"):
            self.collector.report("C111", "a page has either loc (one URL) or path / urls (one URL per locale), "
                                  "not both", where_of("loc"))
            return None
        if not multilingual and (value is None or value == ""):
            self.collector.report("C104", "a page needs a loc (its URL, absolute or relative to site.base_url), "
                                  "or a path / urls for its locales", where)
            return None
        if multilingual:
            versions, x_default = self._cluster(raw, urls, where_of, where, row)
        else:
            loc = self.url(value, where_of("loc"))
            versions, x_default = ((Version(loc),) if loc else ()), None
        lastmod = self.lastmod(raw["lastmod"], where_of("lastmod")) if _given(raw, "lastmod") else defaults.lastmod
        changefreq = (
            self.changefreq(raw["changefreq"], where_of("changefreq"))
            if _given(raw, "changefreq") else defaults.changefreq
        )
        priority = self.priority(raw["priority"], where_of("priority")) if _given(raw, "priority") else defaults.priority
        if not versions:
            return None
        return Page(
            versions=versions,
            lastmod=lastmod,
            changefreq=changefreq,
            priority=priority,
            x_default=x_default,
            extensions=self._media(raw, where_of, versions[0].loc, row),
            where=where,
        )

    # --- images, videos, news -----------------------------------------------------

    def _media(self, raw: Mapping[str, Any], where_of: WhereOf, page_loc: str, row: bool) -> tuple[tuple[str, Any], ...]:
        images = raw.get("images")
        column = raw.get(IMAGE_COLUMN) if row else None
        if column not in (None, ""):
            if images in (None, "", []) and raw.get("videos") in (None, "", []) and raw.get("news") in (None, ""):
                # One image from a CSV column, the common case: the rules of
                # image.parse_one for a bare URL, without building a mapping for it.
                one = self._column_image(column, where_of, page_loc)
                return ((image_ext.NAME, (one,)),) if one is not None else ()
            images = (images if isinstance(images, list) else [images] if images else []) + [column]
        if images in (None, "", []) and raw.get("videos") in (None, "", []) and raw.get("news") in (None, ""):
            return ()
        out: list[tuple[str, Any]] = []
        if images not in (None, "", []):
            parsed = image_ext.parse(images, self._media_context("images", where_of, page_loc))
            if parsed:
                out.append((image_ext.NAME, parsed))
        if raw.get("videos") not in (None, "", []):
            videos = video_ext.parse(raw["videos"], self._media_context("videos", where_of, page_loc))
            if videos:
                out.append((video_ext.NAME, videos))
        if raw.get("news") not in (None, ""):
            ctx = self._media_context("news", where_of, page_loc)
            article = news_ext.parse(raw["news"], ctx, self.scope.news_publication)
            if article is not None and self.scope.drop_old_news and news_ext.is_old(article, self.scope.now):
                ctx.report("N110", f"{page_loc}: the article is older than 48 hours; it is left out of the news "
                           "sitemap (drop_old_news) and listed as a plain page", "publication_date")
            elif article is not None:
                out.append((news_ext.NAME, article))
        return tuple(out)

    def _column_image(self, value: Any, where_of: WhereOf, page_loc: str) -> image_ext.Image | None:
        if type(value) is str and image_ext.says_nothing(value, page_loc, self.noted):
            return image_ext.Image(value)
        return image_ext.parse_one(value, self._media_context(IMAGE_COLUMN, where_of, page_loc))

    def _media_context(self, key: str, where_of: WhereOf, page_loc: str) -> MediaContext:
        def where(field: Field) -> Where:
            path = (key,) + (field if isinstance(field, tuple) else (field,) if field is not None else ())
            return where_of(tuple(str(p) if isinstance(p, str) else p for p in path))  # type: ignore[arg-type]

        def report(code: str, message: str, field: Field = None, *, suggestion: str | None = None,
                   once: str | None = None) -> None:
            self.collector.report(code, message, where(field), url=page_loc, suggestion=suggestion, once=once)

        def resolve(value: Any, field: Field) -> str | None:
            return self.url(value, where(field), what=".".join(str(p) for p in (key,) + (
                field if isinstance(field, tuple) else (field,) if field is not None else ())), check_scope=False)

        return MediaContext(page_loc=page_loc, report=report, resolve=resolve, dates=self.dates,
                            now=self.scope.now, drop_deprecated=self.scope.drop_deprecated,
                            drop_old_news=self.scope.drop_old_news, noted=self.noted)

    # --- clusters -----------------------------------------------------------------

    def _url_columns(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        shape = tuple(raw)
        keys = self._url_keys.get(shape)
        if keys is None:
            keys = self._url_keys[shape] = tuple(key for key in shape if key.startswith(URL_COLUMN))
        return {key[len(URL_COLUMN):]: raw[key] for key in keys if raw[key] not in (None, "")}

    def _cluster(
        self, raw: Mapping[str, Any], urls: Any, where_of: WhereOf, where: Where, row: bool
    ) -> tuple[tuple[Version, ...], str | None]:
        by_code: dict[str, str] = {}
        if _given(raw, "path"):
            path = raw["path"]
            subset = raw.get("locales")
            if not urls and subset in (None, "") and self.distinct_bases and type(path) is str \
                    and is_clean_path(path) and all(self.in_folder.values()) \
                    and len(path) + self.longest_base <= MAX_URL_CHARS:
                # The common case, in one step: every locale, clean bases (checked when
                # locales: was read) joined to a clean path, already in order.
                tail = path[1:]
                versions = tuple([Version(base + tail, code) for code, base in self.sorted_bases])
                return versions, self._x_default(raw, {v.hreflang: v.loc for v in versions}, where_of, where) \
                    if "x_default" in raw or self.scope.x_default is not None else None
            codes = self._subset(subset, where_of("locales"), row)
            if type(path) is str and is_clean_path(path):
                # The common case, once per page: each locale's base is clean and in scope
                # (checked when locales: was read), so base + path is too; only its
                # length and the folder remain to judge.
                for code in codes:
                    url = self.locales[code].base + path[1:]
                    if len(url) > MAX_URL_CHARS or not self.in_folder[code]:
                        url = self.url(url, where_of("path"), what=f"path ({code})")
                    if url is not None:
                        by_code[code] = url
            else:
                for code in codes:
                    locale = self.locales[code]
                    url = self.url(_under(locale.base, path), where_of("path"), what=f"path ({code})")
                    if url is not None:
                        by_code[code] = url
        if urls:
            if not isinstance(urls, Mapping):
                self.collector.report("C103", "urls must map hreflang codes to URLs (de: /de/schuhe)",
                                      where_of("urls"))
            else:
                for key, value in urls.items():
                    key_where = where_of(URL_COLUMN + key) if row else where_of(("urls", str(key)))
                    code = self._code(str(key), key_where, once=row)
                    if code is None:
                        continue
                    locale = self.locales.get(code)
                    base = locale.host_root if locale is not None else self.scope.base_url
                    url = self.url(_under_root(base, value), key_where, what=f"urls.{key}") \
                        if isinstance(value, str) else self.url(value, key_where, what=f"urls.{key}")
                    if url is not None:
                        by_code[code] = url
        if not urls and self.distinct_bases:
            # Expanded from one path over distinct bases: URLs are distinct, and the
            # locales' own order is precomputed.
            order = self._code_order
            versions = tuple(Version(by_code[code], code) for code in sorted(by_code, key=order.__getitem__))
            return versions, self._x_default(raw, by_code, where_of, where)
        versions = tuple(Version(by_code[code], code) for code in sorted(by_code, key=str.lower))
        seen: dict[str, str] = {}
        for version in versions:
            if version.loc in seen:
                self.collector.report(
                    "H107", f"{version.loc} is given for both {seen[version.loc]} and {version.hreflang}; each "
                    "language version needs its own URL", where, url=version.loc, hreflang=version.hreflang,
                )
            seen.setdefault(version.loc, version.hreflang or "")
        if len(seen) != len(versions):
            versions = tuple(v for v in versions if seen.get(v.loc) == v.hreflang)
        return versions, self._x_default(raw, by_code, where_of, where)

    def _subset(self, value: Any, where: Where, row: bool) -> tuple[str, ...]:
        if value in (None, ""):
            return self.locale_codes
        if isinstance(value, str):
            items: list[Any] = [v for v in _LIST_SEPARATORS.split(value) if v]
        elif isinstance(value, list):
            items = value
        else:
            self.collector.report("C103", "locales must be a list of locale codes", where)
            return ()
        chosen = []
        for item in items:
            code = langtags.judge(str(item)).canonical or str(item)
            if code in self.locales:
                chosen.append(code)
            else:
                self.collector.report(
                    "C112", f"locale '{item}' is not in locales: ({', '.join(self.locale_codes) or 'none defined'})",
                    where,
                )
        return tuple(chosen)

    def _code(self, text: str, where: Where, *, once: bool) -> str | None:
        """A hreflang code from a urls key or url:<code> column; reported as needed."""
        verdict = langtags.judge(text)
        for problem in verdict.problems:  # a source column's problems once per run, each of them
            self.collector.report(problem.code, problem.message, where, hreflang=text, suggestion=problem.suggestion,
                                  once=f"column url:{text} {problem.code}" if once else None)
        if verdict.canonical == langtags.X_DEFAULT:
            self.collector.report("C103", "x-default is set with x_default:, not as a urls entry", where)
            return None
        return verdict.canonical

    def _x_default(self, raw: Mapping[str, Any], by_code: Mapping[str, str], where_of: WhereOf,
                   where: Where) -> str | None:
        if "x_default" in raw and raw["x_default"] not in (None, ""):
            setting = parse_x_default(raw["x_default"], self, where_of("x_default"))
            explicit = True
        else:
            setting, explicit = self.scope.x_default, False
        if setting is None:
            return None
        if isinstance(setting, XDefaultUrl):
            return setting.url
        url = by_code.get(setting.code)
        if url is None and explicit:
            self.collector.report("C112", f"x_default names {setting.code}, which this page has no version for",
                                  where_of("x_default"))
        return url


def parse_x_default(value: Any, normaliser: PageNormaliser, where: Where) -> XDefault:
    """x_default: a locale code, a URL (a language selector), or none."""
    if value is False or (isinstance(value, str) and value.strip().lower() == "none"):
        return None
    if not isinstance(value, str):
        normaliser.collector.report("C103", "x_default must be a locale code, a URL, or none", where)
        return None
    if "/" in value:
        url = normaliser.url(value, where, what="x_default")
        return XDefaultUrl(url) if url is not None else None
    code = langtags.judge(value).canonical
    if code not in normaliser.locales:
        normaliser.collector.report(
            "C112", f"x_default '{value}' is neither a locale in locales: ({', '.join(normaliser.locale_codes) or 'none'}) "
            "nor a URL", where,
        )
        return None
    return XDefaultCode(code)


def _under(base: str, path: Any) -> Any:
    """A locale's URL for a path: the locale's base and the path without its leading '/'."""
    if not isinstance(path, str):
        return path
    if path.startswith(("http://", "https://")):
        return path
    return base + path.lstrip("/")


def _under_root(root: str, url: str) -> str:
    return root + url.lstrip("/") if url.startswith("/") and not url.startswith("//") else url


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
