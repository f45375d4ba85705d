"""The pair examination: the clusters whose lists are not whole, pair by pair (H104,
H105, H109, H110, H111, H113). ``ClusterIndex.finish`` hands over the lists to look at.
"""

from __future__ import annotations

from collections import defaultdict
from functools import partial
from typing import Any

from ..diagnostics import Related, Where
from ..urls import url_key, variants
from .cluster_findings import UNCOUNTED, Report, named_code, no_return, return_fix, return_missing, sets_differ
from .cluster_log import FEED, HEADER, HTML, TEXT, X_DEFAULT
from .cluster_store import ClusterStore, Placed

_NO_RETURN = frozenset((X_DEFAULT, UNCOUNTED))  # codes that ask no return link, nor give one to compare


class Examination:
    """The clusters whose lists are not whole, pair by pair."""

    def __init__(self, index: ClusterStore, lists: set[int], report: Report,
                 spared: frozenset[int] = frozenset()) -> None:
        self.index = index
        self.lists = lists
        self.report = report
        self.spared = spared  # pages canonicalised elsewhere: their pairs are their canonical's
        self.reported: set[tuple[int, int, str]] = set()
        # H104 at a sitemap entry, to be placed at its link (one more look at each file)
        self.unplaced: list[Unplaced] = []

    def pairs_of(self, key: int) -> dict[int, tuple[set[str], str]]:
        """Every alternate the listings of a URL give: key -> (codes, href)."""
        index = self.index
        out: dict[int, tuple[set[str], str]] = {}
        for place in index.listings(key):
            list_id = index.held[index.order[place]]
            if list_id < 0:
                continue
            for item in index.items(list_id):
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
            if list_id not in self.lists or key in seen or key in self.spared or \
                    (index.owns is not None and not index.owns(key)):
                continue  # (a key another share of the check owns: judged there)
            seen.add(key)  # a URL listed twice is judged once, over all its listings
            self.entry(entry, key)
        self.place_unplaced()

    def no_return(self, where: Where, href: str, *args: Any, **kw: Any) -> None:
        """H104, reported at once where its link has a place, else once its file is read again."""
        if where.column is None and where.line is not None and where.file:
            self.unplaced.append((where, href, args, kw))
        else:
            loc, target, code = args
            no_return(self.report, loc, target, code, where, **kw)

    def place_unplaced(self) -> None:
        """The H104 findings of sitemap entries, each at its link where the file shows it
        (a share of a check hands them to the check's merge, which places them all)."""
        if self.index.owns is None:
            place_unplaced(self.unplaced, self.report)
            self.unplaced = []

    def fix(self, loc: str, own: set[str], href: str, other: Related, kind: int) -> str:
        """H104's fix: the return link to add, in the other URL's entry, head or header."""
        place = ":".join(str(part) for part in (other.file, other.line) if part is not None)
        return return_fix(loc, own, href, "html" if kind == HTML else "header" if kind == HEADER else "xml", place)

    def entry(self, entry: int, key: int) -> None:
        index = self.index
        loc = index.locs[entry]
        mine = self.pairs_of(key)
        own = mine.get(key, (set(), loc))[0]
        for target, (codes, href) in sorted(mine.items(), key=lambda item: item[1][1]):
            if target == key or codes <= _NO_RETURN or target in self.spared:
                continue  # itself; an x-default target (a language selector) need not link back, nor a
                # link search engines ignore (its code is an error), nor a page canonicalised
                # elsewhere (H114 says so)
            where = index.where(entry, target)
            code = sorted(codes - _NO_RETURN)[0]
            listings = index.listings(target)
            if not listings:
                self.absent(entry, href, code)
                continue
            entries = [index.order[p] for p in listings]
            # (the place that says what the other URL gives back: the first listing that gives alternates)
            other = min((e for e in entries if index.held[e] >= 0), default=min(entries))
            related = (index.related(other, f"{href} is listed here"),)
            if all(index.kind[e] in (TEXT, FEED) for e in entries):
                self.once(entry, "H111", href, f"alternate {href} ({code}) is listed only in a text sitemap or feed, "
                          "which cannot carry hreflang, so its return link cannot be verified; list it in an XML "
                          "sitemap with its alternates", url=loc, hreflang=code)
                continue
            theirs = self.pairs_of(target)
            fix = self.fix(loc, own, href, related[0], index.kind[other])
            self.pair(entry, loc, key, own, mine, href, target, code, theirs, where, related, fix)

    def pair(self, entry: int, loc: str, key: int, own: set[str], mine: dict[int, tuple[set[str], str]], href: str,
             target: int, code: str, theirs: dict[int, tuple[set[str], str]], where: Where,
             related: tuple[Related, ...], fix: str) -> None:
        back = theirs.get(key)
        if back is None:
            variant = next((theirs[url_key(v)][1] for v in variants(loc) if url_key(v) in theirs), None)
            if variant is not None and self.variant_pair(key, url_key(variant)):
                return
            if variant is not None:
                self.report("H113", f"{loc} lists {href} as {named_code(code)}, and {href} lists {variant} back, not "
                            f"{loc}: to search engines another URL (check the trailing slash and http/https); "
                            "use one form everywhere", where, url=loc, hreflang=code, suggestion=loc,
                            related=related, once=self.spelling_mark(key, url_key(variant)))
            elif len(theirs) > 1 and (set(mine) | {key}) & (set(theirs) | {target}) == {target}:
                self.report("H109", f"{href} is in two clusters that share nothing else: this one (with {loc}) and "
                            f"the one {href}'s own listing gives; a URL belongs to one cluster", where, url=loc,
                            hreflang=code, related=related)
            else:
                self.no_return(where, href, loc, href, code, related=related, fix=fix)
            return
        detail = return_missing(back[0], own)
        if detail is not None:
            self.no_return(where, href, loc, href, code, related=related, detail=detail, fix=fix)
            return
        their_codes = theirs.get(target, (set(), href))[0]
        their_own = their_codes - _NO_RETURN
        if their_own and not (set(mine[target][0]) & their_own):
            self.differs(loc, href, code, sorted(their_own)[0], UNCOUNTED in their_codes, where, related)
            return
        names = {k: text for k, (_, text) in (*theirs.items(), *mine.items())}
        names.update({key: loc, target: href})
        missing = sorted(names[k] for k in (set(mine) | {key}) ^ (set(theirs) | {target}))
        pair_key = (min(key, target), max(key, target), "sets differ")
        if missing and pair_key not in self.reported:
            self.reported.add(pair_key)
            sets_differ(partial(self.report, once=self.index.mark(*pair_key)), loc, href, where, related=related,
                        detail=f" (not in both: {', '.join(missing[:5])}{'...' if len(missing) > 5 else ''})")

    def differs(self, loc: str, href: str, code: str, better: str, erroneous: bool, where: Where,
                related: tuple[Related, ...]) -> None:
        """H105: the code of a link is not one its target lists itself as. Where the target
        also lists itself with a code that is an error, that code's own finding (L1xx) says
        what to write, and this one proposes no other replacement."""
        if erroneous:
            self.report("H105", f"{loc} lists {href} as {named_code(code)}, but {href} lists itself as "
                        f"{named_code(better)} and with a code that is an error: write the code its L finding gives "
                        "there, and use that one code for it everywhere", where, url=loc, hreflang=code,
                        related=related)
            return
        self.report("H105", f"{loc} lists {href} as {named_code(code)}, but {href} lists itself as "
                    f"{named_code(better)}; use one code for it everywhere", where, url=loc, hreflang=code,
                    suggestion=better, related=related)

    def absent(self, entry: int, href: str, code: str) -> None:
        """An alternate no sitemap lists: another spelling of a listed URL (H113), or unknown (H111)."""
        index = self.index
        loc = index.locs[entry]
        for variant in variants(href):
            listings = index.listings(url_key(variant))
            if listings:
                other = index.order[listings.start]
                if self.variant_pair(url_key(href), url_key(variant)):
                    return
                self.once(entry, "H113", href, f"{loc} lists {href} ({code}), but what was checked names that "
                          f"page {index.locs[other]}: to search engines another URL (check the trailing slash and "
                          "http/https); use one form everywhere", url=loc, hreflang=code,
                          suggestion=index.locs[other], related=(index.related(other, "listed here"),),
                          once=self.spelling_mark(url_key(href), url_key(variant)))
                return
        list_id = index.held[entry]
        self.once(index.list_first[list_id], "H111", href, f"alternate {href} ({code}) is in none of the sitemaps "
                  "checked, so its return link cannot be verified; check its host's sitemap too", entry,
                  hreflang=code)

    def spelling_mark(self, one: int, other: int) -> str | None:
        return self.index.mark("spellings", min(one, other), max(one, other))

    def variant_pair(self, one: int, other: int) -> bool:
        """Whether H113 was said of these two spellings already (each end of the pair would say it)."""
        mark = (min(one, other), max(one, other), "spellings")
        if mark in self.reported:
            return True
        self.reported.add(mark)
        return False

    def once(self, entry: int, code: str, href: str, message: str, examined: int | None = None,
             **extra: object) -> None:
        """Per list and alternate: the members of a cluster share the finding (said at
        ``entry``, found while ``examined`` was, when that is another entry)."""
        index = self.index
        mark = (index.held[entry], url_key(href), code)
        if mark in self.reported:
            return
        self.reported.add(mark)
        extra.setdefault("url", index.locs[entry])
        where = index.where(entry)
        if index.owns is not None:
            extra.setdefault("once", index.mark(index.list_digests[mark[0]], *mark[1:]))
            if examined is not None:  # (a share's findings are merged in the order they are found)
                where = Placed(where.file, where.line, where.column, index.ordinal[examined], index.key[entry])
        self.report(code, message, where, **extra)


Unplaced = tuple[Where, str, tuple[Any, ...], dict[str, Any]]


def place_unplaced(unplaced: list[Unplaced], report: Report) -> None:
    """H104 findings of sitemap entries (in the order found), each said at its link where
    the file shows it: each file with such a finding read once more."""
    if not unplaced:
        return
    from .link_places import link_places  # (a second read of a file: only where there is a finding to place)

    by_file: dict[str, list[Unplaced]] = defaultdict(list)
    for one in unplaced:
        by_file[one[0].file or ""].append(one)
    for file, findings in by_file.items():
        places = link_places(file, ((where.line or 0, href) for where, href, _, _ in findings))
        for where, href, args, kw in findings:
            place = places.get((where.line or 0, href))
            at = where if place is None else Where(file, *place)
            loc, target, code = args
            no_return(report, loc, target, code, at, **kw)
