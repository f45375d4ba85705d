"""Atomic output: build in a staging folder, move into place only when all succeeded.

The staging folder sits inside the output folder (same file system, so every
move is an atomic rename). Files are moved children first, index last, so a
reader never sees an index naming a file that is not there yet. Files an
earlier build wrote and this one does not (a ``sitemap-3.xml`` after the site
shrank) are removed, as listed in the manifest the last build left.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile

MANIFEST = ".sitemap-ext-manifest.json"


def safe_relative_name(name: str) -> bool:
    """A file name that stays inside the output folder: relative, no '..', no backslash."""
    if not name or name.startswith(("/", "\\")) or "\\" in name or (len(name) > 1 and name[1] == ":"):
        return False
    return all(part not in ("", ".", "..") for part in name.split("/"))


class OutputError(Exception):
    """The output folder cannot be created or written."""


class Staging:
    def __init__(self, out_dir: str) -> None:
        self.out_dir = out_dir
        try:
            os.makedirs(out_dir, exist_ok=True)
            self.folder = tempfile.mkdtemp(prefix=".sitemap-ext-", dir=out_dir)
        except OSError as exc:
            raise OutputError(f"cannot create or write {out_dir}: {exc.strerror or exc}") from exc

    def path(self, name: str) -> str:
        """The staging path of an output name (already checked to stay inside)."""
        full = os.path.join(self.folder, *name.split("/"))
        parent = os.path.dirname(full)
        if parent != self.folder:
            os.makedirs(parent, exist_ok=True)
        return full

    def commit(self, moves: list[tuple[str, str]]) -> None:
        """Move (staging path, output name) pairs into place, in the order given."""
        try:
            previous = self._previous_names()
            for source, name in moves:
                target = os.path.join(self.out_dir, *name.split("/"))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                os.replace(source, target)
            names = [name for _, name in moves]
            for stale in sorted(previous - set(names)):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(os.path.join(self.out_dir, *stale.split("/")))
            manifest = os.path.join(self.folder, MANIFEST)
            with open(manifest, "w", encoding="utf-8") as handle:
                json.dump({"files": names}, handle, indent=1)
                handle.write("\n")
            os.replace(manifest, os.path.join(self.out_dir, MANIFEST))
        except OSError as exc:
            raise OutputError(f"cannot write into {self.out_dir}: {exc.strerror or exc}") from exc
        finally:
            self.discard()

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def _previous_names(self) -> set[str]:
        try:
            with open(os.path.join(self.out_dir, MANIFEST), encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            return set()
        files = data.get("files") if isinstance(data, dict) else None
        if not isinstance(files, list):
            return set()
        return {name for name in files if isinstance(name, str) and safe_relative_name(name)}


