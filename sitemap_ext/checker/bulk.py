"""A urlset in the canonical shape with nothing to report, judged in a few calls.

Generated sitemaps are mostly clean, and their entries come in runs: the members
of a cluster follow each other, and differ only in their loc (lastmod, links and
images are the same text). So a file is taken apart with calls that each handle
all its entries: a regular expression with a back-reference finds the runs (one
Python step per run), another the locs, which are judged joined by newlines; what
follows the loc is judged once per run, the runs of the file together (joined,
split at quotes, sliced). No Python code runs per entry: only C loops (map, zip,
accumulate, str methods).

This path only says yes or no. It mutates nothing until the whole file is known
to give no finding of its own (every loc clean, on the file's host and in its
folder, new; every lastmod, changefreq, priority, link and image one the rules
take without a word) but I104, a note once per image host; then it records the
entries as the entry-by-entry path would have, and I104 is reported as there.
Any doubt returns None, and canonical.py checks the file entry by entry, which
reports what there is to report. Tests check both give the same.
"""

from __future__ import annotations

import gc
import re
from bisect import bisect_right
from contextlib import contextmanager
from itertools import accumulate, chain, compress, islice, repeat
from operator import add, ge, getitem, methodcaller, ne, sub
from typing import Iterator, Literal, NamedTuple, cast

from .. import langtags
from ..ext import image
from ..limits import MAX_IMAGES_PER_URL, MAX_URLS_PER_FILE
from ..urls import all_clean, is_clean, origin_text
from .clusters import X_DEFAULT, CleanRuns
from .entries import FileState, is_changefreq, is_priority

# A row: the loc (no markup, no reference, no line break), then the rest of its line;
# a run: rows whose rests are the same. Matched on the file's bytes (no text of the
# whole file is made): the pieces are decoded, and so checked to be UTF-8, after.
_LOC = re.compile(rb"<url><loc>([^\n<>&\"']*)</loc>")
_RUN = re.compile(rb"<url><loc>[^\n<>&\"']*</loc>([^\n]*)\n(?:<url><loc>[^\n<>&\"']*</loc>\1\n)*")
_FIRST_LINE = 3  # the declaration, the urlset, then one entry per line


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """This path makes a great many small objects and no reference cycles: passes of
    the cyclic garbage collector over them are pure cost, so they wait meanwhile."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Shape(NamedTuple):
    """canonical.py's shape, as this path needs it."""

    rests: re.Pattern[str]  # what follows the loc, in rows joined by line breaks (ended by one)
    around_links: re.Pattern[str]  # the text around a file's links, pieces joined by NUL
    next_link: str  # what lies between two links of one entry
    hrefs: re.Pattern[str]  # the links' URLs joined by spaces, when each is one the rules take


class Rows(NamedTuple):
    """A file's rows, by run."""

    locs: list[str]  # every row's
    distinct: list[str]  # each run's text after the loc (up to the line break)
    lengths: list[int]  # rows per run


def rows(data: bytes, start: int, end: int) -> Rows | None:
    """The rows of data[start:end], when they all have a plain loc (no reference, no
    markup): runs of rows that differ only in their loc, found by one regular
    expression with a back-reference (no copy of every row's rest), and the locs by
    another. None when anything else is there, or a piece is not UTF-8 (every byte
    is in a loc or a run's rest, each decoded)."""
    distinct: list[bytes] = []
    lengths: list[int] = []
    position, match, lines = start, _RUN.match, data.count
    while position < end:
        found = match(data, position, end)
        if found is None:
            return None  # another shape: a reference in a loc, say
        distinct.append(found.group(1))
        lengths.append(lines(b"\n", position, found.end()))
        position = found.end()
    locs = _LOC.findall(data, start, end)
    if not locs or len(locs) != sum(lengths):
        return None
    try:  # neither holds a line break
        return Rows(b"\n".join(locs).decode().split("\n"), b"\n".join(distinct).decode().split("\n"), lengths)
    except UnicodeDecodeError:
        return None


class Probe(NamedTuple):
    """What probe() found in a file with nothing to report: what record() keeps."""

    entries: int
    origin: str
    lastmod: tuple[str, bool] | None  # the first (as parsed), and whether any differs
    hashes: list[int]  # every loc's
    starts: list[int]  # each run's first entry
    runs: CleanRuns | None  # None: no entry has links
    hosts: list[tuple[str, int, str]]  # image hosts other than the pages': host, first entry's line, its loc


