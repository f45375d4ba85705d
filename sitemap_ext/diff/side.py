"""One side of a diff: a folder, a file or a URL, read by the check, held compactly.

A side is checked as ``check`` checks it (``checker.check.check_inputs``: the same
readers, the same planning of folders, indexes and live sites, every rule), with its
cluster index kept and each entry's lastmod in it. What the diff needs of it is then
kept in flat arrays: the distinct URLs its sitemaps, feeds and text files list (a
page's head lists nothing), each URL's first listing and its latest lastmod. Nothing
per URL is a Python object: OLD, held while NEW is read, costs about 150 bytes a URL
(its URLs compressed, its sorted keys, its lists of alternates).

A side is diffed only when it is whole: every file it gives or lists read as a sitemap.
Its findings say it is not, by their codes' own declarations (``Code.unread``: a file
rejected as a sitemap, missing, unfetched; ``Code.io``: an input that cannot be read),
whichever reader or status reported them and whatever --select or --ignore shows; so
does a side that holds no sitemap at all (``Side.unread``).

A side names its files relative to itself (the folder given, a file's folder, a URL's
folder), so that two builds in two folders, or a deployed site and a build, compare
file by file and finding by finding. When both sides are files (or URLs of files), each
file given is its side's root and both are named alike (``Side.root``): two dated
snapshots, ``old-sitemap.xml`` and ``new-sitemap.xml``, are one file compared with itself.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ..checker.check import SITE_SUFFIXES, CheckResult, check_inputs, nothing_listed
from ..codes import REGISTRY
from ..diagnostics import Collector, Diagnostic
from ..limits import MAX_STORED_PER_CODE
from ..read.http import FetchOptions
from ..read.live import is_url
from ..rules.cluster_log import HTML
from ..rules.clusters import ClusterIndex
from ..rules.config import Policy


@dataclass(frozen=True)
class Reading:
    """How both sides are read: what ``check`` takes, the same for OLD and NEW."""

    now: str | None = None
    base_urls: Sequence[str] = ()
    jobs: int | None = None
    policy: Policy | None = None
    html: str = "on"
    fetch: FetchOptions | None = None
    progress: Callable[[str], None] | None = None


def refused(given: str) -> str | None:
    """Why an input cannot be a side of a diff (None: it can): a site description is
    built, not read (build it, then diff its output)."""
    if not is_url(given) and given.lower().endswith(SITE_SUFFIXES):
        return (f"{given} is a site description; diff compares sitemaps: build it first "
                f"(sitemap-ext build {given} -o DIR) and diff DIR")
    return None


@dataclass
class Side:
    """One input read: its check (findings, files, cluster index) and its listed URLs."""

    given: str
    result: CheckResult
    base: str  # files are named relative to this folder or URL prefix
    keys: array[int] = field(default_factory=lambda: array("q"))  # distinct URL keys listed, sorted
    firsts: array[int] = field(default_factory=lambda: array("I"))  # the entry of each one's first listing
    lastmods: array[float] = field(default_factory=lambda: array("d"))  # each one's latest lastmod
    unread: list[Diagnostic] = field(default_factory=list)  # why it is not whole (empty: it is)
    # (the file or URL given, the name both sides give it): set when both sides are files
    root: tuple[str, str] | None = None

    @property
    def index(self) -> ClusterIndex:
        assert self.result.index is not None
        return self.result.index

    @property
    def collector(self) -> Collector:
        return self.result.collector

    def name(self, file: str) -> str:
        """A file as this side names it: relative to the folder or URL given."""
        if not file or file.startswith("<"):
            return file
        if self.root is not None and _same_file(file, self.root[0]):
            return self.root[1]
        if "://" in file or "://" in self.base:
            return file[len(self.base):] if file.startswith(self.base) and len(file) > len(self.base) else file
        relative = os.path.relpath(os.path.abspath(file), self.base)
        return file if relative.startswith("..") else relative.replace(os.sep, "/")

    def files(self) -> set[str]:
        """The names of the sitemaps, indexes, feeds and text files read (pages aside)."""
        return {self.name(str(record["file"])) for record in self.result.files if record.get("kind") != "html"}


def is_file_side(given: str) -> bool:
    """Whether a side is one file or URL (not a folder): its own root when the other is too."""
    return not os.path.isdir(given)


def same_roots(old: Side, new: Side) -> None:
    """Both sides files (or URLs of files): each is its side's root, both named as NEW's
    file is named, so that a finding's identity does not hold the file's own name."""
    if is_file_side(old.given) and is_file_side(new.given):
        shared = new.name(new.given)
        old.root, new.root = (old.given, shared), (new.given, shared)


def _same_file(file: str, given: str) -> bool:
    if is_url(given) or "://" in file:
        return file == given
    return os.path.abspath(file) == os.path.abspath(given)


def read_side(given: str, reading: Reading) -> Side:
    """One side checked, its cluster index kept with every entry's lastmod."""
    base_urls = [pair for pair in reading.base_urls if _serves(pair, given)]

    def describe(path: str, now: Any, collector: Collector) -> int:  # pragma: no cover - refused() first
        raise ValueError(f"{path} is a site description; diff reads sitemaps")

    # Findings past the usual 1,000 a code are counted, not kept (a million warnings are
    # no million objects), but errors are all kept: the diff compares every one.
    result = check_inputs([given], {}, reading.now, base_urls, reading.jobs, reading.policy, (),
                          MAX_STORED_PER_CODE, False, 0, reading.html, reading.fetch, 0, 0.0, reading.progress,
                          describe, registry=REGISTRY, diff=True)
    side = Side(given, result, _base(given))
    side.unread = _unread(given, result)
    if result.index is not None:
        side.keys, side.firsts, side.lastmods = _listed(result.index)
        _let_go(result.index)
    return side


