"""The Sphinx extension (``extensions = ["sitemap_ext.sphinx"]``).

For HTML builders (``html``, ``dirhtml``), after the build, it writes the sitemaps
of the build's pages into the output folder and checks them together with the built
pages. Findings that are errors or warnings are Sphinx warnings (type
``sitemap_ext``, subtype the code: ``suppress_warnings = ["sitemap_ext.H112"]``
hides one), so ``sphinx-build -W`` fails on them; infos are logged as information.

Settings, as sphinx-sitemap users set them (its names in brackets):

* ``sitemap_ext_base_url``: where the site is served, the URL the scheme below is
  joined to (default: ``html_baseurl``, which is required one way or the other).
  Sphinx writes each page's canonical link from ``html_baseurl``, so a project
  built one language a time gives each build its own (``-D
  html_baseurl=https://docs.example.com/fr/``) and names the site's root here; the
  check reports canonical links that name another URL (U112, H114).
* ``sitemap_ext_url_scheme`` (``sitemap_url_scheme``): a page's URL below
  ``html_baseurl``, default ``"{lang}{version}{link}"``; ``{lang}`` is
  ``language + "/"`` when ``sitemap_ext_languages`` names languages (else empty),
  ``{version}`` is ``sitemap_ext_version + "/"`` when set, ``{link}`` the page's
  file (``guide.html``, or ``guide/`` with ``dirhtml``).
* ``sitemap_ext_languages`` (``sitemap_locales``): the languages the project is
  built in, one build each (``sphinx-build -D language=fr ...``); every page's
  entry lists its URL in each of them, itself included, as alternates (codes from
  Sphinx's ``zh_CN`` written ``zh-CN``). Default: none (one language, no alternates).
* ``sitemap_ext_x_default``: the version for other languages: a language of the
  list, or a URL; default none.
* ``sitemap_ext_version``: the version in ``{version}`` (a versions list is built
  one version a build, like languages).
* ``sitemap_ext_lastmod``: where a page's lastmod comes from, tried in order:
  ``meta:NAME`` is the page's docinfo field ``NAME`` (``:updated: 2026-11-01`` at
  the top of the page); default ``["meta:updated"]``. Never the build date.
* ``sitemap_ext_exclude``: patterns of page names left out (``drafts/*``); default
  ``["search"]`` (Sphinx's search page is ``noindex``). The pages Sphinx makes of
  no document (``genindex``, ``py-modindex``) are listed like documents.
* ``sitemap_ext_output`` (the keys of ``output:``: ``gzip``, ``max_urls``, ...),
  ``sitemap_ext_defaults`` (``changefreq``, ``priority``, ``lastmod``).
* ``sitemap_ext_check`` (default ``True``), ``sitemap_ext_check_with``: more
  ``{URL: folder}`` checked with this build (the other languages' outputs, for
  return links across them), ``sitemap_ext_now``: the instant dates are judged at.

A setting of a type or value no build can use, and a name ``sitemap_ext_*`` of
conf.py that is no setting, is a warning naming it (type ``sitemap_ext.config``, so
``-W`` fails) when the configuration is read, and no sitemap is written.
"""

from __future__ import annotations

import fnmatch
import os
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

from .. import Alternate, Page, Site, __version__, langtags
from . import _common

logger = logging.getLogger(__name__)


