"""The rules that need every file: duplicates and hreflang clusters, in compact memory.

Each file's reader and rules leave a ``ClusterLog`` (built in the worker that read
the file); the main process adds the logs in a fixed order to one ``ClusterIndex``
and judges when every file is read. URLs are identified by ``urls.url_key``: a
blake2b digest of their normalised form, so two spellings of one URL are one URL,
and nothing depends on the process or its hash seed.

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

Sources: Google, "Tell Google about localized versions of your page" (return
links; x-default; "If two pages don't both point to each other, the tags will
be ignored"); Google, "Build and submit a sitemap" (a URL listed once).
"""

from __future__ import annotations

import zlib
from array import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from hashlib import blake2b
from itertools import accumulate, compress
from operator import eq
from typing import Callable, ClassVar, Iterable

from .. import langtags
from ..diagnostics import Collector, Related, Where
from ..urls import url_key, variants

X_DEFAULT = langtags.X_DEFAULT
Pairs = tuple[tuple[str, str], ...]  # (code, href), in the order written
# What kind of listing an entry is: a URL may stand once in each kind of sitemap
# (a page in the web sitemap, again in the news or video sitemap).
# FEED: an RSS or Atom feed's items (Hugo writes one per section beside the sitemap).
WEB, IMAGE, VIDEO, NEWS, TEXT, HTML, FEED = range(7)  # HTML: a page's own head (its <link> alternates)
KIND_NAMES = ("web", "image", "video", "news", "text", "html", "feed")


def _named(code: str) -> str:
    name = langtags.display_name(code)
    return f"{code} ({name})" if name else code


def list_digest(pairs: Pairs) -> int:
    text = "\x00".join(f"{code}\x01{href}" for code, href in pairs)
    return int.from_bytes(blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little",
                          signed=True)


def sorted_by_key(keys: array) -> tuple[array, array]:
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


@dataclass
class ClusterLog:
    """What one file contributes to the cluster rules (made where the file is read).

    Packed as it is made, so that it crosses to the main process as a few arrays
    and byte strings and is added there without a Python object per URL: the locs
    as UTF-8 bytes with their lengths; each distinct list as its codes (numbers
    into ``codes``), its URLs' keys and its hrefs (bytes and lengths), from
    ``bounds[i]`` to ``bounds[i + 1]`` in the item arrays."""

    keys: array = field(default_factory=lambda: array("q"))
    lines: array = field(default_factory=lambda: array("I"))
    lists: array = field(default_factory=lambda: array("i"))  # local list, -1: none
    kinds: array = field(default_factory=lambda: array("b"))
    members: array = field(default_factory=lambda: array("b"))  # 1: its URL is in its list under a language
    loc_bytes: bytearray = field(default_factory=bytearray)
    loc_lengths: array = field(default_factory=lambda: array("I"))
    codes: list[str] = field(default_factory=list)  # the language codes the lists use
    bounds: array = field(default_factory=lambda: array("I", [0]))
    item_codes: array = field(default_factory=lambda: array("H"))
    item_keys: array = field(default_factory=lambda: array("q"))
    href_bytes: bytearray = field(default_factory=bytearray)
    href_lengths: array = field(default_factory=lambda: array("I"))
    digests: array = field(default_factory=lambda: array("q"))
    firsts: array = field(default_factory=lambda: array("I"))  # per local list: its first entry
    named: array = field(default_factory=lambda: array("I"))  # per local list: URLs under a language
    # A log of many files (a worker's batch of pages): each file's name, and where its
    # entries end; empty for a log of one file.
    files: list[str] = field(default_factory=list)
    ends: array = field(default_factory=lambda: array("I"))
    # Built pages only: entry -> where its link lines start in link_lines (one per item
    # of its list, in the list's order), so a finding about one link is placed at it.
    line_starts: dict[int, int] = field(default_factory=dict)
    link_lines: array = field(default_factory=lambda: array("I"))
    _local: dict[Pairs, int] = field(default_factory=dict)
    _code_ids: dict[str, int] = field(default_factory=dict)
    _previous: tuple[Pairs, int] | None = None

    def add(self, loc: str, key: int, line: int, kind: int, pairs: Pairs, keys: tuple[int, ...],
            named: frozenset[int], lines: tuple[int, ...] | None = None) -> None:
        """An entry; ``pairs`` its alternates (empty: none) and ``keys`` their URLs' keys,
        ``named`` the keys of the URLs listed under a language code, ``lines`` the line of
        each pair's link where they differ from the entry's (a page's head)."""
        if lines is not None and pairs and any(found != line for found in lines):
            self.line_starts[len(self.keys)] = len(self.link_lines)
            self.link_lines.extend(lines)
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
        previous = self._previous
        if previous is not None and previous[0] is pairs:
            local = previous[1]  # the next member of the same cluster: the usual case
        else:
            found = self._local.get(pairs)
            if found is None:
                found = self._local[pairs] = len(self.firsts)
                self._pack(pairs, keys, named)
            local = found
            self._previous = (pairs, local)
        self.lists.append(local)
        self.members.append(1 if key in named else 0)

    def end_file(self, display: str) -> None:
        """The entries added so far since the last file's end are ``display``'s."""
        if len(self.keys) > (self.ends[-1] if self.ends else 0):
            self.files.append(display)
            self.ends.append(len(self.keys))

    def _pack(self, pairs: Pairs, keys: tuple[int, ...], named: frozenset[int]) -> None:
        code_ids = self._code_ids
        for code, href in pairs:
            code_id = code_ids.get(code)
            if code_id is None:
                code_id = code_ids[code] = len(self.codes)
                self.codes.append(code)
            self.item_codes.append(code_id)
            encoded = href.encode("utf-8", "surrogatepass")
            self.href_bytes += encoded
            self.href_lengths.append(len(encoded))
        self.item_keys.extend(keys)
        self.bounds.append(len(self.item_codes))
        self.firsts.append(len(self.keys) - 1)
        self.digests.append(list_digest(pairs))
        self.named.append(len({key for (code, _), key in zip(pairs, keys) if code != X_DEFAULT}))

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_local"], state["_code_ids"], state["_previous"] = {}, {}, None  # only needed while adding
        return state


