"""What one file gives the rules across files: its entries and their alternates, packed.

A ``ClusterLog`` is made where a file is read (a worker process, as a rule) and
crosses to the main process as a few arrays and byte strings; ``cluster_store.py``
adds it to the one index of a check. URLs are identified by ``urls.url_key``: a
blake2b digest of their normalised form, so two spellings of one URL are one URL,
and nothing depends on the process or its hash seed. ``PackedText`` (below) keeps the
index's URLs compressed.
"""

from __future__ import annotations

import zlib
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from itertools import accumulate
from typing import TYPE_CHECKING, ClassVar, cast

from .. import langtags

if TYPE_CHECKING:
    from .spill import Column, SpillArray, SpillFolder

X_DEFAULT = langtags.X_DEFAULT
Pairs = tuple[tuple[str, str], ...]  # (code, href), in the order written
# What kind of listing an entry is: a URL may stand once in each kind of sitemap
# (a page in the web sitemap, again in the news or video sitemap).
# FEED: an RSS or Atom feed's items (Hugo writes one per section beside the sitemap).
# HTML: a page's own head (its <link> alternates); HEADER: the Link headers a URL is
# served with (a _headers or vercel.json rule, or a fetched URL's answer). Both are a
# URL's own annotations, not a sitemap's listing of it.
WEB, IMAGE, VIDEO, NEWS, TEXT, HTML, FEED, HEADER = range(8)
KIND_NAMES = ("web", "image", "video", "news", "text", "html", "feed", "header")
OWN = (HTML, HEADER)  # the kinds a URL gives itself
NO_LASTMOD = float("-inf")  # an entry's lastmod instant when it gives none (or none that is valid)


def code_number(code: str, numbers: dict[str, int], codes: list[str]) -> int:
    """The number of a language code in ``codes`` (a log's, the index's), given the next
    one where it is new."""
    found = numbers.get(code)
    if found is None:
        found = numbers[code] = len(codes)
        codes.append(code)
    return found


def list_digest(pairs: Pairs) -> int:
    text = "\x00".join(["\x01".join(pair) for pair in pairs])
    return int.from_bytes(blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little",
                          signed=True)


