"""The output folder: locked, staged inside, committed through a journal.

A build writes every file into a staging folder inside the output folder (the
same file system, so each move is one atomic rename). The commit then

1. checks every target: its name stays inside the folder, no folder on its way
   and no file it replaces is a symbolic link or anything but a regular file, no
   name is written twice or claimed by another site description's manifest;
2. writes a journal (the moves, the stale files to remove, the new manifest) and
   renames it into place: from that instant the commit is decided;
3. moves the files, children first and the index last, so a reader never sees an
   index naming a file that is not in place; removes the stale files; replaces
   the manifest; deletes the journal and the staging folder.

A build killed before step 2 leaves its staging folder, which the next build
deletes; killed after it, the next build (of any site description into that
folder) finishes the journal first. The folder is locked (``flock`` on the
folder itself) for the whole build, so two builds into one folder cannot
interleave: the second fails at once, saying so.

Each site description owns the files it wrote (the manifest keeps a list per
description, keyed by the description's path relative to the folder): a build
removes only its own stale files, and a name that another description wrote is
an error before anything is moved.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from typing import Any, Literal, overload

from ..diagnostics import Collector, Where
from ..folder import (
    JOURNAL,
    MANIFEST,
    PROBE_PREFIX,
    RESERVED_PREFIX,
    STAGE_PREFIX,
    Damaged,
    FolderBusy,
    Unsafe,
    is_view,
    lock_folder,
    read_json,
    reserved_name,
    safe_relative_name,
    set_aside,
    set_aside_if_damaged,
    staged_source,
    staged_state,
    valid_journal,
)
from ..safeio import kind_of_mode

_MANIFEST_VERSION = 2
_LEGACY_OWNER = ""  # files listed by a 0.1/0.2 manifest, which had no owners


UNWRITABLE = "F102"  # the output folder (or the build state beside it) cannot be written


class OutputError(Exception):
    """The output folder cannot be used: ``code`` says why (F102 I/O, F103 locked, O103-O105)."""

    def __init__(self, message: str, code: str = UNWRITABLE, *, partial: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.partial = partial  # the commit was decided and stopped part-way: the folder changed


def owner_key(description: str, out_dir: str) -> str:
    """How the manifest names a site description: its path relative to the output
    folder (stable when both move together), '/'-separated."""
    relative = os.path.relpath(os.path.realpath(description), os.path.realpath(out_dir))
    return relative.replace(os.sep, "/")


def staged_path(folder: str, name: str) -> str:
    """An output name's path in a staging folder, its folders made (O103: a name that leaves it)."""
    if not safe_relative_name(name):  # (names are checked where they are set; this is the last guard)
        raise OutputError(f"'{name}' is not a name inside the output folder", "O103")
    full = os.path.join(folder, *name.split("/"))
    if (parent := os.path.dirname(full)) != folder:
        os.makedirs(parent, exist_ok=True)
    return full