class PackedText:
    """Strings appended one by one, kept zlib-compressed a block at a time and read back
    by number: a tenth of their size (URLs share hosts and paths). Reading is rare (for
    findings), so the last block read is kept inflated and nothing more."""

    BLOCK: ClassVar[int] = 1 << 20

    def __init__(self) -> None:
        self.blocks: list[bytes] = []
        self.starts = array("Q")  # offset of each block's first byte
        self.ends = array("I")  # per string: where it ends (8-byte numbers past 4 GiB)
        self.tail = bytearray()
        self.tail_start = 0
        self._inflated: tuple[int, bytes] = (-1, b"")

    def __len__(self) -> int:
        return len(self.ends)

    def extend_packed(self, data: bytes | bytearray, lengths: array) -> None:
        """Strings given as their UTF-8 bytes one after another, and each one's length."""
        if not lengths:
            return
        start = self.tail_start + len(self.tail)
        if self.ends.typecode == "I" and start + sum(lengths) >= 1 << 32:
            self.ends = array("Q", self.ends)
        ends = accumulate(lengths, initial=start)
        next(ends)  # the initial value: where the first one starts
        self.ends.extend(ends)
        self.tail += data
        if len(self.tail) >= self.BLOCK:
            self.blocks.append(zlib.compress(self.tail, 1))
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
            if self._inflated[0] != block:
                self._inflated = (block, zlib.decompress(self.blocks[block]))
            offset = self.starts[block]
            data = self._inflated[1][start - offset:stop - offset]
        return data.decode("utf-8", "surrogatepass")


def _contradict(one: frozenset[tuple[str, int]], other: frozenset[tuple[str, int]]) -> bool:
    """Whether two methods' alternates for one URL contradict each other: one code names
    another URL, or one URL is given another language. A set that only adds versions
    (x-default, a language the other lacks) adds up with the other, as Google merges the
    methods' annotations."""
    if one == other:
        return False
    urls_one = {code: key for code, key in one}
    urls_other = {code: key for code, key in other}
    if any(urls_other.get(code, key) != key for code, key in urls_one.items()):
        return True
    languages_one = {key: langtags.language_of(code) for code, key in one if code != X_DEFAULT}
    return any(languages_one.get(key, langtags.language_of(code)) != langtags.language_of(code)
               for code, key in other if code != X_DEFAULT)


