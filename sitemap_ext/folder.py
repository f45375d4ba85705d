"""What a build's output folder holds besides the sitemaps: the names sitemap-ext keeps
for itself (its manifest, journal, staging and state), the names a description may give
its files, what the manifest says a versioned build kept, and the folder's lock. Both sides read this: the
site description's loader (names), the writer (the commit) and the check (the files a
build kept are no sitemaps to judge twice)."""

from __future__ import annotations

import errno
import fnmatch
import os
import re
import stat
from collections.abc import Collection
from typing import Any

from . import structured
from .diagnostics import Collector, Where
from .safeio import Refused, kind_of_mode

try:  # POSIX; elsewhere builds are not locked
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

#: Every name sitemap-ext keeps for itself in an output folder starts with this.
RESERVED_PREFIX = ".sitemap-ext"
MANIFEST = ".sitemap-ext-manifest.json"
JOURNAL = ".sitemap-ext-journal.json"
STAGE_PREFIX = ".sitemap-ext-stage-"
PROBE_PREFIX = ".sitemap-ext-probe-"  # an empty file made and removed at once, in each folder written
STATE = ".sitemap-ext-state.sqlite"  # the build state's default file (output.state: true)
STATE_NEW = ".sitemap-ext-new"  # what a build's new state is named beside its target until the commit
XSL_FILE = "sitemap.xsl"  # the stylesheet written beside the sitemaps (output.xsl)


def safe_relative_name(name: str) -> bool:
    """A file name that stays inside the output folder: relative, no '..', no backslash,
    no control character."""
    if not name or name.startswith(("/", "\\")) or "\\" in name or (len(name) > 1 and name[1] == ":"):
        return False
    if any(ord(c) < 32 or c == "\x7f" for c in name):
        return False
    return all(part not in ("", ".", "..") for part in name.split("/"))


def reserved_name(name: str) -> bool:
    """A name sitemap-ext keeps for its own bookkeeping (manifest, journal, staging)."""
    return name.split("/", 1)[0].startswith(RESERVED_PREFIX)


#: How output.versioned names a sitemap (``write/series.py`` versioned_name): its name,
#: then the first 10 hex digits of its content's BLAKE2b digest, before .xml or .xml.gz.
VERSIONED_NAME = re.compile(r"[^/]+\.[0-9a-f]{10}\.xml(?:\.gz)?")


def versioned_like(name: str) -> bool:
    """Whether ``name`` (its last part) is one output.versioned could have given a
    sitemap (``sitemap-1.3f9a2c41d0.xml``)."""
    return VERSIONED_NAME.fullmatch(name.rsplit("/", 1)[-1]) is not None


def retained_files(out_dir: str) -> list[str]:
    """The files a versioned build kept from the build before it (by every description
    writing into ``out_dir``), as the manifest lists them (none when it is damaged: the
    next build sets it aside). Anyone who can add a file to the folder can write this
    list: a check passes over only those of them named as a versioned build names its
    sitemaps, and only when no index lists them (``checker/folder_walk.py``)."""
    try:
        data = read_json(os.path.join(out_dir, MANIFEST))
    except (Damaged, OSError):
        return []
    retained = data.get("retained") if isinstance(data, dict) else None
    if not isinstance(retained, dict):
        return []
    return [name for files in retained.values() if isinstance(files, list)
            for name in files if isinstance(name, str) and safe_relative_name(name)]


class Damaged(Exception):
    """A file of ours (manifest, journal, cache entry) that is not what we write: not
    JSON, nested too deep, too large, or no regular file (a link, a folder); the message
    says which."""


DAMAGED_SUFFIX = ".damaged"  # a damaged file of ours is set aside under its name and this


def read_json(path: str) -> Any:
    """A JSON file of ours, read through ``structured`` (bounded in size and depth; a
    manifest of 50,000 names per host is far less than the limit): None when it does not
    exist, ``Damaged`` when it cannot be what we wrote, ``OSError`` when it cannot be
    read at all (permissions: an I/O failure, not damage). Never follows a link."""
    try:
        return structured.read_json(path, follow=False)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Damaged("a symbolic link") from None
        raise
    except Refused as exc:
        raise Damaged(str(exc)) from None
    except structured.Malformed as exc:
        raise Damaged(f"not JSON: {exc}") from None


