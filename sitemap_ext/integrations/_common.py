"""What the integrations share: building into a tool's output folder with the public
API, checking that folder with its pages, and turning findings into lines of text
for the tool's own reporting. Imports nothing of any tool."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import yaml

from .. import Diagnostic, Output, Site, build, check
from ..dates import parse_now
from ..report.formats import visible
from ..rules.config import ConfigError, make_policy, split_codes

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
    """What is wrong with the value of a tool's setting ``key`` (``ignore``, ``now``,
    ``output``), for the tool to report as its own configuration error naming the
    setting; None when a build can use it."""
    if value is None:
        return None
    if key == "ignore":
        if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
            return "must be a list of codes, prefixes or rule names (['H112'])"
        try:
            make_policy([], split_codes(value), {})
        except ConfigError as exc:
            return str(exc)
    elif key == "now":
        if isinstance(value, (dt.date, dt.datetime)):
            return None
        if not isinstance(value, str) or parse_now(value) is None:
            return f"{value!r} is not a W3C date or date-time (2026-11-21T09:00:00Z)"
    elif key == "output":
        if not isinstance(value, Mapping):
            return "must be a mapping of the keys of output: ({'gzip': True})"
        unknown = sorted(str(name) for name in value if name not in _OUTPUT_KEYS)
        if unknown:
            return f"{', '.join(unknown)}: no key of output: (one of {', '.join(sorted(_OUTPUT_KEYS))})"
    return None


_OUTPUT_KEYS = frozenset(field.name for field in fields(Output))


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
