"""The MkDocs plugin ``sitemap-ext`` (entry point ``mkdocs.plugins``).

After the build (after every language that mkdocs-static-i18n builds), it writes the
site's sitemaps into ``site_dir`` in place of MkDocs' own ``sitemap.xml`` and
``sitemap.xml.gz``, then checks them together with the built pages. Every finding
of the build and the check goes to MkDocs' logger at its severity (an error as
ERROR, a warning as WARNING, an info as INFO), so ``mkdocs build --strict`` fails on
errors and warnings. When the sitemaps cannot be written (the build of them finds
errors, the output folder's files belong to another site description: O104), the
MkDocs build fails (a plugin error): a deploy never goes out without its sitemap,
nor with MkDocs' template in its place::

    site_url: https://docs.example.com/
    plugins:
      - search
      - i18n:
          languages:
            - {locale: en, default: true, name: English}
            - {locale: fr, name: Français}
      - sitemap-ext

Options, each a key of a site description:

* ``base_url``: ``site.base_url`` (default: MkDocs' ``site_url``, required one way
  or the other: a sitemap lists absolute URLs; without either, the configuration
  is refused).
* ``alternates``: where a page's language versions come from. ``i18n``: from
  mkdocs-static-i18n's languages (each built page is grouped with the pages of the
  other languages at the same path below each language's ``link``; each version at
  its own URL, codes from ``locale`` with ``_`` written ``-``; a page the i18n plugin
  builds from another language's file, untranslated, is no version in the language it
  lacks: it is listed on its own, without hreflang); ``heads``: from the
  built pages' ``<link rel="alternate" hreflang>`` tags (a ``site:`` source, as
  Material writes them); ``auto`` (default): ``i18n`` where the i18n plugin builds
  more than one language, else ``heads``.
* ``x_default``: the version for other languages: ``true`` (default) the i18n
  default language's version; ``false`` none; a locale code or a URL (``i18n`` mode).
* ``lastmod``: where a page's lastmod comes from, tried in order. ``meta:NAME``: in
  ``i18n`` mode the page's metadata ``NAME`` (front matter, or what a plugin such as
  git-revision-date-localized sets); in ``heads`` mode the built-site source's list
  (``meta:NAME`` for a ``<meta>`` tag, ``time``, ``git``). Default: ``[meta:updated]``
  in ``i18n`` mode, the source's default in ``heads`` mode. Never the build date. In
  ``i18n`` mode each language version keeps its own.
* ``exclude``: patterns of built files that are no pages (``drafts/*``; ``*`` matches
  across ``/``; default ``[404.html]``).
* ``output``: the keys of ``output:`` (``gzip``, ``max_urls``, ``index_file``,
  ``text``, ``robots``, ``html``, ``xsl``, ...); ``defaults``: ``changefreq``,
  ``priority``, ``lastmod`` for every page.
* ``check`` (default ``true``): check the written sitemaps with the built pages;
  ``ignore``: codes or prefixes not reported (``[H112]``); ``now``: the instant dates
  are judged at (default: ``SOURCE_DATE_EPOCH``, else the clock); ``jobs``: processes
  of the check (default 1).

An option of a type or value no build can use is MkDocs' own configuration error
naming it (``Config value 'plugins': Plugin 'sitemap-ext' option 'jobs': ...``): the
build is aborted before it starts.

A build from the built pages' heads writes its site description to the project's
``.cache/plugin/sitemap-ext/site.yaml``: the same file each build, which the output
folder's manifest names as the owner of the sitemaps.
"""

from __future__ import annotations

import fnmatch
import logging
import os
from typing import Any
from urllib.parse import urljoin, urlsplit

from mkdocs import plugins
from mkdocs.config import base, config_options
from mkdocs.config.base import ValidationError
from mkdocs.exceptions import Abort, PluginError

from .. import Alternate, Page, Site, langtags
from . import _common

log = plugins.get_plugin_logger(__name__)

_LEVELS = {"error": logging.ERROR, "warning": logging.WARNING, "info": logging.INFO}