@dataclass
class ClusterLog:
    """What one file contributes to the cluster rules (made where the file is read).

    Packed as it is made, so that it crosses to the main process as a few arrays
    and byte strings and is added there without a Python object per URL: the locs
    as UTF-8 bytes with their lengths; each distinct list as its codes (numbers
    into ``codes``), its URLs' keys and its hrefs (bytes and lengths), from
    ``bounds[i]`` to ``bounds[i + 1]`` in the item arrays."""

    keys: array[int] = field(default_factory=lambda: array("q"))
    lines: array[int] = field(default_factory=lambda: array("I"))
    lists: array[int] = field(default_factory=lambda: array("i"))  # local list, -1: none
    kinds: array[int] = field(default_factory=lambda: array("b"))
    members: array[int] = field(default_factory=lambda: array("b"))  # 1: its URL is in its list under a language
    loc_bytes: bytearray = field(default_factory=bytearray)
    loc_lengths: array[int] = field(default_factory=lambda: array("I"))
    codes: list[str] = field(default_factory=list)  # the language codes the lists use
    bounds: array[int] = field(default_factory=lambda: array("I", [0]))
    item_codes: array[int] = field(default_factory=lambda: array("H"))
    item_keys: array[int] = field(default_factory=lambda: array("q"))
    href_bytes: bytearray = field(default_factory=bytearray)
    href_lengths: array[int] = field(default_factory=lambda: array("I"))
    digests: array[int] = field(default_factory=lambda: array("q"))
    firsts: array[int] = field(default_factory=lambda: array("I"))  # per local list: its first entry
    named: array[int] = field(default_factory=lambda: array("I"))  # per local list: URLs under a language
    # A log of many files (a worker's batch of pages): each file's name, and where its
    # entries end; empty for a log of one file.
    files: list[str] = field(default_factory=list)
    ends: array[int] = field(default_factory=lambda: array("I"))
    # Kept when a diff asks (``dated``): each entry's lastmod as a UTC instant, NO_LASTMOD for none.
    dated: bool = False
    lastmods: array[float] = field(default_factory=lambda: array("d"))
    # Built pages only: entry -> where its link lines start in link_lines (one per item
    # of its list, in the list's order), so a finding about one link is placed at it.
    line_starts: dict[int, int] = field(default_factory=dict)
    link_lines: array[int] = field(default_factory=lambda: array("I"))
    link_columns: array[int] = field(default_factory=lambda: array("I"))  # beside link_lines; 0: not known
    # Set for a share of a check's entries judged elsewhere (``cluster_shards.py``): each
    # entry's place in the one order every entry is added in (log number << 32 | entry).
    ordinals: array[int] = field(default_factory=lambda: array("Q"))
    _local: dict[Pairs, int] = field(default_factory=dict)
    _code_ids: dict[str, int] = field(default_factory=dict)
    _previous: tuple[Pairs, int] | None = None
    _by_digest: dict[int, int] = field(default_factory=dict)  # (while taking entries from other logs)

    def add(self, loc: str, key: int, line: int, kind: int, pairs: Pairs, keys: tuple[int, ...],
            named: frozenset[int], lines: tuple[int, ...] | None = None,
            columns: tuple[int, ...] | None = None, lastmod: float = NO_LASTMOD) -> None:
        """An entry; ``pairs`` its alternates (empty: none) and ``keys`` their URLs' keys,
        ``named`` the keys of the URLs listed under a language code, ``lines`` the line of
        each pair's link where they differ from the entry's (a page's head), ``columns``
        their columns where they are known (a Link header's), ``lastmod`` its instant
        (kept when the log is ``dated``)."""
        if self.dated:
            self.lastmods.append(lastmod)
        if lines is not None and pairs and (columns is not None or any(found != line for found in lines)):
            self.line_starts[len(self.keys)] = len(self.link_lines)
            self.link_lines.extend(lines)
            self.link_columns.extend(columns if columns is not None else (0,) * len(lines))
        self.keys.append(key)
        self.lines.append(line)
        self.kinds.append(kind)
        encoded = loc.encode("utf-8", "surrogatepass")
        self.loc_bytes += encoded
        self.loc_lengths.append(len(encoded))
        if not pairs:
            self.lists.append(-1)
            self.members.append(0)
            return
        self.lists.append(self._local_list(pairs, keys, named, len(self.keys) - 1))
        self.members.append(1 if key in named else 0)

    def add_entries(self, locs: list[str], keys: list[int], lines: list[int], kinds: list[int],
                    pairs: list[Pairs], pair_keys: list[tuple[int, ...]], named: list[frozenset[int]],
                    lastmods: list[float] | None = None) -> None:
        """A run of entries at once, as ``add`` takes each (their alternates' lines are
        their entries': a sitemap's listings); ``lastmods`` kept when the log is ``dated``."""
        first = len(self.keys)
        if self.dated:
            self.lastmods.extend(lastmods if lastmods is not None else [NO_LASTMOD] * len(locs))
        self.keys.extend(keys)
        self.lines.extend(lines)
        self.kinds.extend(kinds)
        encoded = [loc.encode("utf-8", "surrogatepass") for loc in locs]
        self.loc_bytes += b"".join(encoded)
        self.loc_lengths.extend([len(text) for text in encoded])
        lists: list[int] = []
        members: list[int] = []
        for number, listed in enumerate(pairs):
            if not listed:
                lists.append(-1)
                members.append(0)
                continue
            previous = self._previous
            lists.append(previous[1] if previous is not None and previous[0] is listed  # (a cluster's next member)
                         else self._local_list(listed, pair_keys[number], named[number], first + number))
            members.append(1 if keys[number] in named[number] else 0)
        self.lists.extend(lists)
        self.members.extend(members)

    def _local_list(self, pairs: Pairs, keys: tuple[int, ...], named: frozenset[int], entry: int) -> int:
        """The number of the list ``pairs`` in this log, packed once: at its first entry."""
        previous = self._previous
        if previous is not None and previous[0] is pairs:
            return previous[1]  # the next member of the same cluster: the usual case
        found = self._local.get(pairs)
        if found is None:
            found = self._local[pairs] = len(self.firsts)
            self._pack(pairs, keys, named, entry)
        self._previous = (pairs, found)
        return found

    def alternates(self) -> int:
        """The alternate links its entries give, each entry's list counted once per entry
        (per list: its entries, no object per URL)."""
        counts = Counter(self.lists)
        counts.pop(-1, None)
        bounds = self.bounds
        return sum(count * (bounds[local + 1] - bounds[local]) for local, count in counts.items())

    def end_file(self, display: str) -> None:
        """The entries added so far since the last file's end are ``display``'s."""
        if len(self.keys) > (self.ends[-1] if self.ends else 0):
            self.files.append(display)
            self.ends.append(len(self.keys))

    def _pack(self, pairs: Pairs, keys: tuple[int, ...], named: frozenset[int], entry: int) -> None:
        """A new list: its codes (numbers into ``codes``), keys and hrefs into the item arrays.
        ``named`` holds the keys of its URLs under a language, so its size is their count."""
        code_ids = self._code_ids
        ids = [code_ids.get(code) for code, _ in pairs]
        if None in ids:  # (a code this log has not seen: numbered as it comes)
            ids = [code_number(code, code_ids, self.codes) for code, _ in pairs]
        self.item_codes.extend(ids)  # type: ignore[arg-type]
        hrefs = [href for _, href in pairs]
        encoded = "".join(hrefs).encode("utf-8", "surrogatepass")
        self.href_bytes += encoded
        self.href_lengths.extend([len(href) for href in hrefs] if len(encoded) == sum(map(len, hrefs))
                                 else [len(href.encode("utf-8", "surrogatepass")) for href in hrefs])
        self.item_keys.extend(keys)
        self.bounds.append(len(self.item_codes))
        self.firsts.append(entry)
        self.digests.append(list_digest(pairs))
        self.named.append(len(named))

    def of_file(self, display: str) -> ClusterLog:
        """This log of one file named ``display``, as a log of many files (its ``files`` and ``ends``)."""
        if not self.files and self.keys:
            self.files, self.ends = [display], array("I", [len(self.keys)])
        return self

    def taken(self, entries: Sequence[int], into: ClusterLog | None = None, number: int | None = None,
              ascending: bool = True) -> ClusterLog:
        """The entries at ``entries`` (``ascending``, or in any order) of this log of many
        files, appended to ``into`` (a new log when None), with their lists, files, link
        lines and ordinals (``number``: this log's place among all logs added, which gives
        its entries theirs)."""
        out = into if into is not None else ClusterLog(dated=self.dated)
        base = len(out.keys)
        for column in ("keys", "lines", "kinds", "members", "loc_lengths", "ordinals") + (
                ("lastmods",) if self.dated else ()):
            values = getattr(self, column)
            if values:
                getattr(out, column).extend(map(values.__getitem__, entries))
        if number is not None:
            out.ordinals.extend([number << 32 | entry for entry in entries])
        starts = list(accumulate(self.loc_lengths, initial=0))
        out.loc_bytes += b"".join(self.loc_bytes[starts[e]:starts[e + 1]] for e in entries)
        self._take_lists(entries, out, base)
        if ascending:
            self._take_files(entries, out)
        else:
            self._take_files_each(entries, out)
        for number, entry in enumerate(entries if self.line_starts else ()):
            start = self.line_starts.get(entry)
            if start is not None:
                local = self.lists[entry]
                count = self.bounds[local + 1] - self.bounds[local]
                out.line_starts[base + number] = len(out.link_lines)
                out.link_lines.extend(self.link_lines[start:start + count])
                out.link_columns.extend(self.link_columns[start:start + count])
        return out

    def _take_lists(self, entries: Sequence[int], out: ClusterLog, base: int) -> None:
        """The lists the entries hold, each packed into ``out`` once (at its first entry there)."""
        taken = list(map(self.lists.__getitem__, entries))
        firsts: dict[int, int] = {}
        for number, local in enumerate(taken):
            firsts.setdefault(local, number)
        firsts.pop(-1, None)
        href_ends = list(accumulate(self.href_lengths, initial=0))
        codes = [code_number(code, out._code_ids, out.codes) for code in self.codes]
        same_codes = codes == list(range(len(codes)))
        known = {-1: -1}  # this log's list -> out's
        for local, number in firsts.items():
            found = out._local_by_digest(self.digests[local])
            if found is None:
                start, stop = self.bounds[local], self.bounds[local + 1]
                found = len(out.firsts)
                out.item_codes.extend(self.item_codes[start:stop] if same_codes else
                                      [codes[code] for code in self.item_codes[start:stop]])
                out.item_keys.extend(self.item_keys[start:stop])
                out.href_bytes += self.href_bytes[href_ends[start]:href_ends[stop]]
                out.href_lengths.extend(self.href_lengths[start:stop])
                out.bounds.append(len(out.item_codes))
                out.firsts.append(base + number)
                out.digests.append(self.digests[local])
                out.named.append(self.named[local])
                out._by_digest[self.digests[local]] = found
            known[local] = found
        out.lists.extend(map(known.__getitem__, taken))

    def _local_by_digest(self, digest: int) -> int | None:
        if not self._by_digest and self.digests:
            self._by_digest = {found: number for number, found in enumerate(self.digests)}
        return self._by_digest.get(digest)

    def _take_files(self, entries: Sequence[int], out: ClusterLog) -> None:
        """``out``'s files and ends, a run for each file of the entries taken (ascending)."""
        at = len(out.keys) - len(entries)  # (where the entries taken start in ``out``)
        start = 0
        for file, end in zip(self.files, self.ends, strict=True):
            count = bisect_left(entries, end) - bisect_left(entries, start)
            start = end
            if not count:
                continue
            if out.files and out.files[-1] == file and out.ends[-1] == at:
                out.ends[-1] += count
            else:
                out.files.append(file)
                out.ends.append(at + count)
            at += count

    def _take_files_each(self, entries: Sequence[int], out: ClusterLog) -> None:
        """``out``'s files and ends for entries in any order: each entry's file looked up."""
        at = len(out.keys) - len(entries)
        for number, entry in enumerate(entries):
            file = self.files[bisect_right(self.ends, entry)]
            if out.files and out.files[-1] == file and out.ends[-1] == at + number:
                out.ends[-1] += 1
            else:
                out.files.append(file)
                out.ends.append(at + number + 1)

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_local"], state["_code_ids"], state["_previous"] = {}, {}, None  # only needed while adding
        state["_by_digest"] = {}
        return state