class Staging:
    """One build's hold on an output folder: the lock, the staging folder, the commit."""

    def __init__(self, out_dir: str, owner: str = "") -> None:
        self.out_dir = out_dir
        self.owner = owner
        self.removed: list[str] = []
        self.recovered = False  # a killed build's commit was finished first
        # Damaged files of ours set aside (the file, its new name, why): F106 each.
        self.set_aside: list[tuple[str, str, str]] = []
        self._lock: int | None = None
        try:
            os.makedirs(out_dir, exist_ok=True)
            self._lock = lock_folder(out_dir)
            self.recovered = self._recover()
            self._set_aside_damaged(os.path.join(out_dir, MANIFEST))
            self._remove_old_stages()
            self.folder = tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=out_dir)
        except OSError as exc:
            self._unlock()
            raise OutputError(f"cannot create or write {out_dir}: {exc.strerror or exc}") from exc
        except FolderBusy as exc:
            self._unlock()
            raise OutputError(str(exc), exc.code) from None
        except OutputError:
            self._unlock()
            raise

    def path(self, name: str) -> str:  # (of an output name)
        return staged_path(self.folder, name)

    # --- commit ---------------------------------------------------------------------

    def commit(self, moves: list[tuple[str, str]], keep_previous: bool = False,
               state: tuple[str, str] | None = None) -> list[str]:
        """Move (staging path, output name) pairs into place, in the order given; remove
        this description's stale files. Returns the names removed.

        ``keep_previous`` (versioned output): the files of this description's last
        build that this one does not write stay one build longer, for readers that
        fetched the last index; those kept before are removed. ``state``: the build
        state's new file and its place (beside each other: ``write/state.py``), moved
        in the same commit, after the sitemaps."""
        try:
            names = [name for _, name in moves]
            self._check_names(names)
            manifest = self._manifest()
            owners: dict[str, list[str]] = manifest["owners"]
            retained: dict[str, list[str]] = manifest["retained"]
            others = {name: who for who, files in [*owners.items(), *retained.items()]
                      if who not in (self.owner, _LEGACY_OWNER) for name in files}
            taken = [f"{name} (written by {others[name]})" for name in names if name in others]
            if taken:
                raise OutputError(
                    f"{len(taken)} file(s) this build writes belong to another site description in "
                    f"{self.out_dir}: {', '.join(taken[:3])}; give each description its own output names "
                    "(output.pattern, output.index_file) or its own folder", "O104")
            last = set(owners.get(self.owner, ())) | set(owners.get(_LEGACY_OWNER, ()))
            self._no_page_replaced(names, last)
            kept = sorted(last - set(names) - set(others)) if keep_previous else []
            previous = last | set(retained.get(self.owner, ()))
            # A stale name behind a link (a host folder replaced by a symlink) is not ours to remove.
            stale = [name for name in sorted(previous - set(names) - set(kept) - set(others))
                     if self._removable(name)]
            targets = [self._target(name, create=True) for name in names]  # every folder on the way is ours
            self._prove_writable([*targets, *(self._target(name, create=False) for name in stale)])
            owners.pop(_LEGACY_OWNER, None)
            owners[self.owner] = names
            retained.pop(self.owner, None)
            if kept:
                retained[self.owner] = kept
            new_manifest: dict[str, Any] = {"version": _MANIFEST_VERSION, "owners": dict(sorted(owners.items()))}
            if retained:
                new_manifest["retained"] = dict(sorted(retained.items()))
            journal = {
                "stage": os.path.basename(self.folder),
                "moves": [[os.path.relpath(source, self.folder).replace(os.sep, "/"), name] for source, name in moves],
                "remove": stale,
                "manifest": new_manifest,
                **_state_entry(state),
            }
            _write_json(os.path.join(self.folder, JOURNAL), journal)
            os.replace(os.path.join(self.folder, JOURNAL), os.path.join(self.out_dir, JOURNAL))
            _sync_folder(self.out_dir)
        except OSError as exc:
            raise OutputError(f"cannot write into {self.out_dir}: {exc.strerror or exc}; "
                              "nothing in it was changed") from exc
        try:
            self.removed = self._apply(journal)
        except (OSError, OutputError, Unsafe) as exc:
            raise OutputError(
                f"the commit into {self.out_dir} stopped part-way ({getattr(exc, 'strerror', None) or exc}); "
                "its journal is kept, and the next build into this folder finishes it first", partial=True) from exc
        return self.removed

    def _prove_writable(self, targets: list[str | None]) -> None:
        """Before the journal: every folder a file moves into or is removed from takes
        a new entry (a probe file made and removed) and lies on the staging folder's
        file system, so that no move can fail there half-way through the commit (one
        host's new files beside another's old ones)."""
        device = os.lstat(self.folder).st_dev
        for folder in sorted({self.out_dir, *(os.path.dirname(path) for path in targets if path is not None)}):
            if os.lstat(folder).st_dev != device:
                raise OutputError(f"{folder} is on another file system than {self.out_dir} (a mount point), so "
                                  "files cannot be moved into it at once; nothing in the folder was changed")
            try:
                descriptor, probe = tempfile.mkstemp(prefix=PROBE_PREFIX, dir=folder)
                os.close(descriptor)
                os.remove(probe)
            except OSError as exc:
                raise OutputError(f"cannot write into {folder}: {exc.strerror or exc}; nothing in {self.out_dir} "
                                  "was changed") from exc

    def _removable(self, name: str) -> bool:
        try:
            return self._target(name, create=False) is not None
        except OutputError:
            return False

    def _check_names(self, names: list[str]) -> None:
        seen: set[str] = set()
        for name in names:
            if not safe_relative_name(name) or reserved_name(name):
                raise OutputError(f"'{name}' is not a name this build may write in the output folder", "O103")
            folded = name.casefold()  # sitemap.xml and Sitemap.xml are one file on some file systems
            if folded in seen:
                raise OutputError(f"two output files would be named '{name}'; give output.pattern, "
                                  "output.news_pattern, output.index_file and output.robots distinct names",
                                  "O103")
            seen.add(folded)

    def _apply(self, journal: dict[str, Any]) -> list[str]:
        """Carry out a decided commit (again, after a kill: every step may be repeated)."""
        stage = os.path.join(self.out_dir, journal["stage"])
        # Every source is found before anything moves (None: moved before a kill); one
        # behind a link, or no file a build made, is Unsafe, and nothing is moved.
        sources = [(staged_source(self.out_dir, journal["stage"], source), name) for source, name in journal["moves"]]
        moved = journal.get("state")  # (None: no state, or a journal of before 0.4)
        new_state, state_target = (str(moved[0]), str(moved[1])) if moved is not None else ("", "")
        state = staged_state(new_state) if moved is not None else False
        if state:
            from ..state import is_state  # (here: only a build that keeps a state moves one)
            if not (is_state(new_state) and (not os.path.lexists(state_target) or is_state(state_target))):
                raise Unsafe(f"its state move {new_state} -> {state_target} is not from a build state to a build "
                             "state (a journal moves nothing else)")
        for path, name in sources:
            if path is not None:
                os.replace(path, self._target(name, create=True))
        removed = []
        for name in journal["remove"]:
            target = self._target(name, create=False) if self._removable(name) else None
            if target is not None:
                try:
                    if stat.S_ISREG(os.lstat(target).st_mode):
                        os.remove(target)
                        removed.append(name)
                except FileNotFoundError:
                    pass
        if state:  # (else moved before a kill)
            os.replace(new_state, state_target)
            _sync_folder(os.path.dirname(state_target))
        manifest = os.path.join(self.out_dir, MANIFEST + ".new")
        _write_json(manifest, journal["manifest"])
        os.replace(manifest, os.path.join(self.out_dir, MANIFEST))
        os.remove(os.path.join(self.out_dir, JOURNAL))
        _sync_folder(self.out_dir)
        shutil.rmtree(stage, ignore_errors=True)
        return removed

    @overload
    def _target(self, name: str, *, create: Literal[True]) -> str: ...

    @overload
    def _target(self, name: str, *, create: bool) -> str | None: ...

    def _target(self, name: str, *, create: bool) -> str | None:
        """The output path of ``name``, walking its folders without following a link.
        Raises when a folder on the way, or the file it would replace, is a symbolic link
        or not what it should be; with ``create`` missing folders are made, else None."""
        if not safe_relative_name(name) or reserved_name(name):
            raise OutputError(f"'{name}' is not a name inside the output folder", "O103")
        parts = name.split("/")
        path = self.out_dir
        for part in parts[:-1]:
            path = os.path.join(path, part)
            try:
                mode = os.lstat(path).st_mode
            except FileNotFoundError:
                if not create:
                    return None
                os.mkdir(path)
                continue
            if not stat.S_ISDIR(mode):
                raise OutputError(
                    f"{path} is {kind_of_mode(mode)}, where the build needs a folder of its own; sitemap-ext does not "
                    "follow links inside the output folder: remove it or choose another folder", "O105")
        path = os.path.join(path, parts[-1])
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return path
        if not stat.S_ISREG(mode):
            raise OutputError(f"{path} is {kind_of_mode(mode)}; the build replaces only regular files: remove it "
                              "or choose another folder", "O105")
        return path

    def _no_page_replaced(self, names: list[str], last: set[str]) -> None:
        """O105 for an HTML view (output.html, on by default since 0.4) whose name a
        file holds that no build of this description wrote: a page of the site's own
        (a sitemap.html for people) is never replaced by a view."""
        lost = bool(self.set_aside)  # (a damaged manifest set aside: a view of ours is told by its mark)
        found = [name for name in names if name.endswith(".html") and name not in last
                 and os.path.isfile(path := os.path.join(self.out_dir, *name.split("/")))
                 and not (lost and is_view(path))]
        if found:
            raise OutputError(
                f"{os.path.join(self.out_dir, found[0])} is a file this build did not write, where it would write "
                "the HTML view of its sitemaps; the build replaces no page of the site: set output.html: false, or "
                "move the file", "O105")

    # --- before a build -------------------------------------------------------------

    def _recover(self) -> bool:
        """Finish the commit a killed build decided; True if there was one."""
        path = os.path.join(self.out_dir, JOURNAL)
        if not os.path.lexists(path) or self._set_aside_damaged(path):
            return False
        journal = read_json(path)
        if not valid_journal(journal):
            raise OutputError(f"{path} is not a journal sitemap-ext can finish; remove it (and check the "
                              "folder's files) to build again", "O105")
        try:
            self._apply(journal)
        except Unsafe as exc:  # planted: set aside (F106), and nothing of it moved
            self.set_aside.append((path, set_aside(path), str(exc)))
            return False
        return True

    def _set_aside_damaged(self, path: str) -> bool:
        """A damaged manifest or journal renamed aside (F106), as if there were none."""
        found = set_aside_if_damaged(path)
        if found is not None:
            self.set_aside.append(found)
        return found is not None

    def _remove_old_stages(self) -> None:
        """Staging folders of builds that were killed before their commit (a link at
        such a name, which no build makes, is removed itself, never followed)."""
        for entry in os.scandir(self.out_dir):
            if entry.name.startswith(RESERVED_PREFIX) and entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            elif entry.name.startswith(STAGE_PREFIX) and entry.is_symlink():
                os.unlink(entry.path)

    def foreign(self, name: str) -> bool:
        """Whether something stands at ``name`` in the output folder that no build into
        it wrote (no manifest lists it): a file of the site's own, never to be replaced."""
        if not os.path.lexists(os.path.join(self.out_dir, *name.split("/"))):
            return False
        owners: dict[str, list[str]] = self._manifest()["owners"]
        return not any(name in files for files in owners.values())

    def _manifest(self) -> dict[str, Any]:
        try:
            data = read_json(os.path.join(self.out_dir, MANIFEST))
        except Damaged:  # (set aside when the folder was taken; damaged since, under our lock: none)
            data = None
        lists: dict[str, dict[str, list[str]]] = {"owners": {}, "retained": {}}
        if isinstance(data, dict) and isinstance(data.get("owners"), dict):
            for key, found in lists.items():
                listed = data.get(key)
                for who, files in (listed.items() if isinstance(listed, dict) else ()):
                    if isinstance(who, str) and isinstance(files, list):
                        found[who] = [n for n in files if isinstance(n, str) and safe_relative_name(n)]
        elif isinstance(data, dict) and isinstance(data.get("files"), list):  # 0.1/0.2: one list, no owner
            lists["owners"][_LEGACY_OWNER] = [n for n in data["files"]
                                              if isinstance(n, str) and safe_relative_name(n)]
        return {"version": _MANIFEST_VERSION, **lists}

    # --- the end --------------------------------------------------------------------

    def discard(self) -> None:
        """Delete the staging folder and let the folder go (after a commit, or instead of one)."""
        folder = getattr(self, "folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # closing the descriptor releases the flock
            self._lock = None


def _write_json(path: str, data: Any) -> None:
    """A new file at ``path`` (whatever stood there, a planted link say, is removed
    first, never followed)."""
    if os.path.lexists(path):
        os.unlink(path)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")
        handle.flush()
        os.fsync(handle.fileno())


def _sync_folder(path: str) -> None:
    """Make renames in ``path`` durable (where the platform allows a folder to be synced)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _state_entry(state: tuple[str, str] | None) -> dict[str, list[str]]:
    """The journal's move of the build state: its new file and its place."""
    return {} if state is None else {"state": [os.path.abspath(path) for path in state]}


def cannot_write(collector: Collector, out_dir: str | None, exc: OSError) -> None:
    """F102: the output folder cannot be written (the disk filled, the folder went away)."""
    collector.report(UNWRITABLE, f"cannot write into {out_dir}: {exc.strerror or exc}", Where(out_dir))
