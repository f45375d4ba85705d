"""Site description (YAML files) to a ``Site``: every problem reported, none fatal early.

The top-level file names the site, its output and its pages; ``include:`` merges
other files (each with its own ``pages``, ``sources``, ``defaults`` and
``include``, paths relative to itself). Pages keep description order: a file's
own pages, then its sources, then its includes, depth first.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from .. import dates, langtags
from ..diagnostics import NOWHERE, Collector, Diagnostic, Where
from ..ext.media import Field, MediaContext
from ..ext.news import parse_publication
from ..folder import DEFAULT_EXCLUDE, is_error_page
from ..read.description_file import OBJECTS, TypedDoc, display_name, read_text
from ..read.description_findings import given_twice, missing, wrong_shape
from ..read.normalised import BuiltSite, Defaults, OutputConfig, PageStream, Scope, Source, Unit
from ..read.normalised import NormalisedLocale as Locale
from ..read.normalised import NormalisedPage as Page
from ..read.normalised import NormalisedSite as Site
from ..read.sources import SourceReader
from ..read.yaml_doc import Doc, Path, load_yaml
from ..rules.locs import unreachable_host
from ..urls import normalise, origin_of, origin_text, unreachable
from ..write.site_output import OUTPUT_KEYS, ROBOTS_FILE, read_output
from .page_normaliser import PAGE_KEYS, PageNormaliser, parse_x_default, source_column
from .site_sources import SITE_SOURCE_KEYS, SOURCE_KEYS, SourceEntries

# (The names other modules and the tests import from here, defined in the parts.)
__all__ = [
    "DEFAULT_EXCLUDE", "DEFAULT_KEYS", "INCLUDED_KEYS", "LOCALE_KEYS", "OBJECTS", "OUTPUT_KEYS", "ROBOTS_FILE",
    "SITE_KEYS", "SITE_SOURCE_KEYS", "SOURCE_KEYS", "TOP_KEYS", "display_name", "is_error_page", "load_site",
    "load_site_data", "read_text",
]

TOP_KEYS = ("site", "env", "locales", "x_default", "news", "defaults", "pages", "sources", "include", "output")
LOCALE_KEYS = ("prefix", "host")
INCLUDED_KEYS = ("defaults", "pages", "sources", "include")
SITE_KEYS = ("base_url", "now")
DEFAULT_KEYS = ("lastmod", "changefreq", "priority")


def stand_in() -> str:
    """What a description without a usable base_url is joined to: a host that never
    resolves (RFC 6761) and that no description can name, as it is drawn anew for
    each run; its scope says it is no base (``Scope.based``)."""
    return f"https://base-url-{secrets.token_hex(8)}.invalid/"


# Findings on a page whose URL was joined to the stand-in that judge that URL or
# compare it with another (a URL's form, an image's or an uploader's host, an
# article's age stated with its URL): what they say depends on the real base.
_ON_THE_PAGES_URL = frozenset({"I104", "V103", "V111", "N110"})


@dataclass
class _WithoutBase(Collector):
    """The findings on a description judged against a stand-in base. The normaliser
    makes no finding on a URL joined to it (``Scope.based``); a finding the flow or a
    page's media make about a page at such a URL (its ``url``) is left out when it
    judges that URL (a U code, or one of ``_ON_THE_PAGES_URL``), and keeps its words
    without the made-up URL otherwise."""

    base: str = ""

    def report(self, code: str, message: str, where: Where = NOWHERE, **extra: Any) -> Diagnostic | None:
        url = extra.get("url")
        if isinstance(url, str) and url.startswith(self.base):
            if code[0] == "U" or code in _ON_THE_PAGES_URL:
                return None
            extra["url"] = None
        return super().report(code, message, where, **extra)


def judge_pages(site: Site, collector: Collector) -> None:
    """Every page of ``site`` (its sources' rows, its built sites' pages) judged as a
    dry build judges them, for a description that cannot be built."""
    from .built_site import pages as built_pages
    from .judge import BuildJudge
    from .page_flow import PageFlow, SourceRows

    assert site.scope is not None
    flow = PageFlow(collector, site.now, None)
    normaliser = PageNormaliser(site.scope, collector)
    for unit in site.units:
        if isinstance(unit, Page):
            flow(unit)
        elif isinstance(unit, Source):
            reader = SourceReader(unit.path, unit.display, unit.format, collector, source_column, source=unit.where)
            for _ in SourceRows(site, unit, normaliser, flow).records(reader):
                pass
        elif isinstance(unit, BuiltSite):  # (its pages' heads judged as the check of them judges them)
            heads = BuildJudge(collector, site.now)
            for page in built_pages(unit, normaliser, collector, heads=heads):
                flow(page)
            heads.finish(lambda _key: "")


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
        top = TypedDoc(doc, self.collector)
        data = top.mapping((), doc.data, TOP_KEYS, "the site description")
        if data is None:
            return None
        site = top.mapping(("site",), data.get("site"), SITE_KEYS, "site") if "site" in data else None
        base_url = None
        if site is None or "base_url" not in site:
            missing(
                self.collector.report, "site.base_url is required: the absolute URL relative page URLs resolve against "
                "(under site:, give base_url: https://www.example.com/)",
                top.where(("site",)) if "site" in data else Where(display, 1, 1),
            )
        else:
            base_url = self._base_url(top, site)
        output = read_output(top, self.collector, data.get("output"), self.roots)
        clock = self._now(top, site or {}, now)
        if output is None:
            return None
        if base_url is None:  # the rest is still judged, against a stand-in base
            self._judge_without_base(doc, data, output, clock, path)
            return None
        return self._site(top, data, base_url, output, clock, path, pages)

    def _site(self, top: TypedDoc, data: dict[str, Any], base_url: str, output: OutputConfig, clock: float | None,
              path: str, pages: Any, *, based: bool = True) -> Site:
        """The site of a description whose top file (``data``) has been judged so far."""
        public = output.public_url or base_url
        if unreachable(origin_text(public)) is None and (why := unreachable(origin_text(base_url))) is not None:
            unreachable_host(self.collector.report, origin_text(base_url), why,  # U117, as a check of the files says
                             top.doc.value_where(("site", "base_url")), base_url, "its pages")
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
            based=based,
        )
        normaliser = PageNormaliser(scope, self.collector)
        if "x_default" in data:
            setting = parse_x_default(data["x_default"], normaliser.resolver, top.doc.value_where(("x_default",)))
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
            file=top.doc.file, base_url=base_url, output=output, units=tuple(units), now=clock, scope=scope,
            clock=self.clock,
        )

    def _judge_without_base(self, doc: Doc, data: dict[str, Any], output: OutputConfig, clock: float | None,
                            path: str) -> None:
        """With no usable base_url, the rest of the description (its keys, values, codes,
        includes and sources' rows) judged against a stand-in base that says it is
        none: the findings that depend on the base are not made. Nothing is built."""
        real = self.collector
        base = stand_in()
        self.collector = scratch = _WithoutBase(real.registry, limit=None, policy=real.policy,
                                                redactions=real.redactions, base=base)
        try:
            site = self._site(TypedDoc(doc, scratch), data, base, output, clock, path, None, based=False)
            judge_pages(site, scratch)
        finally:
            self.collector = real
        real.merge(scratch.diagnostics, scratch.suppressed, scratch.ignored)

    # --- parts of the top file ---------------------------------------------------------

    def _base_url(self, top: TypedDoc, site: dict[str, Any]) -> str | None:
        path: Path = ("site", "base_url")
        raw = top.string(path, site.get("base_url"), "site.base_url")
        if raw is None:
            return None
        url, problems = normalise(raw)
        for problem in problems:
            self.collector.report(problem.code, f"site.base_url: {problem.message}", top.doc.value_where(path), url=raw)
        return url

    def _news(self, top: TypedDoc, value: Any, normaliser: PageNormaliser) -> Any:
        """news: {publication: {name, language}} -- inherited by every article."""
        raw = top.mapping(("news",), value, ("publication",), "news")
        if not raw or "publication" not in raw:
            return None

        def report(code: str, message: str, field: Field = None, *, suggestion: str | None = None,
                   once: str | None = None) -> None:
            self.collector.report(code, message,
                                  top.where(("news", "publication") + ((field,) if isinstance(field, str) else ())),
                                  suggestion=suggestion)

        ctx = MediaContext(page_loc="", dates=normaliser.fields.dates, resolve=lambda v, f: None, report=report)
        return parse_publication(raw["publication"], ctx)

    def _locales(self, top: TypedDoc, value: Any, base_url: str) -> tuple[Locale, ...]:
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
                wrong_shape(self.collector.report, "x-default is not a locale; set it with x_default:",
                            top.where(path))
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
                given_twice(self.collector.report, f"locale {verdict.canonical} is defined twice", top.where(path))
                continue
            out.append(Locale(code=verdict.canonical, base=root + prefix.lstrip("/"), host_root=root))
        return tuple(out)

    def _now(self, top: TypedDoc, site: dict[str, Any], override: str | None) -> float | None:
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
                problem = dates.bad_clock("site.now", raw)
                self.collector.report(problem.code, problem.message, top.doc.value_where(path))
            return instant
        instant, self.clock = dates.default_clock(self.env)
        return instant


    def _section(
        self, doc: TypedDoc, data: dict[str, Any], inherited: Defaults, normaliser: PageNormaliser,
        units: list[Unit], stack: list[str], path: str,
    ) -> None:
        defaults = inherited
        if "defaults" in data:
            raw = doc.mapping(("defaults",), data["defaults"], DEFAULT_KEYS, "defaults")
            if raw:
                def where_of(key: str | tuple[str, ...]) -> Where:
                    return doc.doc.value_where(("defaults",) + ((key,) if isinstance(key, str) else key))

                defaults = normaliser.fields.defaults(raw, where_of, inherited)
        if len(stack) == 1:
            self.top_defaults = defaults  # (what pages given by a program inherit)
        for i, entry in enumerate(doc.sequence(("pages",), data.get("pages"), "pages")):
            self._page(doc, ("pages", i), entry, defaults, normaliser, units)
        for i, entry in enumerate(doc.sequence(("sources",), data.get("sources"), "sources")):
            source = SourceEntries(self.collector, self.roots).read(doc, ("sources", i), entry, defaults, path,
                                                                    normaliser)
            if isinstance(source, list):  # (a folder's parts)
                units.extend(source)
            elif source is not None:
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
        self, doc: TypedDoc, path: Path, entry: Any, defaults: Defaults, normaliser: PageNormaliser,
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

    def _include(
        self, name: str, where: Where, defaults: Defaults, normaliser: PageNormaliser,
        units: list[Unit], stack: list[str], base: str,
    ) -> None:
        full = os.path.join(os.path.dirname(base), name)
        if not SourceEntries(self.collector, self.roots).readable(full, name, where, "include"):
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
        sub = TypedDoc(doc, self.collector)
        data = sub.mapping((), doc.data, INCLUDED_KEYS, f"included file {display}")
        if data is not None:
            self._section(sub, data, defaults, normaliser, units, stack + [real], full)


def load_site(
    path: str, collector: Collector, *, env: Mapping[str, str] | None = None, now: str | None = None,
    allow_read: Iterable[str] = (), pages: Any = None,
) -> Site | None:
    """Read a site description; None when it cannot be used at all (see the collector).

    Sources and includes must lie in the description's folder or in ``allow_read``."""
    return _Loader(collector, env, tuple(allow_read)).load(path, now, pages)


def load_site_data(data: Mapping[str, Any], collector: Collector, *, now: str | None = None,
                   pages: Any = None) -> Site | None:
    """A site description given as its mapping (``model.Site.as_yaml()``): the same
    loader and normaliser as a YAML file's; findings are located at ``<site>``.
    ``pages``: an iterable of pages, read as the site is built (a ``PageStream``)."""
    doc = Doc(file=OBJECTS, data=dict(data))
    return _Loader(collector, None, ()).load_doc(doc, os.path.join(os.getcwd(), OBJECTS), now, pages)
