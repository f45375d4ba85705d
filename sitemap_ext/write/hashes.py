"""Sets and maps of 64-bit hashes in flat arrays: bounded memory for millions of URLs.

A Python set of a million ints costs about 64 bytes per entry (int objects and
the table); these open-addressing tables (linear probing, load at most 1/2) cost
16 to 32 bytes per key, and 24 to 48 with a value. Probing runs in Python, so
``UrlSeen`` keeps the fast built-in set for the first ``SPILL`` URLs and moves to
a table past it: small sites pay nothing, large ones stay near flat in memory.
"""

from __future__ import annotations

from array import array
from typing import Callable, Iterable, Sequence


class HashSet:
    """A set of non-zero 64-bit ints (0 is stored as 1) in one array."""

    def __init__(self, bits: int = 16) -> None:
        self.mask = (1 << bits) - 1
        self.keys = array("q", bytes(8 << bits))
        self.size = 0

    def _find(self, key: int) -> int:
        """The slot holding key, or the empty slot where it would go."""
        keys, mask = self.keys, self.mask
        slot = key & mask
        while True:
            found = keys[slot]
            if found == key or found == 0:
                return slot
            slot = (slot + 1) & mask

    def __contains__(self, key: int) -> bool:
        key = key or 1
        return self.keys[self._find(key)] == key

    def add(self, key: int) -> bool:
        """Add key; False when it was there already."""
        key = key or 1
        slot = self._find(key)
        if self.keys[slot]:
            return False
        self._put(slot, key)
        return True

    def isdisjoint(self, keys: Iterable[int]) -> bool:
        """Whether none of the keys is here."""
        table, find = self.keys, self._find
        return not any(table[find(key or 1)] for key in keys)

    def add_if_new(self, keys: list[int]) -> bool:
        """Add every key when none is here (True); add nothing otherwise (False).

        The keys must be distinct. One probe per key: the slots are found first,
        then written, unless two keys landed on one empty slot (then: one by one).
        """
        table, mask = self.keys, self.mask
        slots = []
        for key in keys:
            key = key or 1
            slot = key & mask
            while True:
                found = table[slot]
                if found == key:
                    return False
                if found == 0:
                    break
                slot = (slot + 1) & mask
            slots.append(slot)
        if len(set(slots)) != len(slots):
            for key in keys:
                self.add(key)
            return True
        for slot, key in zip(slots, keys):
            table[slot] = key or 1
        self.size += len(slots)
        if self.size * 2 > self.mask:
            self._grow()
        return True

    def _put(self, slot: int, key: int) -> None:
        self.keys[slot] = key
        self.size += 1
        if self.size * 2 > self.mask:
            self._grow()

    def update(self, keys: Iterable[int]) -> None:
        """Add many keys (the probing loop inlined: this is how a set spills, and grows)."""
        for key in keys:
            key = key or 1
            if (self.size + 1) * 2 > self.mask:
                self._grow()
            table, mask = self.keys, self.mask
            slot = key & mask
            while True:
                found = table[slot]
                if found == key:
                    break
                if found == 0:
                    table[slot] = key
                    self.size += 1
                    break
                slot = (slot + 1) & mask

    def _grow(self) -> None:
        old = self.keys
        bits = (self.mask + 1).bit_length()  # double
        self.mask = (1 << bits) - 1
        self.keys = array("q", bytes(8 << bits))
        self.size = 0
        self.update(key for key in old if key)


class HashTable(HashSet):
    """A map of non-zero 64-bit ints to non-negative ints, in two arrays."""

    def __init__(self, bits: int = 16) -> None:
        super().__init__(bits)
        self.values = array("i", bytes(4 << bits))

    def get(self, key: int) -> int:
        """The value stored for key, or -1."""
        key = key or 1
        slot = self._find(key)
        return self.values[slot] if self.keys[slot] else -1

    def put_new(self, key: int, value: int) -> int:
        """Store key -> value unless key is there already; the value stored before, or -1."""
        key = key or 1
        slot = self._find(key)
        if self.keys[slot]:
            return self.values[slot]
        self.values[slot] = value
        self._put(slot, key)
        return -1

    def _grow(self) -> None:
        old_keys, old_values = self.keys, self.values
        bits = (self.mask + 1).bit_length()
        self.mask = (1 << bits) - 1
        self.keys = array("q", bytes(8 << bits))
        self.values = array("i", bytes(4 << bits))
        self.size = 0
        for key, value in zip(old_keys, old_values):
            if key:
                slot = self._find(key)
                self.values[slot] = value
                self._put(slot, key)