def probe(found: Rows, state: FileState, declared: dict[str, str], shape: Shape) -> Probe | None:
    """Judge a canonical urlset's rows: what to record if none gives a finding of its
    own, else None. Reads only the file's state (its URL, the clock), never what
    other files left: so a worker process may probe while others are checked."""
    locs, distinct, lengths = found
    count = len(locs)
    if state.entries + count > MAX_URLS_PER_FILE:
        return None  # X108, at its entry
    if not _locs_pass(locs, state):
        return None
    hashes = list(map(hash, locs))
    if len(set(hashes)) != count:
        return None  # a URL listed twice: U104, reported entry by entry
    origin = state.origin or origin_text(locs[0])
    starts = list(accumulate(lengths, initial=0))[:-1]
    joined = "\n".join(distinct) + "\n"
    if "&" in joined or "\x00" in joined:
        return None  # references are decoded and judged entry by entry
    counts = list(map(methodcaller("count", "<xhtml:link "), distinct))
    total = sum(counts)
    fields: list[str] = []
    if total:
        if "xhtml" not in declared:
            return None
        fields = joined.split('"')  # each link's rel, hreflang and href at 1, 3, 5 of every 6
        if not _around_links(fields, counts, total, shape):
            return None
    elif shape.rests.fullmatch(joined) is None:
        return None
    lastmod = _lastmods(joined, len(distinct), state)
    if lastmod is False:
        return None
    if not all(map(is_changefreq, _CHANGEFREQ.findall(joined))) or \
            not all(map(is_priority, _PRIORITY.findall(joined))):
        return None
    runs = _runs(fields, counts, total, lengths, locs, shape) if total else None
    if runs is False:
        return None  # a link with something to report
    hosts = _image_hosts(joined, distinct, starts, origin, declared)
    if hosts is None:
        return None
    return Probe(count, origin, lastmod, hashes, starts, runs,
                 [(host, _FIRST_LINE + entry, locs[entry]) for host, entry in hosts])


def record(found: Probe, state: FileState) -> bool:
    """Record a probed file as check_url() would have, entry by entry, with the one
    finding it may have: I104, at the first image on each host not noted yet, as
    check_plain_images() reports it. False, with nothing recorded, when one of its
    URLs was in a file before it."""
    shared = state.shared
    clusters = shared.clusters
    if not clusters.urls.isdisjoint(found.hashes):
        return False  # U104, reported entry by entry
    state.origin = found.origin
    state.entries += found.entries
    shared.urls += found.entries
    if found.lastmod is not None:
        first, differ = found.lastmod
        if state.lastmod_first is None:
            state.lastmod_first = first
        state.lastmods_differ = state.lastmods_differ or differ or first != state.lastmod_first
        state.lastmod_count += found.entries
    state.previous_links = None  # the entry-by-entry path's memo of the last links
    with no_cycle_collection():
        clusters.add_clean(found.hashes, state.display, _FIRST_LINE, found.starts, found.runs)
    for host, line, loc in found.hosts:
        if ("image-host", host) not in shared.noted:
            shared.noted.add(("image-host", host))
            state.report("I104", image.other_host(host), line, url=loc, once=f"image-host {host}")
    return True


def _locs_pass(locs: list[str], state: FileState) -> bool:
    """Whether check_loc() would take every loc without a word (and U107, U108)."""
    if not all_clean(locs):
        return False
    origin = state.origin or origin_text(locs[0])
    if origin != origin.lower():
        return False
    wrapped = "\n" + "\n".join(locs)
    if wrapped.count("\n" + origin + "/") != len(locs):
        return False  # a loc on another host (U107)
    return state.folder is None or wrapped.count("\n" + state.folder) == len(locs)  # U108


def _lastmods(joined: str, runs: int, state: FileState) -> tuple[str, bool] | None | Literal[False]:
    """The first lastmod (as parsed) and whether they differ; None when no entry has
    one; False when one has something to report, or only some entries have one."""
    written = _LASTMOD.findall(joined)
    if not written:
        return None
    if len(written) != runs:
        return False
    parsed = []
    now = state.shared.now
    for text in dict.fromkeys(written):
        lastmod, problems = state.shared.dates.parse(text)
        if lastmod is None or problems or (now is not None and lastmod.instant > now):
            return False
        parsed.append(lastmod.text)
    return parsed[0], len(set(parsed)) > 1


