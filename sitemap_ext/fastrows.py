"""The common case of a source row, from raw fields to rendered entries in one step.

A million-row catalogue is nearly all rows with nothing to say: a clean path (or
loc), a lastmod already seen and valid, an image on a known host, no duplicate,
nothing in the future. For such a row the generic way (a Page, its Versions, the
renderer) does work whose result is known in advance; this module writes the
same bytes directly, through the writer's own pieces (``writer.core_fields``,
``writer.tail``, ``xhtml.link_start``, ``image.render_loc``, ``xmlesc.escape``).

It never reports anything: a row with anything to report, or any field it does
not handle, is declined (``None``) and takes the generic way, which reports.
Tests prove that a build writes the same bytes and the same diagnostics with
this path on and off.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .dates import DateCache, Lastmod
from .ext import image as image_ext
from .ext import xhtml
from .hashes import SeenUrls
from .langtags import X_DEFAULT
from .limits import MAX_URL_CHARS
from .model import CHANGEFREQS, Defaults, Site, XDefaultCode
from .pages import IMAGE_COLUMN, PageNormaliser, format_priority
from .urls import is_clean, is_clean_path, origin_text
from .writer import core_fields, entries, entry_start, page_namespaces, tail
from .xmlesc import escape

# The columns this path understands; a row with any other (non-empty) field declines.
_PATH_COLUMNS = frozenset({"path", "lastmod", "changefreq", "priority", IMAGE_COLUMN})
_LOC_COLUMNS = frozenset({"loc", "lastmod", "changefreq", "priority", IMAGE_COLUMN})


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
        self.priorities: dict[str, str | None] = {}
        self.origin = normaliser.origin_prefixes[0] if len(normaliser.origin_prefixes) == 1 else None
        self.in_folder = scope.robots or (self.origin is not None and self.origin == scope.folder)
        # Clusters by path: only when every locale's base is distinct and in scope,
        # so that base + clean path is a clean, in-scope, distinct URL.
        locales = normaliser.sorted_bases
        self.bases = locales if locales and normaliser.distinct_bases and all(normaliser.in_folder.values()) \
            else None
        self.longest = normaliser.longest_base
        self.x_default_index = None
        if self.bases is not None and isinstance(scope.x_default, XDefaultCode):
            codes = [code for code, _ in self.bases]
            self.x_default_index = codes.index(scope.x_default.code) if scope.x_default.code in codes else None
        elif scope.x_default is not None:
            self.bases = None  # a selector URL for every page: the generic way
        self.link_starts = [xhtml.link_start(code) for code, _ in self.bases] if self.bases else []
        self.x_start = xhtml.link_start(X_DEFAULT)
        # Escaping works character by character: escape(base + rest) is
        # escape(base) + escape(rest), so each base is escaped once, here, and so
        # is the start of each link and of each entry.
        self.escaped_bases = [escape(base) for _, base in self.bases] if self.bases else []
        self.link_prefixes = [start + base for start, base in zip(self.link_starts, self.escaped_bases)]
        if self.x_default_index is not None:
            self.link_prefixes.append(self.x_start + self.escaped_bases[self.x_default_index])
        self.entry_starts = [entry_start(base) for base in self.escaped_bases]
        # A page's URLs are kept as one key when they are every locale's base + one rest.
        self.clusters = self.bases is not None and seen.clusters and \
            sorted(base for _, base in self.bases) == list(seen.bases)
        self.noted = normaliser.noted

    def shape(self, columns: Mapping[str, Any]) -> Callable[[Mapping[str, Any]], Any] | None:
        """The row function for a source with these columns, or None."""
        names = frozenset(columns)
        if "path" in names and names <= _PATH_COLUMNS and self.bases is not None:
            return self.path_row
        if "loc" in names and names <= _LOC_COLUMNS and not self.normaliser.locales and self.origin \
                and self.in_folder:
            return self.loc_row
        return None

    # --- fields ------------------------------------------------------------------

    def _fields(self, raw: Mapping[str, Any]) -> tuple[Lastmod | None, str | None, str | None] | None:
        value = raw.get("lastmod")
        if value:
            lastmod, problems = self.dates.parse(value)
            if problems or lastmod is None or (self.now is not None and lastmod.instant > self.now):
                return None
        else:
            lastmod = self.defaults.lastmod
            if lastmod is not None and self.now is not None and lastmod.instant > self.now:
                return None
        changefreq = raw.get("changefreq") or self.defaults.changefreq
        if changefreq is not None and changefreq not in CHANGEFREQS:
            return None
        priority = raw.get("priority")
        if priority:
            formatted = self.priorities.get(priority, "")
            if formatted == "":
                formatted = self.priorities[priority] = _priority(priority)
            if formatted is None:
                return None
            priority = formatted
        else:
            priority = self.defaults.priority
        return lastmod, changefreq, priority

    def _image(self, raw: Mapping[str, Any], page_loc: str) -> str | None:
        """The rendered image, '' for none, None to decline."""
        value = raw.get(IMAGE_COLUMN)
        if not value:
            return ""
        if not is_clean(value):
            return None
        host = origin_text(value)
        if not page_loc.startswith(host + "/") and ("image-host", host) not in self.noted:
            return None  # its host is reported once, by the generic way
        return image_ext.render_loc(escape(value))

    # --- rows ------------------------------------------------------------------------

    def path_row(self, raw: Mapping[str, Any]) -> Any:
        path = raw.get("path")
        if not path or not is_clean_path(path) or len(path) + self.longest > MAX_URL_CHARS:
            return None
        fields = self._fields(raw)
        if fields is None:
            return None
        rest = path[1:]
        locs = [base + rest for _, base in self.bases]  # type: ignore[union-attr]
        picture = self._image(raw, locs[0])
        if picture is None:
            return None
        # (a declined row leaves no URL behind: the generic way judges it)
        if self.clusters:
            key = self.seen.add_cluster_if_new(rest)
            if key is None:
                return None
        elif self.seen.add_if_new(locs):
            key = None
        else:
            return None
        escaped_rest = escape(rest)
        # Every link ends in the same escaped path: one join makes them all.
        close = escaped_rest + xhtml.LINK_END
        links = close.join(self.link_prefixes) + close
        shared = escaped_rest.encode() + tail(core_fields(*fields) + links + picture)
        prefixes = _prefixes(True, bool(picture))
        return tuple(locs), [start + shared for start in self.entry_starts], prefixes, fields[0], False, key

    def loc_row(self, raw: Mapping[str, Any]) -> Any:
        loc = raw.get("loc")
        if not loc:
            return None
        if loc[0] == "/" and loc[:2] != "//" and is_clean_path(loc):
            loc = self.origin[:-1] + loc  # type: ignore[index]
        elif not (is_clean(loc) and loc.startswith(self.origin)):  # type: ignore[arg-type]
            return None
        if len(loc) > MAX_URL_CHARS:
            return None
        fields = self._fields(raw)
        if fields is None:
            return None
        picture = self._image(raw, loc)
        if picture is None or not self.seen.add_if_new((loc,)):
            return None
        shared = tail(core_fields(*fields) + picture)
        return (loc,), entries([escape(loc)], shared), _prefixes(False, bool(picture)), fields[0], False


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
