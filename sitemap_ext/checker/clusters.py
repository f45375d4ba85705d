"""hreflang cluster rules across every file checked together, in compact memory.

A million entries must not become a million Python objects. So:

* Each distinct list of alternates is stored once: its codes and URL hashes in
  flat arrays, its URLs as UTF-8, zlib-compressed a block at a time (they are
  read back only for findings). The members of a healthy cluster all list the
  same alternates, so a cluster of six costs one stored list.
* Entries live in flat arrays (URL hash, list, own position in it, line, file);
  duplicates are found with ``hashes.UrlSeen`` (a set, then a compact table).
  An entry's URL is the string its list holds.
* When every file is read, rules run per list: a list held by as many entries
  as it names URLs (each standing in it) is a whole cluster, reciprocal and
  consistent by construction, and needs nothing more. Only the others are
  looked at item by item, through a map from URL hash to entry made then (a
  dict, or past ``DICT_ENTRIES`` the compact ``hashes.HashTable``).

URLs are identified by hash(): two different URLs with equal 64-bit hashes
would be taken for one (about one chance in 10^7 at a million URLs).
"""

from __future__ import annotations

import zlib
from array import array
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate, chain, islice, repeat
from typing import ClassVar, Iterable, NamedTuple, Sequence

from .. import langtags
from ..hashes import HashSet, HashTable, UrlSeen
from ..diagnostics import Collector, Related, Where

X_DEFAULT = langtags.X_DEFAULT
Alternate = tuple[str, str, int]  # canonical code, href, line


def _named(code: str) -> str:
    name = langtags.display_name(code)
    return f"{code} ({name})" if name else code


Pairs = tuple[tuple[str, str], ...]  # (canonical code, href), sorted, each once


class CleanRuns(NamedTuple):
    """A file's entries with alternates in runs (one cluster's members each), all judged
    clean: what the cluster index keeps of them."""

    lengths: list[int]  # entries per run
    counts: list[int]  # links per run
    codes: list[str]  # every link's canonical code, run after run
    hrefs: list[str]  # every link's URL, the same way
    keys: list[int]  # per run: hash() of its pairs (code, href), in written order, which is sorted
    named: list[int]  # per run: how many URLs its pairs name (not as x-default only)
    positions: list[int]  # per entry: a place of its URL among its run's pairs (not x-default only)


def positions_of(pairs: Pairs) -> dict[str, int]:
    """The place of each URL among a list's pairs (its first, not as x-default)."""
    positions: dict[str, int] = {}
    for place, (code, href) in enumerate(pairs):
        if code != X_DEFAULT:
            positions.setdefault(href, place)
    return positions


class PackedText:
    """Bytes appended piece by piece, kept zlib-compressed a block at a time and read
    back by offsets: the URLs of every stored list, a tenth of their size (they share
    hosts and paths). Reading is rare (findings), so the last block read is kept
    inflated and nothing more."""

    BLOCK: ClassVar[int] = 1 << 20

    def __init__(self) -> None:
        self.blocks: list[bytes] = []
        self.starts = array("Q")  # offset of each block's first byte
        self.tail = bytearray()  # not compressed yet
        self.tail_start = 0
        self._inflated: tuple[int, bytes] = (-1, b"")

    def __len__(self) -> int:
        return self.tail_start + len(self.tail)

    def append(self, piece: bytes) -> None:
        """Add bytes; a piece is never split across blocks."""
        self.tail += piece
        if len(self.tail) >= self.BLOCK:
            self.blocks.append(zlib.compress(self.tail, 1))  # level 1: the speed is what counts here
            self.starts.append(self.tail_start)
            self.tail_start += len(self.tail)
            self.tail = bytearray()

    def read(self, start: int, stop: int) -> bytes:
        if start >= self.tail_start:
            return bytes(self.tail[start - self.tail_start:stop - self.tail_start])
        block = bisect_right(self.starts, start) - 1
        if self._inflated[0] != block:
            self._inflated = (block, zlib.decompress(self.blocks[block]))
        offset = self.starts[block]
        return self._inflated[1][start - offset:stop - offset]


