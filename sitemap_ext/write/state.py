"""A build's state (see ``sitemap_ext/state.py``): the last build's rows read one URL at
a time, the new rows written into a new file beside the old one, which the output
folder's commit moves into place with the sitemaps (``output.Staging.commit``).

Each page is dated here, before it is rendered (``BuildState.date``):

* ``lastmod: content`` (``dates.ContentDated``): the page keeps the lastmod of the
  last build while its content digest is the same; a new digest gets the build's
  clock; a URL seen for the first time gets its git commit time (a built site that
  names ``git``), else the build's clock.
* any other lastmod is written as given; with a digest, a lastmod that moved while
  the digest did not is D110 (``rules.credible``).

Memory: one batch of new rows (``BATCH``) and SQLite's page cache, whatever the
number of URLs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from ..dates import ContentDated, DateCache, Lastmod, format_instant, of_versions
from ..diagnostics import Where
from ..folder import STATE, STATE_NEW, FolderBusy, StateError, lock_folder
from ..read.description_file import OBJECTS
from ..read.normalised import BuiltSite
from ..read.normalised import NormalisedPage as Page
from ..read.normalised import NormalisedSite as Site
from ..rules.credible import moved_same_content
from .output import UNWRITABLE, owner_key

if TYPE_CHECKING:  # (the state file itself is imported where one is opened: see BuildState)
    import sqlite3

    from ..state import Row, State

BATCH = 4096  # new rows written at a time
Report = Callable[..., object]


def content_unknown(report: Report, url: str, why: str, at: Where) -> None:
    """C120: a page asks for lastmod: content, and the build cannot give it."""
    report("C120", f"lastmod: content for {url}, but {why}; its lastmod is left out", at, url=url)


class BuildState:
    """The last build's state (None when there was none) and this build's new one.
    ``write``: False for a dry run (the old state is read, nothing is written)."""

    def __init__(self, path: str, description: str, base_url: str, now: float, report: Report, *,
                 write: bool = True, lock: bool = False) -> None:
        self.path = path
        self.report = report
        self._lock: int | None = None
        if lock:  # (a state outside the output folder, whose lock the build holds)
            self._lock = _locked(path)
        self.now = format_instant(now)
        self.clock = Lastmod(self.now, now)
        self.old: State | None = None
        from ..state import State  # (here: a build that keeps no state loads no SQLite)

        try:
            self.old = State(path, description=description, write=True) if os.path.lexists(path) else None
        except StateError:
            self.close()  # (the lock let go)
            raise
        self.build = (self.old.build if self.old is not None else 0) + 1
        self.new_path = path + STATE_NEW
        self._new: sqlite3.Connection | None = None
        self._dates = DateCache()
        self._batch: list[tuple[object, ...]] = []
        if write:
            self._create(description, base_url)

    def _create(self, description: str, base_url: str) -> None:
        import sqlite3

        from ..state import FORMAT, SCHEMA, VERSION, connect

        try:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)  # (a CI cache's first run)
            if os.path.lexists(self.new_path):  # (a killed build's, never moved into place)
                os.unlink(self.new_path)
            self._new = connect(self.new_path, create=True)
            self._new.execute("PRAGMA journal_mode = OFF")  # (a new file: a failed build deletes it)
            self._new.execute("PRAGMA synchronous = OFF")
            self._new.execute("BEGIN")
            for statement in SCHEMA:
                self._new.execute(statement)
            self._new.executemany("INSERT INTO meta VALUES (?, ?)", (
                ("format", FORMAT), ("version", VERSION), ("description", description), ("base_url", base_url),
                ("build", str(self.build))))
        except (OSError, sqlite3.Error) as exc:
            self.discard()
            raise StateError(f"cannot write the build state beside {self.path} ({exc})", UNWRITABLE) from None

    def date(self, page: Page) -> Page:
        """The page with each URL's lastmod decided, and each URL recorded."""
        locs = page.locs
        digests = page.digests or (None,)
        if len(locs) == 1:  # (the common case, without the tuples of a cluster)
            given = page.lastmods[0] if page.lastmods else page.lastmod
            return _dated(page, self._one(locs[0], given, digests[0], page.where), None)
        given_all = page.lastmods or (page.lastmod,) * len(locs)
        lastmods: list[Lastmod | None] = []
        for index, loc in enumerate(locs):
            digest = digests[index] if len(digests) == len(locs) else digests[0]
            lastmods.append(self._one(loc, given_all[index], digest, page.where))
        return _dated(page, *of_versions(tuple(lastmods)))

    def _one(self, url: str, given: Lastmod | None, digest: bytes | None, where: Where) -> Lastmod | None:
        old = self.old.find(url) if self.old is not None else None
        lastmod = given
        if isinstance(given, ContentDated):
            lastmod = self._content(url, given, digest, old, where)
        elif old is not None and digest is not None and old.digest == digest and given is not None \
                and old.lastmod is not None and old.lastmod != given.text:
            moved_same_content(self.report, url, old.lastmod, given.text, where)
        text = lastmod.text if lastmod is not None else None
        same = old is not None and old.digest == digest and old.lastmod == text
        row = (url, digest, text, old.first_seen if old is not None else self.now, self.now,
               old.changed if same and old is not None else self.build,
               old.submitted if old is not None else None, old.sent if old is not None else None)
        if self._new is not None:
            self._batch.append(row)
            if len(self._batch) >= BATCH:
                self._flush()
        return lastmod

    def _content(self, url: str, given: ContentDated, digest: bytes | None, old: Row | None,
                 where: Where) -> Lastmod | None:
        """The lastmod of ``lastmod: content``: kept while the digest is the same."""
        if digest is None:
            content_unknown(self.report, url, "the page gives no digest or content field", where)
            return None
        if old is not None and old.digest == digest and old.lastmod is not None:
            kept = self._dates.parse(old.lastmod)[0]
            if kept is not None:
                return Lastmod(old.lastmod, kept.instant)  # (its text as written before: the same bytes)
        if old is None and given.first is not None:
            return given.first
        return self.clock

    def _flush(self) -> None:
        if self._new is None or not self._batch:
            return
        import sqlite3  # (as every use of it here: a build that keeps no state loads no SQLite)

        try:
            self._new.executemany("INSERT OR REPLACE INTO urls VALUES (?, ?, ?, ?, ?, ?, ?, ?)", self._batch)
        except sqlite3.Error as exc:
            raise StateError(f"cannot write the build state beside {self.path} ({exc})", UNWRITABLE) from None
        self._batch.clear()

    def finish(self) -> tuple[str, str] | None:
        """The new state written whole and synced: (its path, the state's path), for the
        commit; None for a dry run."""
        if self._new is None:
            return None
        self._flush()
        import sqlite3

        try:
            self._new.execute("COMMIT")
            self._new.close()
            self._new = None
            descriptor = os.open(self.new_path, os.O_RDONLY)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
        except (OSError, sqlite3.Error) as exc:
            raise StateError(f"cannot write the build state beside {self.path} ({exc})", UNWRITABLE) from None
        return self.new_path, self.path

    def discard(self) -> None:
        """The new state removed (a failed build, a dry run); the old one closed."""
        if self._new is not None:
            self._new.close()
            self._new = None
        if os.path.lexists(self.new_path):
            try:
                os.unlink(self.new_path)
            except OSError:
                pass
        self.close()

    def close(self) -> None:
        if self.old is not None:
            self.old.close()
            self.old = None
        if self._lock is not None:
            os.close(self._lock)  # (closing the descriptor releases the flock)
            self._lock = None