def _described(pairs: frozenset[tuple[str, int]]) -> str:
    codes = sorted({code for code, _ in pairs}, key=str.lower)
    return f"{len(pairs)} alternates ({', '.join(codes)})" if pairs else "no alternates"


# --- the findings, each said here once: the check's cluster rules and the build's
# normaliser of a built site (which leaves the pair out, and says so in ``consequence``)

Report = Callable[..., object]


def listed_twice(report: Report, loc: str, at: object, same: str = "", consequence: str = "",
                 related: tuple[Related, ...] = ()) -> None:
    """U104: a URL listed more than once."""
    report("U104", f"{loc} is listed more than once{same}; list each URL once in each kind of sitemap{consequence}",
           at, url=loc, related=related)


def no_return(report: Report, loc: str, href: str, code: str, at: object, detail: str = "",
              related: tuple[Related, ...] = ()) -> None:
    """H104: a pair without its return link."""
    report("H104", f"{loc} lists {href} as {_named(code)}, but {href} does not list {loc} back{detail}; search "
           "engines ignore a pair without its return link", at, url=loc, hreflang=code, related=related)


def sets_differ(report: Report, loc: str, other: str, at: object, detail: str = "", consequence: str = "",
                related: tuple[Related, ...] = ()) -> None:
    """H110: members of one cluster that list different alternates."""
    report("H110", f"{loc} and {other} are in one cluster but list different alternates{detail}; Google keeps the "
           f"pairs that link both ways, and every member should list every version{consequence}", at, url=loc,
           related=related)


def to_excluded(report: Report, loc: str, target: str, code: str, why: str, at: object, consequence: str = "",
                related: tuple[Related, ...] = ()) -> None:
    """H114: an alternate names a page that is noindex or canonicalised elsewhere."""
    report("H114", f"{loc} names {target} as {code}, but that page {why}: search engines ignore an alternate that "
           f"is not indexable and canonical; name the canonical URL{consequence}", at, url=loc, hreflang=code,
           related=related)


def to_missing(report: Report, loc: str, target: str, code: str, why: str, fix: str, at: object,
               consequence: str = "") -> None:
    """H115: an alternate names a URL that does not answer 200 (no built file serves it)."""
    report("H115", f"{loc} names {target} as {code}, but {why}: an alternate that does not answer 200 is ignored; "
           f"{fix}{consequence}", at, url=loc, hreflang=code)


NOT_BUILT = "no file of the built site serves it"


@dataclass(frozen=True, slots=True)
class Excluded:
    """A built page search engines keep out of their index: noindex, or its canonical
    names another URL (``canonical``)."""

    file: str
    line: int
    url: str
    noindex: bool
    canonical: str | None

    def why(self) -> str:
        return "is noindex" if self.noindex else \
            f"sends search engines to {self.canonical} (its canonical, or a meta refresh)"


# States of a cell of the coverage picture (a URL a cluster names for one code).
WHOLE, DIFFERS, ABSENT = "whole", "differs", "absent"


@dataclass
class Coverage:
    """The hreflang coverage picture: for each cluster (a distinct list of alternates
    with two codes or more, as some page announces it) and each code, the URL named and
    its state: WHOLE (listed in a sitemap, announcing exactly this list back), DIFFERS
    (listed, announcing another list or none: some return link is missing) or ABSENT
    (in no sitemap given). Clusters with a defect come first; at most ``limit`` are
    kept, and the counts say how many there were."""

    codes: list[str]  # the columns: every code named, x-default last
    rows: list[dict[str, tuple[str, str]]]  # code -> (URL, state)
    clusters: int = 0  # distinct lists with two codes or more
    whole: int = 0  # of which every URL named announces the same list back


