"""The common case of a source row, from raw fields to rendered entries in one step.

A million-row catalogue is nearly all rows with nothing to say: a clean path (or
loc), a lastmod already seen and valid, an image on a known host, no duplicate,
nothing in the future. For such a row the generic way (a Page, its Versions, the
renderer) does work whose result is known in advance; this module writes the
same bytes directly, through the writer's own pieces (``writer.core_fields``,
``writer.entry_start``, ``xhtml.link_start``, ``image.render_loc``, ``escape``).

It never reports anything: a row with anything to report, or any field it does
not handle, is declined (``None``) and takes the generic way, which reports.
Tests prove that a build writes the same bytes and the same diagnostics with
this path on and off.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable

from .dates import DateCache, Lastmod
from .ext import image as image_ext
from .ext import xhtml
from .hashes import SeenUrls
from .langtags import X_DEFAULT
from .limits import MAX_URL_CHARS
from .model import CHANGEFREQS, Defaults, Site, XDefaultCode
from .pages import IMAGE_COLUMN, PageNormaliser, format_priority, source_column
from .urls import is_clean, is_clean_path, origin_text
from .writer import Rendered, core_fields, entries, entry_rest, entry_start, page_namespaces, tail
from .xmlesc import escape

# The fields this path understands, in the order its row functions take them; a
# row with any other (non-empty) field declines.
_FIELDS = ("lastmod", "changefreq", "priority", IMAGE_COLUMN)
_PATH_COLUMNS = frozenset({"path", *_FIELDS})
_LOC_COLUMNS = frozenset({"loc", *_FIELDS})
_DECLINE = (None, None)  # a cached answer: fields the generic way must judge
_CACHE_LIMIT = 4096

RowFunction = Callable[[Any], "Rendered | None"]


class FastRows:
    """Renders the rows of one source that need no diagnostic; declines the rest."""

    def __init__(self, site: Site, normaliser: PageNormaliser, defaults: Defaults, seen: SeenUrls,
                 now: float | None) -> None:
        scope = site.scope
        assert scope is not None
        self.normaliser = normaliser
        self.defaults = defaults
        self.seen = seen
        self.now = now
        self.dates: DateCache = normaliser.dates
        self.cores: dict[tuple[str, str, str], tuple[str | None, Lastmod | None]] = {}
        self.origin = normaliser.origin_prefixes[0] if len(normaliser.origin_prefixes) == 1 else None
        self.in_folder = scope.robots or (self.origin is not None and self.origin == scope.folder)
        # Clusters by path: only when every locale's base is distinct and in scope,
        # so that base + clean path is a clean, in-scope, distinct URL.
        locales = normaliser.sorted_bases
        self.bases = locales if locales and normaliser.distinct_bases and all(normaliser.in_folder.values()) \
            else None
        self.longest = normaliser.longest_base
        x_default_index = None
        if self.bases is not None and isinstance(scope.x_default, XDefaultCode):
            codes = [code for code, _ in self.bases]
            x_default_index = codes.index(scope.x_default.code) if scope.x_default.code in codes else None
        elif scope.x_default is not None:
            self.bases = None  # a selector URL for every page: the generic way
        bases = [base for _, base in self.bases] if self.bases else []
        self.base_list = bases
        # Escaping works character by character: escape(base + rest) is
        # escape(base) + escape(rest), so each base is escaped once, here, and so
        # is the start of each link and of each entry.
        escaped_bases = [escape(base) for base in bases]
        self.link_prefixes = [xhtml.link_start(code) + escaped for (code, _), escaped
                              in zip(self.bases or (), escaped_bases)]
        if x_default_index is not None:
            self.link_prefixes.append(xhtml.link_start(X_DEFAULT) + escaped_bases[x_default_index])
        starts = [entry_start(base) for base in escaped_bases]
        # shared.join(starts + [b""]) is every entry: start + shared, one after another.
        self.starts = starts + [b""]
        self.start_sizes = [len(start) for start in starts]
        # A page's URLs are kept as one key when they are every locale's base + one rest.
        self.clusters = bool(bases) and seen.clusters and sorted(bases) == list(seen.bases)
        # An image on the pages' own host needs no note; other hosts once noted don't either.
        self.page_origin = origin_text(bases[0]) + "/" if bases else (self.origin or "")
        self.image_hosts: tuple[str, ...] = (self.page_origin,) if self.page_origin else ()
        self.noted = normaliser.noted

    def row_function(self, columns: list[str] | None) -> RowFunction | None:
        """The function for a source's rows, or None: for CSV (``columns``: its header)
        one taking each row's list of values, for JSON Lines (None) one taking each
        object (and declining objects with other page fields or values that are not
        text). Columns that are not page fields are ignored, as the generic way does."""
        if columns is not None:
            fields = [name for name in columns if source_column(name)]
            names = set(fields)
            if len(names) != len(fields):
                return None  # a field twice: the generic way decides which counts
            kind = self._kind(names)
            if kind is None:
                return None
            width = len(columns)  # a row gets one "" more: the value of every absent field
            get = itemgetter(*[columns.index(name) if name in names else width for name in (kind, *_FIELDS)])
            function = self.path_row if kind == "path" else self.loc_row

            def csv_row(values: list[str]) -> Rendered | None:
                values.append("")
                return function(*get(values))
            return csv_row

        kinds: dict[tuple[str, ...], str | None] = {}

        def jsonl_row(raw: dict[str, Any]) -> Rendered | None:
            shape = tuple(raw)
            kind = kinds.get(shape, "")
            if kind == "":
                if len(kinds) >= _CACHE_LIMIT:
                    kinds.clear()
                kind = kinds[shape] = self._kind({name for name in shape if source_column(name)})
            if kind is None:
                return None
            values = [raw.get(name, "") for name in (kind, *_FIELDS)]
            if not all(type(value) is str for value in values):
                return None
            return (self.path_row if kind == "path" else self.loc_row)(*values)
        return jsonl_row

    def _kind(self, names: Any) -> str | None:
        if "path" in names and names <= _PATH_COLUMNS and self.bases is not None:
            return "path"
        if "loc" in names and names <= _LOC_COLUMNS and not self.normaliser.locales and self.origin \
                and self.in_folder:
            return "loc"
        return None

    # --- fields ------------------------------------------------------------------

    def _core(self, lastmod: str, changefreq: str, priority: str) -> tuple[str | None, Lastmod | None]:
        """lastmod, changefreq and priority rendered (cached), or _DECLINE."""
        key = (lastmod, changefreq, priority)
        found = self.cores.get(key)
        if found is None:
            if len(self.cores) >= _CACHE_LIMIT:
                self.cores.clear()
            found = self.cores[key] = self._judge(lastmod, changefreq, priority)
        return found

    def _judge(self, text: str, changefreq: str, priority: str) -> tuple[str | None, Lastmod | None]:
        lastmod: Lastmod | None
        if text:
            lastmod, problems = self.dates.parse(text)
            if problems or lastmod is None:
                return _DECLINE
        else:
            lastmod = self.defaults.lastmod
        if lastmod is not None and self.now is not None and lastmod.instant > self.now:
            return _DECLINE
        frequency = changefreq or self.defaults.changefreq
        if frequency is not None and frequency not in CHANGEFREQS:
            return _DECLINE
        if priority:
            formatted = _priority(priority)
            if formatted is None:
                return _DECLINE
        else:
            formatted = self.defaults.priority
        return core_fields(lastmod, frequency, formatted), lastmod

    def _image(self, value: str) -> str | None:
        """The rendered image, '' for none, None to decline."""
        if not value:
            return ""
        if value.startswith(self.image_hosts):  # a host judged before: cleanness is all to see
            if not is_clean(value):
                return None
        elif image_ext.says_nothing(value, self.page_origin, self.noted):
            self.image_hosts += (origin_text(value) + "/",)
        else:
            return None  # the generic way reports (an image host once)
        return image_ext.render_loc(escape(value))

    # --- rows ------------------------------------------------------------------------

    def path_row(self, path: str, lastmod: str, changefreq: str, priority: str, image: str) -> Rendered | None:
        if not path or len(path) + self.longest > MAX_URL_CHARS or not is_clean_path(path):
            return None
        core, stamp = self._core(lastmod, changefreq, priority)
        picture = self._image(image) if core is not None else None
        if picture is None:
            return None
        rest = path[1:]
        # (a declined row leaves no URL behind: the generic way judges it)
        if self.clusters:
            key = self.seen.add_cluster_if_new(rest)
            if key is None:
                return None
            locs = [base + rest for base in self.base_list]
        else:
            locs = [base + rest for base in self.base_list]
            if not self.seen.add_if_new(locs):
                return None
            key = None
        escaped = escape(rest)
        # Every link ends in the same escaped path: one join makes them all.
        close = escaped + xhtml.LINK_END
        shared = entry_rest(escaped, f"{core}{close.join(self.link_prefixes)}{close}{picture}")
        size = len(shared)
        return Rendered(locs, shared.join(self.starts), [start + size for start in self.start_sizes],
                        _prefixes(True, bool(picture)), stamp, False, key)

    def loc_row(self, loc: str, lastmod: str, changefreq: str, priority: str, image: str) -> Rendered | None:
        if not loc:
            return None
        if loc[0] == "/" and loc[:2] != "//" and is_clean_path(loc):
            loc = self.origin[:-1] + loc  # type: ignore[index]
        elif not (is_clean(loc) and loc.startswith(self.origin)):  # type: ignore[arg-type]
            return None
        if len(loc) > MAX_URL_CHARS:
            return None
        core, stamp = self._core(lastmod, changefreq, priority)
        picture = self._image(image) if core is not None else None
        if picture is None or not self.seen.add_if_new((loc,)):
            return None
        entry = entries([escape(loc)], tail(core + picture))[0]
        return Rendered([loc], entry, [len(entry)], _prefixes(False, bool(picture)), stamp, False, None)


def _priority(text: str) -> str | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return format_priority(number) if 0.0 <= number <= 1.0 else None


_SHAPES: dict[tuple[bool, bool], frozenset[str]] = {}


def _prefixes(cluster: bool, picture: bool) -> frozenset[str]:
    found = _SHAPES.get((cluster, picture))
    if found is None:
        from .model import Page, Version

        probe = Page(versions=(Version("https://x.invalid/", "en" if cluster else None),),
                     extensions=(("image", ()),) if picture else ())
        found = _SHAPES[(cluster, picture)] = page_namespaces(probe)
    return found


__all__ = ["FastRows"]