def _collect(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """The pages the builder makes of no document (``genindex``, ``py-modindex``,
    ``search``): pages of the site too."""
    if doctree is None:
        generated: set[str] = getattr(app.builder, "sitemap_ext_generated", set())
        generated.add(pagename)
        app.builder.sitemap_ext_generated = generated  # type: ignore[attr-defined]


def _url(app: Sphinx, base: str, language: str | None, link: str) -> str:
    config = app.config
    lang = f"{language}/" if language and config.sitemap_ext_languages else ""
    version = f"{config.sitemap_ext_version}/" if config.sitemap_ext_version else ""
    return base + str(config.sitemap_ext_url_scheme).format(lang=lang, version=version, link=link)


def _pages(app: Sphinx, base: str, names: list[str]) -> list[Page]:
    """Every document in every language: one page each, its versions the languages'."""
    config = app.config
    languages = list(config.sitemap_ext_languages or [])
    metadata = app.env.metadata
    pages = []
    for name in sorted(names):
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in config.sitemap_ext_exclude):
            continue
        link = app.builder.get_target_uri(name)
        fields = metadata.get(name, {})
        lastmod = next((fields[key[5:]] for key in config.sitemap_ext_lastmod
                        if key.startswith("meta:") and fields.get(key[5:])), None)
        if len(languages) < 2:
            pages.append(Page(loc=_url(app, base, config.language, link), lastmod=lastmod))
            continue
        x_default = config.sitemap_ext_x_default
        if x_default in languages:
            x_default = _url(app, base, x_default, link)
        pages.append(Page(alternates=tuple(Alternate(code=langtags.from_locale(language),
                                                     url=_url(app, base, language, link))
                                           for language in languages),
                          x_default=x_default or None, lastmod=lastmod))
    return pages


def _folders(app: Sphinx, root: str) -> tuple[str, str, str]:
    """(the URL of this build's folder, the URL of the sitemaps' folder, the sitemaps'
    folder on disk). One language's build is served at its folder (``/fr/``); the
    sitemaps list every language and lie in the folder the languages share (``/``),
    as many levels above the output folder as the URLs say, unless
    ``sitemap_ext_outdir`` names it."""
    config = app.config
    here = _url(app, root, config.language, "")
    here = here if here.endswith("/") else here.rsplit("/", 1)[0] + "/"
    urls = [_url(app, root, language, "") for language in (config.sitemap_ext_languages or [config.language])]
    shared = os.path.commonprefix([*urls, here])  # noqa: RUF071 (URLs: cut at the last "/" below)
    shared = shared[:shared.rfind("/") + 1]
    if config.sitemap_ext_outdir:
        return here, shared, os.path.join(app.confdir, config.sitemap_ext_outdir)
    folder = os.fspath(app.outdir)
    for _ in range(here[len(shared):].count("/")):
        folder = os.path.dirname(folder.rstrip(os.sep))
    return here, shared, folder


def _report(findings: list[Any], root: str, ignore: list[str]) -> None:
    for diagnostic in _common.shown(findings, ignore):
        text = _common.line(diagnostic, root)
        if diagnostic.severity.value == "info":
            logger.info(f"sitemap_ext: {text}")
        else:
            logger.warning(f"{diagnostic.severity.value} {text}", type="sitemap_ext", subtype=diagnostic.code)


# every setting, with the kind of value it takes (_common.setting_problem judges it)
_SETTINGS = {"sitemap_ext_base_url": "base_url", "sitemap_ext_url_scheme": "url_scheme",
             "sitemap_ext_languages": "languages", "sitemap_ext_x_default": "x_default_url",
             "sitemap_ext_version": "version", "sitemap_ext_lastmod": "meta_lastmod",
             "sitemap_ext_exclude": "exclude", "sitemap_ext_output": "output", "sitemap_ext_defaults": "defaults",
             "sitemap_ext_check": "check", "sitemap_ext_check_with": "check_with", "sitemap_ext_outdir": "folder",
             "sitemap_ext_ignore": "ignore", "sitemap_ext_now": "now"}


def _problems(config: Any) -> list[str]:
    """What is wrong with the settings, each naming its setting: a value no build can
    use, and a name of conf.py that looks like a setting and is none (a typo)."""
    found = ((name, _common.setting_problem(kind, getattr(config, name))) for name, kind in _SETTINGS.items())
    problems = [f"{name}: {problem}" for name, problem in found if problem is not None]
    given = getattr(config, "_raw_config", {})  # (conf.py's names; Sphinx keeps no other list of them)
    problems += [f"{name}: no setting of sitemap_ext (one of {', '.join(sorted(_SETTINGS))})"
                 for name in sorted(given) if name.startswith("sitemap_ext_") and name not in _SETTINGS]
    return problems