def set_aside(path: str) -> str:
    """Rename a damaged file of ours to a reserved name beside it (``NAME.damaged``, which
    replaces the one set aside before), so that it can be looked at and is never read
    again; the new name. Renaming moves a link itself, never what it points to."""
    aside = path + DAMAGED_SUFFIX
    os.replace(path, aside)
    return aside


def set_aside_if_damaged(path: str) -> tuple[str, str, str] | None:
    """A manifest or journal of ours that is ``Damaged``, set aside: (the file, its new
    name, why); None when it is fine or missing. A build then goes on as if there were
    none: without a manifest it removes nothing as stale (only the files a manifest
    lists are ever a build's to remove), and a journal it cannot read it cannot finish."""
    try:
        read_json(path)
    except Damaged as exc:
        return path, set_aside(path), str(exc)
    return None


def report_set_aside(collector: Collector, path: str, aside: str, reason: str) -> None:
    """F106 for a manifest or journal of ours set aside."""
    what = ("it recorded a commit that cannot be finished; the files this build writes replace it"
            if path.endswith(JOURNAL) else
            "the files it listed that this build does not write are left in place, as no longer provably ours: "
            "remove stale ones by hand")
    collector.report("F106", f"{path} is damaged ({reason}); it was set aside as {os.path.basename(aside)} and "
                     f"written anew: {what}", Where(path))


def report_cache_removed(collector: Collector, path: str, reason: str) -> None:
    """F106 for a ``--cache`` entry of ours removed (its URL is then fetched whole)."""
    collector.report("F106", f"the --cache entry {path} is damaged ({reason}); it was removed and its URL fetched "
                     "whole", Where(path))


def valid_journal(journal: Any) -> bool:
    """Whether a journal read back is one a build wrote: its stage, moves and removals
    name files inside the folder, and a build state moves only from the new file beside it."""
    if not isinstance(journal, dict):
        return False
    stage, moves, remove = journal.get("stage"), journal.get("moves"), journal.get("remove")
    if not (isinstance(stage, str) and stage.startswith(STAGE_PREFIX) and "/" not in stage and "\\" not in stage):
        return False
    if not (isinstance(moves, list) and isinstance(remove, list) and isinstance(journal.get("manifest"), dict)):
        return False
    for move in moves:
        if not (isinstance(move, list) and len(move) == 2 and all(isinstance(p, str) and safe_relative_name(p)
                                                                   for p in move)):
            return False
    if not _valid_state(journal.get("state")):
        return False
    return all(isinstance(name, str) and safe_relative_name(name) for name in remove)


class Unsafe(Damaged):
    """A journal that would move what no build of ours staged: its staging folder, a
    folder on a source's way or a source is a link or not what a build makes."""


def staged_source(out_dir: str, stage: str, source: str) -> str | None:
    """The path of a journal's ``source`` in its ``stage``, reached without following a
    link: the staging folder a real folder directly inside ``out_dir``, each folder on
    the way a real folder, the file a regular file (each ``lstat``-ed). None when it is
    gone (moved before a kill); ``Unsafe`` when any of them is a link or anything else,
    so that a planted journal cannot move a file from outside the folder into it."""
    path = out_dir
    parts = [stage, *source.split("/")]
    for depth, part in enumerate(parts):
        path = os.path.join(path, part)
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return None
        last = depth == len(parts) - 1
        if not (stat.S_ISREG(mode) if last else stat.S_ISDIR(mode)):
            what = "its staging folder " + stage if depth == 0 else f"{'/'.join(parts[1:depth + 1])} in {stage}"
            raise Unsafe(f"{what} is {kind_of_mode(mode)}, not {'a file' if last else 'a folder'} a build made")
    return path


def staged_state(new: str) -> bool:
    """Whether a journal's new build state is there to move: a regular file (never a
    link, which would be moved in its place); ``Unsafe`` for anything else."""
    try:
        mode = os.lstat(new).st_mode
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(mode):
        raise Unsafe(f"its new build state {new} is {kind_of_mode(mode)}, not a file a build made")
    return True


def _valid_state(state: Any) -> bool:
    """A journal moves a build state only from the new file beside it (or none)."""
    if state is None:
        return True
    return isinstance(state, list) and len(state) == 2 and all(isinstance(p, str) and os.path.isabs(p)
                                                                for p in state) and state[0] == state[1] + STATE_NEW


