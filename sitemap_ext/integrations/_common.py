"""What the integrations share: building into a tool's output folder with the public
API, checking that folder with its pages, and turning findings into lines of text
for the tool's own reporting. Imports nothing of any tool."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import string
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import yaml

from .. import Diagnostic, Output, Site, build, check
from ..dates import parse_now
from ..report.formats import visible
from ..rules.config import ConfigError, make_policy, split_codes
from ..write.site_yaml import DEFAULT_KEYS

SEVERITIES = ("error", "warning", "info")


@dataclass
class Outcome:
    """What one integration run did: the findings of the build and of the check (in
    that order, each sorted), the files written, and whether it wrote anything."""

    findings: list[Diagnostic] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    built: bool = False
    checked: bool = False

    def count(self, severity: str) -> int:
        return sum(1 for d in self.findings if d.severity.value == severity)


def output_of(options: Mapping[str, Any] | None) -> Output:
    """An ``Output`` from a tool's ``output`` option (the keys of ``output:`` in a
    site description); an unknown key is a ``TypeError`` naming it."""
    return Output(**dict(options or {}))


def setting_problem(key: str, value: Any) -> str | None:
    """What is wrong with the value of a tool's setting of the kind ``key`` (one of
    ``SETTING_KINDS``: ``base_url``, ``ignore``, ``now``, ``output``, ...), for the tool
    to report as its own configuration error naming the setting; None when a build
    can use it (None itself: the setting is not set). The one judge of the three
    tools' settings: a value it passes never ends in a traceback. What only a build
    can judge (a relative base URL, a priority of 7 in ``defaults``, an output value)
    stays the build's coded finding."""
    if value is None:
        return None
    return _JUDGES[key](value)


def keys_problem(value: Any, known: Iterable[str], what: str) -> str | None:
    """What is wrong with a mapping of the keys ``known`` (``what`` names it): not a
    mapping, or a key it has no use for."""
    known = sorted(known)
    if not isinstance(value, Mapping):
        return f"must be a mapping of the keys of {what} ({', '.join(known)}), not {_kind(value)}"
    unknown = sorted(repr(name) if not isinstance(name, str) else name for name in value if name not in known)
    if unknown:
        return f"{', '.join(unknown)}: no key of {what} (one of {', '.join(known)})"
    return None


def _kind(value: Any) -> str:
    return type(value).__name__


def _text(what: str) -> Callable[[Any], str | None]:
    def judge(value: Any) -> str | None:
        return None if isinstance(value, str) else f"must be {what}, not {_kind(value)}"
    return judge


def _flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"must be True or False, not {_kind(value)}"


def _filled(text: str) -> str | None:
    return None if text.strip() else "is empty"


def _texts(what: str, item: Callable[[str], str | None] = _filled) -> Callable[[Any], str | None]:
    """A list of strings, each one ``item`` passes (it says what is wrong with one)."""
    def judge(value: Any) -> str | None:
        if not isinstance(value, (list, tuple)):
            return f"must be a list of {what}, not {_kind(value)}"
        for entry in value:
            problem = item(entry) if isinstance(entry, str) else f"is {_kind(entry)}, not a string"
            if problem is not None:
                return f"must be a list of {what}: {entry!r} {problem}"
        return None
    return judge


def _codes(value: Any) -> str | None:
    problem = _texts("codes, prefixes or rule names (['H112'])")(value)
    if problem is not None:
        return problem
    try:
        make_policy([], split_codes(value), {})
    except ConfigError as exc:
        return str(exc)
    return None


def _now(value: Any) -> str | None:
    if isinstance(value, (dt.date, dt.datetime)):
        return None
    if not isinstance(value, str):
        return f"must be a W3C date or date-time (2026-11-21T09:00:00Z), not {_kind(value)}"
    if parse_now(value) is None:
        return f"{value!r} is not a W3C date or date-time (2026-11-21T09:00:00Z)"
    return None


def _meta(text: str) -> str | None:
    return None if text.startswith("meta:") and len(text) > len("meta:") else "is not meta:NAME"