class SitemapExtConfig(base.Config):  # type: ignore[no-untyped-call]  # (MkDocs' __init_subclass__ is untyped)
    base_url = config_options.Optional(config_options.Type(str))
    alternates = config_options.Choice(("auto", "i18n", "heads"), default="auto")
    x_default = config_options.Type((bool, str), default=True)
    lastmod = config_options.Optional(config_options.ListOfItems(config_options.Type(str)))
    exclude = config_options.Optional(config_options.ListOfItems(config_options.Type(str)))
    output = config_options.Type(dict, default={})
    defaults = config_options.Type(dict, default={})
    check = config_options.Type(bool, default=True)
    ignore = config_options.ListOfItems(config_options.Type(str), default=[])
    now = config_options.Optional(config_options.Type(str))
    jobs = config_options.Type(int, default=1)

    def validate(self) -> tuple[list[tuple[str, Exception]], list[tuple[str, str]]]:
        """MkDocs' checks of each option's type, then every value through the one judge
        of the integrations' settings: a value no build can use is MkDocs' own
        configuration error (``Config value 'plugins': Plugin 'sitemap-ext' option
        'KEY': ...``), the build aborted before it starts."""
        failed, warnings = super().validate()
        if not failed:
            found = ((key, _common.setting_problem(kind, self[key])) for key, kind in _KINDS.items())
            failed = [(key, ValidationError(problem)) for key, problem in found if problem is not None]
        return failed, warnings


# every option, with the kind of value it takes (_common.setting_problem judges it)
_KINDS = {"base_url": "base_url", "alternates": "alternates", "x_default": "x_default", "lastmod": "lastmod",
          "exclude": "exclude", "output": "output", "defaults": "defaults", "check": "check", "ignore": "ignore",
          "now": "now", "jobs": "jobs"}


# The H102 of built pages, said in MkDocs' terms: Material writes a <link rel="alternate"
# hreflang> in every page's head for each entry of extra.alternate (its language
# selector), through MkDocs' url filter, which makes every link that is no absolute URL
# relative to the page; mkdocs-static-i18n sets those links to each page's versions'
# paths (relative) on every page but the home pages.
_SELECTOR_LINKS = (
    "the {count} H102 above are the hreflang links of the pages' heads, which Material writes from extra.alternate "
    "(its language selector) as given: MkDocs makes a link that is no absolute URL relative to the page, and "
    "mkdocs-static-i18n sets the links to each page's versions (relative). Google reads only absolute hreflang URLs. "
    "Fix: with mkdocs-static-i18n, set its option reconfigure_material: false and give no extra.alternate (the "
    "sitemap lists every page's language versions; Material then shows no language selector); without it, give "
    "each extra.alternate entry an absolute link ({example})")


def _i18n_plugin(config: Any) -> Any:
    """mkdocs-static-i18n's plugin object, found by its module (nothing of it is
    imported here), or None."""
    for plugin in config.plugins.values():
        if type(plugin).__module__.split(".")[0] == "mkdocs_static_i18n":
            return plugin
    return None


def _description(config: Any) -> str:
    """Where the site description of a build from the built pages is written: fixed per
    project (the output folder's manifest names it as the owner of the sitemaps from
    build to build), in the project's ``.cache/plugin/`` as other MkDocs plugins do."""
    project = os.path.dirname(os.path.abspath(config.config_file_path or "mkdocs.yml"))
    return os.path.join(project, ".cache", "plugin", "sitemap-ext", "site.yaml")


