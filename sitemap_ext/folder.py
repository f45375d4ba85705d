"""What a build's output folder holds besides the sitemaps: the names sitemap-ext keeps
for itself (its manifest, journal, staging and state), the names a description may give
its files, what the manifest says a versioned build kept, and the folder's lock. Both sides read this: the
site description's loader (names), the writer (the commit) and the check (the files a
build kept are no sitemaps to judge twice)."""

from __future__ import annotations

import json
import os
from collections.abc import Collection
from typing import Any

from .diagnostics import Code, Severity
from .safeio import Refused, read_bounded

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


def retained_files(out_dir: str) -> list[str]:
    """The files a versioned build kept from the build before it (by every description
    writing into ``out_dir``), as the manifest lists them."""
    data = read_json(os.path.join(out_dir, MANIFEST))
    retained = data.get("retained") if isinstance(data, dict) else None
    if not isinstance(retained, dict):
        return []
    return [name for files in retained.values() if isinstance(files, list)
            for name in files if isinstance(name, str) and safe_relative_name(name)]


def read_json(path: str) -> Any:
    """A small JSON file of ours; None when missing, unreadable or not JSON. Never
    follows a link; at most 64 MiB (a manifest of 50,000 names per host is far less)."""
    try:
        data = read_bounded(path, 64 << 20, follow=False)
    except (OSError, Refused):
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


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


CODES: tuple[Code, ...] = (
    Code("F103", Severity.ERROR, "output-locked", "Another build is writing into the same output folder.", io=True),
)
