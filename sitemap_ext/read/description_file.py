"""One file of a site description: its text, how findings name it, and typed access to
its values (a wrong type is reported where the value is written, and gives None)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..diagnostics import Collector, Where, unknown_keys
from ..limits import MAX_DESCRIPTION_BYTES
from ..safeio import Refused, read_bounded
from .description_findings import out_of_range, unreadable, wrong_shape

if TYPE_CHECKING:  # (their types: display_name, which a check of sitemaps names files with, loads no YAML)
    from .yaml_doc import Doc, Path

OBJECTS = "<site>"  # how findings name a site description made from objects


def display_name(path: str) -> str:
    """How diagnostics name a file: relative to the working folder when below it."""
    if os.path.isabs(path):  # (the common cases first, without relpath's work)
        cwd = os.getcwd()
        normal = os.path.normpath(path)
        if cwd != os.sep and normal != cwd and not normal.startswith(cwd + os.sep):
            return path
    else:
        relative = os.path.normpath(path)
        if not relative.startswith(".."):
            return relative
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _cannot_read(collector: Collector, display: str, reason: str, code: str | None, where: Where | None) -> None:
    from .sniff import cannot_read  # (F101's wording; a description that reads loads no sniffing)

    found, message = cannot_read(display, reason)
    collector.report(code or found, message, where or Where(display))


def read_text(path: str, collector: Collector, display: str, code: str | None = None,
              where: Where | None = None) -> str | None:
    """A site description's text (at most ``MAX_DESCRIPTION_BYTES``, a regular file);
    one that cannot be read is ``code`` (an include's), else F101 (``sniff.cannot_read``)."""
    try:
        data = read_bounded(path, MAX_DESCRIPTION_BYTES)
    except Refused as exc:
        hint = "; move page lists into a CSV or JSON Lines source" if "larger" in str(exc) else ""
        _cannot_read(collector, display, f"it is {exc}{hint}", code, where)
        return None
    except (OSError, ValueError) as exc:
        _cannot_read(collector, display, str(getattr(exc, "strerror", None) or exc), code, where)
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        unreadable(collector.report, f"{display} is not valid UTF-8 ({exc.reason}); save it as UTF-8",
                   Where(display, line))
        return None


class TypedDoc:
    """Typed access to one YAML file, reporting wrong types and unknown keys."""

    def __init__(self, doc: Doc, collector: Collector) -> None:
        self.doc = doc
        self.collector = collector

    def where(self, path: Path) -> Where:
        return self.doc.where(path)

    def mapping(self, path: Path, value: Any, allowed: Iterable[str], what: str) -> dict[str, Any] | None:
        if value is None:
            return {}
        if not isinstance(value, dict):
            wrong_shape(self.collector.report, f"{what} must be a mapping (key: value lines)",
                        self.doc.value_where(path))
            return None
        unknown_keys(self.collector, value, tuple(allowed), what, lambda key: self.where(path + (key,)))
        return value

    def sequence(self, path: Path, value: Any, what: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            wrong_shape(self.collector.report, f"{what} must be a list (lines starting with '- ')",
                        self.doc.value_where(path))
            return []
        return value

    def string(self, path: Path, value: Any, what: str) -> str | None:
        if isinstance(value, str):
            return value
        text = self.doc.texts.get(path)
        if text is not None and not isinstance(value, (dict, list)):
            return text  # a plain scalar YAML typed (a number, 'no'): its own text
        wrong_shape(self.collector.report, f"{what} must be a string", self.doc.value_where(path))
        return None

    def boolean(self, path: Path, value: Any, what: str) -> bool | None:
        if isinstance(value, bool):
            return value
        wrong_shape(self.collector.report, f"{what} must be true or false", self.doc.value_where(path))
        return None

    def integer(self, path: Path, value: Any, what: str, low: int, high: int) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            wrong_shape(self.collector.report, f"{what} must be a whole number", self.doc.value_where(path))
            return None
        if not low <= value <= high:
            out_of_range(self.collector.report, f"{what} must be from {low:,} to {high:,}, not {value:,}",
                         self.doc.value_where(path))
            return None
        return value

