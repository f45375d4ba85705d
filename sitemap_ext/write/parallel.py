"""A large source on several cores: cut into pieces at line ends, rendered by this
process and by a process pool (``pool.process_pool``), taken in the source's order.

``split`` cuts a plain CSV or JSON Lines source of ``MIN_BYTES`` or more into pieces
of about ``PIECE_BYTES`` at line ends (smaller sources are read by one process:
the pool would not pay). ``render`` reads the first piece here, then picks the
worker count: at most the cores no other work keeps busy (``spare_cores``), and from
what the first piece wrote: the rest is read here too when that is more than
``MAX_EXPANSION`` bytes a byte read (forty locales' alternates: a worker's piece
would be hundreds of megabytes to pass and to hold). Otherwise every ``jobs``-th
piece is read here and the others by the pool, a few pieces per worker handed over
ahead; the pieces are taken in order, so everything that depends on order stays
where a sequential build has it:

* Files, splits and the index are written by this process alone; a worker's piece
  arrives as one blob of rendered entries with flat arrays (a ``Chunk``), written as
  slices of it without a per-entry step. The pool's pipe carries only the name of the
  file (in the staging folder) the worker pickled its chunk into: megabytes through
  the pipe would be read by the pool's thread here, which gets the GIL back from
  this process's rendering only every switch interval, 64 KiB at a time, and the
  worker waits meanwhile (measured: W(200,000) took 3.1 s on two processes that way,
  2.3 s through a file). A worker makes its pipeline (normaliser, flow, renderer)
  once, for every piece it reads (one each per piece: 2.4 s).
* Duplicates are judged in order against every URL before them. A worker knows only
  its own piece, so when one of its URLs repeats an earlier one (rare), ``Sequential``
  is raised and the build starts again in one process: the output is always what a
  sequential build writes. So it is when a worker dies (the pool is broken); any
  other error of a worker is raised here, as it would be in one process.
* A worker's findings are merged when its piece is taken; facts reported once per
  run (an image host, a bad column) keep their first report.

Only sources whose line ends are row ends can be cut: plain (not gzipped) JSON Lines, and CSV without a
quote character anywhere (a quoted field may hold a line end). Others are read by one process; so are all
sources where processes cannot be forked (workers start as copies of this process: nothing is pickled).
"""

from __future__ import annotations

import mmap
import os
import pickle
from array import array
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Protocol

from ..codes import REGISTRY
from ..dates import Lastmod
from ..diagnostics import Collector, Diagnostic, Where
from ..pool import Sequential, can_fork, pool_context, process_pool, usable_cores
from ..read.normalised import NormalisedSite as Site
from ..read.normalised import Placed, Source
from ..read.record import UrlEntry
from ..read.sources import Part, SourceReader
from .page_normaliser import PageNormaliser, source_column
from .seen_urls import SeenUrls
from .xml import RenderedPage as Rendered

if TYPE_CHECKING:
    from concurrent.futures import Future

MIN_BYTES = 4 << 20  # smaller sources are not worth the processes
PIECE_BYTES = 1 << 18  # of source a piece: a worker's piece is one message each way
MAX_EXPANSION = 128.0  # bytes written a byte read past which a piece is too large to pass (32 MiB)
AHEAD = 2  # pieces per worker handed over and not yet taken


