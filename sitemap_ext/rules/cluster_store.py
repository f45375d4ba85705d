"""The index of every file's entries, in compact memory: what the rules across files read.

A million entries must not become a million Python objects:

* Each distinct list of alternates is stored once (its codes and URL keys in
  flat arrays, its URLs zlib-compressed a block at a time): the members of a
  healthy cluster share one list.
* Entries live in flat arrays (key, file, line, list, kind); their URLs are
  kept compressed too and read back only for findings.
* When every file is read, the keys are sorted once: duplicates are neighbours,
  and "which entries list URL X" is a binary search. A list held by as many of
  its own URLs as it names (each URL listed once) is a whole cluster and needs
  nothing more; only the others are looked at pair by pair.
* Past a memory budget (``spill``), the per-entry and per-item columns and the
  compressed blocks live in files of a private temporary folder (``spill.py``), read
  back a page at a time: the rules read them through the same accessors.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from itertools import accumulate, compress, islice
from operator import ne
from typing import TYPE_CHECKING, cast

from ..diagnostics import Related, Where
from .cluster_log import OWN, ClusterLog, PackedText, code_number

if TYPE_CHECKING:  # (spill.py loads only for a check given a memory budget)
    from collections.abc import Callable, Iterable

    from .spill import Budget, Column, SpillArray, SpillFolder

_NOT_OWN = bytes(0 if kind in OWN else 1 for kind in range(256))  # an entry's kind -> 1 unless a URL's own


@dataclass(slots=True, unsafe_hash=True)
class Placed(Where):
    """A place of a share of a check, with its entry's ordinal (the order findings are merged in)."""

    ordinal: int = 0
    key: int = 0  # (its entry's URL key: the order one index says U104 in)


def in_memory(column: Column[int]) -> array[int]:
    """A column that is all in memory, as its array."""
    return column if isinstance(column, array) else cast("SpillArray[int]", column).in_memory()


def _resident() -> int:
    from .spill import resident_bytes

    return resident_bytes()


def _spilling(typecode: str, folder: SpillFolder, values: Iterable[int] = ()) -> SpillArray[int]:
    from .spill import SpillArray

    return SpillArray(typecode, folder, values)


def sorted_by_key(keys: array[int]) -> tuple[array[int], array[int]]:
    """The entries in order of their keys (ties in entry order), and the keys so sorted.

    Sorting a million entries at once would make a million Python objects (their
    numbers and keys) for the moment of the sort: hundreds of megabytes at five
    million. So entries are first dealt into 256 buckets by their key's top byte
    (an array of entry numbers each), and each bucket is sorted on its own: the
    buckets in order are the whole in order, and the transient objects are one
    bucket's."""
    buckets = [array("I") for _ in range(256)]
    appends = [bucket.append for bucket in buckets]
    for entry, key in enumerate(keys):
        appends[(key >> 56) + 128](entry)  # signed keys: the top byte -128..127 to 0..255
    order, ordered = array("I"), array("q")
    get = keys.__getitem__
    for bucket in buckets:
        if bucket:
            entries = sorted(bucket, key=get)
            order.extend(entries)
            ordered.extend(map(get, entries))
    return order, ordered


def distinct_sorted(keys: array[int]) -> int:
    """How many distinct values sorted keys hold (neighbours compared: no set of them)."""
    return (1 if keys else 0) + int(sum(map(ne, islice(keys, 1, None), keys)))