def _locked(path: str) -> int | None:
    """The lock of the state's folder (made if missing), as submit takes it; StateError
    F103 when another build or submission holds it."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
        return lock_folder(folder)
    except OSError as exc:
        raise StateError(f"cannot use the folder of the build state {path} ({exc.strerror or exc})", UNWRITABLE) \
            from None
    except FolderBusy as exc:
        raise StateError(f"{exc} (the build state {path})", exc.code) from None


def _dated(page: Page, lastmod: Lastmod | None, lastmods: tuple[Lastmod | None, ...] | None) -> Page:
    """A copy of ``page`` with its lastmods (made field by field: ``dataclasses.replace``
    costs four times as much, once per URL of a large build)."""
    if lastmod is page.lastmod and lastmods is None and page.lastmods is None:
        return page
    return Page(page.locs, page.codes, lastmod, page.changefreq, page.priority, page.x_default, page.extensions,
                page.where, page.layout, page.rest, lastmods, page.digests)


def open_state(site: Site, folder: str, description: str | None, given: str | None, report: Report, *,
               write: bool) -> BuildState | Literal[False] | None:
    """The build state, when one is kept (None when not); False when it cannot be used
    (reported: F105, O108, F102). ``description``: the description's path (None: a
    site made from objects)."""
    where = state_path(site, folder, given)
    if where is None:
        return None
    try:
        now = site.now if site.now is not None else time.time()
        apart = os.path.realpath(os.path.dirname(os.path.abspath(where))) != os.path.realpath(folder)
        return BuildState(where, state_owner(description, where), site.base_url, now, report, write=write,
                          lock=write and apart)
    except StateError as exc:
        report(exc.code, str(exc), Where(where))
        return False


def state_owner(description: str | None, state: str) -> str:
    """How a state names the description it belongs to: its path relative to the
    state's folder (stable when the two move together, whatever the output folder)."""
    return OBJECTS if description is None else owner_key(description, os.path.dirname(os.path.abspath(state)))


def state_path(site: Site, out_dir: str, given: str | None) -> str | None:
    """Where the build state is kept: ``given`` (--state, ``build(state=...)``), else
    ``output.state`` (a path relative to the description's folder; true: the default
    file beside the manifest), else the default file when the description asks for
    ``lastmod: content`` anywhere it can be seen before pages are read; else None."""
    if given is not None:
        return given
    named = site.output.state
    if named is None and _asks_for_content(site):
        named = ""
    if named is None:
        return None
    return os.path.join(out_dir, STATE) if named == "" else os.path.join(os.path.dirname(site.file), named)


def _asks_for_content(site: Site) -> bool:
    for unit in site.units:
        if isinstance(unit, BuiltSite) and ("content",) in unit.lastmod:
            return True
        if isinstance(unit, Page):
            if isinstance(unit.lastmod, ContentDated) or any(isinstance(one, ContentDated)
                                                             for one in unit.lastmods or ()):
                return True
        elif isinstance(unit.defaults.lastmod, ContentDated):
            return True
    return False