def _let_go(index: ClusterIndex) -> None:
    """What the diff no longer needs of a side's index once its URLs are listed (each
    entry's key, file, line and lastmod: 24 bytes an entry), let go while the other
    side is read. The findings that needed them are made; the index keeps what the
    cluster comparison reads (the sorted keys, lists, items, URLs)."""
    index.key, index.lastmods = array("q"), array("d")
    index.file, index.line = array("I"), array("I")


# The kinds of file that list URLs (a page, a header file or an index lists none itself).
_LISTING = frozenset(("urlset", "text", "rss", "atom"))


def _unread(given: str, result: CheckResult) -> list[Diagnostic]:
    """The findings that say a side is not whole: those of a code declared ``unread`` or
    ``io``; one for each such code counted but not kept (--select, --ignore, past the
    limit a code); F104 for a side that read no file listing URLs and says nothing else."""
    collector = result.collector
    registry = collector.registry

    def whole(code: str) -> bool:
        return not registry[code].not_read

    found = [d for d in collector.sorted() if not whole(d.code)]
    kept = {d.code for d in found}
    for code in sorted(set(collector.counts) | set(collector.ignored)):
        if not whole(code) and code not in kept:
            count = collector.counts[code] + collector.ignored[code]
            said = f"{count:,} finding{'s' * (count != 1)} of {code} not shown (--select, --ignore, the limit a code)"
            found.append(Diagnostic(code, registry[code].severity, f"{said}: {registry[code].summary}", given))
    if not found and not any(record.get("kind") in _LISTING for record in result.files):
        found.append(nothing_listed(given, registry))
    return found


def _serves(pair: str, given: str) -> bool:
    """Whether a ``--base-url URL=DIR`` pair is this side's: its folder lies in or is the
    folder given (or the given file's folder). A URL side takes none: another side's
    folder must not stand in for the files a live site serves."""
    if is_url(given):
        return False
    folder = os.path.realpath(pair.partition("=")[2])
    root = os.path.realpath(given if os.path.isdir(given) else os.path.dirname(os.path.abspath(given)))
    return folder == root or folder.startswith(root.rstrip(os.sep) + os.sep)


def _base(given: str) -> str:
    """What a side's files are named relative to: the folder given, a file's folder, or
    a URL's folder (``https://host/`` for ``https://host/sitemap.xml``)."""
    if is_url(given):
        parts = urlsplit(given)
        path = parts.path if parts.path.startswith("/") else "/" + parts.path
        return f"{parts.scheme}://{parts.netloc}{path[:path.rindex('/') + 1]}"
    return os.path.abspath(given if os.path.isdir(given) else os.path.dirname(os.path.abspath(given)))


def _listed(index: ClusterIndex) -> tuple[array[int], array[int], array[float]]:
    """The distinct URLs that sitemaps, feeds and text files list (by URL key, sorted),
    the entry of each one's first listing and its latest lastmod (``NO_LASTMOD``: none)."""
    keys, firsts, stamps = array("q"), array("I"), array("d")
    kinds, lastmods, order = index.kind, index.lastmods, index.order
    previous: int | None = None
    for place, key in enumerate(index.sorted_keys):
        entry = order[place]
        if kinds[entry] == HTML:
            continue
        stamp = lastmods[entry]
        if key == previous:
            if stamp > stamps[-1]:
                stamps[-1] = stamp
            continue
        previous = key
        keys.append(key)
        firsts.append(entry)
        stamps.append(stamp)
    return keys, firsts, stamps