@dataclass
class ClusterIndex:
    collector: Collector
    files: list[str] = field(default_factory=list)
    # Per entry, in the order read.
    key: array = field(default_factory=lambda: array("q"))
    file: array = field(default_factory=lambda: array("I"))
    line: array = field(default_factory=lambda: array("I"))
    held: array = field(default_factory=lambda: array("i"))  # the list each entry holds, -1: none
    kind: array = field(default_factory=lambda: array("b"))
    locs: PackedText = field(default_factory=PackedText)
    # Per distinct list: its items [start, end), first entry, members, URLs named.
    list_start: array = field(default_factory=lambda: array("I", [0]))
    list_first: array = field(default_factory=lambda: array("i"))
    list_members: array = field(default_factory=lambda: array("I"))
    list_named: array = field(default_factory=lambda: array("I"))
    list_ids: dict[int, int] = field(default_factory=dict)  # digest of the list -> list
    line_starts: dict[int, int] = field(default_factory=dict)  # a page's entry -> its links' lines (ClusterLog)
    link_lines: array = field(default_factory=lambda: array("I"))
    item_code: array = field(default_factory=lambda: array("H"))
    item_key: array = field(default_factory=lambda: array("q"))
    hrefs: PackedText = field(default_factory=PackedText)
    codes: list[str] = field(default_factory=list)
    _code_ids: dict[str, int] = field(default_factory=dict)
    # Made by finish(): keys sorted, and the entry at each sorted place.
    _sorted: array = field(default_factory=lambda: array("q"))
    _order: array = field(default_factory=lambda: array("I"))
    _repeated: set[int] = field(default_factory=set)  # keys listed more than once (by _duplicates)

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
        ids = []
        if log.firsts:
            codes = [self._code_id(code) for code in log.codes]
            href_ends = list(accumulate(log.href_lengths, initial=0))
            for local, digest in enumerate(log.digests):
                found = self.list_ids.get(digest)
                if found is None:
                    found = self._new_list(log, local, codes, href_ends, digest, base)
                ids.append(found)
        self.key.extend(log.keys)
        self.line.extend(log.lines)
        self.kind.extend(log.kinds)
        self.locs.extend_packed(log.loc_bytes, log.loc_lengths)
        lists = array("i", [ids[local] if local >= 0 else -1 for local in log.lists]) if ids else log.lists
        self.held.extend(lists)
        for list_id in compress(lists, log.members):
            self.list_members[list_id] += 1

    def _code_id(self, code: str) -> int:
        code_id = self._code_ids.get(code)
        if code_id is None:
            code_id = self._code_ids[code] = len(self.codes)
            self.codes.append(code)
        return code_id

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
        return list_id

    # --- reading back ----------------------------------------------------------------------

    def _items(self, list_id: int) -> range:
        return range(self.list_start[list_id], self.list_start[list_id + 1])

    def _where(self, entry: int, target: int | None = None) -> Where:
        """Where an entry stands; with ``target`` (a URL's key), where its link to that
        URL stands, for an entry whose links have lines of their own (a page's head)."""
        line = self.line[entry]
        start = self.line_starts.get(entry) if target is not None else None
        if start is not None:
            items = self._items(self.held[entry])
            for number, item in enumerate(items):
                if self.item_key[item] == target:
                    line = self.link_lines[start + number]
                    break
        return Where(self.files[self.file[entry]], line)

    def _related(self, entry: int, message: str) -> Related:
        return Related(message, self.files[self.file[entry]], self.line[entry], url=self.locs[entry])

    def _listings(self, key: int) -> range:
        """The places in sorted order of every entry with this key."""
        low = bisect_left(self._sorted, key)
        return range(low, bisect_right(self._sorted, key, low))

    def coverage(self, limit: int) -> Coverage:
        """The coverage picture after finish(): see Coverage."""
        whole_rows: list[dict[str, tuple[str, str]]] = []
        broken_rows: list[dict[str, tuple[str, str]]] = []
        clusters = whole = 0
        used: set[str] = set()
        for list_id in range(len(self.list_first)):
            items = self._items(list_id)
            if len({self.item_code[i] for i in items}) < 2:
                continue
            clusters += 1
            complete = self.list_members[list_id] == self.list_named[list_id]
            whole += complete
            rows = whole_rows if complete else broken_rows
            if len(broken_rows) >= limit or (complete and len(whole_rows) >= limit):
                continue
            row: dict[str, tuple[str, str]] = {}
            for item in items:
                code, key = self.codes[self.item_code[item]], self.item_key[item]
                held = {self.held[self._order[place]] for place in self._listings(key)}
                if code == X_DEFAULT:  # a language selector need not announce the cluster back
                    state = WHOLE if held else ABSENT
                else:
                    state = WHOLE if list_id in held else DIFFERS if held else ABSENT
                row.setdefault(code, (self.hrefs[item], state))
                used.add(code)
            rows.append(row)
        codes = sorted(used - {X_DEFAULT}, key=str.lower) + ([X_DEFAULT] if X_DEFAULT in used else [])
        return Coverage(codes, (broken_rows + whole_rows)[:limit], clusters, whole)

    def excluded(self, pages: dict[int, Excluded]) -> None:
        """U112: a sitemap lists a page that keeps itself out of the index; H114: an
        alternate names one (search engines ignore that pair). After finish()."""
        report = self.collector.report
        for entry in range(len(self.key)):
            page = pages.get(self.key[entry])
            if page is not None and self.kind[entry] != HTML:
                report("U112", f"{self.locs[entry]} is listed, but its page {page.why()}: list only the canonical, "
                       "indexable URL of each page", self._where(entry), url=self.locs[entry],
                       related=(Related("the page", page.file, page.line, url=page.url),))
        for list_id in range(len(self.list_first)):
            first = self.list_first[list_id]
            for item in self._items(list_id):
                page = pages.get(self.item_key[item])
                if page is None or self.item_key[item] == self.key[first]:
                    continue  # (a page's own self-reference: its U112 or the others' H114 say it)
                code = self.codes[self.item_code[item]]
                to_excluded(report, self.locs[first], page.url, code, page.why(), self._where(first),
                            related=(Related("the page", page.file, page.line, url=page.url),))

    def conflicts(self) -> None:
        """H116: a URL's sitemap entry and its built page give different alternates.
        After finish(); a no-op without pages."""
        if HTML not in self.kind:
            return
        for entry in range(len(self.key)):
            if self.kind[entry] != HTML:
                continue
            key, page_list = self.key[entry], self.held[entry]
            for place in self._listings(key):
                other = self._order[place]
                if self.kind[other] == HTML or self.held[other] == page_list:
                    continue
                if self.held[other] < 0 or page_list < 0:
                    continue  # one method gives nothing: the other's alternates stand (no conflict)
                listed, given = self._pairs(self.held[other]), self._pairs(page_list)
                if not _contradict(listed, given):
                    continue  # (one method may give more versions than the other: they add up)
                self.collector.report(
                    "H116", f"{self.locs[other]}: the sitemap gives {_described(listed)}, its page gives "
                    f"{_described(given)}{self._disagreement(self.held[other], page_list)}; search engines read "
                    "both, and annotations that disagree may be dropped: "
                    "give the same alternates in both places (or in one)", self._where(other), url=self.locs[other],
                    related=(self._related(entry, "the page's alternates"),))
                break

    def _disagreement(self, listed: int, given: int) -> str:
        """The first code the two lists give different URLs (the sitemap's, then the page's)."""
        hrefs = {self.codes[self.item_code[item]]: self.hrefs[item] for item in self._items(listed)}
        for item in self._items(given):
            code, href = self.codes[self.item_code[item]], self.hrefs[item]
            if code in hrefs and url_key(hrefs[code]) != url_key(href):
                return f" (for {code}, the sitemap names {hrefs[code]} and the page {href})"
        return ""

    def _pairs(self, list_id: int) -> frozenset[tuple[str, int]]:
        """The (code, URL key) pairs of a distinct list; empty for none (-1)."""
        if list_id < 0:
            return frozenset()
        return frozenset((self.codes[self.item_code[item]], self.item_key[item]) for item in self._items(list_id))

    def unlisted(self, pages: Iterable[int]) -> None:
        """U114: a built page that is indexable and its own canonical (its key; the page
        is an HTML entry of the index) is in no sitemap checked. Only when some sitemap
        was. After finish()."""
        if all(kind == HTML for kind in self.kind):
            return
        for key in pages:
            entries = [self._order[place] for place in self._listings(key)]
            if entries and all(self.kind[entry] == HTML for entry in entries):
                entry = entries[0]
                url = self.locs[entry]
                self.collector.report("U114", f"{url} is a built page, indexable and its own canonical, but no "
                                      "sitemap checked lists it: add it, so that search engines learn of it and of "
                                      "its changes", self._where(entry), url=url)

    def missing(self, served: Callable[[str, int], bool | str | None]) -> None:
        """U113: a sitemap lists a URL of the built site that no built file serves;
        H115: an alternate names one. ``served(url, key)`` says whether one does (None:
        the URL is not the built site's to say; a string: why not, for a page of a live
        site fetched). After finish()."""
        report = self.collector.report
        known: dict[int, bool | str | None] = {}
        built = NOT_BUILT

        def failed(url: str, key: int) -> str | None:
            found = known.get(key, ...)
            if found is ...:
                found = known[key] = served(url, key)
            return built if found is False else found if isinstance(found, str) else None

        for entry in range(len(self.key)):
            why = failed(self.locs[entry], self.key[entry]) if self.kind[entry] != HTML else None
            if why is not None:
                report("U113", f"{self.locs[entry]} is listed, but {why}: " + (
                       "after deploying, it is a 404; remove it or build its page" if why is built else
                       "search engines index only pages that answer 200; list the page's final, working URL"),
                       self._where(entry), url=self.locs[entry])
        for list_id in range(len(self.list_first)):
            first = self.list_first[list_id]
            for item in self._items(list_id):
                href = self.hrefs[item]
                why = failed(href, self.item_key[item])
                if why is not None:
                    code = self.codes[self.item_code[item]]
                    to_missing(report, self.locs[first], href, code, why, "build the page or name the right URL"
                               if why is built else "name the version's final, working URL", self._where(first))

    def named_urls(self) -> list[str]:
        """Every URL the sitemaps list or name as an alternate, once each, in the order
        read (a page's own head, HTML, adds none): the pages a live check may fetch."""
        urls: dict[int, str] = {}
        for entry in range(len(self.key)):
            if self.kind[entry] != HTML:
                urls.setdefault(self.key[entry], self.locs[entry])
        for item in range(len(self.item_key)):
            href = self.hrefs[item]
            if href.lower().startswith(("http://", "https://")):
                urls.setdefault(self.item_key[item], href)
        return list(urls.values())

    # --- judging -------------------------------------------------------------------------

    def finish(self) -> None:
        """Every rule that needs all files: U104, H104, H105, H109-H113."""
        self._order, self._sorted = sorted_by_key(self.key)
        examine = self._duplicates()
        x_default = self._code_ids.get(X_DEFAULT, -1)
        report = self.collector.report
        for list_id in range(len(self.list_first)):
            items = self._items(list_id)
            codes = set(self.item_code[items.start:items.stop])
            if x_default not in codes and len(codes) > 1 and not self._x_default_elsewhere(items, x_default):
                first = self.list_first[list_id]
                report("H112", "this cluster has no x-default, the version for users whose language matches none (a "
                       "language selector, or the main version)", self._where(first), url=self.locs[first])
            if self.list_members[list_id] != self.list_named[list_id]:
                examine.add(list_id)
        if examine:
            _Examination(self, examine).run()

    def _x_default_elsewhere(self, items: range, x_default: int) -> bool:
        """Whether another listing of a member (its page's head, another sitemap) gives
        the cluster its x-default: the methods add up. Only URLs listed more than once
        are looked at."""
        if x_default < 0 or not self._repeated:
            return False
        for item in items:
            key = self.item_key[item]
            if key not in self._repeated:
                continue
            for place in self._listings(key):
                other = self.held[self._order[place]]
                if other >= 0 and x_default in self.item_code[self.list_start[other]:self.list_start[other + 1]]:
                    return True
        return False

    def _names(self, list_id: int, key: int) -> bool:
        """Whether a list names ``key`` under a language code (so each listing of it
        with that list counted as a member)."""
        x_default = self._code_ids.get(X_DEFAULT, -1)
        return any(self.item_key[item] == key and self.item_code[item] != x_default for item in self._items(list_id))

    def _duplicates(self) -> set[int]:
        """U104 for a URL listed twice in sitemaps of one kind; the lists of every URL
        listed more than once (they are judged over all their listings)."""
        keys = self._sorted
        places = list(compress(range(1, len(keys)), map(eq, keys[1:], keys[:-1])))
        lists: set[int] = set()
        done_groups = self._repeated  # the keys listed more than once
        for place in places:
            key = keys[place]
            if key in done_groups:
                continue
            done_groups.add(key)
            entries = sorted(self._order[p] for p in self._listings(key))
            held = {self.held[entry] for entry in entries}
            if len(held) == 1 and -1 not in held:
                # Every listing gives the same alternates (a sitemap entry and its built
                # page, as a rule): for the cluster, one listing. Its list counts the URL
                # as one member, and is examined only if it is not whole for other reasons.
                list_id = held.pop()
                if self._names(list_id, key):
                    self.list_members[list_id] -= len(entries) - 1
            else:
                lists.update(list_id for list_id in held if list_id >= 0)
            first_of_kind: dict[int, int] = {}
            for entry in entries:
                kind = self.kind[entry]
                if kind == FEED:
                    continue  # feeds overlap by design (a home feed and each section's): no duplicate
                first = first_of_kind.setdefault(kind, entry)
                if first != entry:
                    loc = self.locs[entry]
                    same = "" if self.locs[first] == loc else f" (as {self.locs[first]})"
                    listed_twice(self.collector.report, loc, self._where(entry), same,
                                 related=(self._related(first, "first listed here"),))
        return lists


