"""A page's URLs per locale: a path joined to each locale's base, a urls mapping or
url:<code> columns, the locales it is in, its x-default, and a URL shared by several
codes (hreflang.may_share decides; hreflang.url_twice reports the rest).

``LocaleResolver`` knows the site's locales (their bases, order and layout) and keeps
the memos of codes and orders seen; each URL it makes is judged by the
``FieldNormaliser`` it is handed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import langtags
from ..diagnostics import Collector, Where
from ..limits import MAX_URL_CHARS
from ..read.description_findings import wrong_shape
from ..read.normalised import Layout, NormalisedLocale, Scope, XDefault, XDefaultCode, XDefaultUrl
from ..rules.hreflang import may_share, url_twice
from ..urls import identity, is_clean_path, normalise
from .page_fields import MEMO_LIMIT, URL_COLUMN, FieldNormaliser, WhereOf

_LIST_SEPARATORS = re.compile(r"[\s,;]+")

# A cluster: its locs and codes (in written order), its x-default URL, its layout and rest.
Cluster = tuple[tuple[str, ...], tuple[str, ...], str | None, Layout | None, str]


@dataclass(frozen=True)
class SiteLocales:
    """The site's locales as a page's URLs are made from them, known once per site."""

    by_code: dict[str, NormalisedLocale]
    codes: tuple[str, ...]  # in the order locales: lists them
    in_folder: Mapping[str, bool]  # whether URLs under a locale's base are in the sitemaps' folder (or need not be)
    distinct_bases: bool  # path expansion gives distinct URLs when the locales' bases are distinct
    order: Mapping[str, int]  # a code -> its place in written order
    longest_base: int
    sorted_bases: tuple[tuple[str, str], ...]  # (code, base) in written order

    @classmethod
    def of(cls, scope: Scope, folder_ok: Callable[[str], bool]) -> SiteLocales:
        by_code = {locale.code: locale for locale in scope.locales}
        written = sorted(by_code, key=str.lower)
        return cls(by_code, tuple(by_code), {code: folder_ok(locale.base) for code, locale in by_code.items()},
                   len({locale.base for locale in scope.locales}) == len(scope.locales),
                   {code: i for i, code in enumerate(written)},
                   max((len(locale.base) for locale in scope.locales), default=0),
                   tuple((code, by_code[code].base) for code in written))

    def layout(self, x_default: XDefault) -> Layout | None:
        """Every locale, a path joined to each base: when the bases are distinct and in
        the sitemaps' folder, such a page needs no judgement per URL (see
        ``LocaleResolver.cluster``)."""
        if not (self.sorted_bases and self.distinct_bases and all(self.in_folder.values())):
            return None
        codes = tuple(code for code, _ in self.sorted_bases)
        return Layout(codes, tuple(base for _, base in self.sorted_bases),
                      codes.index(x_default.code) if isinstance(x_default, XDefaultCode)
                      and x_default.code in codes else None)


class LocaleResolver:
    """The URLs of a page in several locales (see ``cluster``), each judged by ``fields``."""

    def __init__(self, scope: Scope, fields: FieldNormaliser, collector: Collector) -> None:
        self.scope = scope
        self.fields = fields
        self.collector = collector
        self.known = SiteLocales.of(scope, fields.folder_ok)
        self.layout = self.known.layout(scope.x_default)
        self._keys: dict[str, tuple[str, str]] = {}  # urls key -> (its code, its root) when it says nothing
        self._orders: dict[tuple[str, ...], tuple[str, ...]] = {}  # codes as given -> in written order

    def report_to(self, collector: Collector) -> None:
        self.collector = collector

    def cluster(
        self, raw: Mapping[str, Any], path: Any, urls: Any, where_of: WhereOf, where: Where, row: bool
    ) -> Cluster:
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
        if not urls and self.known.distinct_bases:
            # Expanded from one path over distinct bases: URLs are distinct, and the
            # locales' own order is precomputed.
            order = self.known.order
            codes = tuple(sorted(by_code, key=order.__getitem__))
            return (tuple([by_code[code] for code in codes]), codes, self._x_default(raw, by_code, where_of, where),
                    None, "")
        given = tuple(by_code)
        ordered = self._orders.get(given)  # (rows name their codes in one order: sorted once)
        if ordered is None:
            if len(self._orders) >= MEMO_LIMIT:
                self._orders.clear()
            ordered = self._orders[given] = tuple(sorted(given, key=str.lower))
        codes = ordered
        locs = tuple([by_code[code] for code in codes])
        if len(set(map(identity, locs))) != len(locs):  # (one URL, by the check's identity)
            codes, locs = self._shared(codes, locs, where)
        return locs, codes, self._x_default(raw, by_code, where_of, where), None, ""

    def _plain(self, raw: Mapping[str, Any]) -> bool:
        """Whether a page over every locale says nothing of its own on locales or
        x-default (so that it can take the site's layout)."""
        return raw.get("locales") in (None, "") and raw.get("x_default") in (None, "") \
            and (self.scope.x_default is None or isinstance(self.scope.x_default, XDefaultCode))

    def _from_layout(self, layout: Layout, path: str
                     ) -> Cluster | None:
        """The common case, in one step: every locale's base is clean and in scope
        (checked when locales: was read), and so is base + a clean path. None when the
        path needs judging URL by URL."""
        escaped = path if is_clean_path(path) else self._escaped_path(path)
        if escaped is None or len(escaped) + self.known.longest_base > MAX_URL_CHARS:
            return None
        rest = escaped[1:]
        x_index = layout.x_default
        return (tuple([base + rest for base in layout.bases]), layout.codes,
                None if x_index is None else layout.bases[x_index] + rest, layout, rest)

    def _by_path(self, raw: Mapping[str, Any], path: Any, where_of: WhereOf, row: bool,
                 by_code: dict[str, str]) -> None:
        """A path joined to the base of each locale the page is in."""
        codes = self.subset(raw.get("locales"), where_of, row)
        clean = type(path) is str and is_clean_path(path)
        for code in codes:
            if clean:
                # Each locale's base is clean and in scope (checked when locales: was
                # read), so base + path is too; only its length and the folder remain.
                url: str | None = self.known.by_code[code].base + path[1:]
                if len(url) > MAX_URL_CHARS or not self.known.in_folder[code]:  # type: ignore[arg-type]
                    url = self.fields.url(url, where_of("path"), what=f"path ({code})")
            else:
                url = self.fields.url(path_under(self.known.by_code[code].base, path), where_of("path"),
                                      what=f"path ({code})")
            if url is not None:
                by_code[code] = url

    def _by_urls(self, urls: Any, where_of: WhereOf, row: bool, by_code: dict[str, str]) -> None:
        """A urls mapping (or url:<code> columns): each code's URL."""
        if not isinstance(urls, Mapping):
            wrong_shape(self.collector.report, "urls must map hreflang codes to URLs (de: /de/schuhe)",
                        where_of("urls"))
            return
        keys = self._keys
        for key, value in urls.items():
            known = keys.get(key) if type(key) is str else None
            if known is not None:  # a code judged before, with nothing to say
                url = self.fields.ready(value, known[1])
                if url is not None:
                    by_code[known[0]] = url
                    continue
            key_where = where_of(URL_COLUMN + key) if row else where_of(("urls", str(key)))
            code = self._code(str(key), key_where, once=row)
            if code is None:
                continue
            locale = self.known.by_code.get(code)
            base = locale.host_root if locale is not None else self.scope.base_url
            if known is None and type(key) is str and not langtags.judge(key).problems and len(keys) < MEMO_LIMIT:
                keys[key] = (code, base)
            url = self.fields.url(_under_root(base, value) if isinstance(value, str) else value, key_where,
                           what=f"urls.{key}")
            if url is not None:
                by_code[code] = url

    def _shared(self, codes: tuple[str, ...], locs: tuple[str, ...], where: Where
                ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """A cluster that names one URL (by the check's ``urls.identity``) under several
        codes: regions of one language may share it (it is written once, with every
        code, as the first code spells it); a code of another language is H107 (the
        rule's verdict, hreflang.may_share) and left out."""
        first: dict[str, tuple[str, str]] = {}
        kept = []
        for code, loc in zip(codes, locs, strict=True):
            other, spelled = first.setdefault(identity(loc), (code, loc))
            if other == code or may_share(other, code):
                kept.append((code, spelled))
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
        base = self.known.sorted_bases[0][1]
        url, problems = normalise(base + path[1:])
        if url is None or problems or not url.startswith(base):
            return None
        return "/" + url[len(base):]

    def subset(self, value: Any, where_of: WhereOf, row: bool) -> tuple[str, ...]:
        if value in (None, ""):
            return self.known.codes
        where = where_of("locales")
        if isinstance(value, str):
            items: list[Any] = [v for v in _LIST_SEPARATORS.split(value) if v]
        elif isinstance(value, list):
            items = value
        else:
            wrong_shape(self.collector.report, "locales must be a list of locale codes", where)
            return ()
        chosen = []
        for number, item in enumerate(items):
            code = langtags.judge(str(item)).canonical or str(item)
            if code in self.known.by_code:
                chosen.append(code)
            else:  # at the code itself in a YAML list, at the column in a source row
                self.collector.report(
                    "C112", f"locale '{item}' is not in locales: ({', '.join(self.known.codes) or 'none defined'})",
                    where_of(("locales", number)) if isinstance(value, list) else where,  # type: ignore[arg-type]
                )
        return tuple(chosen)

    def _code(self, text: str, where: Where, *, once: bool) -> str | None:
        """A hreflang code from a urls key or url:<code> column; reported as needed."""
        verdict = langtags.judge(text)
        # What holds of the code as written (canonical) the engine says of each entry
        # written (the same langtags.judge, hreflang.py): here only what the spelling shows.
        written = {problem.code for problem in langtags.judge(verdict.canonical).problems} \
            if verdict.problems and verdict.canonical else set()
        for problem in verdict.problems:  # a source column's problems once per run, each of them
            if problem.code in written:
                continue
            self.collector.report(problem.code, problem.message, where, hreflang=text, suggestion=problem.suggestion,
                                  once=f"column url:{text} {problem.code}" if once else None)
        if verdict.canonical == langtags.X_DEFAULT:
            wrong_shape(self.collector.report, "x-default is set with x_default:, not as a urls entry", where)
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


def parse_x_default(value: Any, resolver: LocaleResolver, where: Where) -> XDefault:
    """x_default: a locale code, a URL (a language selector), or none."""
    if value is False or (isinstance(value, str) and value.strip().lower() == "none"):
        return None
    if not isinstance(value, str):
        wrong_shape(resolver.collector.report, "x_default must be a locale code, a URL, or none", where)
        return None
    if "/" in value:
        url = resolver.fields.url(value, where, what="x_default")
        return XDefaultUrl(url) if url is not None else None
    code = langtags.judge(value).canonical
    if code not in resolver.known.by_code:
        resolver.collector.report(
            "C112", f"x_default '{value}' is neither a locale in locales: "
            f"({', '.join(resolver.known.codes) or 'none'}) nor a URL", where,
        )
        return None
    return XDefaultCode(code)


def path_under(base: str, path: Any) -> Any:
    """A locale's URL for a path: the locale's base and the path without its leading '/'."""
    if not isinstance(path, str):
        return path
    if path.startswith(("http://", "https://")):
        return path
    return base + path.lstrip("/")


def _under_root(root: str, url: str) -> str:
    return root + url.lstrip("/") if url.startswith("/") and not url.startswith("//") else url
