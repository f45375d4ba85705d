"""The rules across files judged in shares of the URL keys, each share on its own (a
Dask worker, ``checker/on_dask.py``), with the findings one index of every file gives.

The URL keys (``urls.url_key``, uniform 64-bit digests) are cut into ``shards`` equal
ranges; a share owns the keys of its range. It judges every key it owns with the same
``ClusterIndex`` and rules as one machine, and so it must hold every listing of each
key it owns and of each key those listings name: an entry goes to the share owning
its key, and to each share whose owned entries name its key (a pair's other end, even
where it does not name them back: that is H104) or another spelling of it (H113).

1. ``split`` (where the logs are): each log's entries by the share owning them, what
   each share's entries ask of the keys other shares own, and each log's first holder
   of each list, for the share owning the list's digest.
2. On each share's pieces: ``mixed_lists`` (the lists held by a URL it owns that is
   listed with other alternates: every share examines them, as one index does),
   ``first_holders`` (each list's first entry of all, for every share holding the list:
   a list's findings are said there) and ``context`` (the entries each other share
   asked for); then ``absent`` and ``context_again``: the other spellings of alternates
   no entry lists (H113), asked in a second round.
3. ``judge_share``: the share's index of its own entries and those it was given, each
   once, in the one order of every entry (the order the check took the logs in); the
   rules say only what a key it owns gives (``ClusterStore.owns``), each finding with
   its entry's place in that order (``Placed.ordinal``).
4. ``merge_shares`` (the check's main process): the findings in the order one index gives
   them, a finding two shares may both say (of a list, of a pair: ``ClusterStore.mark``)
   kept once, the first; then the H104 findings placed at their links. So the findings,
   their counts and the ones kept past ``--max-per-code`` are one machine's.
"""

from __future__ import annotations

from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from itertools import accumulate, compress
from typing import TYPE_CHECKING, Any

from ..diagnostics import NOWHERE, Collector, Diagnostic, Where
from ..urls import url_key, variants
from .cluster_findings import LISTED_TWICE, NO_X_DEFAULT
from .cluster_log import OWN, ClusterLog
from .cluster_pairs import Unplaced, place_unplaced
from .cluster_store import distinct_sorted, sorted_by_key
from .clusters import ClusterIndex

if TYPE_CHECKING:
    from .spill import SpillFolder

_NOT_OWN = bytes(0 if kind in OWN else 1 for kind in range(256))


def owner(key: int, shards: int) -> int:
    """The share that owns a URL key: equal ranges of the signed 64-bit keys."""
    return ((key + (1 << 63)) * shards) >> 64


@dataclass
class Split:
    """Some logs split by share: ``parts[s]`` the entries share s owns; ``asks[t]``, for
    each share s, the keys share t owns that share s's entries name; ``heads[u]`` the
    first entry of each log holding a list whose digest share u owns, and
    ``head_shares[u]`` the shares owning an entry of that log holding it (``first_holders``)."""

    parts: list[ClusterLog | None]
    asks: list[dict[int, array[int]]]
    heads: list[ClusterLog | None]
    head_shares: list[list[frozenset[int]]]


def split(logs: Sequence[tuple[int, ClusterLog]], shards: int) -> Split:
    """Step 1, for logs (each with its number in the order they are taken), on a worker.
    What is asked is kept as arrays (8 bytes a key; a key may be asked more than once)."""
    parts: list[ClusterLog | None] = [None] * shards
    heads: list[ClusterLog | None] = [None] * shards
    head_shares: list[list[frozenset[int]]] = [[] for _ in range(shards)]
    asks: list[defaultdict[int, array[int]]] = [defaultdict(_keys) for _ in range(shards)]
    for number, log in logs:
        owners = [owner(key, shards) for key in log.keys]
        mine: defaultdict[int, list[int]] = defaultdict(list)
        for entry, share in enumerate(owners):
            mine[share].append(entry)
        for share, entries in sorted(mine.items()):
            parts[share] = log.taken(entries, parts[share], number)
        holders: defaultdict[int, set[int]] = defaultdict(set)  # a list -> the shares of the entries holding it
        for entry, local in enumerate(log.lists):
            if local >= 0:
                holders[local].add(owners[entry])
        item_keys, bounds = log.item_keys, log.bounds
        for local, shares in holders.items():
            for key in item_keys[bounds[local]:bounds[local + 1]]:
                target = owner(key, shards)
                for share in shares:
                    if share != target:
                        asks[target][share].append(key)
        by_digest: defaultdict[int, list[int]] = defaultdict(list)  # the share owning a list's digest -> lists
        for local in holders:
            by_digest[owner(log.digests[local], shards)].append(local)
        for share, lists in sorted(by_digest.items()):
            lists.sort(key=log.firsts.__getitem__)
            heads[share] = log.taken([log.firsts[local] for local in lists], heads[share], number)
            head_shares[share].extend(frozenset(holders[local]) for local in lists)
    return Split(parts, [dict(asked) for asked in asks], heads, head_shares)


