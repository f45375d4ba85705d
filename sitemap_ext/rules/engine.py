"""The engine: how records reach the rules, for the check and for the build alike.

A reader (``read/``) or the build's writer (``write/``) hands entries here in batches
(``judge_entries``: a few hundred at a time, as they are read or written): each entry
rule of the registry (``rules/__init__.py``) runs once over the batch, on the entries
holding the field it reads, and a keyed rule (``Rule.key``) judges each distinct value
once while it says nothing of it; then the batch goes into the file's ``ClusterLog``
for the rules across files. An index entry goes through the index rules; a whole
file, once read, through the file rules. Nothing here knows which reader or writer
made a record.

The findings of a batch are held until every rule has run over it, then said in the
order a rule-by-rule walk of each entry in turn says them (an entry's in the order of
the rules): what is reported first (a finding said once, the first findings of a code
kept) does not depend on the batch's size.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import compress
from operator import attrgetter, itemgetter
from typing import Any

from ..limits import MAX_URLS_PER_FILE
from ..read.record import IndexEntry, UrlEntry
from ..urls import resolve_http, url_key
from .cluster_log import FEED, HEADER, HTML, IMAGE, NEWS, NO_LASTMOD, OWN, TEXT, VIDEO, WEB, ClusterLog
from .context import Context
from .files import entry_count
from .hreflang import Judged, judge_links
from .registry import Rule
from .rule_set import ENTRY_RULES, FILE_RULES, INDEX_DISPATCH

# Entries a reader or the build hands the engine at once. Each rule walks the batch in
# turn, so a batch is best kept within a core's cache (256 entries of W, the benchmark's
# five-locale shape with an image, are about 400 kB; 4,096 walked rule by rule cost more
# than entry by entry: benchmarks/record_path.py), and large enough that a file's repeated
# values (its lastmods, a cluster's members) fall within one.
BATCH = 256


class _Held:
    """A batch's findings as the rules say them, each with the number of its entry,
    said in entry order once every rule has run over the batch."""

    def __init__(self) -> None:
        self.at = 0  # the entry being judged
        self.said = 0
        self.found: list[tuple[int, tuple[Any, ...], dict[str, Any]]] = []

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        self.found.append((self.at, args, kwargs))
        self.said += 1

    def say(self, report: Any, starting: Callable[[int], None] | None) -> None:
        self.found.sort(key=_ENTRY)  # (stable: an entry's findings stay in the order of the rules)
        last = -1
        for number, args, kwargs in self.found:
            if starting is not None and number != last:
                starting(number)
                last = number
            report(*args, **kwargs)


_ENTRY = itemgetter(0)


def judge_entry(entry: UrlEntry, ctx: Context, log: ClusterLog) -> None:
    """One entry: a batch of one."""
    judge_entries([entry], ctx, log)


def judge_entries(entries: Sequence[UrlEntry], ctx: Context, log: ClusterLog,
                  starting: Callable[[int], None] | None = None) -> None:
    """A batch of a file's entries, in the order read, through the entry rules and into
    ``log``. ``starting(n)`` is called before the findings of entry ``n`` are said (the
    build places them where that entry's page is described)."""
    if not entries:
        return
    locs = _locs(entries, ctx)
    keys = [url_key(loc) if loc is not None else 0 for loc in locs]  # (url_key is memoised, bounded)
    judged = _judged(entries, locs, ctx)
    held = _Held()
    report = ctx.report
    ctx.report = held
    try:
        _count(entries, ctx, held)
        columns: dict[str, list[int]] = {}  # field -> the entries holding it
        for rule in ENTRY_RULES:
            _run(rule, entries, _holding(rule.reads, entries, columns), locs, keys, judged, ctx, held)
    finally:
        ctx.report = report
    held.say(report, starting)
    _logged(entries, locs, keys, judged, ctx, log)


def _locs(entries: Sequence[UrlEntry], ctx: Context) -> list[str | None]:
    """Each entry's URL as the rules judge it (None: none, or more than one)."""
    base = ctx.facts.url
    found: list[str | None] = []
    for entry in entries:
        loc = None
        if len(entry.locs) == 1:
            text = entry.locs[0].text
            if text:
                loc = text.strip() or None
        if loc is not None and base is not None and not loc.lower().startswith(("http://", "https://")):
            # A relative loc is U101 (its rule says so, at its line); the rest is judged with
            # it resolved against the file's URL, as a browser would: one mistake, one finding.
            loc = resolve_http(loc, base) or loc
        found.append(loc)
    return found


def _judged(entries: Sequence[UrlEntry], locs: list[str | None], ctx: Context) -> list[Judged | None]:
    """The verdict on each entry's links (hreflang.judge_links, itself memoised), once per
    distinct tuple of links in the batch (a cluster's members list the same) or the same
    tuple as the file's last entry's, and again for another URL where a relative href makes
    it the URL's own."""
    seen: dict[Any, tuple[Judged, str | None]] = {}  # (the batch's: gone with it)
    last_links, last = ctx.last_links
    found: list[Judged | None] = []
    for entry, loc in zip(entries, locs, strict=True):
        links = entry.links
        if not links:
            found.append(None)
            continue
        # (the last entry's links, equal: a cluster's next member, known without hashing the tuple)
        verdict = last if links is last_links or links == last_links else seen.get(links)
        if verdict is None or (verdict[0].relative and verdict[1] != loc):
            verdict = seen[links] = (judge_links(links, loc), loc)
        last_links, last = links, verdict
        found.append(verdict[0])
    ctx.last_links = (last_links, last)
    return found


def _count(entries: Sequence[UrlEntry], ctx: Context, held: _Held) -> None:
    """The file's count of entries; X108 at the one past the limit."""
    facts = ctx.facts
    first = facts.entries
    facts.entries += len(entries)
    if facts.entries > MAX_URLS_PER_FILE and first <= MAX_URLS_PER_FILE:
        number = MAX_URLS_PER_FILE - first  # (the entry that is the file's 50,001st)
        facts.entries, held.at = MAX_URLS_PER_FILE + 1, number
        entry_count(ctx, entries[number].line)
        facts.entries = first + len(entries)


def _holding(reads: str | None, entries: Sequence[UrlEntry], columns: dict[str, list[int]]) -> list[int] | None:
    """The numbers of the entries whose field ``reads`` is set (None: every entry)."""
    if reads is None:
        return None
    found = columns.get(reads)
    if found is None:
        found = columns[reads] = list(compress(range(len(entries)), map(attrgetter(reads), entries)))
    return found


def _run(rule: Rule, entries: Sequence[UrlEntry], numbers: list[int] | None, locs: list[str | None],
         keys: list[int], judged: list[Judged | None], ctx: Context, held: _Held) -> None:
    """One rule over the batch: each entry it reads, in order, but for an entry whose key
    it judged already without a word (then only its tally)."""
    check, key, tally = rule.check, rule.key, rule.tally
    if numbers is None:
        numbers = list(range(len(entries)))
    if key is None:
        for number in numbers:
            ctx.loc, ctx.loc_key, ctx.judged = locs[number], keys[number], judged[number]
            held.at = number
            check(entries[number], ctx)
        return
    quiet: dict[Hashable, Any] = {}  # key -> what check returned
    again: dict[Hashable, int] = {}  # key -> the entries not judged again
    for number, value in zip(numbers, map(key, [entries[number] for number in numbers]), strict=True):
        if value in quiet:
            again[value] = again.get(value, 0) + 1
            continue
        ctx.loc, ctx.loc_key, ctx.judged = locs[number], keys[number], judged[number]
        held.at = number
        said = held.said
        result = check(entries[number], ctx)
        if held.said == said:
            quiet[value] = result
    if tally is not None:
        for value, times in again.items():
            tally(quiet[value], ctx, times)


def _logged(entries: Sequence[UrlEntry], locs: list[str | None], keys: list[int], judged: list[Judged | None],
            ctx: Context, log: ClusterLog) -> None:
    """The batch's entries with a URL into the file's cluster log, with their alternates
    as judged: a run of listings at once; a page's (or a header file's) own links, which
    stand on lines of their own, one by one (a finding about one is placed there)."""
    run: list[int] = []
    kinds = [listing_kind(entry) for entry in entries]
    for number, loc in enumerate(locs):
        if loc is None:
            continue
        entry = entries[number]
        found = judged[number]
        kind = kinds[number]
        if found is None or kind not in OWN:
            run.append(number)
            continue
        _add_run(run, entries, locs, keys, judged, kinds, ctx, log)
        run = []
        lines = tuple([entry.link_lines[place] for place in found.cluster_places])
        columns = tuple([entry.link_columns[place] for place in found.cluster_places]) if entry.link_columns \
            else None
        log.add(loc, keys[number], entry.line, kind, found.cluster, found.cluster_keys, found.named, lines, columns,
                _instant(entry, ctx) if log.dated else NO_LASTMOD)
    _add_run(run, entries, locs, keys, judged, kinds, ctx, log)


def _add_run(run: list[int], entries: Sequence[UrlEntry], locs: list[str | None], keys: list[int],
             judged: list[Judged | None], kinds: list[int], ctx: Context, log: ClusterLog) -> None:
    if not run:
        return
    found = [judged[number] for number in run]
    log.add_entries([locs[number] or "" for number in run], [keys[number] for number in run],
                    [entries[number].line for number in run], [kinds[number] for number in run],
                    [verdict.cluster if verdict is not None else () for verdict in found],
                    [verdict.cluster_keys if verdict is not None else () for verdict in found],
                    [verdict.named if verdict is not None else _NONE for verdict in found],
                    [_instant(entries[number], ctx) for number in run] if log.dated else None)


_NONE: frozenset[int] = frozenset()


def _instant(entry: UrlEntry, ctx: Context) -> float:
    """The entry's lastmod as an instant, as the lastmod rule read it (its parse is
    memoised: this is a lookup), for a diff; NO_LASTMOD for none or an invalid one."""
    if entry.lastmod is None or not entry.lastmod.text or not entry.lastmod.text.strip():
        return NO_LASTMOD
    found = ctx.dates.parse(entry.lastmod.text)[0]
    return NO_LASTMOD if found is None else found.instant


def listing_kind(entry: UrlEntry) -> int:
    """Which kind of sitemap the listing belongs to (a URL may stand once in each)."""
    source = entry.source
    if source != "url":
        return _SOURCE_KINDS.get(source, WEB)
    kinds = 0  # bits: 1 image, 2 video (news decides at once)
    for item in entry.media:
        kind = item.kind
        if kind == "news":
            return NEWS
        kinds |= 2 if kind == "video" else 1 if kind == "image" else 0
    if kinds & 2:
        return VIDEO
    if kinds and not (entry.links or entry.lastmod or entry.changefreq or entry.priority):
        return IMAGE
    return WEB


_SOURCE_KINDS = {"line": TEXT, "html": HTML, "header": HEADER, "item": FEED}


def judge_index_entry(entry: IndexEntry, ctx: Context) -> str | None:
    ctx.facts.entries += 1
    entry_count(ctx, entry.line)
    ctx.loc = None
    if len(entry.locs) == 1 and entry.locs[0].text and entry.locs[0].text.strip():
        ctx.loc = entry.locs[0].text.strip()
    ctx.judged = None
    for check, reads in INDEX_DISPATCH:
        if reads is None or getattr(entry, reads):
            check(entry, ctx)
    return ctx.loc if ctx.loc is not None and ctx.loc.lower().startswith(("http://", "https://")) else None


def judge_file_end(ctx: Context) -> None:
    """The rules on a whole file of entries, once every entry is judged."""
    for check in FILE_RULES:
        check(ctx)