def minimum_budget(budget: Budget) -> int:
    """The bytes a spilled store keeps in memory whatever its size: each column's pages
    kept and its last page, a few columns read in order, the compressed blocks kept
    inflated (and the one being filled), the sort's bucket buffers."""
    page = budget.page
    columns = (len(_SPILLED) + 4) * (budget.kept + 1) * page  # (+4: the sort's two, the texts' ends)
    reading = 4 * 16 * page  # (a few columns read in order at once, 16 pages at a time)
    text = 2 * (PackedText.KEPT + 2) * budget.block
    return columns + reading + text + 256 * 13 * max(64, page // 64)


# The columns that spill past a budget, and their typecodes.
_SPILLED = (("key", "q"), ("file", "I"), ("line", "I"), ("held", "i"), ("kind", "b"), ("lastmods", "d"),
            ("link_lines", "I"), ("link_columns", "I"), ("item_code", "H"), ("item_key", "q"))


@dataclass
class ClusterStore:
    """Every file's entries and every distinct list of alternates, added log by log
    in the fixed order of files, and read back by number (``ClusterIndex`` judges them)."""

    files: list[str] = field(default_factory=list)
    # Per entry, in the order read.
    key: Column[int] = field(default_factory=lambda: array("q"))
    file: Column[int] = field(default_factory=lambda: array("I"))
    line: Column[int] = field(default_factory=lambda: array("I"))
    held: Column[int] = field(default_factory=lambda: array("i"))  # the list each entry holds, -1: none
    kind: Column[int] = field(default_factory=lambda: array("b"))
    lastmods: Column[float] = field(default_factory=lambda: array("d"))  # only when the logs are dated (a diff)
    locs: PackedText = field(default_factory=PackedText)
    # Per distinct list: its items [start, end), first entry, members, URLs named.
    list_start: array[int] = field(default_factory=lambda: array("I", [0]))
    list_first: array[int] = field(default_factory=lambda: array("i"))
    list_members: array[int] = field(default_factory=lambda: array("I"))
    list_named: array[int] = field(default_factory=lambda: array("I"))
    list_ids: dict[int, int] = field(default_factory=dict)  # digest of the list -> list
    line_starts: dict[int, int] = field(default_factory=dict)  # a page's entry -> its links' lines (ClusterLog)
    link_lines: Column[int] = field(default_factory=lambda: array("I"))
    link_columns: Column[int] = field(default_factory=lambda: array("I"))  # beside link_lines; 0: not known
    item_code: Column[int] = field(default_factory=lambda: array("H"))
    item_key: Column[int] = field(default_factory=lambda: array("q"))
    hrefs: PackedText = field(default_factory=PackedText)
    codes: list[str] = field(default_factory=list)
    code_ids: dict[str, int] = field(default_factory=dict)
    # Made by sort(), when every log is added: keys sorted, and the entry at each sorted place.
    sorted_keys: Column[int] = field(default_factory=lambda: array("q"))
    order: Column[int] = field(default_factory=lambda: array("I"))
    alternates: int = 0  # the alternate links every entry gives, counted as logs are added
    # Past ``budget`` bytes, the columns above live in files of ``spill`` (None: all in memory).
    spill: SpillFolder | None = None
    # A share of a check judged on its own (``cluster_shards.py``): whether it owns a key
    # (None: it owns every key), each entry's ordinal in the one order of every entry, each list's digest.
    owns: Callable[[int], bool] | None = None
    ordinal: array[int] = field(default_factory=lambda: array("Q"))
    list_digests: array[int] = field(default_factory=lambda: array("q"))
    mixed: set[int] = field(default_factory=set)  # lists examined for a URL another share owns (digests)
    _distinct: int | None = None  # distinct_listed(), counted by a spilled sort

    def __post_init__(self) -> None:
        if self.spill is None:
            return
        for name, typecode in _SPILLED:
            setattr(self, name, _spilling(typecode, self.spill))
        self.locs, self.hrefs = PackedText(self.spill), PackedText(self.spill)
        minimum = self.reserve()
        if self.spill.budget < minimum:
            from .spill import BudgetTooSmall

            raise BudgetTooSmall(self.spill.budget, minimum, "the pages each spilled column keeps")

    def reserve(self) -> int:
        """The bytes a spilled store keeps in memory whatever its size (``minimum_budget``)."""
        return 0 if self.spill is None else minimum_budget(self.spill.settings)

    def fixed(self) -> int:
        """The bytes of what stays in memory past the budget (estimated): the distinct
        lists' index and columns, the pages' link lines, one bucket of the sort in memory."""
        return 120 * len(self.list_ids) + 100 * len(self.line_starts) + 80 * len(self.key) // 256

    def _columns(self) -> list[Column[int]] | list[Column[float]]:
        return [getattr(self, name) for name, _ in _SPILLED]

    def mind_budget(self) -> None:
        """Spill every column once the store holds more than its budget allows, or the
        process (its resident memory, where the system says it) is near the budget."""
        if self.spill is None:
            return
        held = sum(cast("SpillArray[int]", column).nbytes() for column in self._columns())
        held += self.locs.nbytes() + self.hrefs.nbytes()
        least = self.reserve() + self.fixed()
        if least > self.spill.budget:
            from .spill import BudgetTooSmall

            raise BudgetTooSmall(self.spill.budget, least, f"the index of {len(self.list_ids):,} distinct lists of "
                                 "alternates and of the pages' links", so_far=True)
        if not self.spilled and (held + self.fixed() + self.reserve() > self.spill.budget
                                 or _resident() + self.reserve() > self.spill.budget):
            # (the process's own memory counts too: the interpreter, the logs on their
            # way from the workers; spilled, the columns keep no more than reserve())
            for column in self._columns():
                cast("SpillArray[int]", column).spill()
            self.locs.spill()
            self.hrefs.spill()

    @property
    def spilled(self) -> bool:
        return self.spill is not None and cast("SpillArray[int]", self.key).spilled


    # --- adding ------------------------------------------------------------------------

    def add(self, display: str | None, log: ClusterLog) -> None:
        """One file's log, in the fixed order of files; with ``display`` None, a log of
        many files (``log.files``, ``log.ends``)."""
        first_id = len(self.files)
        if display is not None:
            self.files.append(display)
            self.file.extend(array("I", [first_id]) * len(log.keys))
        else:
            self.files.extend(log.files)
            start = 0
            for number, end in enumerate(log.ends):
                self.file.extend(array("I", [first_id + number]) * (end - start))
                start = end
        base = len(self.key)
        offset = len(self.link_lines)
        for local, start in log.line_starts.items():
            self.line_starts[base + local] = offset + start
        self.link_lines.extend(log.link_lines)
        self.link_columns.extend(log.link_columns)
        ids = []
        if log.firsts:
            self.alternates += log.alternates()
            codes = [code_number(code, self.code_ids, self.codes) for code in log.codes]
            href_ends = list(accumulate(log.href_lengths, initial=0))
            for local, digest in enumerate(log.digests):
                found = self.list_ids.get(digest)
                if found is None:
                    found = self._new_list(log, local, codes, href_ends, digest, base)
                ids.append(found)
        self.key.extend(log.keys)
        self.line.extend(log.lines)
        self.kind.extend(log.kinds)
        self.lastmods.extend(log.lastmods)
        self.ordinal.extend(log.ordinals)
        self.locs.extend_packed(log.loc_bytes, log.loc_lengths)
        lists = array("i", [ids[local] if local >= 0 else -1 for local in log.lists]) if ids else log.lists
        self.held.extend(lists)
        for list_id in compress(lists, log.members):
            self.list_members[list_id] += 1
        self.mind_budget()

    def _new_list(self, log: ClusterLog, local: int, codes: list[int], href_ends: list[int], digest: int,
                  base: int) -> int:
        start, stop = log.bounds[local], log.bounds[local + 1]
        list_id = self.list_ids[digest] = len(self.list_first)
        self.item_code.extend([codes[code] for code in log.item_codes[start:stop]])
        self.item_key.extend(log.item_keys[start:stop])
        self.hrefs.extend_packed(log.href_bytes[href_ends[start]:href_ends[stop]], log.href_lengths[start:stop])
        self.list_start.append(len(self.item_code))
        self.list_first.append(base + log.firsts[local])
        self.list_members.append(0)
        self.list_named.append(log.named[local])
        if self.owns is not None:
            self.list_digests.append(digest)
        return list_id

    # --- reading back ----------------------------------------------------------------------

    def items(self, list_id: int) -> range:
        return range(self.list_start[list_id], self.list_start[list_id + 1])

    def where(self, entry: int, target: int | None = None) -> Where:
        """Where an entry stands; with ``target`` (a URL's key), where its link to that
        URL stands, for an entry whose links have lines (and columns) of their own (a
        page's head, a header file's Link lines)."""
        line, column = self.line[entry], 0
        start = self.line_starts.get(entry) if target is not None else None
        if start is not None:
            items = self.items(self.held[entry])
            for number, item in enumerate(items):
                if self.item_key[item] == target:
                    line, column = self.link_lines[start + number], self.link_columns[start + number]
                    break
        # (line 0: a fetched URL's header, which has none; column 0: not known)
        if self.ordinal:
            return Placed(self.files[self.file[entry]], line or None, column or None if line else None,
                          self.ordinal[entry], self.key[entry])
        return Where(self.files[self.file[entry]], line or None, column or None if line else None)

    def mark(self, *parts: object) -> str | None:
        """A finding's key where two shares of a check may both say it (None on one machine,
        which says it once): the merge keeps the first in the one order (``cluster_shards.py``)."""
        return None if self.owns is None else " ".join(map(str, parts))

    def related(self, entry: int, message: str) -> Related:
        return Related(message, self.files[self.file[entry]], self.line[entry] or None, url=self.locs[entry])

    def listings(self, key: int) -> range:
        """The places in sorted order of every entry with this key."""
        low = bisect_left(self.sorted_keys, key)
        return range(low, bisect_right(self.sorted_keys, key, low))

    def pairs(self, list_id: int) -> frozenset[tuple[str, int]]:
        """The (code, URL key) pairs of a distinct list; empty for none (-1)."""
        if list_id < 0:
            return frozenset()
        return frozenset((self.codes[self.item_code[item]], self.item_key[item]) for item in self.items(list_id))

    def named_urls(self) -> list[str]:
        """Every URL the sitemaps list or name as an alternate, once each, in the order
        read (a page's own head or Link header adds none): the pages a live check may fetch."""
        urls: dict[int, str] = {}
        for entry in range(len(self.key)):
            if self.kind[entry] not in OWN:
                urls.setdefault(self.key[entry], self.locs[entry])
        for item in range(len(self.item_key)):
            href = self.hrefs[item]
            if href.lower().startswith(("http://", "https://")):
                urls.setdefault(self.item_key[item], href)
        return list(urls.values())

    def sort(self) -> None:
        """When every log is added: the keys sorted, for ``listings`` (spilled: bucket by
        bucket, with the distinct URLs listed counted on the way)."""
        if self.spilled and self.spill is not None:
            from .spill import sort_spilled

            self.order, self.sorted_keys, self._distinct = sort_spilled(
                cast("SpillArray[int]", self.key), cast("SpillArray[int]", self.kind), _NOT_OWN, self.spill)
            return
        self.order, self.sorted_keys = sorted_by_key(in_memory(self.key))

    def distinct_listed(self) -> int:
        """The distinct URLs the entries of sitemaps, feeds and text files list (by URL
        key; pages' heads and Link headers add none), counted on sorted keys: no set of
        a Python number per URL (which took 60 bytes a URL at the check's peak)."""
        if len(self.sorted_keys) != len(self.key):
            self.sort()
        if self._distinct is not None:
            return self._distinct
        kinds = in_memory(self.kind).tobytes()
        keys = in_memory(self.sorted_keys)
        if any(bytes((kind,)) in kinds for kind in OWN):
            keys = sorted_by_key(array("q", compress(self.key, kinds.translate(_NOT_OWN))))[1]
        return distinct_sorted(keys)