# Error routes: served with an error status, never pages to list. A route is one when
# its file, or its folder with index.html, is named for a 4xx or 5xx status (404.html,
# 500/index.html: Hugo, Jekyll, MkDocs, Docusaurus, Astro, Next and most hosts) or for
# the class (4xx, 5xx: Drupal's system/4xx), in every language. A file so named is one
# below any folder (en/latest/404.html); a folder so named only at the top, in a
# language's folder (de/, pt-br/) or under system/ (Drupal's system/401), as numbered
# folders elsewhere are pages (page/404/ of a long pagination, node/500/). fnmatch
# patterns on the '/'-separated path in the built folder (``*`` crosses '/').
DEFAULT_EXCLUDE = tuple(f"{below}{status}{route}" for status in ("[45][0-9][0-9]", "[45]xx")
                        for route, places in ((".html", ("", "*/")),
                                              ("/index.html", ("", "[a-z][a-z]/", "[a-z][a-z]-[A-Za-z][A-Za-z]/",
                                                               "system/", "*/system/")))
                        for below in places)


def is_error_page(relative: str) -> bool:
    """Whether a built file (its '/'-separated path in the folder) is an error route."""
    return any(fnmatch.fnmatchcase(relative, pattern) for pattern in DEFAULT_EXCLUDE)


INDEX_VIEW = "sitemaps.html"  # each host's list of its sitemaps (output.html), beside sitemap.xml


def index_view(index_file: str) -> str:
    """The name of the list of sitemaps (output.html) of a description whose index is
    ``index_file``: ``sitemaps.html`` beside ``sitemap.xml``, else ``NAME.sitemaps.html``
    beside ``NAME.xml``, so that descriptions sharing a folder keep apart."""
    stem = index_file[: -len(".xml")] if index_file.endswith(".xml") else index_file
    return INDEX_VIEW if stem == "sitemap" else f"{stem}.{INDEX_VIEW}"

VIEW_GENERATOR = "sitemap-ext output.html"  # the generator named in the head of every HTML view
_VIEW_MARK = f'<meta name="generator" content="{VIEW_GENERATOR}">'.encode()
_VIEW_HEAD = 1024  # the mark stands in a view's first bytes


def is_view(path: str, siblings: Collection[str] | None = None) -> bool:
    """Whether an HTML file is one of the views a build writes beside its sitemaps
    (output.html): named as one (``sitemaps.html`` and ``NAME.sitemaps.html``, or ``NAME.html`` / ``NAME.2.html``
    beside ``NAME.xml`` or ``NAME.xml.gz``) and naming our generator in its first bytes.
    A check of a built folder takes these for no pages of the site. ``siblings``: the
    names of the files in the page's folder, where a walk has them (else each is looked for)."""
    folder, name = os.path.split(path)
    if not name.endswith(".html"):
        return False
    if not name.endswith(INDEX_VIEW):
        stem = name[: -len(".html")]
        number = stem.rpartition(".")[2]
        if number.isdigit() and number[:1] != "0":
            stem = stem.rpartition(".")[0]
        beside = (stem + ".xml", stem + ".xml.gz")
        if not (any(name in siblings for name in beside) if siblings is not None
                else any(os.path.isfile(os.path.join(folder, name)) for name in beside)):
            return False
    try:
        with open(path, "rb") as handle:
            return _VIEW_MARK in handle.read(_VIEW_HEAD)
    except OSError:
        return False


class FolderBusy(Exception):
    """Another build (or submission) holds a folder's lock: F103."""

    code = "F103"


class StateError(Exception):
    """A build state file (``state.py``) that cannot be used: its ``code``, which the
    module raising it gives (``state.UNUSABLE`` for an unreadable or damaged file or no
    state, O108 for another site description's, F103 for a lock held by another
    program). Here, beside the folder's other names and its lock, so that a build that
    keeps no state can catch it without loading the state's SQLite."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def lock_folder(folder: str) -> int | None:
    """The folder's lock (``flock`` on the folder itself), taken by a build for its
    output folder and its state's folder, and by a submission for its state's folder;
    held until the descriptor returned is closed. FolderBusy when another holds it."""
    if fcntl is None:  # pragma: no cover
        return None
    descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise FolderBusy(f"another sitemap-ext build or submission is using {folder}; run them one after "
                         "another") from None
    return descriptor
