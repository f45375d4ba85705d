"""Baselines: the findings a site already has, recorded, so that CI fails on new ones only.

A finding's fingerprint is what it is about, not where it stands: its code, its file
(relative to the baseline's folder, so the baseline travels with the repository), the
URL it concerns, the hreflang value and the other end of a pair (its first related
URL). Line numbers are left out, so an edit elsewhere in a file does not make old
findings new. A fingerprint may stand several times (one URL listed three times is two
U104 findings); a baseline counts them, and a fourth copy is new.

The file is JSON, sorted, one finding a line, so that it diffs well in review.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from hashlib import blake2b

from ..diagnostics import Diagnostic

FORMAT = 1
MAX_BYTES = 64 << 20  # a baseline of a million findings is far less


class BaselineError(ValueError):
    """A baseline file that cannot be read (not JSON, another tool's, a newer format)."""


@dataclass(frozen=True)
class Split:
    """Findings against a baseline: the ``new`` ones (to report), how many were
    ``known`` (in the baseline), and the ``fixed`` fingerprints (in the baseline, gone
    now: the baseline can shrink)."""

    new: list[Diagnostic]
    known: int
    fixed: Counter[str]


def fingerprint(diagnostic: Diagnostic, root: str, name: Callable[[str], str] | None = None) -> str:
    """What a finding is about, as a short stable digest (see the module's docstring).
    ``name`` names a file in place of its path relative to ``root`` (a diff names each
    side's files relative to that side, so that two folders, or a folder and a URL,
    compare)."""
    file = diagnostic.file or ""
    if name is not None:
        file = name(file)
    elif file and not file.startswith("<") and "://" not in file:
        file = os.path.relpath(os.path.abspath(file), root).replace(os.sep, "/")
    other = ""
    if diagnostic.related:
        first = diagnostic.related[0]
        other = first.url or (name(first.file) if name is not None and first.file else first.file) or ""
    parts = (diagnostic.code, file, diagnostic.url or "", diagnostic.hreflang or "", other)
    return blake2b("\x00".join(parts).encode("utf-8", "backslashreplace"), digest_size=10).hexdigest()


def count(diagnostics: Iterable[Diagnostic], root: str, name: Callable[[str], str] | None = None) -> Counter[str]:
    return Counter(fingerprint(d, root, name) for d in diagnostics)


def write(path: str, diagnostics: Iterable[Diagnostic], root: str) -> int:
    """The baseline of these findings, written (atomically) to ``path``; how many."""
    entries: dict[str, dict[str, object]] = {}
    for diagnostic in diagnostics:
        key = fingerprint(diagnostic, root)
        entry = entries.setdefault(key, {"fingerprint": key, "code": diagnostic.code, "url": diagnostic.url,
                                         "count": 0})
        entry["count"] = int(entry["count"]) + 1  # type: ignore[call-overload]
    rows = [json.dumps(entries[key], ensure_ascii=True, sort_keys=True) for key in sorted(entries)]
    findings = ",\n".join(rows)
    text = f'{{"format": {FORMAT:d}, "tool": "sitemap-ext", "findings": [\n{findings}\n]}}\n'
    folder = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temporary, path)
    return sum(int(entry["count"]) for entry in entries.values())  # type: ignore[call-overload]


def read(path: str) -> Counter[str]:
    """The fingerprints a baseline file holds, with their counts."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise BaselineError(f"cannot read the baseline {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise BaselineError(f"the baseline {path} is larger than {MAX_BYTES:,} bytes")
    try:
        document = json.loads(data)
    except ValueError as exc:
        raise BaselineError(f"the baseline {path} is not JSON ({exc}); write it anew with --baseline-update") from None
    if not isinstance(document, dict) or document.get("tool") != "sitemap-ext" or \
            not isinstance(document.get("findings"), list):
        raise BaselineError(f"{path} is no sitemap-ext baseline")
    if document.get("format") != FORMAT:
        raise BaselineError(f"the baseline {path} has format {document.get('format')!r}; this version reads "
                            f"format {FORMAT}")
    found: Counter[str] = Counter()
    for entry in document["findings"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("fingerprint"), str) or \
                not isinstance(entry.get("count", 1), int) or isinstance(entry.get("count", 1), bool):
            raise BaselineError(f"the baseline {path} holds an entry that is not one: {str(entry)[:80]}")
        found[entry["fingerprint"]] += max(int(entry.get("count", 1)), 0)
    return found


def split(diagnostics: Iterable[Diagnostic], baseline: Counter[str], root: str,
          name: Callable[[str], str] | None = None) -> Split:
    """The findings not in the baseline (in their order), and what the baseline holds
    that was not found (fixed)."""
    left = Counter(baseline)
    new: list[Diagnostic] = []
    known = 0
    for diagnostic in diagnostics:
        key = fingerprint(diagnostic, root, name)
        if left[key] > 0:
            left[key] -= 1
            known += 1
        else:
            new.append(diagnostic)
    return Split(new, known, +left)


__all__ = ["BaselineError", "Split", "count", "fingerprint", "read", "split", "write"]
