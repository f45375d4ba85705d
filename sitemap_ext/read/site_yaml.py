"""Site description (YAML files) to a ``Site``: every problem reported, none fatal early.

The top-level file names the site, its output and its pages; ``include:`` merges
other files (each with its own ``pages``, ``sources``, ``defaults`` and
``include``, paths relative to itself). Pages keep description order: a file's
own pages, then its sources, then its includes, depth first.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from .. import dates, langtags
from ..diagnostics import Collector, Where, unknown_keys
from ..ext.media import Field, MediaContext
from ..ext.news import parse_publication
from ..folder import XSL_FILE, reserved_name, safe_relative_name
from ..limits import MAX_BYTES_PER_FILE, MAX_DESCRIPTION_BYTES, MAX_URLS_PER_FILE
from ..safeio import Refused, inside, read_bounded, regular_file
from ..urls import normalise, origin_of
from .normalised import BuiltSite, Defaults, Locale, OutputConfig, PageStream, Scope, Site, Source, Unit
from .pages import PAGE_KEYS, PageNormaliser, parse_x_default
from .sources import format_of
from .yaml_doc import Doc, Path, load_yaml

TOP_KEYS = ("site", "env", "locales", "x_default", "news", "defaults", "pages", "sources", "include", "output")
LOCALE_KEYS = ("prefix", "host")
INCLUDED_KEYS = ("defaults", "pages", "sources", "include")
SITE_KEYS = ("base_url", "now")
OUTPUT_KEYS = (
    "dir", "pattern", "news_pattern", "index_file", "index", "gzip", "max_urls", "max_bytes", "text", "robots",
    "public_url", "drop_deprecated", "drop_old_news", "versioned", "html", "xsl",
)
SOURCE_KEYS = ("file", "format")
SITE_SOURCE_KEYS = ("site", "url", "drop_ext", "exclude", "lastmod")
# A generator's error pages, in every language folder (Hugo, Jekyll, MkDocs, Docusaurus,
# Astro and Next write 404.html; Astro and Next 500.html): served with an error status,
# never a page to list. fnmatch patterns on the '/'-separated path in the built folder.
DEFAULT_EXCLUDE = ("404.html", "*/404.html", "404/index.html", "*/404/index.html", "500.html", "*/500.html")


def is_error_page(relative: str) -> bool:
    """Whether a built file (its '/'-separated path in the folder) is an error page."""
    return any(fnmatch.fnmatchcase(relative, pattern) for pattern in DEFAULT_EXCLUDE)
DEFAULT_LASTMOD_PLACES = (("meta", "article:modified_time"),)
DEFAULT_KEYS = ("lastmod", "changefreq", "priority")
ROBOTS_FILE = "robots-sitemap.txt"


def read_text(path: str, collector: Collector, display: str, code: str = "F101",
              where: Where | None = None) -> str | None:
    """A site description's text (at most ``MAX_DESCRIPTION_BYTES``, a regular file)."""
    try:
        data = read_bounded(path, MAX_DESCRIPTION_BYTES)
    except Refused as exc:
        hint = "; move page lists into a CSV or JSON Lines source" if "larger" in str(exc) else ""
        collector.report(code, f"cannot read {display}: it is {exc}{hint}", where or Where(display))
        return None
    except (OSError, ValueError) as exc:
        collector.report(code, f"cannot read {display}: {getattr(exc, 'strerror', None) or exc}",
                         where or Where(display))
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        collector.report("C101", f"{display} is not valid UTF-8 ({exc.reason}); save it as UTF-8",
                         Where(display, line))
        return None


def display_name(path: str) -> str:
    """How diagnostics name a file: relative to the working folder when below it."""
    if os.path.isabs(path):  # (the common cases first, without relpath's work)
        cwd = os.getcwd()
        normal = os.path.normpath(path)
        if cwd != os.sep and normal != cwd and not normal.startswith(cwd + os.sep):
            return path
    else:
        relative = os.path.normpath(path)
        if not relative.startswith(".."):
            return relative
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


