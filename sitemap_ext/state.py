"""The build state: one SQLite file (the standard library's ``sqlite3``) that a build
keeps beside its output, so that the next build knows what changed.

Two tables. ``meta`` names what the file is (``format``, ``version``), the site
description it belongs to (``description``: its path relative to the output folder,
as the manifest names it; ``base_url``) and how many builds wrote it (``build``).
``urls`` has one row per URL of the last build: the digest of its content, the
lastmod it was given, when it was first and last seen (the builds' clocks), the
build in which it was added or its digest or lastmod last changed (``changed``), and
when it was last submitted (``submitted``, with ``sent``: the ``changed`` it was
submitted at). A URL is pending submission while ``sent`` differs from ``changed``.

A build writes a new file and moves it into place in the same commit as the
sitemaps (``write/state.py``, ``write/output.py``); ``sitemap-ext submit`` marks
rows as it is answered, one transaction per batch. A file that is not SQLite, is
damaged, or is some other program's database is ``StateError`` F105; a state of
another site description is O108; a state another program holds locked past
``STATE_BUSY_SECONDS`` is F103 (never F105: nothing is wrong with it). Rows are kept in the order the build wrote them,
with a unique index by URL; they are read as a stream (a cursor), never all at once:
a build reads the last state ahead in its order (``State.find``), a submission in URL
order (which keeps each host's URLs together).
"""

from __future__ import annotations

import functools
import os
import sqlite3
import stat
from collections.abc import Iterable, Iterator
from typing import NamedTuple
from urllib.parse import quote

from .diagnostics import Collector, Where
from .folder import FolderBusy
from .folder import StateError as StateError  # (in folder.py: a build that keeps no state loads no SQLite)
from .limits import STATE_BUSY_SECONDS

FORMAT = "sitemap-ext state"
VERSION = "1"
_HEADER = b"SQLite format 3\0"
COLUMNS = ("url", "digest", "lastmod", "first_seen", "last_seen", "changed", "submitted", "sent")
SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    # Rows in the order the build wrote them (the rowid), and a unique index by URL: the
    # next build, asking in about the same order, reads the file ahead (State.find).
    "CREATE TABLE urls (url TEXT NOT NULL UNIQUE, digest BLOB, lastmod TEXT, first_seen TEXT NOT NULL, "
    "last_seen TEXT NOT NULL, changed INTEGER NOT NULL, submitted TEXT, sent INTEGER)",
)
_SELECT = f"SELECT {', '.join(COLUMNS)} FROM urls"
_IN_ORDER = f"SELECT rowid, {', '.join(COLUMNS)} FROM urls"
_MASTER = "SELECT type, name, tbl_name, sql FROM sqlite_master"
RESYNC_EVERY = 16  # misses in a row after which reading ahead starts again from the last URL found


_MAX_BUILD_DIGITS = 18  # the build count: an SQLite integer (int64) has 19 digits; no site builds 10**18 times


class Row(NamedTuple):
    """One URL of the state (a named tuple: a build reads one per URL)."""

    url: str
    digest: bytes | None
    lastmod: str | None
    first_seen: str
    last_seen: str
    changed: int  # the build that added the URL or last changed its digest or lastmod
    submitted: str | None = None  # when it was last submitted
    sent: int | None = None  # the ``changed`` it was submitted at

    @property
    def pending(self) -> bool:
        """Added or changed since it was last submitted."""
        return self.sent != self.changed


def connect(path: str, *, create: bool = False, read_only: bool = False) -> sqlite3.Connection:
    """A connection to the state at ``path``. An existing file must be a regular file
    (never a link followed) that starts as SQLite does; ``create`` makes a new one."""
    if not create:
        _regular(path)
    mode = "rwc" if create else "ro" if read_only else "rw"
    try:
        connection = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode={mode}", uri=True,
                                     isolation_level=None, timeout=STATE_BUSY_SECONDS)
    except DAMAGED as exc:
        raise failure(path, exc, "cannot be opened") from None
    try:
        connection.execute("PRAGMA trusted_schema = OFF")  # (no function of a file's own schema runs)
    except DAMAGED as exc:
        connection.close()
        raise failure(path, exc, "cannot be opened") from None
    return connection


# What reading a damaged file raises: SQLite's errors, and the text of a value (or of
# the schema) that is not UTF-8, which Python's sqlite3 decodes without wrapping the error.
DAMAGED = (sqlite3.Error, UnicodeDecodeError)


def locked(exc: Exception) -> bool:
    """Whether SQLite gave up waiting for another connection's lock (SQLITE_BUSY or
    SQLITE_LOCKED, any extended code), which says nothing of the file's health."""
    code = getattr(exc, "sqlite_errorcode", None)  # (Python 3.11 and later)
    if isinstance(code, int):
        return code & 0xFF in (5, 6)
    return str(exc) in ("database is locked", "database table is locked")


