"""The URLs a build has written, for the duplicate check: plain sets of hash()es of
each URL's identity (``urls.identity``, the check's own: ``url_key`` is its digest),
so that two spellings of one URL (``/~a`` and ``/%7Ea``) are one URL here as in the
check (U104).

hash() of identity() and not url_key itself (blake2b of it): the keys never leave
the build's processes, and the workers that share a source are forked
(``write.parallel`` splits a source only where the platform forks), so they share
the hash seed. The digest costs what the duplicate check cannot pay: for 250,000
distinct URLs, a set of hash() takes 0.07 s, of hash(identity()) 0.19 s, of url_key
0.59 s (its memo cannot hold a build's URLs: each is new), about 1.6 us more per URL
than identity(), 13 % of a single-locale build. identity() of a URL the build wrote
costs one pattern match (it is its own identity unless it holds an escape); one with
escapes (a non-ASCII path) a few searches and no call per escape: 1.5 us for
/de/gr%C3%B6%C3%9Fe/basic-1 (it was 7 us), 2 us for a Cyrillic path of 38 escapes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise

from ..urls import identity


def _key(url: str) -> int:
    """The key of a URL's identity (what the check's ``url_key`` digests)."""
    return hash(identity(url))


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
    kept one by one (``clusters`` is False). Rests are judged by identity too: every
    base is its own identity (else there are no rests) and ends a path, so a URL's
    identity is its base's followed by its rest's.
    """

    def __init__(self, bases: Iterable[str]) -> None:
        found = sorted(set(bases))
        prefix_free = all(not b.startswith(a) for a, b in pairwise(found))
        canonical = all(identity(base) == base for base in found)
        self.bases = tuple(found) if found and prefix_free and canonical else ()
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

    def _rest(self, same: str) -> int | None:
        """The key of the rest of a URL's identity (``same``) under a base; None if none."""
        length = self._base_length(same)
        return hash(same[length:]) if length else None

    def __contains__(self, loc: str) -> bool:
        same = identity(loc)
        if hash(same) in self.urls:
            return True
        if self.rests:
            rest = self._rest(same)
            return rest is not None and rest in self.rests
        return False

    def add(self, loc: str) -> None:
        same = identity(loc)
        self.urls.add(hash(same))
        if not self.based and self.bases and self._base_length(same):
            self.based = True

    def add_if_new(self, locs: Sequence[str]) -> bool:
        """Add a page's URLs when none was seen (True); else nothing (False)."""
        urls = self.urls
        if not self.bases and len(locs) == 1:  # a plain page of a site with no locales
            key = _key(locs[0])
            if key in urls:
                return False
            urls.add(key)
            return True
        same = [identity(loc) for loc in locs]
        if self.rests:
            rests = [rest for rest in map(self._rest, same) if rest is not None]
            if rests and not self.rests.isdisjoint(rests):
                return False
        keys = [hash(one) for one in same]
        if not urls.isdisjoint(keys) or len(set(keys)) != len(keys):
            return False
        urls.update(keys)
        if self.bases and not self.based and any(map(self._base_length, same)):
            self.based = True
        return True

    def add_cluster_if_new(self, rest: str) -> int | None:
        """A layout page, whose URLs are every base + ``rest`` (needs ``clusters``):
        the key it is kept as, or None when one of its URLs was seen (nothing added)."""
        first = self.bases[0]
        key = hash(identity(first + rest)[len(first):])
        if key in self.rests or (self.based and not self.urls.isdisjoint([_key(base + rest) for base in self.bases])):
            return None
        self.rests.add(key)
        return key

    def claim(self, rests: Sequence[int], others: Sequence[str], keyed: Callable[[], Sequence[str]]) -> bool:
        """Add the pages of another process: the keys of its layout pages (``keyed``
        gives their URLs, needed only when URLs under a base were kept one by one) and
        the URLs of its other pages. False (nothing added) when one was seen here."""
        if not self.rests.isdisjoint(rests):
            return False
        if self.based and rests and not self.urls.isdisjoint([_key(loc) for loc in keyed()]):
            return False
        same = [identity(loc) for loc in others]
        keys = [hash(one) for one in same]
        if not self.urls.isdisjoint(keys):
            return False
        if self.bases:
            under = [rest for rest in map(self._rest, same) if rest is not None]
            if under and not self.rests.isdisjoint(under):
                return False
            self.based = self.based or bool(under)
        self.urls.update(keys)
        self.rests.update(rests)
        return True