def _spilling(typecode: str, folder: SpillFolder, values: Column[int]) -> SpillArray[int]:
    from .spill import SpillArray

    return SpillArray(typecode, folder, values)


class PackedText:
    """Strings appended one by one, kept zlib-compressed a block at a time and read back
    by number: a tenth of their size (URLs share hosts and paths). Reading is for
    findings, which often go back and forth between files (a URL listed in two
    sitemaps, an alternate and its page): the last ``KEPT`` blocks read are kept
    inflated (8 MiB), the least recently read given up first. Keeping only the last
    one inflated cost a megabyte's inflation per finding when findings alternate
    between two files: 40 s for 20,000 duplicates instead of a fraction of a second."""

    BLOCK: ClassVar[int] = 1 << 20  # (a spilled text's: its folder's budget's)
    KEPT: ClassVar[int] = 8

    def __init__(self, folder: SpillFolder | None = None) -> None:
        self.blocks: list[bytes] = []
        self.starts = array("Q")  # offset of each block's first byte
        # per string: where it ends (8-byte numbers past 4 GiB, and once spilled)
        self.ends: Column[int] = array("I")
        self.tail = bytearray()
        self.tail_start = 0
        self._inflated: OrderedDict[int, bytes] = OrderedDict()
        self._folder = folder
        self._fd: int | None = None  # once spilled: the blocks' file, each block at its place in ``_at``
        self._at = array("Q", [0])
        self.held = 0  # bytes of the blocks kept in memory

    def spill(self) -> None:
        """From now on, the compressed blocks in a file of the spill folder."""
        if self._folder is None or self._fd is not None:
            return
        self._fd = self._folder.open("text")
        for block in self.blocks:
            self._put(block)
        self.blocks, self.held = [], 0
        ends = self.ends = _spilling("Q", self._folder, self.ends)
        ends.spill()

    def _put(self, block: bytes) -> None:
        if self._fd is None or self._folder is None:
            self.blocks.append(block)
            self.held += len(block)
            return
        self._folder.write(self._fd, block, self._at[-1])
        self._at.append(self._at[-1] + len(block))

    def _block(self, number: int) -> bytes:
        if self._fd is None:
            return self.blocks[number]
        assert self._folder is not None
        return self._folder.read(self._fd, self._at[number + 1] - self._at[number], self._at[number])

    def nbytes(self) -> int:
        """The bytes held in memory: the blocks (until spilled), the tail, the ends' column."""
        ends = self.ends
        ends_held = len(ends) * ends.itemsize if isinstance(ends, array) else cast("SpillArray[int]", ends).nbytes()
        return self.held + len(self.tail) + ends_held

    def __len__(self) -> int:
        return len(self.ends)

    def extend_packed(self, data: bytes | bytearray, lengths: array[int]) -> None:
        """Strings given as their UTF-8 bytes one after another, and each one's length."""
        if not lengths:
            return
        start = self.tail_start + len(self.tail)
        if isinstance(self.ends, array) and self.ends.typecode == "I" and start + sum(lengths) >= 1 << 32:
            self.ends = array("Q", self.ends)
        ends = accumulate(lengths, initial=start)
        next(ends)  # the initial value: where the first one starts
        self.ends.extend(ends)
        self.tail += data
        if len(self.tail) >= (self.BLOCK if self._folder is None else self._folder.block):
            self._put(zlib.compress(self.tail, 1))
            self.starts.append(self.tail_start)
            self.tail_start += len(self.tail)
            self.tail = bytearray()

    def __getitem__(self, number: int) -> str:
        start = self.ends[number - 1] if number else 0
        stop = self.ends[number]
        if start >= self.tail_start:
            data = bytes(self.tail[start - self.tail_start:stop - self.tail_start])
        else:
            block = bisect_right(self.starts, start) - 1
            inflated = self._inflated.get(block)
            if inflated is None:
                inflated = self._inflated[block] = zlib.decompress(self._block(block))
                if len(self._inflated) > self.KEPT:
                    self._inflated.popitem(last=False)
            else:
                self._inflated.move_to_end(block)
            offset = self.starts[block]
            data = inflated[start - offset:stop - offset]
        return data.decode("utf-8", "surrogatepass")