class UrlSeen:
    """The hash() of every URL seen: a built-in set, then (past SPILL) a HashSet."""

    SPILL = 1 << 19

    def __init__(self) -> None:
        self.plain: set[int] | None = set()  # the built-in set, until it spills (then None)
        self._table: HashSet | None = None

    def __len__(self) -> int:
        return len(self.plain) if self.plain is not None else self._table.size  # type: ignore[union-attr]

    def __contains__(self, key: int) -> bool:
        if self.plain is not None:
            return key in self.plain
        return key in self._table  # type: ignore[operator]

    def add(self, key: int) -> None:
        if self.plain is not None:
            self.plain.add(key)
            if len(self.plain) > self.SPILL:
                self._spill()
        else:
            self._table.add(key)  # type: ignore[union-attr]

    def isdisjoint(self, keys: Iterable[int]) -> bool:
        if self.plain is not None:
            return self.plain.isdisjoint(keys)
        table = self._table
        assert table is not None
        return table.isdisjoint(keys)

    def update(self, keys: Iterable[int]) -> None:
        if self.plain is not None:
            self.plain.update(keys)
            if len(self.plain) > self.SPILL:
                self._spill()
        else:
            self._table.update(keys)  # type: ignore[union-attr]

    def add_one_if_new(self, key: int) -> bool:
        """Add one key unless it was seen (True when added)."""
        plain = self.plain
        if plain is not None:
            if key in plain:
                return False
            plain.add(key)
            if len(plain) > self.SPILL:
                self._spill()
            return True
        assert self._table is not None
        return self._table.add(key)

    def add_if_new(self, keys: list[int]) -> bool:
        """Add every key when none was seen (True); add nothing otherwise (False).

        The keys are distinct (a page's own URLs).
        """
        if self.plain is not None:
            if not self.plain.isdisjoint(keys):
                return False
            self.plain.update(keys)
            if len(self.plain) > self.SPILL:
                self._spill()
            return True
        assert self._table is not None
        return self._table.add_if_new(keys)

    def _spill(self) -> None:
        assert self.plain is not None
        table = HashSet(bits=(2 * len(self.plain)).bit_length() + 1)
        table.update(self.plain)
        self.plain = None
        self._table = table


class SeenUrls:
    """Every URL written so far, by hash().

    A page of a layout has one URL per locale, each locale's base followed by one and
    the same rest (``/products/x``): it is kept as the hash of that rest, once for all
    its URLs (``rests``), which makes the common case five times cheaper in time and
    memory. Other pages' URLs are kept one by one (``urls``). A URL under a base is
    also judged against ``rests`` (by its rest); a layout page is also judged against
    ``urls`` (each of its URLs), but only once some URL under a base was kept one by
    one (``based``): a site whose pages all come from paths never pays for it, and
    one whose pages never do keeps one key per URL. This is sound when no base is a
    prefix of another (a URL then starts with at most one base); otherwise there are
    no rests and every URL is kept one by one (``clusters`` is False).
    """

    def __init__(self, bases: Iterable[str]) -> None:
        found = sorted(set(bases))
        prefix_free = all(not b.startswith(a) for a, b in zip(found, found[1:]))
        self.bases = tuple(found) if found and prefix_free else ()
        self.clusters = bool(self.bases)
        # A URL's base, if any, is its first n characters for one of a few lengths n.
        self._lengths = sorted({len(base) for base in self.bases})
        self._base_set = frozenset(self.bases)
        self.urls = UrlSeen()
        self.rests = UrlSeen()
        self.based = False  # a URL under a base is in urls

    def _base_length(self, loc: str) -> int:
        """The length of the base a URL starts with; 0 if none."""
        for length in self._lengths:
            if loc[:length] in self._base_set:  # (prefix-free: at most one base matches)
                return length
        return 0

    def _rest(self, loc: str) -> int | None:
        """hash() of what follows the base a URL starts with, if any."""
        length = self._base_length(loc)
        return hash(loc[length:]) if length else None

    def __contains__(self, loc: str) -> bool:
        if hash(loc) in self.urls:
            return True
        if len(self.rests):
            rest = self._rest(loc)
            return rest is not None and rest in self.rests
        return False

    def add(self, loc: str) -> None:
        self.urls.add(hash(loc))
        if not self.based and self.bases and self._base_length(loc):
            self.based = True

    def add_if_new(self, locs: Sequence[str]) -> bool:
        """Add a page's URLs (distinct) when none was seen (True); else nothing (False)."""
        if not self.bases:
            if len(locs) == 1:  # a plain page of a site with no locales
                return self.urls.add_one_if_new(hash(locs[0]))
            return self.urls.add_if_new([hash(loc) for loc in locs])
        if len(self.rests):
            rests = [rest for rest in map(self._rest, locs) if rest is not None]
            if rests and not self.rests.isdisjoint(rests):
                return False
        if not self.urls.add_if_new([hash(loc) for loc in locs]):
            return False
        if not self.based and any(map(self._base_length, locs)):
            self.based = True
        return True

    def add_cluster_if_new(self, rest: str) -> int | None:
        """A layout page, whose URLs are every base + ``rest`` (needs ``clusters``):
        the key it is kept as, or None when one of its URLs was seen (nothing added)."""
        key = hash(rest)
        if self.based and not self.urls.isdisjoint([hash(base + rest) for base in self.bases]):
            return None
        rests = self.rests.plain
        if rests is not None:  # still a set: no call
            if key in rests:
                return None
            rests.add(key)
            if len(rests) > UrlSeen.SPILL:
                self.rests._spill()
            return key
        if key in self.rests:
            return None
        self.rests.add(key)
        return key

    def claim(self, rests: Sequence[int], others: Sequence[str], keyed: Callable[[], Sequence[str]]) -> bool:
        """Add the pages of another process: the keys of its layout pages (``keyed``
        gives their URLs, needed only when URLs under a base were kept one by one) and
        the URLs of its other pages. False (nothing added) when one was seen here."""
        if not self.rests.isdisjoint(rests):
            return False
        if self.based and rests and not self.urls.isdisjoint([hash(loc) for loc in keyed()]):
            return False
        keys = [hash(loc) for loc in others]
        if not self.urls.isdisjoint(keys):
            return False
        if self.bases:
            under = [rest for rest in map(self._rest, others) if rest is not None]
            if under and not self.rests.isdisjoint(under):
                return False
            self.based = self.based or bool(under)
        self.urls.update(keys)
        self.rests.update(rests)
        return True