class _Examination:
    """The clusters whose lists are not whole, pair by pair."""

    def __init__(self, index: ClusterIndex, lists: set[int]) -> None:
        self.index = index
        self.lists = lists
        self.report = index.collector.report
        self.reported: set[tuple[int, int, str]] = set()

    def pairs_of(self, key: int) -> dict[int, tuple[set[str], str]]:
        """Every alternate the listings of a URL give: key -> (codes, href)."""
        index = self.index
        out: dict[int, tuple[set[str], str]] = {}
        for place in index._listings(key):
            list_id = index.held[index._order[place]]
            if list_id < 0:
                continue
            for item in index._items(list_id):
                found = out.get(index.item_key[item])
                if found is None:
                    found = out[index.item_key[item]] = (set(), index.hrefs[item])
                found[0].add(index.codes[index.item_code[item]])
        return out

    def run(self) -> None:
        index = self.index
        seen: set[int] = set()
        for entry in range(len(index.key)):
            list_id = index.held[entry]
            key = index.key[entry]
            if list_id not in self.lists or key in seen:
                continue
            seen.add(key)  # a URL listed twice is judged once, over all its listings
            self.entry(entry, key)

    def entry(self, entry: int, key: int) -> None:
        index = self.index
        loc = index.locs[entry]
        mine = self.pairs_of(key)
        own = mine.get(key, (set(), loc))[0]
        for target, (codes, href) in sorted(mine.items(), key=lambda item: item[1][1]):
            if target == key or codes == {X_DEFAULT}:
                continue  # itself; an x-default target (a language selector) need not link back
            where = index._where(entry, target)
            code = sorted(codes - {X_DEFAULT})[0]
            listings = index._listings(target)
            if not listings:
                self.absent(entry, href, code)
                continue
            entries = [index._order[p] for p in listings]
            other = min(entries)
            related = (index._related(other, f"{href} is listed here"),)
            if all(index.kind[e] in (TEXT, FEED) for e in entries):
                self.once(entry, "H111", href, f"alternate {href} ({code}) is listed only in a text sitemap or feed, "
                          "which cannot carry hreflang, so its return link cannot be verified; list it in an XML sitemap "
                          "with its alternates", url=loc, hreflang=code)
                continue
            theirs = self.pairs_of(target)
            self.pair(entry, loc, key, own, mine, href, target, code, theirs, where, related)

    def pair(self, entry: int, loc: str, key: int, own: set[str], mine: dict[int, tuple[set[str], str]], href: str,
             target: int, code: str, theirs: dict[int, tuple[set[str], str]], where: Where,
             related: tuple[Related, ...]) -> None:
        back = theirs.get(key)
        if back is None:
            variant = next((theirs[url_key(v)][1] for v in variants(loc) if url_key(v) in theirs), None)
            if variant is not None and self.variant_pair(key, url_key(variant)):
                return
            if variant is not None:
                self.report("H113", f"{loc} lists {href} as {_named(code)}, and {href} lists {variant} back, not "
                            f"{loc}: to search engines another URL (check the trailing slash and http/https); "
                            "use one form everywhere", where, url=loc, hreflang=code, suggestion=loc,
                            related=related)
            elif len(theirs) > 1 and (set(mine) | {key}) & (set(theirs) | {target}) == {target}:
                self.report("H109", f"{href} is in two clusters that share nothing else: this one (with {loc}) and "
                            f"the one {href}'s own listing gives; a URL belongs to one cluster", where, url=loc,
                            hreflang=code, related=related)
            else:
                no_return(self.report, loc, href, code, where, related=related)
            return
        if back[0] == {X_DEFAULT} and own - {X_DEFAULT}:
            no_return(self.report, loc, href, code, where, related=related, detail=(
                f", only as x-default (a return link names the page as the language version it is: "
                f"{', '.join(sorted(own - {X_DEFAULT}))})"))
            return
        their_own = theirs.get(target, (set(), href))[0] - {X_DEFAULT}
        if their_own and not (set(mine[target][0]) & their_own):
            better = sorted(their_own)[0]
            self.report("H105", f"{loc} lists {href} as {_named(code)}, but {href} lists itself as "
                        f"{_named(better)}; use one code for it everywhere", where, url=loc, hreflang=code,
                        suggestion=better, related=related)
            return
        names = {k: text for k, (_, text) in (*theirs.items(), *mine.items())}
        names.update({key: loc, target: href})
        missing = sorted(names[k] for k in (set(mine) | {key}) ^ (set(theirs) | {target}))
        pair_key = (min(key, target), max(key, target), "H110")
        if missing and pair_key not in self.reported:
            self.reported.add(pair_key)
            sets_differ(self.report, loc, href, where, related=related,
                        detail=f" (not in both: {', '.join(missing[:5])}{'...' if len(missing) > 5 else ''})")

    def absent(self, entry: int, href: str, code: str) -> None:
        """An alternate no sitemap lists: another spelling of a listed URL (H113), or unknown (H111)."""
        index = self.index
        loc = index.locs[entry]
        for variant in variants(href):
            listings = index._listings(url_key(variant))
            if listings:
                other = index._order[listings.start]
                if self.variant_pair(url_key(href), url_key(variant)):
                    return
                self.once(entry, "H113", href, f"{loc} lists {href} ({code}), but what was checked names that "
                          f"page {index.locs[other]}: to search engines another URL (check the trailing slash and "
                          "http/https); use one form everywhere", url=loc, hreflang=code,
                          suggestion=index.locs[other], related=(index._related(other, "listed here"),))
                return
        list_id = index.held[entry]
        self.once(index.list_first[list_id], "H111", href, f"alternate {href} ({code}) is in none of the sitemaps "
                  "checked, so its return link cannot be verified; check its host's sitemap too", hreflang=code)

    def variant_pair(self, one: int, other: int) -> bool:
        """Whether H113 was said of these two spellings already (each end of the pair would say it)."""
        mark = (min(one, other), max(one, other), "H113")
        if mark in self.reported:
            return True
        self.reported.add(mark)
        return False

    def once(self, entry: int, code: str, href: str, message: str, **extra: object) -> None:
        """Per list and alternate: the members of a cluster share the finding."""
        index = self.index
        mark = (index.held[entry], url_key(href), code)
        if mark in self.reported:
            return
        self.reported.add(mark)
        extra.setdefault("url", index.locs[entry])
        self.report(code, message, index._where(entry), **extra)  # type: ignore[arg-type]