def _around_links(fields: list[str], counts: list[int], total: int, shape: Shape) -> bool:
    """Whether the rows, split at the quotes of their links, are in the shape: the
    attribute names in place, each run's links one after another, and what lies
    before and after a run's links (one regular expression for them all)."""
    if len(fields) != 6 * total + 1 or fields[2::6].count(" hreflang=") != total or \
            fields[4::6].count(" href=") != total:
        return False
    around = fields[0::6]  # before the first link, between links, after the last
    bounds = list(accumulate(counts))  # where each run's links end
    if list(compress(range(1, total), map(ne, islice(around, 1, total), repeat(shape.next_link)))) != bounds[:-1]:
        return False  # runs without links, or links apart within a row
    pieces = [around[0], *map(around.__getitem__, bounds[:-1]), around[total]]
    return shape.around_links.fullmatch("\x00".join(pieces)) is not None


def _runs(fields: list[str], counts: list[int], total: int, lengths: list[int], locs: list[str],
          shape: Shape) -> CleanRuns | Literal[False]:
    """The clusters, when every link is one the rules take without a word and each
    entry names itself; False otherwise."""
    rels, written, hrefs = fields[1::6], fields[3::6], fields[5::6]
    if rels.count("alternate") != total:
        return False
    codes = list(map(langtags.accepted, written))
    if "" in codes or shape.hrefs.fullmatch(" ".join(hrefs)) is None:
        return False
    # Within each run, codes strictly ascending: the pairs are sorted, and no code is
    # there twice (H106, H108). Where they do not ascend, a new run must start.
    bounds = set(accumulate(counts))
    if not bounds.issuperset(compress(range(1, total), map(ge, codes, islice(codes, 1, None)))):
        return False
    cuts = list(map(slice, accumulate(counts, initial=0), accumulate(counts)))
    run_codes = list(map(codes.__getitem__, cuts))
    run_hrefs = list(map(hrefs.__getitem__, cuts))
    # A URL's place (the x-default's URL is another code's too, else: entry by entry).
    places = list(map(dict, map(zip, map(reversed, run_hrefs), map(range, map(sub, counts, repeat(1)),
                                                                   repeat(-1), repeat(-1)))))
    named = list(map(len, places))
    defaults = list(map(methodcaller("count", X_DEFAULT), run_codes))
    if list(map(add, named, defaults)) != counts:
        return False  # one URL under two codes (H107), or an x-default URL named by no code
    if any(defaults):
        if not all(defaults):
            return False  # clusters with and without x-default: entry by entry
        # Each x-default URL is named by exactly one code too (so none is named twice).
        chosen = cast("Iterator[str]", map(getitem, run_hrefs, map(methodcaller("index", X_DEFAULT), run_codes)))
        if not all(map((2).__eq__, map(list.count, run_hrefs, chosen))):
            return False
    try:
        positions = list(map(dict.__getitem__, chain.from_iterable(map(repeat, places, lengths)), locs))
    except KeyError:
        return False  # an entry that does not list itself (H103)
    keys = list(map(hash, map(tuple, map(zip, run_codes, run_hrefs))))  # as the cluster index keys a list
    return CleanRuns(lengths, counts, codes, hrefs, keys, named, positions)


def _image_hosts(joined: str, distinct: list[str], starts: list[int], origin: str,
                 declared: dict[str, str]) -> list[tuple[str, int]] | None:
    """Hosts of images other than the pages', with the first entry showing one (I104
    when not noted yet); None when an image has something else to report."""
    urls = _IMAGE_LOC.findall(joined)
    if not urls:
        return []
    if "image" not in declared or max(map(methodcaller("count", "<image:loc>"), distinct)) > MAX_IMAGES_PER_URL:
        return None
    if not all_clean(urls) and not all(url and is_clean(url) for url in urls):
        return None
    found: dict[str, int] = {}
    for place, host in enumerate(map(origin_text, urls)):
        if host != origin and host not in found:
            found[host] = place
    if not found:
        return []
    # The run of each such image: runs hold images in order.
    ends = list(accumulate(map(methodcaller("count", "<image:loc>"), distinct)))
    return [(host, starts[bisect_right(ends, place)]) for host, place in found.items()]


_LASTMOD = re.compile(r"<lastmod>([^<]*)</lastmod>")
_CHANGEFREQ = re.compile(r"<changefreq>([^<]*)</changefreq>")
_PRIORITY = re.compile(r"<priority>([^<]*)</priority>")
_IMAGE_LOC = re.compile(r"<image:loc>([^<]*)</image:loc>")
