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
import stat
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from hashlib import blake2b

from .. import structured
from ..codes import REGISTRY
from ..diagnostics import Diagnostic
from ..safeio import Refused, kind_of_mode

FORMAT = 1
MAX_BYTES = 64 << 20  # a baseline of a million findings is far less


def never_baselined(code: str) -> bool:
    """Whether findings of ``code`` say that an input, or a whole file of it, could not
    be read (``Code.io`` or ``Code.unread``): such a finding is never written to a
    baseline and never matched by one (a baseline that holds one, as 0.4 wrote them,
    does not hide it), so a check that cannot read its input cannot pass for ever."""
    entry = REGISTRY.get(code)
    return entry is not None and entry.not_read


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
    """The baseline of these findings, written (atomically) to ``path``; how many. Findings
    that say an input was not read are left out (``never_baselined``)."""
    entries: dict[str, dict[str, object]] = {}
    for diagnostic in diagnostics:
        if never_baselined(diagnostic.code):
            continue
        key = fingerprint(diagnostic, root)
        entry = entries.setdefault(key, {"fingerprint": key, "code": diagnostic.code, "url": diagnostic.url,
                                         "count": 0})
        entry["count"] = int(entry["count"]) + 1  # type: ignore[call-overload]
    rows = [json.dumps(entries[key], ensure_ascii=True, sort_keys=True) for key in sorted(entries)]
    findings = ",\n".join(rows)
    text = f'{{"format": {FORMAT:d}, "tool": "sitemap-ext", "findings": [\n{findings}\n]}}\n'
    usable(path, writing=True)
    folder = os.path.dirname(os.path.abspath(path))
    temporary = None
    try:
        # A new file of a name no one can foresee (mkstemp: O_EXCL, so a link planted
        # beside the baseline is never followed), made whole, then renamed in place.
        descriptor, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            os.fchmod(descriptor, _mode(path))  # (mkstemp makes it 0600: a baseline is shared, as its old one was)
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        if temporary is not None:
            _remove(temporary)
        raise BaselineError(f"cannot write the baseline {path}: {exc.strerror or exc}") from None
    return sum(int(entry["count"]) for entry in entries.values())  # type: ignore[call-overload]


def usable(path: str, *, writing: bool) -> None:
    """``BaselineError`` naming ``path`` when it cannot be a baseline: it is a folder, a
    FIFO or another file that is not regular (never read, never replaced), or, to be
    written, its folder does not exist. Said before a check runs, so that a long check
    does not end in it."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise BaselineError(f"cannot use the baseline {path}: {exc.strerror or exc}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise BaselineError(f"the baseline {path} is {kind_of_mode(mode)}, not a regular file; name a file")
    folder = os.path.dirname(os.path.abspath(path))
    if (writing or mode is None) and not os.path.isdir(folder):
        raise BaselineError(f"cannot write the baseline {path}: its folder {os.path.dirname(path) or '.'} does "
                            "not exist")


def _mode(path: str) -> int:
    """The permissions a baseline is written with: those of the file it replaces, else rw-r--r--."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o644


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def read(path: str) -> Counter[str]:
    """The fingerprints a baseline file holds, with their counts (read bounded through
    ``structured``; a file that is not regular is refused unread, so a FIFO cannot hang
    the run). Entries of codes that are never baselined are passed over."""
    try:
        document = structured.read_json(path, MAX_BYTES)
    except (OSError, Refused) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise BaselineError(f"cannot read the baseline {path}: {reason}") from None
    except structured.Malformed as exc:
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
        if isinstance(entry.get("code"), str) and never_baselined(entry["code"]):
            continue
        found[entry["fingerprint"]] += max(int(entry.get("count", 1)), 0)
    return found


def against(diagnostics: Iterable[Diagnostic], baseline: Counter[str], root: str) -> Split:
    """The findings a baseline does not hide (in their order): those not in it, and
    every finding that says an input was not read (``never_baselined``), in it or not."""
    listed = list(diagnostics)
    matched = split([d for d in listed if not never_baselined(d.code)], baseline, root)
    kept = {id(d) for d in matched.new}
    return Split([d for d in listed if id(d) in kept or never_baselined(d.code)], matched.known, matched.fixed)


def split(diagnostics: Iterable[Diagnostic], baseline: Counter[str], root: str,
          name: Callable[[str], str] | None = None) -> Split:
    """The findings not in ``baseline`` (in their order), and what it holds that was not
    found (fixed): two sides compared, as a diff compares them. A baseline file is
    matched with ``against``, which never hides a finding that an input was not read."""
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


__all__ = ["BaselineError", "Split", "against", "count", "fingerprint", "never_baselined", "read", "split", "usable",
           "write"]
