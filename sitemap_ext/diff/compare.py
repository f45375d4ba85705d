"""Two sides compared: URLs added, removed and changed, clusters, files, new errors.

Both sides are read in turn (``side.py``) and compared by URL identity (``url_key``:
two spellings of one URL are one URL): the sorted keys of both are walked once side
by side. A URL is *changed* when its lastmod moved (the latest of its listings, as an
instant: ``2026-11-01`` and ``2026-11-01T00:00:00Z`` are one date), was added or was
dropped. URLs are given in the order their side lists them (the check's fixed order
of files, then the file's), and read back from the side's packed text only when asked.

A finding of NEW is *new* when OLD has no finding with its fingerprint (the
baseline's: code, file as its side names it (a file given is its side's root when both
sides are files), URL, hreflang, the other end; not its
line): errors only, each fingerprint counted.
"""

from __future__ import annotations

import datetime as dt
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..dates import default_clock, format_instant
from ..diagnostics import Diagnostic, Severity
from ..report.baseline import fingerprint, split
from ..rules.cluster_log import NO_LASTMOD
from ..rules.clusters import ClusterIndex
from .clusters import ClusterChanges, cluster_changes
from .lazy import Lazy
from .side import Reading, Side, read_side, same_roots

REMOVED, NEW_ERRORS = "removed", "new-errors"  # what failed a diff (``DiffResult.failures``)


def lastmod_text(instant: float) -> str | None:
    """A lastmod instant as W3C text in UTC: a date at midnight as the date alone
    (``2026-11-01``), else a date-time (``2026-11-01T08:30:00Z``); None for none."""
    if instant == NO_LASTMOD:
        return None
    moment = dt.datetime.fromtimestamp(instant, dt.timezone.utc)
    if moment.time() == dt.time():
        return moment.date().isoformat()
    spec = "microseconds" if moment.microsecond else "seconds"
    return moment.isoformat(timespec=spec).replace("+00:00", "Z")

@dataclass(frozen=True)
class UrlChange:
    """A URL listed on both sides whose lastmod moved (None: the side gives none)."""

    url: str
    old_lastmod: str | None
    new_lastmod: str | None


class Urls(Lazy[str]):
    """URLs of one side by entry number, read from its index when asked."""

    def __init__(self, index: ClusterIndex | None, entries: array[int]) -> None:
        self._index, self._entries = index, entries

    def __len__(self) -> int:
        return len(self._entries)

    def item(self, number: int) -> str:
        assert self._index is not None
        return self._index.locs[self._entries[number]]


class Changes(Lazy[UrlChange]):
    """URLs whose lastmod moved, in NEW's order, read from its index when asked."""

    def __init__(self, index: ClusterIndex | None, entries: array[int], before: array[float],
                 after: array[float]) -> None:
        self._urls = Urls(index, entries)
        self._before, self._after = before, after

    def __len__(self) -> int:
        return len(self._urls)

    def item(self, number: int) -> UrlChange:
        return UrlChange(self._urls[number], lastmod_text(self._before[number]), lastmod_text(self._after[number]))


_EMPTY = Urls(None, array("I"))