def _url_scheme(value: Any) -> str | None:
    """A format string of ``{lang}``, ``{version}`` and ``{link}`` (any other field, a
    conversion or a spec is refused: each would fail when the URLs are made)."""
    if not isinstance(value, str):
        return f"must be a string of {{lang}}, {{version}} and {{link}} ({_SCHEME!r}), not {_kind(value)}"
    try:
        fields_used = [(name, conversion, spec) for _, name, spec, conversion in string.Formatter().parse(value)
                       if name is not None]
    except ValueError as exc:
        return f"{value!r} is no format string: {exc}"
    for name, conversion, spec in fields_used:
        if name not in _SCHEME_FIELDS or conversion or spec:
            field_text = name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
            return f"{{{field_text}}} in {value!r}: the fields are {{lang}}, {{version}} and {{link}}, as they are"
    return None


def _languages(value: Any) -> str | None:
    """Language codes, or a mapping of each code to the URL its build is served at."""
    if not isinstance(value, Mapping):
        return _texts("language codes (['en', 'fr']), or a mapping of each to its URL "
                      "({'en': 'https://docs.example.com/en/'})")(value)
    for code, url in value.items():
        if not isinstance(code, str) or not code.strip() or not isinstance(url, str) or \
                not url.startswith(("https://", "http://")):
            return f"{code!r}: {url!r}: each language code must map to the absolute URL its build is served at"
    return None


