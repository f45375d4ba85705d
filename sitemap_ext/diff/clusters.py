"""hreflang clusters between two sides: which gained, lost or broke a member.

A cluster is what the cluster index (``rules/cluster_store.py``) already keeps: a
distinct list of alternates with two language codes or more, here only as sitemap,
feed and text entries give it (a page's head lists no URL). Each member's state is
the index's (``ClusterIndex.member_state``): whole (listed, announcing the list
back), differs (listed, announcing another list) or absent (in no sitemap).

A cluster of NEW is matched with OLD's by its list (the same alternates, as written),
else with the OLD cluster that shares most of its members (the lowest list number
breaks a tie); an OLD cluster left unmatched is matched the other way, or is gone.
For each matched pair: members *gained* (a code and URL in NEW's list only), *lost*
(in OLD's only) and *broken* (whole in OLD, not in NEW: it stopped announcing the
cluster back, or is no longer listed). Changes are kept as list and item numbers and
worded only when read (``ClusterChanges``).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import compress

from ..rules.cluster_log import HTML, X_DEFAULT
from ..rules.cluster_store import sorted_by_key
from ..rules.clusters import WHOLE, ClusterIndex
from .lazy import Lazy

_NOT_HTML = bytes(0 if kind == HTML else 1 for kind in range(256))
CHANGED, NEW, GONE = "changed", "new", "gone"


@dataclass(frozen=True)
class Member:
    """A member of a cluster: its hreflang code and URL as written, and, for a member
    gained or broken, where it stands in NEW (whole, differs, absent)."""

    hreflang: str
    url: str
    state: str | None = None


@dataclass(frozen=True)
class ClusterChange:
    """A cluster that changed: ``name`` (its first member's URL), ``change`` (changed,
    new: no OLD cluster shares a member, gone: no NEW one does), its ``members`` (as
    NEW lists it; OLD's when gone) and the members gained, lost and broken."""

    name: str
    change: str
    members: tuple[Member, ...]
    gained: tuple[Member, ...] = ()
    lost: tuple[Member, ...] = ()
    broken: tuple[Member, ...] = ()


# (OLD list or -1, NEW list or -1, items gained (NEW's), lost (OLD's), broken (NEW's))
_Raw = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


# A URL that more clusters than this name is *shared* (the German home page that every
# page names as its German version): the clusters that name it are counted once for
# each set of shared URLs a cluster names, not once for each cluster matched, which made
# the matching quadratic (8,000 clusters sharing one member: 20 s, where a check takes 2).
_SHARED = 32


class _Members:
    """The cluster members of one side by URL key: which clusters name a URL (the
    clusters of one URL in ascending order, as ``sorted_by_key`` keeps ties)."""

    def __init__(self, index: ClusterIndex, lists: list[int]) -> None:
        keys, owners = array("q"), array("I")
        x_default = index.code_ids.get(X_DEFAULT, -1)
        for list_id in lists:
            for item in index.items(list_id):
                if index.item_code[item] != x_default:
                    keys.append(index.item_key[item])
                    owners.append(list_id)
        order, self.keys = sorted_by_key(keys)
        self.owners = array("I", (owners[place] for place in order))
        self._widest: dict[tuple[tuple[int, int], ...], tuple[int, int]] = {}

    def _span(self, key: int) -> tuple[int, int]:
        """Where the clusters that name ``key`` stand in ``owners`` (empty: none)."""
        low = bisect_left(self.keys, key)
        return low, bisect_right(self.keys, key, low)

    def _names(self, span: tuple[int, int], owner: int) -> bool:
        """Whether cluster ``owner`` is among those of ``span``."""
        low, high = span
        place = bisect_left(self.owners, owner, low, high)
        return place < high and self.owners[place] == owner

    def _widest_of(self, wide: tuple[tuple[int, int], ...]) -> tuple[int, int]:
        """Of the clusters that name these shared URLs, the one that names most of them
        (the lowest number of a tie), as (-how many, cluster): once per set of URLs."""
        found = self._widest.get(wide)
        if found is None:
            counts: Counter[int] = Counter()
            for low, high in wide:
                counts.update(set(self.owners[low:high]))
            found = self._widest[wide] = min((-count, owner) for owner, count in counts.items())
        return found

    def best(self, index: ClusterIndex, list_id: int) -> int:
        """The cluster of this side that shares most members with ``list_id`` of
        ``index`` (the other side's; the lowest number of a tie); -1 for none.

        A cluster reached through a URL that few clusters name is counted in full (each
        shared URL looked up in its span); those that share shared URLs only are ranked
        by ``_widest_of``. Its first may be one already counted, with fewer members than
        it has: then that one is at least as good, so the least of all is the answer."""
        x_default = index.code_ids.get(X_DEFAULT, -1)
        spans = [self._span(index.item_key[item]) for item in index.items(list_id)
                 if index.item_code[item] != x_default]
        wide = tuple(sorted(span for span in spans if span[1] - span[0] > _SHARED))
        shared: Counter[int] = Counter()
        for low, high in spans:
            if 0 < high - low <= _SHARED:
                shared.update(set(self.owners[low:high]))
        ranked = [(-count - sum(self._names(span, owner) for span in wide), owner) for owner, count in shared.items()]
        if wide:
            ranked.append(self._widest_of(wide))
        return min(ranked)[1] if ranked else -1


def _clusters(index: ClusterIndex) -> list[int]:
    """The lists of two codes or more that a sitemap, feed or text entry holds."""
    held = set(compress(index.held, index.kind.tobytes().translate(_NOT_HTML)))
    held.discard(-1)
    return sorted(list_id for list_id in held
                  if len(set(index.item_code[index.list_start[list_id]:index.list_start[list_id + 1]])) > 1)


def _pairs(index: ClusterIndex, list_id: int) -> dict[tuple[str, int], int]:
    """A list's members: (code, URL key) -> item. The index holds each code in its one
    canonical form (langtags.judge), so codes compare as they are."""
    return {(index.codes[index.item_code[item]], index.item_key[item]): item for item in index.items(list_id)}


class _Matching:
    """The clusters of both sides matched, and what each matched pair changed."""

    def __init__(self, old: ClusterIndex, new: ClusterIndex) -> None:
        self.old, self.new = old, new
        # Lists whose members all announce them back, pages aside (where a side read no
        # pages, the index's count says it at once).
        self.old_pages, self.new_pages = HTML in old.kind, HTML in new.kind

    def _whole(self, o: int, n: int) -> bool:
        old, new = self.old, self.new
        return (not self.old_pages and not self.new_pages and old.list_members[o] == old.list_named[o]
                and new.list_members[n] == new.list_named[n])

    def _broken(self, o: int, n: int, pairs: list[tuple[int, int]]) -> tuple[int, ...]:
        """Of these (OLD item, NEW item) pairs, NEW's items whole in OLD and not in NEW."""
        old, new = self.old, self.new
        return tuple(after for before, after in pairs if old.member_state(o, before, pages=False) == WHOLE
                     and new.member_state(n, after, pages=False) != WHOLE)

    def same(self, o: int, n: int) -> _Raw | None:
        """Two sides' one list (the same alternates, in the same order): broken members
        only. In lists whole on both sides, only an x-default can be (no longer listed)."""
        old, new = self.old, self.new
        offset = old.list_start[o] - new.list_start[n]
        items: Sequence[int] = new.items(n)
        if self._whole(o, n):
            # Whole on both sides: every member announces the list back, so only an
            # x-default that names no member (a language selector) can have gone.
            x_default = new.code_ids.get(X_DEFAULT, -1)
            named = {new.item_key[item] for item in items if new.item_code[item] != x_default}
            items = [item for item in items if new.item_code[item] == x_default and new.item_key[item] not in named]
        broken = self._broken(o, n, [(item + offset, item) for item in items])
        return (o, n, (), (), broken) if broken else None

    def compare(self, o: int, n: int) -> _Raw | None:
        """Two lists matched by their members: those gained, lost and broken."""
        before, after = _pairs(self.old, o), _pairs(self.new, n)
        gained = tuple(item for pair, item in after.items() if pair not in before)
        lost = tuple(item for pair, item in before.items() if pair not in after)
        broken = self._broken(o, n, [(before[pair], item) for pair, item in after.items() if pair in before])
        return (o, n, gained, lost, broken) if gained or lost or broken else None


def cluster_changes(old: ClusterIndex, new: ClusterIndex) -> list[_Raw]:
    """Every cluster that gained, lost or broke a member, that is new or gone: NEW's
    in the order of its lists, then OLD's gone or matched the other way."""
    old_lists, new_lists = _clusters(old), _clusters(new)
    old_set = set(old_lists)
    digests = {list_id: digest for digest, list_id in new.list_ids.items()}
    matching = _Matching(old, new)
    old_members = _Members(old, old_lists)
    paired: set[int] = set()
    raw: list[_Raw] = []
    for n in new_lists:
        o = old.list_ids.get(digests[n], -1)
        if o in old_set:
            found = matching.same(o, n)
        else:
            o = old_members.best(new, n)
            found = (-1, n, tuple(new.items(n)), (), ()) if o < 0 else matching.compare(o, n)
        paired.add(o)
        if found is not None:
            raw.append(found)
    del digests
    unpaired = [o for o in old_lists if o not in paired]
    if unpaired:
        new_members = _Members(new, new_lists)
        for o in unpaired:
            n = new_members.best(old, o)
            found = (o, -1, (), tuple(old.items(o)), ()) if n < 0 else matching.compare(o, n)
            if found is not None:
                raw.append(found)
    return raw


class ClusterChanges(Lazy[ClusterChange]):
    """The clusters that changed, worded when read (the indexes hold their text)."""

    def __init__(self, old: ClusterIndex | None, new: ClusterIndex | None, raw: list[_Raw]) -> None:
        self._old, self._new, self._raw = old, new, raw

    def __len__(self) -> int:
        return len(self._raw)

    def item(self, number: int) -> ClusterChange:
        o, n, gained, lost, broken = self._raw[number]
        old, new = self._old, self._new
        assert old is not None and new is not None
        shown, list_id = (new, n) if n >= 0 else (old, o)
        members = tuple(sorted((_member(shown, item) for item in shown.items(list_id)),
                               key=lambda m: (m.hreflang == X_DEFAULT, m.hreflang.lower(), m.url)))
        name = next((m.url for m in members if m.hreflang != X_DEFAULT), members[0].url)
        change = NEW if o < 0 else GONE if n < 0 else CHANGED
        return ClusterChange(name, change, members,
                             tuple(_member(new, item, new.member_state(n, item, pages=False)) for item in gained),
                             tuple(_member(old, item) for item in lost),
                             tuple(_member(new, item, new.member_state(n, item, pages=False)) for item in broken))

    def __iter__(self) -> Iterator[ClusterChange]:
        return (self[number] for number in range(len(self)))


def _member(index: ClusterIndex, item: int, state: str | None = None) -> Member:
    return Member(index.codes[index.item_code[item]], index.hrefs[item], state)