@dataclass
class DiffResult:
    """What changed from OLD to NEW (see ``api.diff``). ``unreadable``: the findings
    that kept a side from being read (the diff is then not made, and is empty)."""

    old: Side
    new: Side
    added: Sequence[str] = _EMPTY
    removed: Sequence[str] = _EMPTY
    changed: Sequence[UrlChange] = field(default_factory=lambda: Changes(None, array("I"), array("d"),
                                                                         array("d")))
    clusters: ClusterChanges = field(default_factory=lambda: ClusterChanges(None, None, []))
    files_added: list[str] = field(default_factory=list)
    files_removed: list[str] = field(default_factory=list)
    new_errors: list[Diagnostic] = field(default_factory=list)
    unreadable: list[Diagnostic] = field(default_factory=list)
    fail_on_removed: float | None = None  # percent of OLD's URLs

    @property
    def removed_share(self) -> float:
        """The percentage of OLD's URLs that NEW no longer lists."""
        return 100.0 * len(self.removed) / len(self.old.keys) if len(self.old.keys) else 0.0

    @property
    def failures(self) -> list[str]:
        """Why the diff fails a pipeline: ``removed`` (more than ``fail_on_removed`` percent
        of OLD's URLs gone), ``new-errors`` (errors in NEW that OLD did not have)."""
        failed = []
        if self.fail_on_removed is not None and self.removed_share > self.fail_on_removed:
            failed.append(REMOVED)
        if self.new_errors:
            failed.append(NEW_ERRORS)
        return failed

    @property
    def ok(self) -> bool:
        return not self.unreadable and not self.failures


def diff_inputs(old: str, new: str, reading: Reading, fail_on_removed: float | None) -> DiffResult:
    """OLD and NEW read in turn (each a folder, a file or a URL) and compared, both
    judged at one instant (``reading.now``, else the default clock read once)."""
    clock = None
    if reading.now is None:
        instant, clock = default_clock()
        reading = replace(reading, now=format_instant(instant))
    say = reading.progress or (lambda message: None)
    say(f"diff: reading OLD {old}")
    before = read_side(old, reading)
    say(f"diff: reading NEW {new}")
    after = read_side(new, reading)
    if clock is not None:
        before.result.clock = after.result.clock = clock
    same_roots(before, after)
    result = DiffResult(before, after, fail_on_removed=fail_on_removed)
    # A side that is not whole is no side to diff: against an error page served where
    # the sitemap was, every URL of NEW would be added and none removed, and the guard
    # would pass on the very day it is there for (``side.py`` says what whole is).
    result.unreadable = before.unread + after.unread
    if result.unreadable:
        return result
    say(f"diff: comparing {len(before.keys):,} and {len(after.keys):,} URLs")
    _urls(result)
    result.clusters = ClusterChanges(before.index, after.index, cluster_changes(before.index, after.index))
    old_files, new_files = before.files(), after.files()
    result.files_added, result.files_removed = sorted(new_files - old_files), sorted(old_files - new_files)
    result.new_errors = _new_errors(before, after)
    return result


def _urls(result: DiffResult) -> None:
    """URLs added, removed and changed: the sorted keys of both sides walked once."""
    old, new = result.old, result.new
    added, removed, changed = array("I"), array("I"), array("I")
    before, after = array("d"), array("d")
    i = j = 0
    old_keys, new_keys = old.keys, new.keys
    while i < len(old_keys) and j < len(new_keys):
        a, b = old_keys[i], new_keys[j]
        if a == b:
            if old.lastmods[i] != new.lastmods[j]:
                changed.append(new.firsts[j])
                before.append(old.lastmods[i])
                after.append(new.lastmods[j])
            i += 1
            j += 1
        elif a < b:
            removed.append(old.firsts[i])
            i += 1
        else:
            added.append(new.firsts[j])
            j += 1
    removed.extend(old.firsts[i:])
    added.extend(new.firsts[j:])
    order = sorted(range(len(changed)), key=changed.__getitem__)
    result.added = Urls(new.index, array("I", sorted(added)))
    result.removed = Urls(old.index, array("I", sorted(removed)))
    result.changed = Changes(new.index, array("I", (changed[k] for k in order)),
                             array("d", (before[k] for k in order)), array("d", (after[k] for k in order)))


def _new_errors(old: Side, new: Side) -> list[Diagnostic]:
    """NEW's errors whose fingerprints OLD's errors do not have (each counted)."""
    known = Counter(fingerprint(d, "", old.name) for d in old.collector.diagnostics if d.severity is Severity.ERROR)
    errors = [d for d in new.collector.sorted() if d.severity is Severity.ERROR]
    return split(errors, known, "", new.name).new
