"""The URLs a build has written, for the duplicate check: plain sets of hash()es.

hash() and not a stable digest (the house's ``urls.url_key``, blake2b): the keys
never leave the build's processes, and the workers that share a source are forked
(``write.parallel`` splits a source only where the platform forks), so they share
the hash seed. A stable digest costs what the duplicate check cannot pay: for
250,000 URLs, a set of hash() takes 0.04 s, of blake2b (8 bytes) 0.17 s, of url_key
0.46 s (its memo does not hold a build's URLs, and its identity() would make URLs
that differ in spelling one), about 0.5 to 1.7 us more per URL, 4 to 13 % of a
single-locale build of a million URLs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise


class SeenUrls:
    """Every URL written so far, by hash(), in plain sets (a measurement showed a
    hand-written table saves 4 MiB of 124 at a million URLs: not worth its code).

    A page of a layout has one URL per locale, each locale's base followed by one and
    the same rest (``/products/x``): it is kept as the hash of that rest, once for all
    its URLs (``rests``). Other pages' URLs are kept one by one (``urls``). A URL under
    a base is also judged against ``rests`` (by its rest); a layout page is also judged
    against ``urls`` (each of its URLs), but only once some URL under a base was kept
    one by one (``based``). This is sound when no base is a prefix of another (a URL
    then starts with at most one base); otherwise there are no rests and every URL is
    kept one by one (``clusters`` is False).
    """

    def __init__(self, bases: Iterable[str]) -> None:
        found = sorted(set(bases))
        prefix_free = all(not b.startswith(a) for a, b in pairwise(found))
        self.bases = tuple(found) if found and prefix_free else ()
        self.clusters = bool(self.bases)
        self._lengths = sorted({len(base) for base in self.bases})
        self._base_set = frozenset(self.bases)
        self.urls: set[int] = set()
        self.rests: set[int] = set()
        self.based = False  # a URL under a base is in urls

    def _base_length(self, loc: str) -> int:
        for length in self._lengths:
            if loc[:length] in self._base_set:  # (prefix-free: at most one base matches)
                return length
        return 0

    def _rest(self, loc: str) -> int | None:
        length = self._base_length(loc)
        return hash(loc[length:]) if length else None

    def __contains__(self, loc: str) -> bool:
        if hash(loc) in self.urls:
            return True
        if self.rests:
            rest = self._rest(loc)
            return rest is not None and rest in self.rests
        return False

    def add(self, loc: str) -> None:
        self.urls.add(hash(loc))
        if not self.based and self.bases and self._base_length(loc):
            self.based = True

    def add_if_new(self, locs: Sequence[str]) -> bool:
        """Add a page's URLs when none was seen (True); else nothing (False)."""
        urls = self.urls
        if not self.bases and len(locs) == 1:  # a plain page of a site with no locales
            key = hash(locs[0])
            if key in urls:
                return False
            urls.add(key)
            return True
        if self.rests:
            rests = [rest for rest in map(self._rest, locs) if rest is not None]
            if rests and not self.rests.isdisjoint(rests):
                return False
        keys = [hash(loc) for loc in locs]
        if not urls.isdisjoint(keys) or len(set(keys)) != len(keys):
            return False
        urls.update(keys)
        if self.bases and not self.based and any(map(self._base_length, locs)):
            self.based = True
        return True

    def add_cluster_if_new(self, rest: str) -> int | None:
        """A layout page, whose URLs are every base + ``rest`` (needs ``clusters``):
        the key it is kept as, or None when one of its URLs was seen (nothing added)."""
        key = hash(rest)
        if key in self.rests or (self.based and not self.urls.isdisjoint([hash(base + rest) for base in self.bases])):
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
