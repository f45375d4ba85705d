"""A page's single fields: its URL (joined, judged, in scope), lastmod, changefreq,
priority and content digest.

``FieldNormaliser`` knows of the site what judging one URL or one value takes (its base,
origins and folder) and keeps the memos of verdicts on repeated values. The locale
resolver (``page_locales``) and the media normaliser (``page_media``) are handed one
to judge the URLs they make; ``page_normaliser.PageNormaliser`` calls all three.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from ..dates import CONTENT, DateCache, Lastmod, from_python, judge_date
from ..diagnostics import Collector, Where
from ..limits import MAX_URL_CHARS
from ..read.description_findings import wrong_shape
from ..read.normalised import CHANGEFREQS, Defaults, Placed, Scope
from ..rules.locs import out_of_folder
from ..rules.values import format_priority, judge_changefreq, judge_priority
from ..urls import is_clean, is_clean_path, normalise, origin_of

# Where a page field was written: a key's value, or (a tuple path) a nested key itself.
WhereOf = Callable[[str | tuple[str, ...]], Where]

# The keys a page (YAML entry or source row) may have.
PAGE_KEYS = ("loc", "lastmod", "changefreq", "priority", "path", "urls", "locales", "x_default",
             "images", "videos", "news", "digest", "content")
IMAGE_COLUMN = "image"  # a source column for the common one-image case
URL_COLUMN = "url:"  # source columns url:<code> give one locale's URL each
MEDIA_KEYS = frozenset({"images", "videos", "news", IMAGE_COLUMN})

# A URL's problems that stay in what is written (a #fragment is kept): the engine says
# them of each entry written, placed where the description gives the URL; a URL that is
# only an alternate's href (x_default) is the build's to say.
KEPT_IN_OUTPUT = frozenset({"U110"})


def source_column(name: str) -> bool:
    """Whether a source column is a page field (url:<code> and image columns included);
    others are reported once (S104) and ignored."""
    return name in PAGE_KEYS or name == IMAGE_COLUMN or name.startswith(URL_COLUMN)


MEMO_LIMIT = 4096  # entries a memo of verdicts on repeated values keeps before it starts again

# A row's keys, told once per shape: its url:<code> columns (each with the urls key
# it gives), whether it has media fields, whether digest fields.
RowShape = tuple[tuple[tuple[str, str], ...], bool, bool]


class FieldNormaliser:
    """The verdicts on a page's single fields, against the site's scope.

    ``placed``: where the URL findings that the engine says of each entry written
    (``KEPT_IN_OUTPUT``) go, with their places; the page normaliser hands the list
    it collects a page's placed findings in (None: a list of this normaliser's own)."""

    def __init__(self, scope: Scope, collector: Collector, dates: DateCache | None = None, *,
                 placed: list[Placed] | None = None) -> None:
        self.scope = scope
        self.collector = collector
        self.dates = dates or DateCache()
        self.placed: list[Placed] = [] if placed is None else placed
        self._base_origin = str(origin_of(scope.base_url))
        self._base_root = self._base_origin + "/"  # what a root-relative URL is joined to
        self._roots: dict[str, tuple[bool, bool]] = {}  # a root -> (on the site's hosts, all in the folder)
        self._folder = None if scope.robots else scope.folder  # (None: a URL may lie outside it)
        # Scope checks as prefix tests (no URL parsing per URL): a URL is on an allowed
        # origin when it starts with "scheme://host[:port]/".
        self.origin_prefixes = tuple(sorted(f"{origin}/" for origin in scope.origins))
        self.quiet_dates: dict[str, Lastmod] = {}  # lastmod texts with nothing to say -> their Lastmod

    def report_to(self, collector: Collector) -> None:
        self.collector = collector

    # --- single fields -------------------------------------------------------------

    def lastmod(self, value: Any, where: Where) -> Lastmod | None:
        if type(value) is str:  # the common case: a verdict memoised by the date cache
            if value == "content":  # (the build state dates the page: see write/state.py)
                return CONTENT
            lastmod, problems = self.dates.parse(value)  # (memoised: judged below only when it has a say)
            if problems:  # the one judgement of a date (rules.values), of a value the writer writes anew
                return judge_date(value, self.dates, self.collector.report, where, rewritten=True)
            if lastmod is not None:
                quiet = self.quiet_dates
                if len(quiet) >= MEMO_LIMIT:
                    quiet.clear()
                quiet[value] = lastmod
            return lastmod
        if isinstance(value, dt.date):
            return from_python(value)
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            wrong_shape(self.collector.report, f"lastmod must be a date such as 2026-11-21, not {_kind(value)}", where)
            return None
        return judge_date(str(value), self.dates, self.collector.report, where, rewritten=True)

    def digest(self, raw: Mapping[str, Any], where_of: WhereOf) -> bytes | None:
        """A page's ``digest`` (any text that changes when the page does) or ``content``
        (the text itself), as the 16 bytes the build state keeps; None when neither."""
        for key in ("digest", "content"):
            value = raw.get(key)
            if value is None or value == "":
                continue
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                wrong_shape(self.collector.report, f"{key} must be text (or a number), not {_kind(value)}",
                            where_of(key))
                return None
            return hashlib.blake2b(f"{key}\0{value}".encode("utf-8", "surrogatepass"), digest_size=16).digest()
        return None

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

    def values(self, raw: Mapping[str, Any], where_of: WhereOf, defaults: Defaults
               ) -> tuple[Lastmod | None, str | None, str | None]:
        """lastmod, changefreq and priority: the page's own (the values rules' verdicts),
        else its defaults."""
        get = raw.get
        text = get("lastmod")
        if text is None or text == "":
            lastmod = defaults.lastmod
        else:  # (a text judged before with nothing to say: one look-up)
            lastmod = self.quiet_dates.get(text) if type(text) is str else None
            if lastmod is None:
                lastmod = self.lastmod(text, where_of("lastmod"))
        text = get("changefreq")
        changefreq = defaults.changefreq if text is None or text == "" else \
            text if type(text) is str and text in CHANGEFREQS else self.changefreq(text, where_of("changefreq"))
        text = get("priority")
        priority = defaults.priority if text is None or text == "" else self.priority(text, where_of("priority"))
        return lastmod, changefreq, priority

    def folder_ok(self, url: str) -> bool:
        """Whether URLs under ``url`` are in the sitemaps' folder (or need not be)."""
        return self._folder is None or not url.startswith(self._base_origin) or url.startswith(self._folder)

    def ready(self, value: Any, root: str) -> str | None:
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
                under = self._roots[root] = (root.startswith(self.origin_prefixes), self.folder_ok(root))
            if under[0] and (under[1] or self.folder_ok(url)):
                return url
            return None
        if is_clean(value) and value.startswith(self.origin_prefixes) and self.folder_ok(value):
            return value
        return None

    def url(self, value: Any, where: Where, *, what: str = "loc", check_scope: bool = True) -> str | None:
        if not self.scope.based:
            return self._unbased_url(value, where, what)
        if check_scope:
            ready = self.ready(value, self._base_root)
            if ready is not None:
                return ready
        if type(value) is str and is_clean(value):
            url: str | None = value
        elif not isinstance(value, str):
            wrong_shape(self.collector.report, f"{what} must be a URL string, not {_kind(value)}", where)
            return None
        else:
            url, problems = normalise(value, self.scope.base_url)
            for problem in problems:
                if problem.code in KEPT_IN_OUTPUT and what != "x_default":  # (the engine says it of the entry)
                    self.placed.append((problem.code, problem.message, where, problem.suggestion, None))
                else:
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
        if not self.folder_ok(url):
            out_of_folder(self.collector.report, url, self.scope.folder, where, what=what,
                          fix="set output.robots: true, or output.public_url to a folder above it")
        return url

    def _unbased_url(self, value: Any, where: Where, what: str) -> str | None:
        """A URL of a description without a usable base: one joined to the stand-in is
        not judged (what it becomes depends on the base), an absolute one is judged as
        a URL; neither is judged against the site's hosts and folder, which the base
        names."""
        if not isinstance(value, str):
            wrong_shape(self.collector.report, f"{what} must be a URL string, not {_kind(value)}", where)
            return None
        url, problems = normalise(value, self.scope.base_url)
        if url is not None and url.startswith(self._base_root):
            return url
        for problem in problems:
            self.collector.report(problem.code, f"{what}: {problem.message}", where, url=url or value,
                                  suggestion=problem.suggestion)
        return url

    # --- defaults ----------------------------------------------------------------

    def defaults(self, raw: Mapping[str, Any], where_of: WhereOf, inherited: Defaults) -> Defaults:
        return Defaults(
            lastmod=self.lastmod(raw["lastmod"], where_of("lastmod")) if "lastmod" in raw else inherited.lastmod,
            changefreq=(
                self.changefreq(raw["changefreq"], where_of("changefreq"))
                if "changefreq" in raw else inherited.changefreq
            ),
            priority=self.priority(raw["priority"], where_of("priority")) if "priority" in raw else inherited.priority,
        )


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
