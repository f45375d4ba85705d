"""The Sphinx extension (``extensions = ["sitemap_ext.sphinx"]``).

For HTML builders (``html``, ``dirhtml``), after the build, it writes the sitemaps
of the build's pages into the builder's output folder, where the HTML is (what ``make
html`` and Read the Docs deploy; ``sitemap_ext_outdir`` names another), and checks
them together with the built pages. Findings that are errors or warnings are Sphinx warnings (type
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
  built in, one build each (``sphinx-build -D language=fr ... _build/html/fr``): a
  list of codes (each language's URLs by the scheme), or a mapping of each code to
  the URL its build is served at (``{"en": "https://docs.example.com/en/", "fr":
  ...}``; the scheme's ``{lang}`` is then empty). Each build's sitemap lists its own
  language's pages (a sitemap lists URLs below its folder only), and every page's
  head gets a ``<link rel="alternate" hreflang>`` to its URL in each language,
  itself included, and to the x-default (codes from Sphinx's ``zh_CN`` written
  ``zh-CN``): search engines read alternates from heads as from sitemaps, and each
  build's heads name every language, so the built languages together are
  reciprocal (``sitemap-ext check _build/html/en _build/html/fr --base-url ...``
  says so). Default: none (one language, no alternates). ``language`` and these
  codes are judged as hreflang codes when the configuration is read: ``jp`` is a
  warning with its fix (``ja``), as is a build whose ``language`` is not listed.
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
import html
import os
from collections.abc import Iterator, Mapping
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

from .. import Page, Site, __version__, langtags
from ..codes import REGISTRY
from . import _common

logger = logging.getLogger(__name__)


def _page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """Note the pages the builder makes of no document (``genindex``, ``py-modindex``,
    ``search``: pages of the site too), and write each listed page's language versions
    into its head (``<link rel="alternate" hreflang>``, every language's, itself
    included, and the x-default): each build is one language's, so its sitemap lists
    that language's URLs only, and the heads of every build say the versions."""
    if doctree is None:
        generated: set[str] = getattr(app.builder, "sitemap_ext_generated", set())
        generated.add(pagename)
        app.builder.sitemap_ext_generated = generated  # type: ignore[attr-defined]
    config = app.config
    root = config.sitemap_ext_base_url or config.html_baseurl
    usable = getattr(app.builder, "sitemap_ext_usable", None)  # (the settings judged once a build)
    if usable is None:
        usable = app.builder.sitemap_ext_usable = not _problems(config)  # type: ignore[attr-defined]
    if len(config.sitemap_ext_languages or ()) < 2 or not root or not usable or \
            any(fnmatch.fnmatchcase(pagename, pattern) for pattern in config.sitemap_ext_exclude):
        return
    link = app.builder.get_target_uri(pagename)
    heads = [(langtags.from_locale(language), _url(app, _common.folder_url(root), language, link))
             for language in config.sitemap_ext_languages]
    x_default = _x_default(app, _common.folder_url(root), link)
    if x_default:
        heads.append(("x-default", x_default))
    tags = "".join(f'<link rel="alternate" hreflang="{html.escape(code)}" href="{html.escape(url)}" />\n'
                   for code, url in heads)
    context["metatags"] = context.get("metatags", "") + tags


def _url(app: Sphinx, root: str, language: str | None, link: str) -> str:
    """A page's URL in ``language``: below its URL in ``sitemap_ext_languages`` when
    that maps languages to URLs, else below the root by the URL scheme."""
    config = app.config
    languages = config.sitemap_ext_languages
    version = f"{config.sitemap_ext_version}/" if config.sitemap_ext_version else ""
    if isinstance(languages, Mapping) and language in languages:
        return _common.folder_url(languages[language]) + str(config.sitemap_ext_url_scheme).format(
            lang="", version=version, link=link)
    lang = f"{language}/" if language and languages else ""
    return root + str(config.sitemap_ext_url_scheme).format(lang=lang, version=version, link=link)


def _x_default(app: Sphinx, root: str, link: str) -> str | None:
    x_default: str | None = app.config.sitemap_ext_x_default
    if x_default in (app.config.sitemap_ext_languages or ()):
        return _url(app, root, x_default, link)
    return x_default or None