def _jobs(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"must be a whole number of processes, 1 or more, not {_kind(value)}"
    return None if value >= 1 else f"must be 1 or more, not {value}"


def _folders(value: Any) -> str | None:
    if not isinstance(value, Mapping):
        return f"must be a mapping of URLs to folders ({_CHECK_WITH!r}), not {_kind(value)}"
    for url, folder in value.items():
        if not isinstance(url, str) or not isinstance(folder, str):
            return f"{url!r}: {folder!r}: each URL and its folder must be strings"
    return None


def _sitemaps(value: Any) -> str | None:
    if isinstance(value, (str, Mapping)):
        return None
    return f"must be a dotted path to a mapping of Sitemap classes, or that mapping, not {_kind(value)}"


_OUTPUT_KEYS = frozenset(field.name for field in fields(Output))
_SCHEME_FIELDS = ("lang", "version", "link")
_SCHEME = "{lang}{version}{link}"
_CHECK_WITH = {"https://docs.example.com/fr/": "_build/fr"}
_ALTERNATES = ("auto", "i18n", "heads")

_JUDGES: dict[str, Callable[[Any], str | None]] = {
    "alternates": lambda value: None if value in _ALTERNATES else f"must be one of {', '.join(_ALTERNATES)}",
    "base_url": _text("the URL the site is served at (https://www.example.com/)"),
    "check": _flag,
    "check_with": _folders,
    "defaults": lambda value: keys_problem(value, DEFAULT_KEYS, "defaults:"),
    "exclude": _texts("patterns of pages (['drafts/*'])"),
    "folder": _text("the path of a folder"),
    "ignore": _codes,
    "jobs": _jobs,
    "languages": _texts("language codes (['en', 'fr'])"),
    "languages_or_urls": _languages,
    "lastmod": _texts("places a lastmod is read from (['meta:updated'])"),
    "meta_lastmod": _texts("meta:NAME, the page fields a lastmod is read from (['meta:updated'])", _meta),
    "now": _now,
    "output": lambda value: keys_problem(value, _OUTPUT_KEYS, "output:"),
    "sitemaps": _sitemaps,
    "url_scheme": _url_scheme,
    "version": _text("a version (the {version} of the URLs)"),
    "x_default": lambda value: None if isinstance(value, (bool, str)) else
    f"must be true, false, a language code or a URL, not {_kind(value)}",
    "x_default_url": _text("a language code or a URL ('en')"),
}
SETTING_KINDS = frozenset(_JUDGES)


def line(diagnostic: Diagnostic, root: str | os.PathLike[str] | None = None) -> str:
    """One finding as one line: ``FILE:LINE:COL: CODE message`` (the file relative to
    ``root`` when it lies below it; the URL when there is no file)."""
    place = diagnostic.file or diagnostic.url or ""
    if diagnostic.file and root is not None:
        try:
            relative = os.path.relpath(diagnostic.file, os.fspath(root))
        except ValueError:
            relative = diagnostic.file
        if not relative.startswith(".."):
            place = relative
    if diagnostic.file and diagnostic.line:
        place += f":{diagnostic.line}"
        if diagnostic.column:
            place += f":{diagnostic.column}"
    text = f"{diagnostic.code} {diagnostic.message}"
    if diagnostic.suggestion:
        text += f" (fix: {diagnostic.suggestion})"
    # (through the reports' one neutraliser: a tool's log is a terminal too)
    return visible(f"{place}: {text}" if place else text)


def shown(diagnostics: Iterable[Diagnostic], ignore: Sequence[str] = ()) -> Iterator[Diagnostic]:
    """The findings ``ignore`` does not hide (codes, prefixes or rule names, judged by
    the one policy ``--ignore`` makes), sorted. A name that is none is a ConfigError."""
    policy = make_policy([], split_codes(ignore), {})
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        if policy.shown(diagnostic.code, diagnostic.file):
            yield diagnostic


def merged(built: Iterable[Diagnostic], checked: Iterable[Diagnostic]) -> list[Diagnostic]:
    """A build's findings, then those of the check of what it wrote that say nothing
    new: a check finding of a code already reported for the same URL by the build
    (a lastmod in the future is found in the pages and again in the file) is left out."""
    built = list(built)
    known = {(d.code, d.url) for d in built if d.url}
    return built + [d for d in checked if not (d.url and (d.code, d.url) in known)]


def folder_url(url: str) -> str:
    """A base URL as a folder URL (with its trailing slash)."""
    return url if url.endswith("/") else url + "/"


def build_pages(site: Site, pages: Iterable[Any], out_dir: str | os.PathLike[str], *, now: Any = None,
                dry_run: bool = False) -> tuple[bool, list[Diagnostic], list[str]]:
    """``build(site, out_dir, pages=...)``: (ok, findings, names of the files written)."""
    result = build(site, os.fspath(out_dir), pages=pages, now=now, dry_run=dry_run)
    return result.ok, list(result.collector), [written.name for written in result.files]


def build_built_site(folder: str | os.PathLike[str], site: Site, *, url: str | None = None,
                     lastmod: Sequence[str] | None = None, exclude: Sequence[str] | None = None,
                     drop_ext: bool = False, now: Any = None,
                     description: str | os.PathLike[str] | None = None) -> tuple[bool, list[Diagnostic], list[str]]:
    """Build the sitemaps of a built site into its own folder: the site description
    ``site`` with one source, ``site: FOLDER`` (pages, alternates and lastmods read
    from the built pages' heads; see "A built site" in specs/site-format.md). The
    description is written to ``description`` (a path fixed per project: the output
    folder's manifest names it as the owner of the files, so it must be the same from
    build to build), else to a private temporary folder (a one-off build); the built
    folder is named to the build as a folder it may read (``allow_read``)."""
    folder = os.path.abspath(os.fspath(folder))
    source: dict[str, Any] = {"site": folder}
    if url is not None:
        source["url"] = folder_url(url)
    if lastmod:
        source["lastmod"] = list(lastmod)
    if exclude is not None:
        source["exclude"] = list(exclude)
    if drop_ext:
        source["drop_ext"] = True
    data = site.as_yaml()
    data["sources"] = [source]
    if description is not None:
        path = os.fspath(description)
        _write_description(path, data)
        result = build(path, folder, now=now, allow_read=[folder])
    else:
        with tempfile.TemporaryDirectory(prefix="sitemap-ext-") as scratch:
            path = os.path.join(scratch, "site.yaml")
            _write_description(path, data)
            result = build(path, folder, now=now, allow_read=[folder])
    return result.ok, list(result.collector), [written.name for written in result.files]


def _write_description(path: str, data: Mapping[str, Any]) -> None:
    """A site description written whole or not at all: a new file renamed over ``path``
    (a link at ``path`` is replaced, never followed)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".site-", suffix=".yaml", dir=os.path.dirname(path) or ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            yaml.safe_dump(dict(data), stream, allow_unicode=True, sort_keys=False)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def check_folder(folder: str | os.PathLike[str], base_url: str, *, now: Any = None, jobs: int = 1,
                 also: Mapping[str, str] | None = None, files: Sequence[str] = ()) -> list[Diagnostic]:
    """The findings of ``check(FOLDER, base_urls=[BASE_URL=FOLDER])``: the sitemaps of
    the folder judged together with its built pages. ``also`` maps more URLs to
    folders checked with it (the other languages of a site built one language at a
    time); ``files``: sitemaps outside the folder checked with it."""
    folder = os.fspath(folder)
    paths = [*files, folder]
    base_urls = [f"{folder_url(base_url)}={folder}"]
    for other_url, other_folder in (also or {}).items():
        paths.append(os.fspath(other_folder))
        base_urls.append(f"{folder_url(other_url)}={os.fspath(other_folder)}")
    result = check(paths, base_urls=base_urls, now=now, jobs=jobs)
    return list(result.collector)