class _Doc:
    """Typed access to one YAML file, reporting wrong types and unknown keys."""

    def __init__(self, doc: Doc, collector: Collector) -> None:
        self.doc = doc
        self.collector = collector

    def where(self, path: Path) -> Where:
        return self.doc.where(path)

    def mapping(self, path: Path, value: Any, allowed: Iterable[str], what: str) -> dict[str, Any] | None:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.collector.report("C103", f"{what} must be a mapping (key: value lines)", self.doc.value_where(path))
            return None
        unknown_keys(self.collector, value, tuple(allowed), what, lambda key: self.where(path + (key,)))
        return value

    def sequence(self, path: Path, value: Any, what: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.collector.report("C103", f"{what} must be a list (lines starting with '- ')",
                                  self.doc.value_where(path))
            return []
        return value

    def string(self, path: Path, value: Any, what: str) -> str | None:
        if isinstance(value, str):
            return value
        text = self.doc.texts.get(path)
        if text is not None and not isinstance(value, (dict, list)):
            return text  # a plain scalar YAML typed (a number, 'no'): its own text
        self.collector.report("C103", f"{what} must be a string", self.doc.value_where(path))
        return None

    def boolean(self, path: Path, value: Any, what: str) -> bool | None:
        if isinstance(value, bool):
            return value
        self.collector.report("C103", f"{what} must be true or false", self.doc.value_where(path))
        return None

    def integer(self, path: Path, value: Any, what: str, low: int, high: int) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.collector.report("C103", f"{what} must be a whole number", self.doc.value_where(path))
            return None
        if not low <= value <= high:
            self.collector.report("C109", f"{what} must be from {low:,} to {high:,}, not {value:,}",
                                  self.doc.value_where(path))
            return None
        return value


@dataclass
class _Loader:
    collector: Collector
    env: Mapping[str, str] | None
    allow_read: tuple[str, ...] = ()  # folders besides the description's own that may be read
    # Set by load(): the variables the top file declares, the folders sources and
    # includes may come from, the includes read so far, and where the clock came from.
    declared: dict[str, str | None] = field(default_factory=dict)
    roots: tuple[str, ...] = ()
    loaded: dict[str, Where] = field(default_factory=dict)
    clock: str = "--now"
    top_defaults: Defaults = field(default_factory=Defaults)

    def load(self, path: str, now: str | None = None, pages: Any = None) -> Site | None:
        display = display_name(path)
        text = read_text(path, self.collector, display)
        if text is None:
            return None
        doc = load_yaml(text, display, self.collector, self.env)
        if doc is None:
            return None
        return self.load_doc(doc, path, now, pages)

    def load_doc(self, doc: Doc, path: str, now: str | None = None, pages: Any = None) -> Site | None:
        """A site description read into ``doc`` (from a YAML file at ``path``, or made
        from objects: then ``path`` is only the folder's anchor for relative names)."""
        display = doc.file
        self.declared = doc.env
        # Sources and includes are read from the description's folder (and the ones allowed).
        self.roots = tuple(os.path.realpath(root) for root in (os.path.dirname(os.path.abspath(path)),
                                                                *self.allow_read))
        self.loaded = {}
        top = _Doc(doc, self.collector)
        data = top.mapping((), doc.data, TOP_KEYS, "the site description")
        if data is None:
            return None
        site = top.mapping(("site",), data.get("site"), SITE_KEYS, "site") if "site" in data else None
        if site is None or "base_url" not in site:
            self.collector.report(
                "C104", "site.base_url is required: the absolute URL relative page URLs resolve against "
                "(site:\\n  base_url: https://www.example.com/)",
                top.where(("site",)) if "site" in data else Where(display, 1, 1),
            )
            return None
        base_url = self._base_url(top, site)
        output = self._output(top, data.get("output"), base_url)
        clock = self._now(top, site, now)
        if base_url is None or output is None:
            return None
        public = output.public_url or base_url
        # Numbered files in a subfolder (pattern: products/sitemap-{n}.xml) are
        # served from it, and may list only URLs below it.
        subfolder = output.pattern.rpartition("/")[0]
        locales = self._locales(top, data.get("locales"), base_url) if "locales" in data else ()
        scope = Scope(
            base_url=base_url,
            origins=frozenset({origin_of(base_url)} | {origin_of(locale.base) for locale in locales}),
            folder=public[: public.rindex("/") + 1] + (quote(subfolder) + "/" if subfolder else ""),
            robots=output.robots is not None,
            locales=locales,
        )
        normaliser = PageNormaliser(scope, self.collector)
        if "x_default" in data:
            setting = parse_x_default(data["x_default"], normaliser, top.doc.value_where(("x_default",)))
            scope = dataclasses.replace(scope, x_default=setting)
        scope = dataclasses.replace(
            scope, now=clock, drop_deprecated=output.drop_deprecated, drop_old_news=output.drop_old_news,
            news_publication=self._news(top, data.get("news"), normaliser) if "news" in data else None,
        )
        normaliser = PageNormaliser(scope, self.collector)
        units: list[Unit] = []
        self._section(top, data, Defaults(), normaliser, units, [os.path.realpath(path)], path)
        if pages is not None:
            units.append(PageStream(pages, self.top_defaults))
        return Site(
            file=display, base_url=base_url, output=output, units=tuple(units), now=clock, scope=scope,
            clock=self.clock,
        )

    # --- parts of the top file ---------------------------------------------------------

    def _base_url(self, top: _Doc, site: dict[str, Any]) -> str | None:
        path: Path = ("site", "base_url")
        raw = top.string(path, site.get("base_url"), "site.base_url")
        if raw is None:
            return None
        url, problems = normalise(raw)
        for problem in problems:
            self.collector.report(problem.code, f"site.base_url: {problem.message}", top.doc.value_where(path), url=raw)
        return url

    def _news(self, top: _Doc, value: Any, normaliser: PageNormaliser) -> Any:
        """news: {publication: {name, language}} -- inherited by every article."""
        raw = top.mapping(("news",), value, ("publication",), "news")
        if not raw or "publication" not in raw:
            return None

        def report(code: str, message: str, field: Field = None, *, suggestion: str | None = None,
                   once: str | None = None) -> None:
            self.collector.report(code, message,
                                  top.where(("news", "publication") + ((field,) if isinstance(field, str) else ())),
                                  suggestion=suggestion)

        ctx = MediaContext(page_loc="", dates=normaliser.dates, resolve=lambda v, f: None, report=report)
        return parse_publication(raw["publication"], ctx)

    def _locales(self, top: _Doc, value: Any, base_url: str) -> tuple[Locale, ...]:
        raw = top.mapping(("locales",), value, (), "locales") if not isinstance(value, dict) else value
        if not raw:
            return ()
        out: list[Locale] = []
        for key, settings in raw.items():
            path: Path = ("locales", key)
            verdict = langtags.judge(key)
            for problem in verdict.problems:
                self.collector.report(problem.code, problem.message, top.where(path), hreflang=key,
                                      suggestion=problem.suggestion)
            if verdict.canonical is None:
                continue
            if verdict.canonical == langtags.X_DEFAULT:
                self.collector.report("C103", "x-default is not a locale; set it with x_default:", top.where(path))
                continue
            if isinstance(settings, str):  # de: /de/  (a prefix)
                settings = {"prefix": settings}
            fields = top.mapping(path, settings, LOCALE_KEYS, f"locale {key}")
            if fields is None:
                continue
            root = base_url[: base_url.index("/", base_url.index("//") + 2) + 1]
            if "host" in fields:
                text = top.string(path + ("host",), fields["host"], f"locales.{key}.host")
                url, url_problems = normalise(text) if text is not None else (None, ())
                for url_problem in url_problems:
                    self.collector.report(url_problem.code, f"locales.{key}.host: {url_problem.message}",
                                          top.doc.value_where(path + ("host",)))
                if url is None:
                    continue
                root = url[: url.index("/", url.index("//") + 2) + 1]
            prefix = "/"
            if "prefix" in fields:
                text = top.string(path + ("prefix",), fields["prefix"], f"locales.{key}.prefix")
                if text is None:
                    continue
                prefix = "/" + text.strip("/") + "/" if text.strip("/") else "/"
            if any(locale.code == verdict.canonical for locale in out):
                self.collector.report("C107", f"locale {verdict.canonical} is defined twice", top.where(path))
                continue
            out.append(Locale(code=verdict.canonical, base=root + prefix.lstrip("/"), host_root=root))
        return tuple(out)

    def _now(self, top: _Doc, site: dict[str, Any], override: str | None) -> float | None:
        """The build's clock: --now, else site.now, else SOURCE_DATE_EPOCH, else the system
        clock (``self.clock`` says which)."""
        if override is not None:
            self.clock = "--now"
            return dates.parse_now(override)
        if "now" in site:
            self.clock = "site.now"
            path: Path = ("site", "now")
            raw = top.string(path, site["now"], "site.now")
            instant = dates.parse_now(raw) if raw is not None else None
            if raw is not None and instant is None:
                self.collector.report("D101", f"site.now '{raw}' is not a W3C date or date-time",
                                      top.doc.value_where(path))
            return instant
        instant, self.clock = dates.default_clock(self.env)
        return instant

    def _output(self, top: _Doc, value: Any, base_url: str | None) -> OutputConfig | None:
        raw = top.mapping(("output",), value, OUTPUT_KEYS, "output")
        if raw is None:
            return None
        config: dict[str, Any] = {}
        ok = self._output_files(top, raw, config)
        ok &= self._output_switches(top, raw, config)
        if "robots" in raw:
            ok &= self._output_robots(top, raw["robots"], config)
        ok &= self._output_limits(top, raw, config)
        if "public_url" in raw:
            ok &= self._output_public_url(top, raw["public_url"], config)
        if not ok:
            return None
        output = OutputConfig(**config)
        return output if self._output_names(top, output) else None

    def _output_files(self, top: _Doc, raw: dict[str, Any], config: dict[str, Any]) -> bool:
        """output.dir and the files' names (into ``config``); whether all are usable."""
        ok = True
        for key in ("dir", "pattern", "news_pattern", "index_file"):
            if key in raw:
                text = top.string(("output", key), raw[key], f"output.{key}")
                ok &= text is not None
                config[key] = text
        for key in ("pattern", "news_pattern", "index_file"):
            name = config.get(key)
            if name is None:
                continue
            problem = _file_name_problem(key, name)
            if problem:
                self.collector.report("C108", f"output.{key} '{name}' {problem}", top.doc.value_where(("output", key)))
                ok = False
        return ok

    def _output_switches(self, top: _Doc, raw: dict[str, Any], config: dict[str, Any]) -> bool:
        """output.index and the switches (into ``config``); whether all are usable."""
        ok = True
        if "index" in raw:
            mode = top.string(("output", "index"), raw["index"], "output.index")
            if mode not in ("auto", "always"):
                self.collector.report("C109", "output.index must be 'auto' (an index when there is more than one "
                                      "file) or 'always'", top.doc.value_where(("output", "index")))
                ok = False
            config["index"] = mode
        for key in ("gzip", "text", "drop_deprecated", "drop_old_news", "versioned", "html", "xsl"):
            if key in raw:
                flag = top.boolean(("output", key), raw[key], f"output.{key}")
                ok &= flag is not None
                config[key] = flag
        return ok

    def _output_limits(self, top: _Doc, raw: dict[str, Any], config: dict[str, Any]) -> bool:
        """output.max_urls and max_bytes (into ``config``); whether both are usable."""
        ok = True
        if "max_urls" in raw:
            config["max_urls"] = top.integer(("output", "max_urls"), raw["max_urls"], "output.max_urls", 1,
                                             MAX_URLS_PER_FILE)
            ok &= config["max_urls"] is not None
        if "max_bytes" in raw:
            config["max_bytes"] = top.integer(("output", "max_bytes"), raw["max_bytes"], "output.max_bytes", 4_096,
                                              MAX_BYTES_PER_FILE)
            ok &= config["max_bytes"] is not None
        return ok

    def _output_robots(self, top: _Doc, value: Any, config: dict[str, Any]) -> bool:
        """output.robots: true, false or a file name (into ``config``); whether it is usable."""
        if isinstance(value, bool):
            config["robots"] = ROBOTS_FILE if value else None
            return True
        name = top.string(("output", "robots"), value, "output.robots")
        if name is not None and not safe_relative_name(name):
            self.collector.report("C108", f"output.robots '{name}' must be a relative file name",
                                  top.doc.value_where(("output", "robots")))
            name = None
        config["robots"] = name
        return name is not None

    def _output_public_url(self, top: _Doc, value: Any, config: dict[str, Any]) -> bool:
        """output.public_url, a folder's URL (into ``config``); whether it is usable."""
        text = top.string(("output", "public_url"), value, "output.public_url")
        url, problems = normalise(text) if text is not None else (None, ())
        for problem in problems:
            self.collector.report(problem.code, f"output.public_url: {problem.message}",
                                  top.doc.value_where(("output", "public_url")))
        if url is not None and not url.endswith("/"):
            url += "/"
        config["public_url"] = url
        return url is not None

    def _output_names(self, top: _Doc, output: OutputConfig) -> bool:
        """Output names that would clash with each other or with sitemap-ext's own files."""
        keys = {"index_file": output.index_file, "pattern": output.pattern, "news_pattern": output.news_pattern,
                "robots": output.robots}
        clash = None
        for key, name in keys.items():
            if name is not None and reserved_name(name):
                clash = key, f"output.{key} '{name}' starts with '.sitemap-ext', which is kept for the manifest, " \
                    "journal and staging folders"
        if output.robots is not None and output.robots.casefold() == output.index_file.casefold():
            clash = "robots", f"output.robots '{output.robots}' is the index's name; the robots line would " \
                "replace the index"
        if output.xsl:
            for key in ("index_file", "robots"):
                name = keys[key]
                if name is not None and name.casefold() == XSL_FILE:
                    clash = key, f"output.{key} '{name}' is the name of the stylesheet output.xsl writes"
        if output.pattern.casefold() == output.news_pattern.casefold():
            clash = "news_pattern", f"output.news_pattern '{output.news_pattern}' is output.pattern; news " \
                "sitemaps would replace the others"
        if clash is None:
            return True
        key, message = clash
        self.collector.report("C108", f"{message}: choose another name", top.doc.value_where(("output", key)))
        return False

    # --- sections (the top file and every include) -------------------------------------

    def _section(
        self, doc: _Doc, data: dict[str, Any], inherited: Defaults, normaliser: PageNormaliser,
        units: list[Unit], stack: list[str], path: str,
    ) -> None:
        defaults = inherited
        if "defaults" in data:
            raw = doc.mapping(("defaults",), data["defaults"], DEFAULT_KEYS, "defaults")
            if raw:
                def where_of(key: str | tuple[str, ...]) -> Where:
                    return doc.doc.value_where(("defaults",) + ((key,) if isinstance(key, str) else key))

                defaults = normaliser.defaults(raw, where_of, inherited)
        if len(stack) == 1:
            self.top_defaults = defaults  # (what pages given by a program inherit)
        for i, entry in enumerate(doc.sequence(("pages",), data.get("pages"), "pages")):
            self._page(doc, ("pages", i), entry, defaults, normaliser, units)
        for i, entry in enumerate(doc.sequence(("sources",), data.get("sources"), "sources")):
            source = self._source(doc, ("sources", i), entry, defaults, path, normaliser)
            if source is not None:
                units.append(source)
        includes = data.get("include")
        if isinstance(includes, str):
            includes = [includes]
        for i, entry in enumerate(doc.sequence(("include",), includes, "include")):
            where = doc.doc.value_where(("include", i)) if isinstance(data.get("include"), list) else \
                doc.doc.value_where(("include",))
            name = doc.string(("include", i), entry, "an include")
            if name is not None:
                self._include(name, where, defaults, normaliser, units, stack, path)

    def _page(
        self, doc: _Doc, path: Path, entry: Any, defaults: Defaults, normaliser: PageNormaliser,
        units: list[Unit],
    ) -> None:
        raw = doc.mapping(path, entry, PAGE_KEYS, "a page")
        if raw is None:
            return
        texts = doc.doc.texts
        fields = {key: (texts.get(path + (key,), value) if key in ("loc", "changefreq") else value)
                  for key, value in raw.items()}
        def where_of(key: str | tuple[str, ...]) -> Where:
            if isinstance(key, tuple):  # a nested key: where the key itself is written
                return doc.where(path + key)
            return doc.doc.value_where(path + (key,))

        page = normaliser.page(fields, where_of, defaults, doc.where(path))
        if page is not None:
            units.append(page)

    def _source(self, doc: _Doc, path: Path, entry: Any, defaults: Defaults, base: str,
                normaliser: PageNormaliser) -> Source | BuiltSite | None:
        if isinstance(entry, str):
            entry = {"file": entry}
        if isinstance(entry, dict) and "site" in entry:
            return self._built_site(doc, path, entry, defaults, base, normaliser)
        raw = doc.mapping(path, entry, SOURCE_KEYS, "a source")
        if raw is None:
            return None
        if "file" not in raw:
            self.collector.report("C104", "a source needs file: (a CSV or JSON Lines path) or site: (a built "
                                  "site's folder)", doc.where(path))
            return None
        name = doc.string(path + ("file",), raw["file"], "source file")
        if name is None:
            return None
        where = doc.doc.value_where(path + ("file",))
        fmt = raw.get("format") or format_of(name)
        if fmt not in ("csv", "jsonl"):
            self.collector.report(
                "S107", f"cannot tell the format of '{name}': name it .csv, .jsonl (optionally .gz) or "
                "give format: csv | jsonl", where,
            )
            return None
        full = os.path.join(os.path.dirname(base), name)
        display = display_name(full)
        if not self._readable(full, name, where, "S108", "source"):
            return None
        if not regular_file(full):
            problem = "is not a regular file (a FIFO, device or folder)" if os.path.exists(full) else "does not exist"
            self.collector.report("S101", f"source file '{name}' {problem} (looked for {display})", where)
            return None
        return Source(path=full, display=display, format=fmt, defaults=defaults, where=where)

    def _built_site(self, doc: _Doc, path: Path, entry: dict[str, Any], defaults: Defaults, base: str,
                    normaliser: PageNormaliser) -> BuiltSite | None:
        """A source ``site: FOLDER``: the pages of a built site (see builtsite.py)."""
        raw = doc.mapping(path, entry, SITE_SOURCE_KEYS, "a built-site source")
        if raw is None:
            return None
        name = doc.string(path + ("site",), raw["site"], "site folder")
        if name is None:
            return None
        where = doc.doc.value_where(path + ("site",))
        base_url = normaliser.scope.base_url
        url = base_url[: base_url.rindex("/") + 1]  # (base_url's folder)
        if raw.get("url") is not None:
            given = doc.string(path + ("url",), raw["url"], "url")
            served = None if given is None else self._served_at(given, doc.doc.value_where(path + ("url",)))
            if served is None:
                return None
            url = served
        drop_ext = raw.get("drop_ext", False)
        if not isinstance(drop_ext, bool):
            self.collector.report("C103", "drop_ext must be true or false", doc.doc.value_where(path + ("drop_ext",)))
            return None
        exclude: tuple[str, ...] = DEFAULT_EXCLUDE
        if "exclude" in raw:
            items = [raw["exclude"]] if isinstance(raw["exclude"], str) else \
                doc.sequence(path + ("exclude",), raw["exclude"], "exclude")
            exclude = tuple(item for i, item in enumerate(items)
                            if doc.string(path + ("exclude", i), item, "an exclude pattern") is not None)
        places: tuple[tuple[str, ...], ...] = DEFAULT_LASTMOD_PLACES
        if "lastmod" in raw:
            items = [raw["lastmod"]] if isinstance(raw["lastmod"], str) else \
                doc.sequence(path + ("lastmod",), raw["lastmod"], "lastmod")
            found = []
            for i, item in enumerate(items):
                place = _lastmod_place(item)
                if place is None:
                    self.collector.report(
                        "C103", f"lastmod place {item!r} is not one of meta:NAME (as meta:article:modified_time), "
                        "time, time.CLASS, time#ID or git", doc.doc.value_where(path + ("lastmod", i)
                                                                             if not isinstance(raw["lastmod"], str)
                                                                             else path + ("lastmod",)))
                    return None
                found.append(place)
            places = tuple(found)
        full = os.path.join(os.path.dirname(base), name)
        display = display_name(full)
        if not self._readable(full, name, where, "S108", "built site"):
            return None
        if not os.path.isdir(full):
            problem = "is not a folder" if os.path.exists(full) else "does not exist"
            self.collector.report("S101", f"built site '{name}' {problem} (looked for {display}); build the "
                                  "site first, or name its output folder", where)
            return None
        return BuiltSite(path=full, display=display, url=url, drop_ext=drop_ext, exclude=exclude,
                         lastmod=places, defaults=defaults, where=where)

    def _served_at(self, given: str, where: Where) -> str | None:
        """A built site's url: an absolute http(s) URL of a folder."""
        url, problems = normalise(given)
        for problem in problems:
            self.collector.report(problem.code, f"url: {problem.message}", where, url=given)
        if url is None:
            return None
        if not url.startswith(("http://", "https://")):
            self.collector.report("C103", "url must be the absolute http(s) URL the built site is served at",
                                  where, url=given)
            return None
        return url if url.endswith("/") else url + "/"

    def _readable(self, full: str, name: str, where: Where, code: str, what: str) -> bool:
        """Whether a source or include lies inside the folders this run may read."""
        if inside(full, self.roots):
            return True
        self.collector.report(
            code, f"{what} '{name}' is outside the site description's folder (after links are followed); "
            "move it into that folder, or allow its folder with --allow-read DIR", where)
        return False

    def _include(
        self, name: str, where: Where, defaults: Defaults, normaliser: PageNormaliser,
        units: list[Unit], stack: list[str], base: str,
    ) -> None:
        full = os.path.join(os.path.dirname(base), name)
        if not self._readable(full, name, where, "C114", "include"):
            return
        real = os.path.realpath(full)
        if real in stack:
            self.collector.report("C106", f"'{name}' includes itself (through {len(stack)} files); remove the "
                                  "include that closes the loop", where)
            return
        if real in self.loaded:
            first = self.loaded[real]
            self.collector.report("C115", f"'{name}' is already included (at {first.file}:{first.line}); "
                                  "it is read once, its pages listed once", where)
            return
        self.loaded[real] = where
        display = display_name(full)
        text = read_text(full, self.collector, display, code="C106", where=where)
        if text is None:
            return
        doc = load_yaml(text, display, self.collector, self.env, self.declared)
        if doc is None:
            return
        sub = _Doc(doc, self.collector)
        data = sub.mapping((), doc.data, INCLUDED_KEYS, f"included file {display}")
        if data is not None:
            self._section(sub, data, defaults, normaliser, units, stack + [real], full)


def _file_name_problem(key: str, name: str) -> str | None:
    """What is wrong with an output file's name (output.pattern, news_pattern, index_file)."""
    if not safe_relative_name(name):
        return "must be a relative name inside the output folder (no '..', no leading '/')"
    if not name.endswith(".xml"):
        return "must end in .xml (with gzip on, .gz is added)"
    if key in ("pattern", "news_pattern") and "{n}" not in name:
        return "must contain {n}, the file's number"
    if key == "index_file" and "{" in name:
        return "takes no placeholders"
    return None


def _lastmod_place(item: Any) -> tuple[str, ...] | None:
    """A place a built page's lastmod is read from, parsed (None: not one)."""
    if not isinstance(item, str):
        return None
    text = item.strip()
    if text == "git":
        return ("git",)
    if text.startswith("meta:") and len(text) > len("meta:"):
        return ("meta", text[len("meta:"):].lower())
    if text == "time":
        return ("time",)
    for mark, kind in ((".", "class"), ("#", "id")):
        if text.startswith("time" + mark) and len(text) > 5 and " " not in text:
            return ("time", kind, text[5:])
    return None


def load_site(
    path: str, collector: Collector, *, env: Mapping[str, str] | None = None, now: str | None = None,
    allow_read: Iterable[str] = (), pages: Any = None,
) -> Site | None:
    """Read a site description; None when it cannot be used at all (see the collector).

    Sources and includes must lie in the description's folder or in ``allow_read``."""
    return _Loader(collector, env, tuple(allow_read)).load(path, now, pages)


OBJECTS = "<site>"  # how findings name a site description made from objects


def load_site_data(data: Mapping[str, Any], collector: Collector, *, now: str | None = None,
                   pages: Any = None) -> Site | None:
    """A site description given as its mapping (``objects.Site.as_yaml()``): the same
    loader and normaliser as a YAML file's; findings are located at ``<site>``.
    ``pages``: an iterable of pages, read as the site is built (a ``PageStream``)."""
    doc = Doc(file=OBJECTS, data=dict(data))
    return _Loader(collector, None, ()).load_doc(doc, os.path.join(os.getcwd(), OBJECTS), now, pages)