def _keys() -> array[int]:
    return array("q")


Piece = tuple["ClusterLog | None", "dict[int, array[int]]", "ClusterLog | None", "list[frozenset[int]]"]


def piece(done: Split, share: int) -> Piece:
    """One share's part of a split: the entries it owns, what the others ask of it, and
    the first holders of the lists whose digests it owns."""
    return done.parts[share], done.asks[share], done.heads[share], done.head_shares[share]


def first_holders(pieces: Sequence[Piece], shards: int) -> list[ClusterLog | None]:
    """Step 1c, on the share owning some lists' digests: each list's first entry of all
    (its lowest ordinal), for every other share holding the list: one index says a list's
    findings (H112, H111) at its first entry, which may name none of the list's URLs and
    so be asked for by no share."""
    best: dict[int, tuple[int, int, int]] = {}  # digest -> (ordinal, piece, entry)
    holding: defaultdict[int, set[int]] = defaultdict(set)
    for number, (_, _, heads, shares) in enumerate(pieces):
        if heads is None:
            continue
        for entry, (local, ordinal) in enumerate(zip(heads.lists, heads.ordinals, strict=True)):
            digest = heads.digests[local]
            holding[digest].update(shares[entry])
            if digest not in best or ordinal < best[digest][0]:
                best[digest] = (ordinal, number, entry)
    picks: defaultdict[tuple[int, int], list[int]] = defaultdict(list)
    for digest, (_, number, entry) in best.items():
        heads = pieces[number][2]
        assert heads is not None
        for share in holding[digest] - {owner(heads.keys[entry], shards)}:
            picks[share, number].append(entry)
    out: list[ClusterLog | None] = [None] * shards
    for (share, number), entries in sorted(picks.items()):
        heads = pieces[number][2]
        assert heads is not None
        out[share] = heads.taken(sorted(entries), out[share])
    return out


def mixed_lists(pieces: Sequence[Piece]) -> set[int]:
    """Step 1b, on one share's pieces: the lists (digests) held by the listings of a URL it
    owns that is listed more than once with different alternates (or some with none):
    one index examines every holder of such a list, wherever it is (``_duplicates``)."""
    first: dict[int, int] = {}  # key -> the digest its first listing holds (0: none)
    mixed: set[int] = set()
    for part, *_ in pieces:
        if part is None:
            continue
        for key, local in zip(part.keys, part.lists, strict=True):
            digest = part.digests[local] if local >= 0 else 0
            if first.setdefault(key, digest) != digest:
                mixed.add(key)
    if not mixed:
        return set()
    out: set[int] = set()
    for part, *_ in pieces:
        if part is not None:
            out.update(part.digests[local] for key, local in zip(part.keys, part.lists, strict=True)
                       if local >= 0 and key in mixed)
    return out


def _numpy() -> Any:
    """numpy (the dask extra's): sorting and matching millions of keys as arrays, not
    Python numbers (about 70 bytes each in a set)."""
    return import_module("numpy")


def _joined(arrays: Iterable[array[int]]) -> Any:
    """The distinct keys of some arrays, sorted, as one numpy array."""
    np = _numpy()
    found = [np.frombuffer(keys, dtype=np.int64) for keys in arrays if keys]
    return np.unique(np.concatenate(found)) if found else np.empty(0, dtype=np.int64)


