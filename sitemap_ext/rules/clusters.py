"""The rules that need every file: duplicates, hreflang clusters, built pages and
the sitemaps that list them (U104, U112-U114, H104, H105, H109-H116).

Each file's reader and rules leave a ``ClusterLog`` (``cluster_log.py``, built in the
worker that read the file); the main process adds the logs in a fixed order to one
``ClusterIndex`` (its storage in ``cluster_store.py``) and judges when every file is
read. When every file is read, the keys are sorted once: duplicates are neighbours,
and "which entries list URL X" is a binary search. A list held by as many of its own
URLs as it names (each URL listed once) is a whole cluster and needs nothing more;
only the others are looked at pair by pair (``cluster_pairs.py``). The findings'
words are in ``cluster_findings.py``.

Sources: Google, "Tell Google about localized versions of your page" (return
links; x-default; "If two pages don't both point to each other, the tags will
be ignored"); Google, "Build and submit a sitemap" (a URL listed once).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import compress, islice
from operator import eq
from typing import TYPE_CHECKING

from .. import langtags
from ..diagnostics import Collector, Related
from ..urls import url_key
from .cluster_findings import LISTED_TWICE, NO_X_DEFAULT, NOT_BUILT, UNCOUNTED, listed_twice, to_excluded, to_missing
from .cluster_log import FEED, HEADER, HTML, OWN, X_DEFAULT
from .cluster_pairs import Examination, Unplaced
from .cluster_store import ClusterStore

if TYPE_CHECKING:
    from .spill import SpillFolder

# How a finding names each method that gives alternates (H116): a sitemap's listing, a
# page's head, a URL's Link header.
_METHOD = {HTML: ("its page", "the page"), HEADER: ("its Link header", "the Link header")}
_SITEMAP = ("the sitemap", "the sitemap")


def _contradict(one: frozenset[tuple[str, int]], other: frozenset[tuple[str, int]]) -> bool:
    """Whether two methods' alternates for one URL contradict each other: one code names
    another URL, or one URL is given another language. A set that only adds versions
    (x-default, a language the other lacks) adds up with the other, as Google merges the
    methods' annotations."""
    if one == other:
        return False
    one, other = _counted(one), _counted(other)
    urls_one = {code: key for code, key in one}
    urls_other = {code: key for code, key in other}
    if any(urls_other.get(code, key) != key for code, key in urls_one.items()):
        return True
    languages_one = {key: langtags.language_of(code) for code, key in one if code != X_DEFAULT}
    return any(languages_one.get(key, langtags.language_of(code)) != langtags.language_of(code)
               for code, key in other if code != X_DEFAULT)


def _counted(pairs: frozenset[tuple[str, int]]) -> frozenset[tuple[str, int]]:
    """The pairs whose code counts (a link whose code is an error is ignored)."""
    return frozenset(pair for pair in pairs if pair[0] != UNCOUNTED)


def _described(pairs: frozenset[tuple[str, int]]) -> str:
    pairs = _counted(pairs)
    codes = sorted({code for code, _ in pairs}, key=str.lower)
    return f"{len(pairs)} alternates ({', '.join(codes)})" if pairs else "no alternates"


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