def split(source: Source, jobs: int) -> list[Part] | None:
    """The source cut into pieces at line ends, or None when it is not worth it or
    cannot be done (one job, gzipped, a quote in a CSV, no fork on this platform)."""
    if jobs < 2 or source.format not in ("csv", "jsonl") or source.path.lower().endswith(".gz"):
        return None
    try:
        with open(source.path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size < MIN_BYTES or not can_fork():
                return None
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as view:
                return _cut(view, size, max(jobs, size // PIECE_BYTES), source.format == "csv")
    except (OSError, ValueError):
        return None  # the sequential reader reports what is wrong with the file


def _cut(view: mmap.mmap, size: int, count: int, csv: bool) -> list[Part] | None:
    """``count`` parts of about equal size, each starting at a line start."""
    if csv and view.find(b'"') >= 0:
        return None
    first = view.find(b"\n") + 1 if csv else 0  # a CSV's rows start after its header
    if csv and first == 0:
        return None
    starts = [0]
    for k in range(1, count):
        end = view.find(b"\n", max(first, size * k // count))
        if end < 0 or end + 1 >= size:
            break
        if end + 1 > starts[-1] and end + 1 > first:
            starts.append(end + 1)
    if len(starts) < 2:
        return None
    lines = [1]  # the number of each part's first line
    for previous, start in pairwise(starts):
        lines.append(lines[-1] + view[previous:start].count(b"\n"))
    return [Part(start, stop, line) for start, stop, line in zip(starts, starts[1:] + [size], lines, strict=True)]


@dataclass
class Chunk:
    """A worker's piece: its pages' entries in one blob, flat arrays, its findings.
    Passed once, from the worker to this process, through a file (``_save``): the
    rest pickled, then the entries as they are, which this process maps (``_load``)
    and writes from without a copy of its own."""

    data: bytes | memoryview  # every entry, one after another
    lengths: array[int]  # each entry's size
    counts: array[int]  # each page's entry count
    sizes: array[int]  # each page's size in bytes
    joined: str  # every entry's URL, joined by newlines
    prefixes: list[frozenset[str]]  # the namespace sets its pages use
    meta: list[tuple[int, str | None, float, bool, int | None]]  # a page's prefixes, lastmod, news, key
    diagnostics: list[Diagnostic]
    suppressed: Counter[str]
    ignored: Counter[str]
    places: tuple[str | None, array[int]] = (None, array("I"))  # the pages' file, and each one's line
    entries: list[UrlEntry] = field(default_factory=list)  # the records of its entries (``Rendered.entries``)
    placed: dict[int, tuple[Placed, ...]] = field(default_factory=dict)  # a page's ``Rendered.placed``, by number

    @classmethod
    def of(cls, records: list[Rendered], findings: Collector) -> Chunk:
        lengths, counts, sizes = array("I"), array("I"), array("I")
        prefixes: list[frozenset[str]] = []
        meta = []
        blobs: list[bytes | memoryview] = []
        locs: list[str] = []
        entries: list[UrlEntry] = []
        for record in records:
            entries.extend(record.entries)
            counts.append(len(record.sizes))
            lengths.extend(record.sizes)
            sizes.append(len(record.blob))
            blobs.append(record.blob)
            locs.extend(record.locs)
            if record.prefixes not in prefixes:
                prefixes.append(record.prefixes)
            lastmod = record.lastmod
            meta.append((prefixes.index(record.prefixes), lastmod.text if lastmod else None,
                         lastmod.instant if lastmod else 0.0, record.news, record.key))
        where = records[0].where if records else None
        places = (where.file if where is not None else None,
                  array("I", [record.where.line or 0 if record.where is not None else 0 for record in records]))
        chunk = cls(b"", lengths, counts, sizes, "\n".join(locs), prefixes, meta, findings.diagnostics,
                    findings.suppressed, findings.ignored, places, entries,
                    {number: record.placed for number, record in enumerate(records) if record.placed})
        chunk.blobs = blobs
        return chunk

    blobs: list[bytes | memoryview] = field(default_factory=list)  # (in the worker: the entries, page by page)

    @property
    def blob(self) -> memoryview:
        return memoryview(self.data)

    @property
    def urls(self) -> int:
        return len(self.lengths)

    @property
    def lastmods(self) -> list[Lastmod | None]:
        made: dict[str, Lastmod] = {}  # a site's pages share a few dates: one object each
        found: list[Lastmod | None] = []
        for _, text, instant, _, _ in self.meta:
            if text is None:
                found.append(None)
                continue
            lastmod = made.get(text)
            if lastmod is None:
                lastmod = made[text] = Lastmod(text, instant)
            found.append(lastmod)
        return found

    def locs(self) -> list[str]:
        return self.joined.split("\n") if self.joined else []

    def uniform(self) -> bool:
        """One set of namespaces and no news page: pages can go in as runs."""
        return len(self.prefixes) == 1 and not any(page[3] for page in self.meta)

    def claim(self, seen: SeenUrls) -> bool:
        """Add this chunk's URLs to ``seen``; False (nothing added) when one was there."""
        rests = [page[4] for page in self.meta if page[4] is not None]
        others: list[str] = []
        if len(rests) < len(self.meta):
            others = self._locs(keyed=False)
        return seen.claim(rests, others, lambda: self._locs(keyed=True))

    def _locs(self, keyed: bool) -> list[str]:
        """The URLs of the pages kept by a key (``keyed``), or of the others."""
        found: list[str] = []
        locs, entry = self.locs(), 0
        for count, page in zip(self.counts, self.meta, strict=True):
            if (page[4] is not None) == keyed:
                found.extend(locs[entry:entry + count])
            entry += count
        return found

    def records(self, start: int = 0) -> Iterator[Rendered]:
        """Pages one by one from page ``start`` (where runs do not apply)."""
        locs, blob, lastmods = self.locs(), self.blob, self.lastmods
        entry = sum(self.counts[:start])
        position = sum(self.sizes[:start])
        for page in range(start, len(self.counts)):
            count, size = self.counts[page], self.sizes[page]
            prefix, _, _, news, key = self.meta[page]
            line = self.places[1][page] if page < len(self.places[1]) else 0
            yield Rendered(locs[entry:entry + count], blob[position:position + size],
                           self.lengths[entry:entry + count], self.prefixes[prefix], lastmods[page], news, key,
                           Where(self.places[0], line or None), self.entries[entry:entry + count],
                           self.placed.get(page, ()))
            entry += count
            position += size


class Sink(Protocol):
    """Where the pieces go (``files.Files``)."""

    @property
    def entry_bytes(self) -> int: ...  # bytes of entries added so far

    @property
    def scratch(self) -> str: ...  # a folder for the workers' chunks (removed with the build's staging)

    def add_chunk(self, chunk: Chunk) -> None: ...

    def quiesce(self) -> None: ...


# (rows, flow, renderer): the classes a worker makes its pipeline of, those of the build
Kinds = tuple[Callable[..., Any], Callable[..., Any], Callable[[], Any]]


def render(pieces: list[Part], jobs: int, source: Source, site: Site, kinds: Kinds, collector: Collector,
           seen: SeenUrls, sink: Sink, own: Callable[[Part], int], read: list[int] | None = None) -> int:
    """Every piece's pages into ``sink``, in order; ``own`` reads a piece in this
    process (through its flow, into the sink) and gives its URL count; ``read`` counts
    the bytes read, a worker's piece when it is taken (for progress). The URLs written."""
    before = sink.entry_bytes
    idle = cpu_times()
    urls = own(pieces[0])
    rest = pieces[1:]
    first = pieces[0].stop - pieces[0].start
    jobs = min(jobs, 1 + spare_cores(idle))
    if not rest or jobs < 2 or sink.entry_bytes - before > MAX_EXPANSION * first:
        return urls + (own(Part(rest[0].start, rest[-1].stop, rest[0].line)) if rest else 0)
    sink.quiesce()  # no writer thread across the fork (the pool forks its workers at the first task)
    settings = {"policy": collector.policy, "redactions": dict(collector.redactions)}
    # Who reads each piece: 0 no one yet, 1 a worker, 2 this process (shared by the forked workers).
    claims = pool_context().Array("b", len(pieces))
    numbers = {piece.start: k for k, piece in enumerate(pieces)}
    with process_pool(jobs - 1, initializer=_start,
                      initargs=(kinds, source, site, settings, sink.scratch, (claims, numbers))) as pool:
        try:
            pending: dict[int, Future[str | None]] = {}
            theirs = iter([(k, piece) for k, piece in enumerate(rest, 1) if k % jobs])
            for k, piece in enumerate(rest, 1):
                while len(pending) < AHEAD * (jobs - 1):  # keep a few pieces a worker handed over
                    handed = next(theirs, None)
                    if handed is None:
                        break
                    pending[handed[0]] = pool.submit(_work, handed[1])
                if not k % jobs or _steal(pending[k], claims, k):
                    pending.pop(k, None)
                    urls += own(piece)
                    continue
                chunk = _taken(pending.pop(k))
                collector.merge(chunk.diagnostics, chunk.suppressed, chunk.ignored)
                if not chunk.claim(seen):
                    raise Sequential  # a URL of an earlier piece again
                sink.add_chunk(chunk)
                urls += chunk.urls
                if read is not None:
                    read[0] += piece.stop - piece.start
        finally:
            pool.shutdown(cancel_futures=True)
    return urls


def cpu_times() -> tuple[int, int] | None:
    """The system's idle and total CPU time so far, in ticks (Linux's /proc/stat);
    None where it cannot be read."""
    try:
        with open("/proc/stat", "rb") as handle:
            fields = [int(field) for field in handle.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (fields[3] + fields[4], sum(fields)) if len(fields) >= 5 else None


def spare_cores(since: tuple[int, int] | None = None) -> int:
    """Cores beside this process's that no other process keeps busy, rounded: those
    idle since ``since`` (``cpu_times()`` when the first piece began: this process
    kept one busy meanwhile), else the usable cores less the last minute's load. A
    worker is started only where one is spare: on cores that other work keeps busy a
    second process only adds the cost of passing its pieces over (measured on two
    shared cores: every shape slower on two processes than on one while the load
    was over 2)."""
    cores = usable_cores()
    now = cpu_times()
    if since is not None and now is not None and now[1] - since[1] >= 4 * cores:  # (ticks enough to tell)
        return min(cores - 1, int(cores * (now[0] - since[0]) / (now[1] - since[1]) + 0.5))
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - no load average on this platform
        return cores - 1
    return max(0, int(cores - load - 0.5))


def _steal(future: Future[str | None], claims: Any, k: int) -> bool:
    """Whether piece ``k``, handed to a worker, is read here instead: when no worker
    has started it yet (a worker whose core is busy with other work, or slower
    than this process). This process never waits for a piece no worker is reading,
    so the pool cannot make a build slower than one process by more than the piece
    a worker is reading."""
    if future.done():
        return False
    with claims.get_lock():
        if claims[k]:
            return False  # a worker reads it: its chunk is taken
        claims[k] = 2
    return True


def _taken(future: Future[str | None]) -> Chunk:
    from concurrent.futures.process import BrokenProcessPool  # (loaded with the pool already)

    try:
        path = future.result()
    except BrokenProcessPool as exc:  # a worker died (killed, out of memory): one process does it all
        raise Sequential from exc
    assert path is not None  # (a piece this process took itself is never taken from a worker)
    try:
        return _load(path)
    finally:
        os.unlink(path)


_HEAD = 8  # bytes: the size of the pickled part of a chunk's file


def _save(chunk: Chunk, path: str) -> None:
    """A chunk into a file: the size of its pickled rest, that, then its entries."""
    blobs, chunk.blobs = chunk.blobs, []
    rest = pickle.dumps(chunk, pickle.HIGHEST_PROTOCOL)
    with open(path, "wb") as handle:
        handle.write(len(rest).to_bytes(_HEAD, "little"))
        handle.write(rest)
        handle.writelines(blobs)


def _load(path: str) -> Chunk:
    """A chunk from its file, its entries mapped: written from the page cache as they
    are (the map is let go with the last slice of it)."""
    with open(path, "rb") as handle:
        size = int.from_bytes(handle.read(_HEAD), "little")
        chunk: Chunk = pickle.loads(handle.read(size))
        start = _HEAD + size
        if os.fstat(handle.fileno()).st_size > start:
            chunk.data = memoryview(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))[start:]
    return chunk


# In a worker: what every piece shares, set once when the worker starts (forked: not pickled).
_JOB: tuple[Source, dict[str, Any], str, PageNormaliser, Any, Any] | None = None
_CLAIMS: tuple[Any, dict[int, int]] | None = None  # the claims on pieces, and each piece's number by its start


def _start(kinds: Kinds, source: Source, site: Site, settings: dict[str, Any], scratch: str,
           claims: tuple[Any, dict[int, int]]) -> None:
    """A worker's pipeline, made once: its memoised verdicts and templates serve every
    piece it reads (each piece's findings go to a collector of its own)."""
    global _JOB, _CLAIMS
    assert site.scope is not None
    _CLAIMS = claims
    rows, flow_kind, renderer = kinds
    findings = Collector(REGISTRY, limit=None, **settings)
    normaliser = PageNormaliser(site.scope, findings)
    flow = flow_kind(findings, site.now, renderer(), [locale.base for locale in site.scope.locales])
    _JOB = (source, settings, scratch, normaliser, flow, rows(site, source, normaliser, flow))


def _work(piece: Part) -> str | None:
    """In a worker: a piece claimed, then rendered (``_render``); None when the build's
    process claimed it first (see ``_steal``)."""
    assert _CLAIMS is not None
    claims, numbers = _CLAIMS
    k = numbers[piece.start]
    with claims.get_lock():
        if claims[k]:
            return None
        claims[k] = 1
    return _render(piece)


def _render(piece: Part) -> str:
    """In a worker: one piece read and rendered as the build's own process would,
    pickled into a file of ``scratch``; its path."""
    assert _JOB is not None
    source, settings, scratch, normaliser, flow, rows = _JOB
    findings = normaliser.collector = flow.collector = Collector(REGISTRY, limit=None, **settings)
    reader = SourceReader(source.path, source.display, source.format, findings, source_column, part=piece,
                          source=source.where)
    records = [record for record in rows.records(reader) if record is not None]
    path = os.path.join(scratch, f".piece-{os.getpid()}-{piece.start}")
    _save(Chunk.of(records, findings), path)
    return path


__all__ = ["Chunk", "Part", "Sequential", "render", "split"]
