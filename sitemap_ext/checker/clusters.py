"""hreflang cluster rules across every file checked together.

Memory is what decides how large a set of sitemaps can be checked, so the
index stores as little as it can: the members of a healthy cluster all list
the same alternates, so each distinct list is stored once (a tuple of its
codes and URLs); each entry keeps an integer id of its list, its line and
file in compact arrays, and its URL as a key pointing at the string object
inside its list (no second copy).

Local rules (self-reference, a code twice, a URL twice, x-default twice) are
judged as entries arrive; the rules that need other entries (return links,
codes that differ, different sets) when every file has been read.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field

from .. import langtags
from ..diagnostics import Collector, Related, Where

X_DEFAULT = langtags.X_DEFAULT
Pairs = tuple[str, ...]  # code, url, code, url, ... sorted by (code, url)


def _pairs(alternates: list[tuple[str, str, int]]) -> Pairs:
    flat: list[str] = []
    for code, href in sorted({(code, href) for code, href, _ in alternates}):
        flat += (code, href)
    return tuple(flat)


def _hrefs(pairs: Pairs) -> dict[str, str]:
    """url -> code (x-default only when the URL has no language code too)."""
    out: dict[str, str] = {}
    for i in range(0, len(pairs), 2):
        code, href = pairs[i], pairs[i + 1]
        if code != X_DEFAULT or href not in out:
            out[href] = code
    return out


def _named(code: str) -> str:
    name = langtags.display_name(code)
    return f"{code} ({name})" if name else code


@dataclass
class ClusterIndex:
    collector: Collector
    lists: dict[Pairs, int] = field(default_factory=dict)
    stored: list[Pairs] = field(default_factory=list)
    entry_of: dict[str, int] = field(default_factory=dict)  # url -> entry number
    entry_list: array = field(default_factory=lambda: array("I"))
    entry_line: array = field(default_factory=lambda: array("I"))
    entry_file: array = field(default_factory=lambda: array("H"))
    files: list[str] = field(default_factory=list)
    _file_ids: dict[str, int] = field(default_factory=dict)

    def add(self, loc: str, alternates: list[tuple[str, str, int]], file: str, line: int) -> None:
        where = Where(file, line)
        self._local_rules(loc, alternates, where)
        pairs = _pairs(alternates)
        list_id = self.lists.get(pairs)
        if list_id is None:
            list_id = self.lists[pairs] = len(self.stored)
            self.stored.append(pairs)
        if loc in self.entry_of:
            return  # a duplicate <url>: reported as U104 already
        for i in range(1, len(pairs), 2):
            if pairs[i] == loc:
                loc = pairs[i]  # share the string object held by the list
                break
        file_id = self._file_ids.get(file)
        if file_id is None:
            file_id = self._file_ids[file] = len(self.files)
            self.files.append(file)
        self.entry_of[loc] = len(self.entry_list)
        self.entry_list.append(list_id)
        self.entry_line.append(line)
        self.entry_file.append(file_id)

    def _local_rules(self, loc: str, alternates: list[tuple[str, str, int]], where: Where) -> None:
        report = self.collector.report
        by_code: dict[str, str] = {}
        by_href: dict[str, str] = {}
        defaults = 0
        for code, href, line in alternates:
            at = Where(where.file, line)
            if code == X_DEFAULT:
                defaults += 1
                if defaults == 2:
                    report("H108", "more than one x-default in this cluster; keep one", at, url=loc,
                           hreflang=code)
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

    def _where(self, entry: int) -> Where:
        return Where(self.files[self.entry_file[entry]], self.entry_line[entry])

    def finish(self, checked: set[int]) -> None:
        """Cross-entry rules; ``checked`` holds hash() of every URL read (with or without alternates)."""
        report = self.collector.report
        outside_reported: set[tuple[int, str]] = set()
        pair_reported: set[tuple[int, int]] = set()
        no_default_reported: set[int] = set()
        hrefs_cache: dict[int, dict[str, str]] = {}

        def hrefs(list_id: int) -> dict[str, str]:
            found = hrefs_cache.get(list_id)
            if found is None:
                if len(hrefs_cache) > 4096:
                    hrefs_cache.clear()
                found = hrefs_cache[list_id] = _hrefs(self.stored[list_id])
            return found

        for loc, entry in self.entry_of.items():
            list_id = self.entry_list[entry]
            mine = hrefs(list_id)
            where = self._where(entry)
            codes = self.stored[list_id][::2]
            if X_DEFAULT not in codes and len(set(codes)) > 1 and list_id not in no_default_reported:
                no_default_reported.add(list_id)
                report("H112", "this cluster has no x-default, the version for users whose language matches "
                       "none (a language selector, or the main version)", where, url=loc)
            for href, code in mine.items():
                if href == loc:
                    continue
                other = self.entry_of.get(href)
                if other is None:
                    if hash(href) not in checked and (list_id, href) not in outside_reported:
                        outside_reported.add((list_id, href))
                        report("H111", f"alternate {href} ({code}) is in none of the sitemaps checked, so its "
                               "return link cannot be verified; check its host's sitemap too", where, url=loc,
                               hreflang=code)
                    continue
                other_list = self.entry_list[other]
                if other_list == list_id or code == X_DEFAULT:
                    continue  # same list: reciprocal by construction; x-default targets need not link back
                theirs = hrefs(other_list)
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