def _pages(app: Sphinx, root: str, names: list[str]) -> list[Page]:
    """This build's documents in its language, one page each (their versions in the
    other languages are said in the heads: each language is a build of its own)."""
    config = app.config
    metadata = app.env.metadata
    pages = []
    for name in sorted(names):
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in config.sitemap_ext_exclude):
            continue
        fields = metadata.get(name, {})
        lastmod = next((fields[key[5:]] for key in config.sitemap_ext_lastmod
                        if key.startswith("meta:") and fields.get(key[5:])), None)
        pages.append(Page(loc=_url(app, root, config.language, app.builder.get_target_uri(name)), lastmod=lastmod))
    return pages


def _folders(app: Sphinx, root: str) -> tuple[str, str]:
    """(the URL of this build's folder, the sitemaps' folder on disk): the builder's
    output folder, where the HTML is (what ``make html`` and Read the Docs deploy),
    unless ``sitemap_ext_outdir`` names another."""
    config = app.config
    here = _url(app, root, config.language, "")
    here = here if here.endswith("/") else here.rsplit("/", 1)[0] + "/"
    if config.sitemap_ext_outdir:
        return here, os.path.join(app.confdir, config.sitemap_ext_outdir)
    return here, os.fspath(app.outdir)


def _report(findings: list[Any], root: str, ignore: list[str]) -> None:
    for diagnostic in _common.shown(findings, ignore):
        text = _common.line(diagnostic, root)
        if diagnostic.severity.value == "info":
            logger.info(f"sitemap_ext: {text}")
        else:
            logger.warning(f"{diagnostic.severity.value} {text}", type="sitemap_ext", subtype=diagnostic.code)


# every setting, with the kind of value it takes (_common.setting_problem judges it)
_SETTINGS = {"sitemap_ext_base_url": "base_url", "sitemap_ext_url_scheme": "url_scheme",
             "sitemap_ext_languages": "languages_or_urls", "sitemap_ext_x_default": "x_default_url",
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


def _languages_judged(config: Any) -> Iterator[tuple[str, str, str]]:
    """(severity, code, text) of what Google says of ``language`` and the languages of
    ``sitemap_ext_languages`` as hreflang codes (Sphinx takes ``jp`` without a word)."""
    names = [config.language] if isinstance(config.language, str) else []
    languages = config.sitemap_ext_languages
    names += [name for name in (languages if isinstance(languages, (list, tuple, Mapping)) else ())
              if isinstance(name, str) and name not in names]
    for name in names:
        setting = "language" if name == config.language else "sitemap_ext_languages"
        for problem in langtags.judge(langtags.from_locale(name)).problems:
            fix = "" if not problem.suggestion else f" (fix: language = {problem.suggestion!r})" \
                if setting == "language" else f" (fix: {problem.suggestion!r})"
            yield REGISTRY[problem.code].severity.value, problem.code, \
                f"{setting} {name!r}: {problem.code} {problem.message}{fix}"
    if languages and isinstance(languages, (list, tuple, Mapping)) and config.language not in languages:
        yield "warning", "config", (f"language {config.language!r} is none of sitemap_ext_languages "
                                    f"({', '.join(map(str, languages))}): its pages' heads name no version of "
                                    "their own (add it, or build one of those)")


def _config_inited(app: Sphinx, config: Any) -> None:
    """A setting a build cannot use is a Sphinx warning naming it (``-W`` stops there);
    so is a language Google takes for no language (``jp``: the fix is ``ja``)."""
    for problem in _problems(config):
        logger.warning(f"sitemap_ext: {problem}", type="sitemap_ext", subtype="config")
    for severity, code, text in _languages_judged(config):
        if severity == "info":
            logger.info(f"sitemap_ext: {text}")
        else:
            logger.warning(f"sitemap_ext: {'' if code == 'config' else severity + ' '}{text}", type="sitemap_ext",
                           subtype=code)


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
    here, folder = _folders(app, root)
    try:
        site = Site(base_url=here, output=_common.output_of(config.sitemap_ext_output),
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
    app.add_config_value("sitemap_ext_languages", [], "", (list, dict))
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
    app.connect("html-page-context", _page_context)
    app.connect("build-finished", _build_finished)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": False}
