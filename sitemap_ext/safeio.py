"""Opening input files safely: only regular files, only inside the roots a run allows.

A FIFO, a device (``/dev/zero``, ``/dev/urandom``) or a socket is refused before
a byte is read: opening is non-blocking, and the opened descriptor's own type is
checked (so a path swapped for a FIFO after a check cannot hang the run).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from typing import BinaryIO


class Refused(Exception):
    """An input that is not a regular file (the message says what it is)."""


def open_regular(path: str, *, follow: bool = True) -> BinaryIO:
    """``path`` opened for binary reading, if it is a regular file; else ``Refused``
    (``OSError`` as usual when it cannot be opened at all; with ``follow=False`` a
    symbolic link is not opened either)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags)
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise Refused(f"{kind_of_mode(mode)}, not a regular file")
        # (O_NONBLOCK means nothing to a regular file: it reads as it would without)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def regular_file(path: str) -> bool:
    """Whether ``path`` is a regular file (following links), without opening it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_bounded(path: str, limit: int, *, follow: bool = True) -> bytes:
    """A regular file's bytes, at most ``limit`` of them; ``Refused`` past that."""
    with open_regular(path, follow=follow) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise Refused(f"larger than {limit:,} bytes")
    return data


def kind_of_mode(mode: int) -> str:
    """What a file is, by its mode, for a message ("a FIFO (named pipe)", "a folder")."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "a special file"


def inside(path: str, roots: Iterable[str]) -> bool:
    """Whether ``path``, with every link resolved, lies in one of ``roots`` (real paths).
    A path no file system can hold (a NUL byte, from a URL's %00) lies nowhere."""
    if "\x00" in path:
        return False
    real = os.path.realpath(path)
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def walk_inside(folder: str) -> Iterator[tuple[str, str | None]]:
    """Each regular file below ``folder``, in sorted order (a folder's files, then its
    folders, each in turn), with its real path (None for a link that leads out of the
    folder). Hidden files and folders are skipped; no folder link is followed. The
    kind of each entry comes with the folder's listing, so a file that is no link costs
    no call of its own: it lies where its folder does."""
    for path, real, _ in walk_listed(folder):
        yield path, real


def walk_listed(folder: str) -> Iterator[tuple[str, str | None, frozenset[str] | None]]:
    """As ``walk_inside``, each file with the names of the files beside it in its real
    folder (hidden ones too), from the listing the walk reads anyway: None for a link
    (its real folder is another one)."""
    root = os.path.realpath(folder)
    prefix = root.rstrip(os.sep) + os.sep
    pending = [(folder, root)]
    while pending:
        top, top_real = pending.pop()
        try:
            with os.scandir(top) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError:  # unreadable or vanished: as os.walk, passed over
            continue
        folders = []
        siblings: frozenset[str] | None = None
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append((entry.path, os.path.join(top_real, entry.name)))
                elif entry.is_symlink():
                    if regular_file(entry.path):
                        real = os.path.realpath(entry.path)
                        yield entry.path, (real if real == root or real.startswith(prefix) else None), None
                elif entry.is_file(follow_symlinks=False):
                    if siblings is None:
                        siblings = _files(entries)
                    yield entry.path, os.path.join(top_real, entry.name), siblings
            except OSError:
                continue
        pending.extend(reversed(folders))


def _files(entries: list[os.DirEntry[str]]) -> frozenset[str]:
    """The names of a listing's files (a link to a file included, as os.path.isfile says)."""
    names = []
    for entry in entries:
        try:
            if entry.is_file():
                names.append(entry.name)
        except OSError:
            continue
    return frozenset(names)