def failure(path: str, exc: Exception, what: str = "is damaged") -> StateError:
    """The StateError of an SQLite error: F103 for a lock held by another program,
    else F105 (``what`` went wrong, and the advice to start a new state)."""
    if locked(exc):
        return StateError(f"the build state {path} is locked by another program (a build, a submission, or a "
                          f"tool reading it) for more than {STATE_BUSY_SECONDS:g} s; run again once it is done; "
                          "the state is left as it is", FolderBusy.code)
    return StateError(f"the build state {path} {what} ({exc}); remove it to start a new one")


def is_state(path: str) -> bool:
    """Whether ``path`` is a regular file holding a build state of this version (its
    schema exactly ours, read on a read-only connection): what a journal's state move
    may take and replace, and nothing else."""
    try:
        _regular(path)
        connection = connect(path, read_only=True)
    except StateError:
        return False
    try:
        read_meta(connection, path)
    except StateError:
        return False
    finally:
        connection.close()
    return True


def report_bad_row(collector: Collector, path: str, url: str) -> None:
    """F105 for a row whose URL is none a build writes: skipped, the others go on."""
    collector.report("F105", f"the build state {path} is damaged: a row's URL '{url}' is no http(s) URL that a build "
                     "writes; it is skipped and not sent (build again to write the state anew, or remove it to start "
                     "a new one)", Where(path))


def missing(path: str) -> StateError:
    """F105 for a state that is not there (yet)."""
    return StateError(f"there is no build state at {path}: build first with output.state (or --state) naming it")


def _regular(path: str) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        raise missing(path) from None
    except OSError as exc:
        raise StateError(f"the build state {path} cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        raise StateError(f"the build state {path} is not a regular file (a link, folder or special file); "
                         "name another path with output.state or --state")
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(_HEADER))
    except OSError as exc:
        raise StateError(f"the build state {path} cannot be read ({exc.strerror or exc})") from None
    if head and head != _HEADER:
        raise StateError(f"{path} is not a build state (not an SQLite file); remove it, or name another path "
                         "with output.state or --state")


def _exactly_ours(objects: list[tuple[object, ...]], path: str) -> None:
    """F105 unless the file's schema is exactly what a build creates: every object's
    type, name, table and SQL. A trigger, view, index or table of another's (a state
    restored from a CI cache is anyone's file) would run, or be read, as ours."""
    ours = _schema()
    if len(objects) == len(ours) and set(objects) == ours:
        return
    other = sorted({f"{kind} {name!r}" for kind, name, *_ in objects if (kind, name) not in
                    {(row[0], row[1]) for row in ours}} or {"tables of another shape"})
    raise StateError(f"{path} is not a sitemap-ext state of this version: its schema holds "
                     f"{', '.join(other[:5])}, which no build writes; it is left as it is and nothing of it runs: "
                     "remove it to start a new state, or name another path with output.state or --state")


@functools.cache
def _schema() -> frozenset[tuple[object, ...]]:
    """The schema a build creates (``SCHEMA``), as SQLite lists it."""
    memory = sqlite3.connect(":memory:")
    try:
        for statement in SCHEMA:
            memory.execute(statement)
        return frozenset(memory.execute(_MASTER))
    finally:
        memory.close()


def read_meta(connection: sqlite3.Connection, path: str) -> dict[str, str]:
    """The state's ``meta`` table, checked to be a state of this version: its schema
    exactly ours (read first: no object in it runs)."""
    try:
        objects = connection.execute(_MASTER).fetchall()
        if not {"meta", "urls"} <= {row[1] for row in objects if row[0] == "table"}:
            raise StateError(f"{path} is an SQLite file but no build state of sitemap-ext; remove it, or name "
                             "another path with output.state or --state")
        _exactly_ours(objects, path)
        meta = {str(key): str(value) for key, value in connection.execute("SELECT key, value FROM meta")}
    except DAMAGED as exc:
        raise failure(path, exc) from None
    if meta.get("format") != FORMAT:
        raise StateError(f"{path} is an SQLite file but no build state of sitemap-ext; remove it, or name "
                         "another path with output.state or --state")
    if meta.get("version") != VERSION:
        raise StateError(f"{path} is a build state of another version of sitemap-ext (version "
                         f"{meta.get('version')!r}); remove it to start a new one")
    count = meta.get("build", "")
    # (ASCII digits, at most 18: '²' is a digit to isdigit and no number to int, and
    # 5,000 digits are more than int() reads; a build counts far below 10**18)
    if not (count.isascii() and count.isdecimal() and len(count) <= _MAX_BUILD_DIGITS):
        raise StateError(f"the build state {path} is damaged (no build count); remove it to start a new one")
    return meta