class ClusterIndex(ClusterStore):
    """Every file's entries (``ClusterStore``) and the rules that judge them together."""

    def __init__(self, collector: Collector, spill: SpillFolder | None = None) -> None:
        super().__init__(spill=spill)  # (spill: past its budget, the columns in its files)
        self.collector = collector
        self._repeated: set[int] = set()  # keys listed more than once (by _duplicates)
        self.unplaced: list[Unplaced] = []

    def coverage(self, limit: int) -> Coverage:
        """The coverage picture after finish(): see Coverage."""
        whole_rows: list[dict[str, tuple[str, str]]] = []
        broken_rows: list[dict[str, tuple[str, str]]] = []
        clusters = whole = 0
        used: set[str] = set()
        for list_id in range(len(self.list_first)):
            items = self.items(list_id)
            if len({self.item_code[i] for i in items} - {self.code_ids.get(UNCOUNTED, -1)}) < 2:
                continue
            clusters += 1
            complete = self.list_members[list_id] == self.list_named[list_id]
            whole += complete
            rows = whole_rows if complete else broken_rows
            if len(broken_rows) >= limit or (complete and len(whole_rows) >= limit):
                continue
            row: dict[str, tuple[str, str]] = {}
            for item in items:
                code = self.codes[self.item_code[item]]
                if code == UNCOUNTED:
                    continue
                row.setdefault(code, (self.hrefs[item], self.member_state(list_id, item)))
                used.add(code)
            rows.append(row)
        codes = sorted(used - {X_DEFAULT}, key=str.lower) + ([X_DEFAULT] if X_DEFAULT in used else [])
        return Coverage(codes, (broken_rows + whole_rows)[:limit], clusters, whole)

    def member_state(self, list_id: int, item: int, *, pages: bool = True) -> str:
        """Where the URL an item of a list names stands (after finish()): WHOLE (listed,
        announcing this list back; an x-default only needs to be listed: a language
        selector need not announce the cluster), DIFFERS (listed, announcing another
        list or none) or ABSENT (not listed). Without ``pages``, only sitemap, feed and
        text listings count (a page's head is no listing)."""
        held = {self.held[entry] for entry in (self.order[place] for place in self.listings(self.item_key[item]))
                if pages or self.kind[entry] != HTML}
        if self.codes[self.item_code[item]] == X_DEFAULT:
            return WHOLE if held else ABSENT
        return WHOLE if list_id in held else DIFFERS if held else ABSENT

    def listed(self) -> tuple[int, int]:
        """The distinct URLs the entries of sitemaps, feeds and text files list (by URL
        key; pages' heads and Link headers add none), and the alternate links every entry gives."""
        return self.distinct_listed(), self.alternates

    def excluded(self, pages: Mapping[int, Excluded]) -> None:
        """U112: a sitemap lists a page that keeps itself out of the index; H114: an
        alternate names one (search engines ignore that pair). After finish()."""
        report = self.collector.report
        for entry in range(len(self.key)):
            page = pages.get(self.key[entry])
            if page is not None and self.kind[entry] not in OWN:
                report("U112", f"{self.locs[entry]} is listed, but its page {page.why()}: list only the canonical, "
                       "indexable URL of each page", self.where(entry), url=self.locs[entry],
                       related=(Related("the page", page.file, page.line, url=page.url),))
        for list_id in range(len(self.list_first)):
            first = self.list_first[list_id]
            for item in self.items(list_id):
                page = pages.get(self.item_key[item])
                code = self.codes[self.item_code[item]]
                if page is None or self.item_key[item] == self.key[first] or code == UNCOUNTED:
                    continue  # (a page's own self-reference: its U112 or the others' H114 say it)
                to_excluded(report, self.locs[first], page.url, code, page.why(), self.where(first),
                            related=(Related("the page", page.file, page.line, url=page.url),))

    def conflicts(self) -> None:
        """H116: the methods that give a URL's alternates (its sitemap entries, its page's
        head, its Link header) contradict each other; reported once per URL, at the
        first sitemap entry (else the first place), with every other place that gives
        alternates. After finish(); a no-op without pages or headers."""
        if HTML not in self.kind and HEADER not in self.kind:
            return
        done: set[int] = set()
        for entry in range(len(self.key)):
            key = self.key[entry]
            if self.kind[entry] not in OWN or key in done:
                continue
            done.add(key)
            given = sorted((self.kind[other] in OWN, other) for other in map(self.order.__getitem__,
                                                                              self.listings(key))
                           if self.held[other] >= 0)  # (one method that gives nothing: the other's stand)
            pair = self._contradiction([other for _, other in given])
            if pair is None:
                continue
            first, second = pair
            listed, other_list = self.held[first], self.held[second]
            (one, _), (two, _) = self._method(first), self._method(second)
            self.collector.report(
                "H116", f"{self.locs[first]}: {one} gives {_described(self.pairs(listed))}, {two} gives "
                f"{_described(self.pairs(other_list))}{self._disagreement(first, second)}; search engines read "
                "both, and annotations that disagree may be dropped: give the same alternates in both places (or "
                "in one)", self.where(first), url=self.locs[first],
                related=tuple(self.related(other, f"{self._method(other)[1]}'s alternates")
                              for _, other in given if other != first))

    def _method(self, entry: int) -> tuple[str, str]:
        return _METHOD.get(self.kind[entry], _SITEMAP)

    def _contradiction(self, entries: list[int]) -> tuple[int, int] | None:
        """The first two listings of one URL, by different methods, whose alternates
        contradict (a sitemap's listing first)."""
        for number, first in enumerate(entries):
            for second in entries[number + 1:]:
                if self.kind[first] == self.kind[second] or self.held[first] == self.held[second] or \
                        (self.kind[first] not in OWN and self.kind[second] not in OWN):
                    continue  # (two sitemaps' listings: U104 and the pair rules say what differs)
                if _contradict(self.pairs(self.held[first]), self.pairs(self.held[second])):
                    return first, second
        return None

    def _disagreement(self, first: int, second: int) -> str:
        """The first code the two listings give different URLs."""
        hrefs = {self.codes[self.item_code[item]]: self.hrefs[item] for item in self.items(self.held[first])}
        for item in self.items(self.held[second]):
            code, href = self.codes[self.item_code[item]], self.hrefs[item]
            if code in hrefs and code != UNCOUNTED and url_key(hrefs[code]) != url_key(href):
                one, other = self._method(first)[1], self._method(second)[1]
                return f" (for {code}, {one} names {hrefs[code]} and {other} {href})"
        return ""

    def unlisted(self, pages: Iterable[int]) -> None:
        """U114: a built page that is indexable and its own canonical (its key; the page
        is an HTML entry of the index) is in no sitemap checked. Only when some sitemap
        was. After finish()."""
        if all(kind in OWN for kind in self.kind):
            return
        for key in pages:
            entries = [self.order[place] for place in self.listings(key)]
            if entries and all(self.kind[entry] in OWN for entry in entries):
                entry = entries[0]
                url = self.locs[entry]
                self.collector.report("U114", f"{url} is a built page, indexable and its own canonical, but no "
                                      "sitemap checked lists it: add it, so that search engines learn of it and of "
                                      "its changes", self.where(entry), url=url)

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
            why = failed(self.locs[entry], self.key[entry]) if self.kind[entry] not in OWN else None
            if why is not None:
                report("U113", f"{self.locs[entry]} is listed, but {why}: " + (
                       "after deploying, it is a 404; remove it or build its page" if why is built else
                       "search engines index only pages that answer 200; list the page's final, working URL"),
                       self.where(entry), url=self.locs[entry])
        for list_id in range(len(self.list_first)):
            first = self.list_first[list_id]
            for item in self.items(list_id):
                href, code = self.hrefs[item], self.codes[self.item_code[item]]
                why = failed(href, self.item_key[item]) if code != UNCOUNTED else None
                if why is not None:
                    to_missing(report, self.locs[first], href, code, why, "build the page or name the right URL"
                               if why is built else "name the version's final, working URL", self.where(first))

    # --- judging -------------------------------------------------------------------------

    def judge_all(self, excluded: Mapping[int, Excluded], served: Callable[[str, int], bool | str | None] | None = None,
                  indexable: Iterable[int] = ()) -> None:
        """Every rule across files, in one order for the check and the build: finish(),
        then what the built or fetched pages ask (``excluded``: those out of the index;
        ``served``: which URLs a built folder or live site serves, None without one;
        ``indexable``: the pages to list), then the methods' conflicts (H116)."""
        self.finish(excluded)
        if excluded:
            self.excluded(excluded)
        if served is not None:
            self.missing(served)
        if indexable:
            self.unlisted(indexable)
        self.conflicts()  # (a no-op without pages' heads or Link headers)

    def finish(self, pages: Mapping[int, Excluded] | None = None) -> None:
        """Every rule that needs all files: U104, H104, H105, H109-H113. ``pages``: the built
        pages that keep themselves out of the index (by key). A page whose canonical is
        another URL carries that canonical's annotations, and Google reads hreflang from
        canonical pages only: no return link is asked of its list, nor of it as an alternate
        (H114 and U112 say what is wrong with naming or listing it)."""
        self.sort()
        examine = self._duplicates()
        spared = frozenset(key for key, page in (pages or {}).items() if page.canonical is not None)
        x_default, uncounted = self.code_ids.get(X_DEFAULT, -1), self.code_ids.get(UNCOUNTED, -1)
        report = self.collector.report
        for list_id in range(len(self.list_first)):
            items = self.items(list_id)
            codes = set(self.item_code[items.start:items.stop]) - {uncounted}
            first = self.list_first[list_id]
            if x_default not in codes and len(codes) > 1 and (self.owns is None or self.owns(self.key[first])) \
                    and not self._x_default_elsewhere(items, x_default):
                report(NO_X_DEFAULT, "this cluster has no x-default, the version for users whose language matches "
                       "none (a language selector, or the main version)", self.where(first), url=self.locs[first],
                       once=self.mark(NO_X_DEFAULT, self.list_digests[list_id] if self.owns is not None else 0))
            if self.list_members[list_id] != self.list_named[list_id] or \
                    (self.mixed and self.list_digests[list_id] in self.mixed):
                examine.add(list_id)
        if examine:
            examination = Examination(self, examine, self.collector.report, spared)
            examination.run()
            self.unplaced = examination.unplaced  # (a share of a check's: placed by the check's merge)

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
            for place in self.listings(key):
                other = self.held[self.order[place]]
                if other >= 0 and x_default in self.item_code[self.list_start[other]:self.list_start[other + 1]]:
                    return True
        return False

    def _names(self, list_id: int, key: int) -> bool:
        """Whether a list names ``key`` under a language code (so each listing of it
        with that list counted as a member)."""
        x_default = self.code_ids.get(X_DEFAULT, -1)
        return any(self.item_key[item] == key and self.item_code[item] != x_default for item in self.items(list_id))

    def _duplicates(self) -> set[int]:
        """U104 for a URL listed twice in sitemaps of one kind; the lists of every URL
        listed more than once (they are judged over all their listings)."""
        keys = self.sorted_keys
        places = list(compress(range(1, len(keys)), map(eq, islice(keys, 1, None), keys)))  # (no copies of keys)
        lists: set[int] = set()
        done_groups = self._repeated  # the keys listed more than once
        for place in places:
            key = keys[place]
            if key in done_groups:
                continue
            done_groups.add(key)
            entries = sorted(self.order[p] for p in self.listings(key))
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
            if self.owns is not None and not self.owns(key):
                continue  # (another share of the check says its U104)
            first_of_kind: dict[int, int] = {}
            for entry in entries:
                kind = self.kind[entry]
                if kind in (FEED, HEADER):
                    continue  # feeds overlap by design (a home feed and each section's); a URL's headers add up
                first = first_of_kind.setdefault(kind, entry)
                if first != entry:
                    where = self.where(entry)
                    if not self.collector.keeps(LISTED_TWICE, where.file):
                        # (only counted: its URLs are not read back, which for a million duplicates
                        # in key order meant a compressed block inflated for nearly each one)
                        self.collector.tally(LISTED_TWICE, where.file)
                        continue
                    loc = self.locs[entry]
                    same = "" if self.locs[first] == loc else f" (as {self.locs[first]})"
                    listed_twice(self.collector.report, loc, where, same,
                                 related=(self.related(first, "first listed here"),))
        return lists
