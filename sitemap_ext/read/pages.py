"""Page fields to a ``Page``: one normaliser for YAML entries and source rows alike.

The caller hands over raw values and a function that says where each key was
written (a YAML position, or a CSV row); every problem is reported, and a page
that cannot be written (no valid URL) comes back as None.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, Mapping, Union

import re

from .. import langtags
from ..dates import DateCache, Lastmod, from_python
from ..diagnostics import Collector, Where
from .normalised import CHANGEFREQS, Defaults, Layout, Page, Scope, XDefault, XDefaultCode, XDefaultUrl
from ..ext import image as image_ext
from ..ext import news as news_ext
from ..ext import video as video_ext
from ..ext.media import Field, MediaContext
from ..limits import MAX_URL_CHARS
from ..urls import is_clean, is_clean_path, normalise, origin_of, origin_text
from ..rules.hreflang import may_share, url_twice
from ..rules.locs import out_of_folder
from ..rules.values import format_priority, judge_changefreq, judge_priority

_LIST_SEPARATORS = re.compile(r"[\s,;]+")

# Where a page field was written: a key's value, or (a tuple path) a nested key itself.
WhereOf = Callable[[Union[str, tuple[str, ...]]], Where]

# The keys a page (YAML entry or source row) may have.
PAGE_KEYS = ("loc", "lastmod", "changefreq", "priority", "path", "urls", "locales", "x_default",
             "images", "videos", "news")
IMAGE_COLUMN = "image"  # a source column for the common one-image case
URL_COLUMN = "url:"  # source columns url:<code> give one locale's URL each
_MEDIA_KEYS = frozenset({"images", "videos", "news", IMAGE_COLUMN})


def source_column(name: str) -> bool:
    """Whether a source column is a page field (url:<code> and image columns included);
    others are reported once (S104) and ignored."""
    return name in PAGE_KEYS or name == IMAGE_COLUMN or name.startswith(URL_COLUMN)


_MEMO_LIMIT = 4096  # entries a memo of verdicts on repeated values keeps before it starts again


class PageNormaliser:
    def __init__(self, scope: Scope, collector: Collector, dates: DateCache | None = None) -> None:
        self.scope = scope
        self.collector = collector
        self.dates = dates or DateCache()
        self.locales = {locale.code: locale for locale in scope.locales}
        self.locale_codes = tuple(self.locales)
        self._base_origin = str(origin_of(scope.base_url))
        self._base_root = self._base_origin + "/"  # what a root-relative URL is joined to
        self._keys: dict[str, tuple[str, str]] = {}  # urls key -> (its code, its root) when it says nothing
        self._roots: dict[str, tuple[bool, bool]] = {}  # a root -> (on the site's hosts, all in the folder)
        self._robots = scope.robots
        self._folder = scope.folder
        # Scope checks as prefix tests (no URL parsing per URL): a URL is on an allowed
        # origin when it starts with "scheme://host[:port]/".
        self.origin_prefixes = tuple(sorted(f"{origin}/" for origin in scope.origins))
        self.in_folder = {code: self._folder_ok(locale.base) for code, locale in self.locales.items()}
        # Path expansion gives distinct URLs when the locales' bases are distinct.
        self.distinct_bases = len({locale.base for locale in scope.locales}) == len(scope.locales)
        self._code_order = {code: i for i, code in enumerate(sorted(self.locales, key=str.lower))}
        self.longest_base = max((len(locale.base) for locale in scope.locales), default=0)
        self.sorted_bases = tuple((code, self.locales[code].base) for code in sorted(self.locales, key=str.lower))
        # row shape -> its url:<code> columns, and whether it has media fields
        self._shapes: dict[tuple[str, ...], tuple[tuple[tuple[str, str], ...], bool]] = {}
        self._orders: dict[tuple[str, ...], tuple[str, ...]] = {}  # codes as given -> in written order
        self.noted: set[tuple[str, str]] = set()  # media facts reported once per build: (kind, value)
        self._quiet_image_hosts: tuple[str, ...] = ()  # "scheme://host/" of image hosts already noted (I104)
        # Every locale, a path joined to each base: when the bases are distinct and in
        # the sitemaps' folder, such a page needs no judgement per URL (see _cluster).
        self.layout: Layout | None = None
        if self.sorted_bases and self.distinct_bases and all(self.in_folder.values()):
            codes = tuple(code for code, _ in self.sorted_bases)
            x_default = scope.x_default
            self.layout = Layout(codes, tuple(base for _, base in self.sorted_bases),
                                 codes.index(x_default.code) if isinstance(x_default, XDefaultCode)
                                 and x_default.code in codes else None)

    # --- single fields -------------------------------------------------------------

    def lastmod(self, value: Any, where: Where) -> Lastmod | None:
        if type(value) is str:  # the common case: a verdict memoised by the date cache
            lastmod, problems = self.dates.parse(value)
            for problem in problems:
                self.collector.report(problem.code, problem.message, where, suggestion=problem.suggestion)
            return lastmod
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
        """The value to write, or None: the rule's verdict (values.judge_changefreq)."""
        if isinstance(value, str) and value in CHANGEFREQS:
            return value
        return judge_changefreq(value if isinstance(value, str) else str(value), self.collector.report, where)

    def priority(self, value: Any, where: Where) -> str | None:
        """The value to write ("0.8"), or None: the rule's verdict (values.judge_priority);
        a number from YAML is judged as the text it is written as."""
        if type(value) is not str:
            if isinstance(value, float) and value == value and 0.0 <= value <= 1.0:
                return format_priority(value)  # (YAML's 0.8, the common case)
            value = str(value)
        return judge_priority(value, self.collector.report, where)

    def _folder_ok(self, url: str) -> bool:
        """Whether URLs under ``url`` are in the sitemaps' folder (or need not be)."""
        return self._robots or not url.startswith(self._base_origin) or url.startswith(self._folder)

    def _ready(self, value: Any, root: str) -> str | None:
        """The URL for ``value`` when there is nothing to say about it, else None: clean
        already, or root-relative and clean (normalise() would join it to ``root``,
        "scheme://host/", and change nothing else), on the site's hosts and in the
        sitemaps' folder."""
        if type(value) is not str:
            return None
        if value[:1] == "/":
            if value[:2] == "//" or len(value) + len(root) > MAX_URL_CHARS + 1 or not is_clean_path(value):
                return None
            url = root + value[1:]
            under = self._roots.get(root)
            if under is None:  # once per root: is all of it on the site's hosts and in the folder?
                under = self._roots[root] = (root.startswith(self.origin_prefixes), self._folder_ok(root))
            if under[0] and (under[1] or self._folder_ok(url)):
                return url
            return None
        if is_clean(value) and value.startswith(self.origin_prefixes) and self._folder_ok(value):
            return value
        return None

    def url(self, value: Any, where: Where, *, what: str = "loc", check_scope: bool = True) -> str | None:
        if check_scope:
            ready = self._ready(value, self._base_root)
            if ready is not None:
                return ready
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
            out_of_folder(self.collector.report, url, self.scope.folder, where, what=what,
                          fix="set output.robots: true, or output.public_url to a folder above it")
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
        list values written as text). YAML entries and source rows of every shape
        take this one way; what makes it cheap per row is that every verdict on a
        value that repeats (a lastmod, a changefreq, a priority, an image host, a
        row shape) is memoised, and a path over every locale is joined to the
        locales' bases once, as a ``Layout`` the writer renders from.
        """
        get = raw.get
        value = get("loc")
        path = get("path")
        urls = get("urls")
        media = True
        if row:  # url:<code> columns (CSV) join a urls object (JSON Lines)
            urls, media = self._row_urls(raw, urls)
        has_path = path is not None and path != ""
        multilingual = has_path or bool(urls)
        if not self._one_kind(multilingual, value, where_of, where):
            return None
        layout: Layout | None = None
        rest = ""
        codes: tuple[str, ...] | None = None
        x_default: str | None = None
        if multilingual and not urls and not self.locales:
            # A site with no locales: a path is its one page's URL under base_url.
            self._subset(raw.get("locales"), where_of, row)  # (a page naming locales: C112 for each)
            loc = self.url(_under(self.scope.base_url, path), where_of("path"), what="path")
            locs: tuple[str, ...] = (loc,) if loc else ()
        elif multilingual:
            locs, codes, x_default, layout, rest = self._cluster(raw, path if has_path else None, urls, where_of,
                                                                 where, row)
        else:
            loc = self.url(value, where_of("loc"))
            locs = (loc,) if loc else ()
        lastmod, changefreq, priority = self._values(raw, where_of, defaults)
        if not locs:
            return None
        return Page(locs, codes, lastmod, changefreq, priority, x_default,
                    self._media(raw, where_of, locs[0], row) if media else (), where, layout, rest)

    def _row_urls(self, raw: Mapping[str, Any], urls: Any) -> tuple[Any, bool]:
        """A row's urls with its url:<code> columns joined in, and whether it has media fields."""
        url_columns, media = self._row_shape(raw)
        if url_columns:
            columns = {name: raw[key] for key, name in url_columns if raw[key] not in (None, "")}
            if columns:
                urls = {**urls, **columns} if isinstance(urls, Mapping) else columns
        return urls, media

    def _one_kind(self, multilingual: bool, loc: Any, where_of: WhereOf, where: Where) -> bool:
        """C111 (loc beside path or urls), C104 (neither): whether the page can be made."""
        given = loc is not None and loc != ""
        if multilingual and given:
            self.collector.report("C111", "a page has either loc (one URL) or path / urls (one URL per locale), "
                                  "not both", where_of("loc"))
            return False
        if not multilingual and not given:
            self.collector.report("C104", "a page needs a loc (its URL, absolute or relative to site.base_url), "
                                  "or a path / urls for its locales", where)
            return False
        return True

    def _values(self, raw: Mapping[str, Any], where_of: WhereOf, defaults: Defaults
                ) -> tuple[Lastmod | None, str | None, str | None]:
        """lastmod, changefreq and priority: the page's own (the values rules' verdicts),
        else its defaults."""
        get = raw.get
        text = get("lastmod")
        lastmod = defaults.lastmod if text is None or text == "" else self.lastmod(text, where_of("lastmod"))
        text = get("changefreq")
        changefreq = defaults.changefreq if text is None or text == "" else \
            text if type(text) is str and text in CHANGEFREQS else self.changefreq(text, where_of("changefreq"))
        text = get("priority")
        priority = defaults.priority if text is None or text == "" else self.priority(text, where_of("priority"))
        return lastmod, changefreq, priority

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
        if type(value) is str:
            if value.startswith(self._quiet_image_hosts) and is_clean(value):
                return image_ext.Image(value)  # a host noted before: nothing more to say about it
            if image_ext.says_nothing(value, page_loc, self.noted):
                host = origin_text(value)
                if ("image-host", host) in self.noted:
                    self._quiet_image_hosts += (host + "/",)
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
            if type(value) is str and is_clean(value):
                return value  # (a media URL may be on any host: nothing else to judge)
            return self.url(value, where(field), what=".".join(str(p) for p in (key,) + (
                field if isinstance(field, tuple) else (field,) if field is not None else ())), check_scope=False)

        return MediaContext(page_loc=page_loc, report=report, resolve=resolve, dates=self.dates,
                            now=self.scope.now, drop_deprecated=self.scope.drop_deprecated,
                            drop_old_news=self.scope.drop_old_news, noted=self.noted)

    # --- clusters -----------------------------------------------------------------

    def _row_shape(self, raw: Mapping[str, Any]) -> tuple[tuple[tuple[str, str], ...], bool]:
        """A row's url:<code> columns (each with the key it gives urls), and whether it
        has media fields: once per shape (a CSV source has one; JSON Lines, a few)."""
        shape = tuple(raw)
        found = self._shapes.get(shape)
        if found is None:
            if len(self._shapes) >= _MEMO_LIMIT:
                self._shapes.clear()
            found = self._shapes[shape] = (
                tuple((key, key[len(URL_COLUMN):]) for key in shape if key.startswith(URL_COLUMN)),
                not _MEDIA_KEYS.isdisjoint(shape))
        return found

    def _cluster(
        self, raw: Mapping[str, Any], path: Any, urls: Any, where_of: WhereOf, where: Where, row: bool
    ) -> tuple[tuple[str, ...], tuple[str, ...], str | None, Layout | None, str]:
        """A cluster's locs and codes (in written order), its x-default URL, and its
        layout and rest when its locs are every locale's base + one rest."""
        if self.layout is not None and not urls and type(path) is str and self._plain(raw):
            found = self._from_layout(self.layout, path)
            if found is not None:
                return found
            path = raw.get("path")
        by_code: dict[str, str] = {}
        if path is not None:
            self._by_path(raw, path, where_of, row, by_code)
        if urls:
            self._by_urls(urls, where_of, row, by_code)
        if not urls and self.distinct_bases:
            # Expanded from one path over distinct bases: URLs are distinct, and the
            # locales' own order is precomputed.
            order = self._code_order
            codes = tuple(sorted(by_code, key=order.__getitem__))
            return (tuple([by_code[code] for code in codes]), codes, self._x_default(raw, by_code, where_of, where),
                    None, "")
        given = tuple(by_code)
        ordered = self._orders.get(given)  # (rows name their codes in one order: sorted once)
        if ordered is None:
            if len(self._orders) >= _MEMO_LIMIT:
                self._orders.clear()
            ordered = self._orders[given] = tuple(sorted(given, key=str.lower))
        codes = ordered
        locs = tuple([by_code[code] for code in codes])
        if len(set(locs)) != len(locs):
            codes, locs = self._shared(codes, locs, where)
        return locs, codes, self._x_default(raw, by_code, where_of, where), None, ""

    def _plain(self, raw: Mapping[str, Any]) -> bool:
        """Whether a page over every locale says nothing of its own on locales or
        x-default (so that it can take the site's layout)."""
        return raw.get("locales") in (None, "") and raw.get("x_default") in (None, "") \
            and (self.scope.x_default is None or isinstance(self.scope.x_default, XDefaultCode))

    def _from_layout(self, layout: Layout, path: str
                     ) -> tuple[tuple[str, ...], tuple[str, ...], str | None, Layout | None, str] | None:
        """The common case, in one step: every locale's base is clean and in scope
        (checked when locales: was read), and so is base + a clean path. None when the
        path needs judging URL by URL."""
        escaped = path if is_clean_path(path) else self._escaped_path(path)
        if escaped is None or len(escaped) + self.longest_base > MAX_URL_CHARS:
            return None
        rest = escaped[1:]
        x_index = layout.x_default
        return (tuple([base + rest for base in layout.bases]), layout.codes,
                None if x_index is None else layout.bases[x_index] + rest, layout, rest)

    def _by_path(self, raw: Mapping[str, Any], path: Any, where_of: WhereOf, row: bool,
                 by_code: dict[str, str]) -> None:
        """A path joined to the base of each locale the page is in."""
        codes = self._subset(raw.get("locales"), where_of, row)
        clean = type(path) is str and is_clean_path(path)
        for code in codes:
            if clean:
                # Each locale's base is clean and in scope (checked when locales: was
                # read), so base + path is too; only its length and the folder remain.
                url: str | None = self.locales[code].base + path[1:]
                if len(url) > MAX_URL_CHARS or not self.in_folder[code]:  # type: ignore[arg-type]
                    url = self.url(url, where_of("path"), what=f"path ({code})")
            else:
                url = self.url(_under(self.locales[code].base, path), where_of("path"), what=f"path ({code})")
            if url is not None:
                by_code[code] = url

    def _by_urls(self, urls: Any, where_of: WhereOf, row: bool, by_code: dict[str, str]) -> None:
        """A urls mapping (or url:<code> columns): each code's URL."""
        if not isinstance(urls, Mapping):
            self.collector.report("C103", "urls must map hreflang codes to URLs (de: /de/schuhe)", where_of("urls"))
            return
        keys = self._keys
        for key, value in urls.items():
            known = keys.get(key) if type(key) is str else None
            if known is not None:  # a code judged before, with nothing to say
                url = self._ready(value, known[1])
                if url is not None:
                    by_code[known[0]] = url
                    continue
            key_where = where_of(URL_COLUMN + key) if row else where_of(("urls", str(key)))
            code = self._code(str(key), key_where, once=row)
            if code is None:
                continue
            locale = self.locales.get(code)
            base = locale.host_root if locale is not None else self.scope.base_url
            if known is None and type(key) is str and not langtags.judge(key).problems and len(keys) < _MEMO_LIMIT:
                keys[key] = (code, base)
            url = self.url(_under_root(base, value) if isinstance(value, str) else value, key_where,
                           what=f"urls.{key}")
            if url is not None:
                by_code[code] = url

    def _shared(self, codes: tuple[str, ...], locs: tuple[str, ...], where: Where
                ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """A cluster that names one URL under several codes: regions of one language may
        share it (it is written once, with every code); a code of another language is
        H107 (the rule's verdict, hreflang.may_share) and left out."""
        first: dict[str, str] = {}
        kept = []
        for code, loc in zip(codes, locs):
            other = first.setdefault(loc, code)
            if other == code or may_share(other, code):
                kept.append((code, loc))
            else:
                url_twice(self.collector.report, loc, other, code, where, url=loc, hreflang=code)
        return tuple(code for code, _ in kept), tuple(loc for _, loc in kept)

    def _escaped_path(self, path: str) -> str | None:
        """A root-relative path that needs percent-encoding (non-ASCII letters, say),
        encoded once for every locale: encoding works character by character and every
        base is clean, so base + the encoded path is what encoding base + path gives.
        None when the path needs more than encoding (a problem to report per URL)."""
        if path[:1] != "/" or path[:2] == "//":
            return None
        base = self.sorted_bases[0][1]
        url, problems = normalise(base + path[1:])
        if url is None or problems or not url.startswith(base):
            return None
        return "/" + url[len(base):]

    def _subset(self, value: Any, where_of: WhereOf, row: bool) -> tuple[str, ...]:
        if value in (None, ""):
            return self.locale_codes
        where = where_of("locales")
        if isinstance(value, str):
            items: list[Any] = [v for v in _LIST_SEPARATORS.split(value) if v]
        elif isinstance(value, list):
            items = value
        else:
            self.collector.report("C103", "locales must be a list of locale codes", where)
            return ()
        chosen = []
        for number, item in enumerate(items):
            code = langtags.judge(str(item)).canonical or str(item)
            if code in self.locales:
                chosen.append(code)
            else:  # at the code itself in a YAML list, at the column in a source row
                self.collector.report(
                    "C112", f"locale '{item}' is not in locales: ({', '.join(self.locale_codes) or 'none defined'})",
                    where_of(("locales", number)) if isinstance(value, list) else where,  # type: ignore[arg-type]
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