def context(pieces: Sequence[Piece], shards: int) -> list[ClusterLog | None]:
    """Step 2, on one share's pieces (in the order of the logs): for each other share,
    the entries it owns whose keys that share asked for, in the same order."""
    np = _numpy()
    wanted = [_joined(asked[share] for _, asked, *_ in pieces if share in asked) for share in range(shards)]
    out: list[ClusterLog | None] = [None] * shards
    for part, *_ in pieces:
        if part is None:
            continue
        keys = np.frombuffer(part.keys, dtype=np.int64) if part.keys else np.empty(0, dtype=np.int64)
        for share, asked in enumerate(wanted):
            if asked.size:
                entries = np.flatnonzero(np.isin(keys, asked, assume_unique=False)).tolist()
                if entries:
                    out[share] = part.taken(entries, out[share])
    return out


def absent(owned: Sequence[ClusterLog | None], asked: Sequence[ClusterLog | None], share: int, shards: int
           ) -> list[dict[int, array[int]]]:
    """Step 2b, on a share: the alternates its entries name that no entry lists (their
    other spellings may be listed: H113), asked of the shares that own those spellings:
    for each share t, {this share: the keys}. Few or none on a healthy site."""
    np = _numpy()
    present = _joined(part.keys for part in (*owned, *asked) if part is not None)
    wanted: list[set[int]] = [set() for _ in range(shards)]
    for part in owned:
        if part is None or not part.item_keys:
            continue
        items = np.frombuffer(part.item_keys, dtype=np.int64)
        missing = np.flatnonzero(~np.isin(items, present)).tolist()
        if not missing:
            continue
        ends = list(accumulate(part.href_lengths, initial=0))
        for item in missing:
            href = part.href_bytes[ends[item]:ends[item + 1]].decode("utf-8", "surrogatepass")
            for spelling in variants(href):
                other = url_key(spelling)
                if owner(other, shards) != share and not np.isin(other, present):
                    wanted[owner(other, shards)].add(other)
    return [{share: array("q", keys)} if keys else {} for keys in wanted]


def context_again(parts: Sequence[ClusterLog | None], asks: Sequence[dict[int, array[int]]], shards: int
                  ) -> list[ClusterLog | None]:
    """Step 2c, on one share: the entries it owns that the others asked for in step 2b."""
    merged: dict[int, array[int]] = {}
    for asked in asks:
        merged.update(asked)
    return context([*((part, {}, None, []) for part in parts), (None, merged, None, [])], shards)