@dataclass
class ClusterIndex:
    collector: Collector
    # Every URL checked (entries with and without alternates), by hash: duplicates.
    urls: UrlSeen = field(default_factory=UrlSeen)
    # Per entry, in the order read.
    entry_hash: array = field(default_factory=lambda: array("q"))
    entry_list: array = field(default_factory=lambda: array("i"))  # -1: no alternates
    entry_position: array = field(default_factory=lambda: array("i"))  # own place in its list; -1: none
    entry_line: array = field(default_factory=lambda: array("I"))
    entry_file: array = field(default_factory=lambda: array("H"))
    files: list[str] = field(default_factory=list)
    _file_ids: dict[str, int] = field(default_factory=dict)
    # Per distinct list: [start, end) into the flat arrays below; its first entry; how
    # many entries hold it and stand in it (members); how many URLs it names (not as
    # x-default only). A list with as many members as URLs is a whole cluster.
    list_start: array = field(default_factory=lambda: array("I", [0]))
    list_first: array = field(default_factory=lambda: array("i"))
    list_members: array = field(default_factory=lambda: array("I"))
    list_size: array = field(default_factory=lambda: array("I"))
    list_ids: dict[int, int | list[int]] = field(default_factory=dict)  # hash of the list -> candidates
    item_code: array = field(default_factory=lambda: array("H"))
    item_hash: array = field(default_factory=lambda: array("q"))
    item_text: array = field(default_factory=lambda: array("Q", [0]))  # offsets into text
    text: PackedText = field(default_factory=lambda: PackedText())
    codes: list[str] = field(default_factory=list)
    _code_ids: dict[str, int] = field(default_factory=dict)
    own_locs: dict[int, str] = field(default_factory=dict)  # entries that do not list themselves
    # The list last stored or found, with its URLs' positions: the next entry usually holds it too.
    _previous: tuple[Pairs, int, dict[str, int]] | None = None
    _last_recorded: bool = False  # whether seen() recorded the URL it was last given
    _table: HashTable | dict[int, int] | None = None  # hash -> entry, made when finish() needs it
    # Lists first met on a URL listed twice (not an entry of its own): where that was.
    _first_elsewhere: dict[int, tuple[str, Where]] = field(default_factory=dict)

    DICT_ENTRIES: ClassVar[int] = 1 << 21  # up to here, that map is a dict (~100 bytes per entry)

    # --- reading --------------------------------------------------------------------

    def _file_id(self, file: str) -> int:
        file_id = self._file_ids.get(file)
        if file_id is None:
            file_id = self._file_ids[file] = len(self.files)
            self.files.append(file)
        return file_id

    def seen(self, loc: str, file: str, line: int) -> bool:
        """Record a URL (every one checked); True when it was recorded before (then
        the first stands, and add() ignores this one's alternates)."""
        key = hash(loc)
        urls = self.urls
        if key in urls:
            self._last_recorded = False
            return True
        urls.add(key)
        self._last_recorded = True
        self.entry_hash.append(key)
        self.entry_list.append(-1)
        self.entry_position.append(-1)
        self.entry_line.append(line)
        self.entry_file.append(self._file_id(file))
        return False

    def add(self, loc: str, alternates: list[Alternate], file: str, line: int, *, same: bool = False) -> None:
        """The alternates of the URL just recorded with seen(); ``same``: the very links
        the previous URL had (the next member of its cluster), already judged clean."""
        previous = self._previous
        pairs: Pairs = previous[0] if same and previous is not None else \
            tuple(sorted({(code, href) for code, href, _ in alternates}))
        if previous is not None and previous[0] == pairs:
            list_id, positions = previous[1], previous[2]  # the next member of the same cluster, the usual case
        else:
            self._local_rules(loc, alternates, Where(file, line))
            list_id = self._store(pairs, len(self.entry_list) - 1 if self._last_recorded else -1)
            if not self._last_recorded:
                self._first_elsewhere[list_id] = (loc, Where(file, line))
            positions = positions_of(pairs)
            self._previous = (pairs, list_id, positions)
        position = positions.get(loc, -1)
        if position < 0 and previous is not None and previous[0] == pairs:
            self._local_rules(loc, alternates, Where(file, line))
        if not self._last_recorded:
            return  # a duplicate: its first listing is the one the cluster rules use
        entry = len(self.entry_list) - 1
        self.entry_list[entry] = list_id
        self.entry_position[entry] = position
        if position < 0:
            self.own_locs[entry] = loc
        else:
            self.list_members[list_id] += 1

    def add_clean(self, hashes: list[int], file: str, first_line: int, starts: list[int],
                  runs: CleanRuns | None) -> None:
        """The entries of a file read whole, lines consecutive from first_line: URLs
        judged clean and new, with their hashes; ``runs`` (starting at ``starts``)
        hold their alternates, judged clean, each entry standing in its run's list;
        None when no entry has alternates. What seen() and add() would record one
        entry at a time, finding nothing to report."""
        count = len(hashes)
        self.urls.update(hashes)
        self._last_recorded, self._previous = True, None
        base = len(self.entry_hash)
        self.entry_hash.extend(hashes)
        self.entry_line.extend(range(first_line, first_line + count))
        self.entry_file.extend(repeat(self._file_id(file), count))
        if runs is None:
            self.entry_list.extend(repeat(-1, count))
            self.entry_position.extend(repeat(-1, count))
            return
        keys = runs.keys
        if len(set(keys)) == len(keys) and not any(map(self.list_ids.__contains__, keys)):
            ids: Sequence[int] = range(len(self.list_first), len(self.list_first) + len(keys))
            self.list_ids.update(zip(keys, ids))  # every list new: stored in a few calls
            self._store_all(runs, [base + start for start in starts])
        else:
            ends = list(accumulate(runs.counts))
            ids = [self._store(tuple(zip(runs.codes[end - size:end], runs.hrefs[end - size:end])), base + start)
                   for start, end, size in zip(starts, ends, runs.counts)]
            for list_id, length in zip(ids, runs.lengths):
                self.list_members[list_id] += length
        self.entry_list.extend(chain.from_iterable(map(repeat, ids, runs.lengths)))
        self.entry_position.extend(runs.positions)

    def _store_all(self, runs: CleanRuns, firsts: list[int]) -> None:
        """Lists known to be new, each held by all of its run."""
        for code in set(runs.codes).difference(self._code_ids):
            self._code_ids[code] = len(self.codes)
            self.codes.append(code)
        self.item_code.extend(map(self._code_ids.__getitem__, runs.codes))
        self.item_hash.extend(map(hash, runs.hrefs))
        blob = "".join(runs.hrefs).encode()
        sizes: Iterable[int] = map(len, runs.hrefs)
        if len(blob) != sum(map(len, runs.hrefs)):
            sizes = [len(href.encode()) for href in runs.hrefs]  # not all ASCII
        self.item_text.extend(islice(accumulate(sizes, initial=len(self.text)), 1, None))
        self.text.append(blob)
        self.list_start.extend(islice(accumulate(runs.counts, initial=self.list_start[-1]), 1, None))
        self.list_first.extend(firsts)
        self.list_members.extend(runs.lengths)
        self.list_size.extend(runs.named)

    def _store(self, pairs: Pairs, entry: int) -> int:
        key = hash(pairs)
        found = self.list_ids.get(key)
        for candidate in (() if found is None else (found,) if isinstance(found, int) else found):
            if self._pairs(candidate) == pairs:
                return candidate
        list_id = len(self.list_first)
        # One int per list, a list only where two lists' hashes meet.
        self.list_ids[key] = list_id if found is None else [found, list_id] if isinstance(found, int) \
            else [*found, list_id]
        codes = [self._code_ids.get(code) for code, _ in pairs]
        if None in codes:
            for place, (code, _) in enumerate(pairs):
                if codes[place] is None:
                    codes[place] = self._code_ids.setdefault(code, len(self.codes))
                    if codes[place] == len(self.codes):
                        self.codes.append(code)
        self.item_code.extend(codes)
        hrefs = [href for _, href in pairs]
        self.item_hash.extend(map(hash, hrefs))
        encoded = [href.encode() for href in hrefs]
        # item_text ends with the text's length; each href adds where it ends.
        self.item_text.extend(islice(accumulate(map(len, encoded), initial=len(self.text)), 1, None))
        self.text.append(b"".join(encoded))
        self.list_start.append(len(self.item_code))
        self.list_first.append(entry)
        self.list_members.append(0)
        self.list_size.append(len({href for code, href in pairs if code != X_DEFAULT}))
        return list_id

    def _local_rules(self, loc: str, alternates: list[Alternate], where: Where) -> None:
        report = self.collector.report
        by_code: dict[str, str] = {}
        by_href: dict[str, str] = {}
        defaults = 0
        for code, href, line in alternates:
            at = Where(where.file, line)
            if code == X_DEFAULT:
                defaults += 1
                if defaults == 2:
                    report("H108", "more than one x-default in this cluster; keep one", at, url=loc, hreflang=code)
                continue
            if code in by_code and by_code[code] != href:
                report("H106", f"{_named(code)} names two URLs, {by_code[code]} and {href}; each code names one "
                       "version", at, url=loc, hreflang=code)
            by_code.setdefault(code, href)
            if href in by_href and by_href[href] != code:
                report("H107", f"{href} is listed as both {by_href[href]} and {code}; a URL has one language",
                       at, url=loc, hreflang=code)
            by_href.setdefault(href, code)
        if loc not in by_href:
            report("H103", f"{loc} lists alternates but not itself; add an xhtml:link to its own URL with its own "
                   "hreflang", where, url=loc)

    # --- stored lists ----------------------------------------------------------------

    def _href(self, item: int) -> str:
        return self.text.read(self.item_text[item], self.item_text[item + 1]).decode()

    def _pairs(self, list_id: int) -> tuple[tuple[str, str], ...]:
        return tuple((self.codes[self.item_code[i]], self._href(i))
                     for i in range(self.list_start[list_id], self.list_start[list_id + 1]))

    def _loc(self, entry: int) -> str:
        position = self.entry_position[entry]
        if position < 0:
            return self.own_locs[entry]
        return self._href(self.list_start[self.entry_list[entry]] + position)

    def _where(self, entry: int) -> Where:
        return Where(self.files[self.entry_file[entry]], self.entry_line[entry])

    def _hrefs(self, list_id: int) -> dict[str, str]:
        """url -> code (x-default only when the URL has no language code too)."""
        out: dict[str, str] = {}
        for code, href in self._pairs(list_id):
            if code != X_DEFAULT or href not in out:
                out[href] = code
        return out

    # --- when every file is read ------------------------------------------------------

    def finish(self, also_checked: HashSet | None = None) -> None:
        """The rules that need every entry; ``also_checked``: URLs of text sitemaps."""
        report = self.collector.report
        x_default = self._code_ids.get(X_DEFAULT, -1)
        disagreeing = set()
        for list_id in range(len(self.list_first)):
            start, end = self.list_start[list_id], self.list_start[list_id + 1]
            codes = set(self.item_code[start:end])
            if x_default not in codes and len(codes) > 1:
                first = self._first(list_id)
                report("H112", "this cluster has no x-default, the version for users whose language matches "
                       "none (a language selector, or the main version)", first[0], url=first[1])
            if self.list_members[list_id] == self.list_size[list_id]:
                continue  # each URL it names holds it: nothing missing, nobody disagrees
            for item in range(start, end):
                if self.item_code[item] == x_default:
                    continue
                member = self._entry_of(self.item_hash[item])
                if member < 0:
                    if also_checked is not None and self.item_hash[item] in also_checked:
                        continue  # listed in a text sitemap: known, but without alternates
                    href = self._href(item)
                    first = self._first(list_id)
                    report("H111", f"alternate {href} ({self.codes[self.item_code[item]]}) is in none of the "
                           "sitemaps checked, so its return link cannot be verified; check its host's sitemap too",
                           first[0], url=first[1], hreflang=self.codes[self.item_code[item]])
                elif self.entry_list[member] != list_id:
                    disagreeing.add(list_id)
        if disagreeing:
            self._examine(disagreeing)

    def _first(self, list_id: int) -> tuple[Where, str]:
        """Where a list was first met, and on which URL: what its findings name."""
        first = self.list_first[list_id]
        if first < 0:
            loc, where = self._first_elsewhere[list_id]
            return where, loc
        return self._where(first), self._loc(first)

    def _entry_of(self, key: int) -> int:
        """The entry of the URL with this hash, or -1. The map is made on first use,
        which only a cluster that is not whole needs: a dict while that is cheap,
        else the compact table."""
        table = self._table
        if table is None:
            count = len(self.entry_hash)
            if count <= self.DICT_ENTRIES:
                table = dict(zip(self.entry_hash, range(count)))
            else:
                table = HashTable(bits=(2 * count).bit_length() + 1)
                for entry, key_at in enumerate(self.entry_hash):
                    table.put_new(key_at, entry)
            self._table = table
        if isinstance(table, dict):
            return table.get(key, -1)
        return table.get(key)

    def _examine(self, lists: set[int]) -> None:
        """Entry by entry, for the clusters whose members list different things."""
        report = self.collector.report
        pair_reported: set[tuple[int, int]] = set()
        for entry in range(len(self.entry_list)):
            list_id = self.entry_list[entry]
            if list_id not in lists:
                continue
            loc = self._loc(entry)
            mine = self._hrefs(list_id)
            where = self._where(entry)
            for href, code in mine.items():
                if href == loc or code == X_DEFAULT:
                    continue  # x-default targets (a language selector) need not link back
                other = self._entry_of(hash(href))
                if other < 0:
                    continue
                other_list = self.entry_list[other]
                if other_list == list_id:
                    continue
                theirs = self._hrefs(other_list) if other_list >= 0 else {}
                related = (Related(f"{href} is listed here", *self._related(other), url=href),)
                if loc not in theirs:
                    if len(theirs) > 1 and (set(mine) | {loc}) & (set(theirs) | {href}) == {href}:
                        report("H109", f"{href} is in two clusters that share nothing else: this one (with {loc}) "
                               "and the one it lists itself in; a URL belongs to one cluster", where, url=loc,
                               hreflang=code, related=related)
                    else:
                        report("H104", f"{loc} lists {href} as {_named(code)}, but {href} does not list {loc} "
                               "back; search engines ignore a pair without its return link", where, url=loc,
                               hreflang=code, related=related)
                    continue
                their_code = theirs.get(href)
                if their_code is not None and their_code != code:
                    report("H105", f"{loc} lists {href} as {_named(code)}, but {href} lists itself as "
                           f"{_named(their_code)}; use one code for it everywhere", where, url=loc, hreflang=code,
                           suggestion=their_code, related=related)
                    continue
                # Each member counts as listing itself: a missing self-reference is H103's.
                missing = sorted((set(mine) | {loc}) ^ (set(theirs) | {href}))
                key = (min(list_id, other_list), max(list_id, other_list))
                if missing and key not in pair_reported:
                    pair_reported.add(key)
                    report("H110", f"{loc} and {href} are in one cluster but list different alternates (not in "
                           f"both: {', '.join(missing[:5])}{'...' if len(missing) > 5 else ''}); every member "
                           "lists every version", where, url=loc, related=related)

    def _related(self, entry: int) -> tuple[str, int]:
        return self.files[self.entry_file[entry]], self.entry_line[entry]