class SitemapExtPlugin(plugins.BasePlugin[SitemapExtConfig]):  # type: ignore[no-untyped-call]  # (as above)
    """Writes and checks the site's sitemaps after the build (see the module's text)."""

    def __init__(self) -> None:
        self._depth = 0  # builds under way: mkdocs-static-i18n builds each language inside the first build
        # (the language built, the language of the page's text, url, dest_uri, meta)
        self._pages: list[tuple[str, str, str, str, dict[str, Any]]] = []

    # MkDocs' own sitemap.xml (and its .gz) is not written: ours takes its place. The
    # i18n plugin reconfigures the theme before each language's build (priority -100),
    # so this runs after it. A sitemap lists absolute URLs: without one to start from
    # the configuration is wrong, and said so as MkDocs says a configuration error (a
    # plugin's options are validated without the rest of mkdocs.yml: this is the first
    # event that sees site_url), before the site folder is touched.
    @plugins.event_priority(-110)
    def on_config(self, config: Any) -> Any:
        if not (self.config.base_url or config.site_url):
            log.error("Config value 'site_url': required by the plugin 'sitemap-ext' (a sitemap lists absolute "
                      "URLs): set site_url: https://docs.example.com/ in mkdocs.yml (or the plugin's base_url)")
            raise Abort("Aborted with a configuration error!")
        config.theme.static_templates.discard("sitemap.xml")
        return config

    # Out of the static templates, the theme's sitemap.xml would be copied as it is (a
    # Jinja template where the sitemap goes): it is no file of the site.
    @plugins.event_priority(-110)
    def on_files(self, files: Any, *, config: Any) -> Any:
        template = files.get_file_from_path("sitemap.xml")
        if template is not None and any(os.path.realpath(template.abs_src_path) ==
                                        os.path.realpath(os.path.join(folder, "sitemap.xml"))
                                        for folder in config.theme.dirs):
            files.remove(template)
        return files

    def on_pre_build(self, *, config: Any) -> None:
        if self._depth == 0:
            self._pages = []
        self._depth += 1

    def on_build_error(self, *, error: Exception) -> None:
        self._depth = 0

    @plugins.event_priority(-110)
    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        plugin = _i18n_plugin(config)
        locale = getattr(plugin, "current_language", None) if plugin is not None else None
        url = page.canonical_url or urljoin(config.site_url or "", page.url)
        # (mkdocs-static-i18n's File.locale: the language of the file the page is made of)
        text = getattr(page.file, "locale", None) or locale or ""
        self._pages.append((locale or "", str(text), url, page.file.dest_uri, dict(page.meta or {})))
        return output

    # After mkdocs-static-i18n's on_post_build (priority -100), which builds the other
    # languages: only the outermost build writes, once every language is built.
    @plugins.event_priority(-110)
    def on_post_build(self, *, config: Any) -> None:
        self._depth = max(self._depth - 1, 0)
        if self._depth:
            return
        base_url = _common.folder_url(self.config.base_url or config.site_url)
        site_dir = config.site_dir
        try:
            site = Site(base_url=base_url, output=_common.output_of(self.config.output),
                        defaults=dict(self.config.defaults))
        except TypeError as exc:
            raise PluginError(f"sitemap-ext: no sitemaps written: plugin options: {exc}") from exc
        plugin = _i18n_plugin(config)
        mode = self.config.alternates
        if mode == "auto":
            mode = "i18n" if plugin is not None and len(self._languages(plugin)) > 1 else "heads"
        if mode == "i18n" and plugin is None:
            raise PluginError("sitemap-ext: alternates: i18n needs the i18n plugin (mkdocs-static-i18n) in plugins")
        if mode == "i18n":
            ok, findings, files = _common.build_pages(site, self._i18n_pages(plugin, base_url), site_dir,
                                                      now=self.config.now)
        else:
            ok, findings, files = _common.build_built_site(site_dir, site, url=base_url, lastmod=self.config.lastmod,
                                                           exclude=self.config.exclude, now=self.config.now,
                                                           description=_description(config))
        if not ok:
            self._report(findings, site_dir, config)
            raise PluginError("sitemap-ext: no sitemaps written: the build of the sitemaps found errors (above)")
        log.info(f"sitemaps written to {site_dir}: {', '.join(files)}")
        if self.config.check:
            findings = _common.merged(findings, _common.check_folder(site_dir, base_url, now=self.config.now,
                                                                     jobs=self.config.jobs))
        self._report(findings, site_dir, config)

    def _report(self, findings: list[Any], root: str, config: Any = None) -> None:
        relative = 0
        for diagnostic in _common.shown(findings, self.config.ignore):
            log.log(_LEVELS[diagnostic.severity.value], _common.line(diagnostic, root))
            relative += diagnostic.code == "H102" and (diagnostic.file or "").endswith((".html", ".htm"))
        if relative and config is not None and config.extra.get("alternate"):
            log.info(_SELECTOR_LINKS.format(count=relative, example=urljoin(config.site_url or "", "fr/")))

    @staticmethod
    def _languages(plugin: Any) -> dict[str, Any]:
        """The languages the i18n plugin builds, by locale."""
        return {language.locale: language for language in plugin.config.languages
                if language.build and language.locale != "null"}

    def _i18n_pages(self, plugin: Any, base_url: str) -> list[Page]:
        """One page per path below the languages' links: each language's version at
        its own URL (as MkDocs wrote it), the default language's as x-default. A page
        built for one language from another's file (mkdocs-static-i18n's
        ``fallback_to_default``: the English text under ``/fr/``) is no version in that
        language (hreflang says the language of a page's content): it is listed on its
        own, without alternates (an indexable page of the site, U114 if unlisted)."""
        languages = self._languages(plugin)
        default = next((locale for locale, language in languages.items() if language.default), None)
        keys = ("meta:updated",) if self.config.lastmod is None else tuple(self.config.lastmod)
        exclude = ["404.html"] if self.config.exclude is None else list(self.config.exclude)
        clusters: dict[str, dict[str, tuple[str, Any]]] = {}
        fallbacks: list[Page] = []
        for locale, text, url, dest_uri, meta in self._pages:
            if any(fnmatch.fnmatchcase(dest_uri, pattern) for pattern in exclude) or locale not in languages:
                continue
            lastmod = next((meta[name[5:]] for name in keys if name.startswith("meta:") and meta.get(name[5:])),
                           None)
            if text != locale:
                fallbacks.append(Page(loc=url, lastmod=lastmod))
                continue
            key = self._key(url, languages[locale].link, base_url)
            clusters.setdefault(key, {})[locale] = (url, lastmod)
        if fallbacks:
            log.info(f"{len(fallbacks)} pages built from another language's text (mkdocs-static-i18n's fallback) "
                     f"listed without hreflang: {', '.join(sorted(str(page.loc) for page in fallbacks))}")
        return [self._cluster(versions, default) for versions in clusters.values()] + fallbacks

    def _cluster(self, versions: dict[str, tuple[str, Any]], default: str | None) -> Page:
        """The page of one path: its versions (locale -> URL and lastmod) as alternates,
        each with its own lastmod, or a plain page when there is one version."""
        if len(versions) == 1:
            ((url, lastmod),) = versions.values()
            return Page(loc=url, lastmod=lastmod)
        x_default = None
        if self.config.x_default is True and default in versions:
            x_default = versions[default][0]
        elif isinstance(self.config.x_default, str):
            x_default = versions[self.config.x_default][0] if self.config.x_default in versions \
                else self.config.x_default if "/" in self.config.x_default else None
        # each version its own lastmod (its page's `updated`): the build writes each
        # entry's, and one date where they all say the same
        alternates = tuple(Alternate(code=langtags.from_locale(locale), url=url, lastmod=lastmod)
                           for locale, (url, lastmod) in versions.items())
        return Page(alternates=alternates, x_default=x_default)

    @staticmethod
    def _key(url: str, link: str, base_url: str) -> str:
        """A page's path below its language's link (``fr/setup/`` under ``/fr/`` is
        ``setup/``): the pages of one path in every language are one cluster."""
        base_path = urlsplit(base_url).path
        path = urlsplit(url).path
        prefix = base_path.rstrip("/") + "/" + link.strip("/") + "/" if link.strip("/") else base_path
        if path.startswith(prefix):
            return path[len(prefix):]
        if path + "/" == prefix:
            return ""
        return os.fspath(path)