@dataclass
class Share:
    """What one share found: its findings (each with its entry's ordinal), those only
    counted, the H104 findings to place, the distinct URLs listed and the alternates
    its owned entries give."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    ordinals: list[int] = field(default_factory=list)
    keys: list[int] = field(default_factory=list)  # each finding's entry's URL key
    suppressed: dict[str, int] = field(default_factory=dict)
    ignored: dict[str, int] = field(default_factory=dict)
    unplaced: list[Unplaced] = field(default_factory=list)
    distinct: int = 0
    alternates: int = 0


@dataclass
class ShareCollector(Collector):
    """A share's findings, each with its entry's ordinal and URL key (the order the merge
    puts them in). A finding another share may say too has a ``once`` key
    (``ClusterStore.mark``): kept whatever the limit and the policy (``once_kept``, as a
    Dask build's partition keeps one), the merge keeps the first and applies the policy."""

    once_kept: bool = True
    ordinals: list[int] = field(default_factory=list)
    keys: list[int] = field(default_factory=list)

    def report(self, code: str, message: str, where: Where = NOWHERE, **extra: Any) -> Diagnostic | None:
        kept = len(self.diagnostics)
        found = super().report(code, message, where, **extra)
        if len(self.diagnostics) > kept:
            self.ordinals.append(getattr(where, "ordinal", 0))
            self.keys.append(getattr(where, "key", 0))
        return found


def judge_share(owned: Sequence[ClusterLog | None], asked: Sequence[ClusterLog | None], share: int, shards: int,
                settings: dict[str, Any], mixed: set[int] | None = None) -> Share:
    """Step 3: one share's index (its entries, then those it asked for) judged.
    ``settings``: the check's collector's (registry, policy, limit, errors_kept), and its
    memory ``budget`` (None: none), past which the index spills to a folder of its own;
    ``mixed``: the lists every share examines (``mixed_lists`` of all shares)."""
    settings = dict(settings)
    budget = settings.pop("budget", None)
    if budget is None:
        return _judged(owned, asked, (share, shards, mixed or set()), ShareCollector(**settings), None)
    from .spill import SpillFolder

    with SpillFolder(budget) as folder:
        return _judged(owned, asked, (share, shards, mixed or set()), ShareCollector(**settings), folder)


def _judged(owned: Sequence[ClusterLog | None], asked: Sequence[ClusterLog | None], which: tuple[int, int, set[int]],
            collector: ShareCollector, folder: SpillFolder | None) -> Share:
    share, shards, index = which[0], which[1], ClusterIndex(collector, folder)
    index.owns = lambda key: owner(key, shards) == share
    index.mixed = which[2]
    done = Share()
    mine = [part for part in owned if part is not None]
    done.alternates = sum(part.alternates() for part in mine)
    done.distinct = _distinct(mine)
    index.add(None, _in_one_order([*mine, *(part for part in asked if part is not None)]))
    index.finish()
    done.diagnostics, done.ordinals, done.keys = collector.diagnostics, collector.ordinals, collector.keys
    done.suppressed, done.ignored = dict(collector.suppressed), dict(collector.ignored)
    done.unplaced = index.unplaced
    return done


def _in_one_order(logs: Sequence[ClusterLog]) -> ClusterLog:
    """The entries of some logs as one log, each once, in the one order of every entry (by
    ordinal): a list's first entry, a URL's listings and the order entries are judged in
    are one index's (an entry asked for and pushed too is taken once)."""
    np = _numpy()
    together = ClusterLog()
    for log in logs:
        log.taken(range(len(log.keys)), together)
    ordinals = np.frombuffer(together.ordinals, dtype=np.uint64) if together.ordinals else np.empty(0, np.uint64)
    first = np.unique(ordinals, return_index=True)[1].tolist()
    return together.taken(first, ascending=False) if first != list(range(len(together.keys))) else together


def _distinct(logs: Sequence[ClusterLog]) -> int:
    """The distinct keys of the entries that a sitemap, feed or text file lists."""
    keys = array("q")
    for log in logs:
        keys.extend(compress(log.keys, log.kinds.tobytes().translate(_NOT_OWN)))
    return distinct_sorted(sorted_by_key(keys)[1])


def merge_shares(collector: Collector, shares: Sequence[Share]) -> tuple[int, int]:
    """Step 4: every share's findings into the check's ``collector``, as one index says
    them; the distinct URLs listed and the alternates given (``ClusterIndex.listed``)."""
    rows: list[tuple[tuple[int, ...], Diagnostic]] = []
    for number, share in enumerate(shares):
        for seq, (diag, ordinal, key) in enumerate(zip(share.diagnostics, share.ordinals, share.keys, strict=True)):
            # One index says U104 in the order of the URL keys, then H112 in the order of the
            # lists' first entries, then what the pairs give, entry by entry.
            order = (0, key, ordinal) if diag.code == LISTED_TWICE else \
                (1 if diag.code == NO_X_DEFAULT else 2, ordinal, number, seq)
            rows.append((order, diag))
    rows.sort(key=lambda row: row[0])
    collector.merge([diag for _, diag in rows])  # (a finding with a once key: the first kept, the policy applied)
    for share in shares:
        collector.merge((), Counter(share.suppressed), Counter(share.ignored))
    unplaced = sorted((one for share in shares for one in share.unplaced),
                      key=lambda one: getattr(one[0], "ordinal", 0))
    place_unplaced(unplaced, collector.report)
    return sum(share.distinct for share in shares), sum(share.alternates for share in shares)


def in_shares(logs: Sequence[ClusterLog], shards: int, settings: dict[str, Any]) -> list[Share]:
    """Every step in this process (the tests' way to compare with one index): ``logs``
    (of many files each) in the order they are added."""
    done = split(list(enumerate(logs)), shards)
    pieces = [[piece(done, share)] for share in range(shards)]
    mixed = set().union(*(mixed_lists(pieces[share]) for share in range(shards)))
    heads = [first_holders(pieces[share], shards) for share in range(shards)]
    replies = [context(pieces[share], shards) for share in range(shards)]
    asked = [[replies[other][share] for other in range(shards)] for share in range(shards)]
    owned = [[part for part, *_ in pieces[share]] for share in range(shards)]
    again = [absent(owned[share], asked[share], share, shards) for share in range(shards)]
    more = [context_again(owned[share], [again[other][share] for other in range(shards)], shards)
            for share in range(shards)]
    return [judge_share(owned[share], [*asked[share], *(more[other][share] for other in range(shards)),
                                       *(heads[other][share] for other in range(shards))],
                        share, shards, settings, mixed) for share in range(shards)]