def _config_inited(app: Sphinx, config: Any) -> None:
    """A setting a build cannot use is a Sphinx warning naming it (``-W`` stops there)."""
    for problem in _problems(config):
        logger.warning(f"sitemap_ext: {problem}", type="sitemap_ext", subtype="config")


def _build_finished(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.format != "html" or app.builder.name.startswith("singlehtml"):
        return
    config = app.config
    if _problems(config):  # (each said when the configuration was read)
        logger.warning("sitemap_ext: no sitemaps written: the settings above cannot be used",
                       type="sitemap_ext", subtype="config")
        return
    if not (config.sitemap_ext_base_url or config.html_baseurl):
        logger.warning("sitemap_ext: no sitemaps written: set html_baseurl (or sitemap_ext_base_url), the URL "
                       "the site is served at", type="sitemap_ext", subtype="config")
        return
    root = _common.folder_url(config.sitemap_ext_base_url or config.html_baseurl)
    here, shared, folder = _folders(app, root)
    try:
        site = Site(base_url=shared, output=_common.output_of(config.sitemap_ext_output),
                    defaults=dict(config.sitemap_ext_defaults))
    except TypeError as exc:
        logger.warning(f"sitemap_ext: {exc}", type="sitemap_ext", subtype="config")
        return
    # every document is written, in an incremental build too, and the pages made of none
    names = sorted(set(app.env.found_docs) | getattr(app.builder, "sitemap_ext_generated", set()))
    outdir = os.fspath(app.outdir)
    ok, findings, files = _common.build_pages(site, _pages(app, root, names), folder, now=config.sitemap_ext_now)
    if not ok:
        _report(findings, folder, config.sitemap_ext_ignore)
        logger.warning("sitemap_ext: no sitemaps written: the build of the sitemaps found errors",
                       type="sitemap_ext", subtype="build")
        return
    logger.info(f"sitemap_ext: sitemaps written to {folder}: {', '.join(files)}")
    if config.sitemap_ext_check:
        # this build's pages with the sitemaps; the other languages' folders only where named
        # (each language is its own build: the others may not be built yet)
        also = {url: os.path.join(app.confdir, path) for url, path in (config.sitemap_ext_check_with or {}).items()}
        written = [os.path.join(folder, *name.split("/")) for name in files] if os.path.abspath(folder) != \
            os.path.abspath(outdir) else []
        findings = _common.merged(findings, _common.check_folder(outdir, here, now=config.sitemap_ext_now,
                                                                 also=also, files=written))
    _report(findings, outdir, config.sitemap_ext_ignore)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("sitemap_ext_base_url", None, "", (str, type(None)))
    app.add_config_value("sitemap_ext_url_scheme", "{lang}{version}{link}", "", str)
    app.add_config_value("sitemap_ext_languages", [], "", list)
    app.add_config_value("sitemap_ext_x_default", None, "", (str, type(None)))
    app.add_config_value("sitemap_ext_version", "", "", str)
    app.add_config_value("sitemap_ext_lastmod", ["meta:updated"], "", list)
    app.add_config_value("sitemap_ext_exclude", ["search"], "", list)
    app.add_config_value("sitemap_ext_output", {}, "", dict)
    app.add_config_value("sitemap_ext_defaults", {}, "", dict)
    app.add_config_value("sitemap_ext_check", True, "", bool)
    app.add_config_value("sitemap_ext_check_with", {}, "", dict)
    app.add_config_value("sitemap_ext_outdir", None, "", (str, type(None)))
    app.add_config_value("sitemap_ext_ignore", [], "", list)
    app.add_config_value("sitemap_ext_now", None, "", (str, type(None)))
    app.connect("config-inited", _config_inited)
    app.connect("html-page-context", _collect)
    app.connect("build-finished", _build_finished)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": False}