class State:
    """An existing state file, opened to read its rows (and, for ``submit``, to mark
    what was sent). ``description``: refuse (O108) a state another description wrote."""

    def __init__(self, path: str, *, description: str | None = None, write: bool = False) -> None:
        self.path = path
        self._order: sqlite3.Cursor | None = None  # (find: the rows in the order written, read ahead)
        self._ahead: Row | None = None
        self._misses = 0
        if write:  # (its schema read first by a connection that writes nothing, not even a journal's rollback)
            first = connect(path, read_only=True)
            try:
                read_meta(first, path)
            finally:
                first.close()
        self.connection = connect(path, read_only=not write)
        try:
            self.meta = read_meta(self.connection, path)
            # A build looks each URL up in the order of its pages, not of the file: 8 MiB
            # of the file's pages cached (memory stays flat; the system caches the rest).
            self.connection.execute("PRAGMA cache_size = -8192")
            if description is not None and self.meta.get("description") != description:
                raise StateError(
                    f"the build state {path} belongs to the site description {self.meta.get('description')!r} "
                    f"({self.meta.get('base_url')}), not to {description!r}; give each description its own state "
                    "(output.state or --state), or remove the file to start again", "O108")
        except StateError:
            self.connection.close()
            raise

    @property
    def build(self) -> int:
        return int(self.meta["build"])

    def get(self, url: str) -> Row | None:
        try:
            found = self.connection.execute(_SELECT + " WHERE url = ?", (url,)).fetchone()
        except DAMAGED as exc:
            raise failure(self.path, exc) from None
        return None if found is None else _row(found, self.path)

    def find(self, url: str) -> Row | None:
        """The row of ``url``, for a build that asks in about the order the last one
        wrote: the next row in that order is read ahead, so a URL in its place costs a
        step of one cursor; any other is looked up by its URL (the unique index), and
        reading ahead starts again after it (at once, and then every ``RESYNC_EVERY``
        misses in a row: pages in another order cost a lookup each, as ``get``)."""
        try:
            if self._order is None:
                self._order = self.connection.execute(_IN_ORDER + " ORDER BY rowid")
                self._ahead = self._next()
            ahead = self._ahead
            if ahead is not None and ahead.url == url:
                self._misses = 0
                self._ahead = self._next()
                return ahead
            found = self.connection.execute(_IN_ORDER + " WHERE url = ?", (url,)).fetchone()
            if found is not None and self._misses % RESYNC_EVERY == 0:
                self._order = self.connection.execute(_IN_ORDER + " WHERE rowid > ? ORDER BY rowid", (found[0],))
                self._ahead = self._next()
            self._misses += 1
        except DAMAGED as exc:
            raise failure(self.path, exc) from None
        return None if found is None else _row(found[1:], self.path)

    def _next(self) -> Row | None:
        found = next(self._order, None) if self._order is not None else None
        return None if found is None else _row(found[1:], self.path)

    def rows(self, *, pending: bool = False) -> Iterator[Row]:
        """Every URL's row in URL order (``pending``: those added or changed since they
        were last submitted), read as a stream."""
        query = _SELECT + (" WHERE sent IS NULL OR sent != changed" if pending else "") + " ORDER BY url"
        try:
            for found in self.connection.execute(query):
                yield _row(found, self.path)
        except DAMAGED as exc:
            raise failure(self.path, exc) from None

    def count(self, *, pending: bool = False) -> int:
        """How many URLs (``pending``: added or changed since last submitted)."""
        query = "SELECT count(*) FROM urls" + (" WHERE sent IS NULL OR sent != changed" if pending else "")
        try:
            found = self.connection.execute(query).fetchone()
        except DAMAGED as exc:
            raise failure(self.path, exc) from None
        return int(found[0])

    def mark_sent(self, urls: Iterable[str], when: str) -> None:
        """URLs an engine accepted: recorded at once (one transaction), so that a run
        killed later sends them no more."""
        try:
            with self.connection:
                self.connection.execute("BEGIN IMMEDIATE")
                self.connection.executemany("UPDATE urls SET submitted = ?, sent = changed WHERE url = ?",
                                            ((when, url) for url in urls))
        except DAMAGED as exc:
            if locked(exc):
                raise failure(self.path, exc) from None
            raise StateError(f"cannot record the submission in {self.path} ({exc})") from None

    def close(self) -> None:
        self.connection.close()


def _row(found: tuple[object, ...], path: str) -> Row:
    """A row as read, checked to have the types of its columns (SQLite keeps any value
    in any column: a damaged or edited file may hold others)."""
    _url, digest, lastmod, _first, _last, changed, submitted, sent = found
    if type(_url) is not str or type(_first) is not str or type(_last) is not str or type(changed) is not int \
            or not (digest is None or type(digest) is bytes) or not (lastmod is None or type(lastmod) is str) \
            or not (submitted is None or type(submitted) is str) or not (sent is None or type(sent) is int):
        raise StateError(f"the build state {path} is damaged (a row of another shape); remove it to start a new one")
    return Row._make(found)


__all__ = ["FORMAT", "Row", "State", "StateError", "VERSION", "connect", "failure", "locked", "missing",
           "read_meta"]
