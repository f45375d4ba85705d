"""Opening input files safely: only regular files, only inside the roots a run allows.

A FIFO, a device (``/dev/zero``, ``/dev/urandom``) or a socket is refused before
a byte is read: opening is non-blocking, and the opened descriptor's own type is
checked (so a path swapped for a FIFO after a check cannot hang the run).
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO, Iterable, Iterator


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
        if hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)
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
    """Whether ``path``, with every link resolved, lies in one of ``roots`` (real paths)."""
    real = os.path.realpath(path)
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def walk_inside(folder: str) -> Iterator[tuple[str, str | None]]:
    """Each regular file below ``folder``, in sorted order, with its real path (None
    for a link that leads out of the folder). Hidden files and folders are skipped; no
    folder link is followed. A file that is no link lies where its folder does, so its
    real path costs no resolving."""
    root = os.path.realpath(folder)
    real_tops = {os.path.abspath(folder): root}
    for top, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        top_real = real_tops.get(os.path.abspath(top)) or os.path.realpath(top)
        for d in dirs:
            real_tops[os.path.join(os.path.abspath(top), d)] = os.path.join(top_real, d)
        for name in sorted(names):
            path = os.path.join(top, name)
            if name.startswith(".") or not regular_file(path):
                continue
            real = os.path.join(top_real, name) if not os.path.islink(path) else os.path.realpath(path)
            yield path, (real if real == root or real.startswith(root.rstrip(os.sep) + os.sep) else None)
