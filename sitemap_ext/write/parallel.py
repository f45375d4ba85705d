"""A large source on several cores: its bytes split into parts, one process a part.

``split`` cuts a source into ``jobs`` parts of about equal size at line ends. The
main process reads and renders the first part as a sequential build would, while
forked workers each render a later part into a spool file (in the staging folder).
The main process then adds the spooled parts in order, so everything that depends
on order stays where a sequential build has it:

* Files, splits and the index are written by the main process alone; a spooled
  part arrives as runs of rendered entries (one blob per chunk of rows), written
  as slices of it without a per-entry step.
* Duplicates are judged in order against every URL before them. A worker knows
  only its own part, so when one of its URLs repeats an earlier one (rare),
  ``Sequential`` is raised and the build starts again in one process: the output
  is always what a sequential build writes.
* Each worker reports the problems of its own part; the main process merges them
  after its own, and facts reported once per run (an image host, a bad column)
  keep their first report.

Only sources whose line ends are row ends can be cut: plain (not gzipped) JSON
Lines, and CSV without a quote character anywhere (a quoted field may hold a line
end). Others are read by one process.
"""

from __future__ import annotations

import mmap
import multiprocessing
import os
import pickle
from array import array
from typing import TYPE_CHECKING, Any, BinaryIO, Iterator

from ..codes import REGISTRY
from ..dates import Lastmod
from ..diagnostics import Collector
from .hashes import SeenUrls
from ..read.normalised import Site, Source
from ..read.pages import PageNormaliser, source_column
from ..read.sources import Part, SourceReader
from .xml import RENDERERS, Rendered

if TYPE_CHECKING:  # pragma: no cover
    from .build import PageFlow

CHUNK_ROWS = 2048  # rows per spooled chunk
MIN_BYTES = 4 << 20  # smaller sources are not worth the processes


class Sequential(Exception):
    """A parallel run cannot match a sequential one here; run sequentially."""


def split(source: Source, jobs: int) -> list[Part] | None:
    """The source cut into ``jobs`` parts at line ends, or None when it is not worth
    it or cannot be done (gzipped, a quote in a CSV, no fork on this platform)."""
    if jobs < 2 or source.format not in ("csv", "jsonl") or source.path.lower().endswith(".gz") \
            or "fork" not in multiprocessing.get_all_start_methods():
        return None
    try:
        with open(source.path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size < MIN_BYTES:
                return None
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as view:
                return _cut(view, size, jobs, source.format == "csv")
    except (OSError, ValueError):
        return None  # the sequential reader reports what is wrong with the file


def _cut(view: mmap.mmap, size: int, jobs: int, csv: bool) -> list[Part] | None:
    if csv and view.find(b'"') >= 0:
        return None
    first = view.find(b"\n") + 1 if csv else 0  # a CSV's rows start after its header
    if csv and first == 0:
        return None
    starts = [0]
    for k in range(1, jobs):
        end = view.find(b"\n", max(first, size * k // jobs))
        if end < 0 or end + 1 >= size:
            break
        if end + 1 > starts[-1] and end + 1 > first:
            starts.append(end + 1)
    if len(starts) < 2:
        return None
    lines = [1]  # the number of each part's first line
    for previous, start in zip(starts, starts[1:]):
        lines.append(lines[-1] + view[previous:start].count(b"\n"))
    return [Part(start, stop, line) for start, stop, line in zip(starts, starts[1:] + [size], lines)]


class Spool:
    """A worker's rendered pages in a file: chunks of one blob of entries plus flat arrays."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle

    def write(self, records: list[Rendered]) -> None:
        """One chunk: its arrays (pickled) then its blob."""
        lengths, counts, sizes = array("I"), array("H"), array("I")
        prefixes: list[frozenset[str]] = []
        meta = []
        blobs: list[bytes | memoryview] = []
        locs: list[str] = []
        for record in records:
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
        blob = b"".join(blobs)
        pickle.dump((len(blob), lengths, counts, sizes, "\n".join(locs), prefixes, meta), self.handle,
                    pickle.HIGHEST_PROTOCOL)
        self.handle.write(blob)

    def chunks(self) -> Iterator[Chunk]:
        while True:
            try:
                head = pickle.load(self.handle)
            except EOFError:
                return
            blob = self.handle.read(head[0])
            if len(blob) != head[0]:
                raise Sequential  # the spool was cut short: let one process do it all
            yield Chunk(blob, *head[1:])


class Chunk:
    """Pages of a spooled chunk, as the main process consumes them."""

    def __init__(self, blob: bytes, lengths: array[int], counts: array[int], sizes: array[int],
                 joined: str, prefixes: list[frozenset[str]], meta: list[Any]) -> None:
        self.blob = memoryview(blob)
        self.lengths, self.counts, self.sizes = lengths, counts, sizes
        self.joined = joined
        self.prefixes = prefixes
        self.meta = meta
        self.lastmods = [Lastmod(text, instant) if text is not None else None for _, text, instant, _, _ in meta]
        self.urls = sum(counts)

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
        for count, page in zip(self.counts, self.meta):
            if (page[4] is not None) == keyed:
                found.extend(locs[entry:entry + count])
            entry += count
        return found

    def records(self, start: int = 0) -> Iterator[Rendered]:
        """Pages one by one from page ``start`` (where runs do not apply)."""
        locs = self.locs()
        entry = sum(self.counts[:start])
        position = sum(self.sizes[:start])
        for page in range(start, len(self.counts)):
            count, size = self.counts[page], self.sizes[page]
            prefix, _, _, news, key = self.meta[page]
            yield Rendered(locs[entry:entry + count], self.blob[position:position + size],
                           self.lengths[entry:entry + count], self.prefixes[prefix], self.lastmods[page], news, key)
            entry += count
            position += size


def _worker(source: Source, site: Site, engine: str, part: Part, spool_path: str, connection: Any) -> None:
    from .build import PageFlow, SourceRows

    assert site.scope is not None
    findings = Collector(REGISTRY, limit=None)
    normaliser = PageNormaliser(site.scope, findings)
    flow = PageFlow(findings, site.now, RENDERERS[engine](), [locale.base for locale in site.scope.locales])
    row_records = SourceRows(site, source, normaliser, flow)
    try:
        with open(spool_path, "wb") as handle:
            spool = Spool(handle)
            records: list[Rendered] = []
            reader = SourceReader(source.path, source.display, source.format, findings, source_column, part=part)
            for record in row_records.records(reader):
                if record is not None:
                    records.append(record)
                    if len(records) >= CHUNK_ROWS:
                        spool.write(records)
                        records = []
            if records:
                spool.write(records)
        connection.send_bytes(pickle.dumps(findings.diagnostics, pickle.HIGHEST_PROTOCOL))
    except Exception:  # noqa: BLE001 (a full disk, say): the main process, finding no
        pass  # findings, runs the source in one process and reports what goes wrong there
    finally:
        connection.close()


class Workers:
    """The workers rendering a source's later parts, started before the main process
    reads the first part."""

    def __init__(self, source: Source, site: Site, flow: PageFlow, parts: list[Part], folder: str) -> None:
        context = multiprocessing.get_context("fork")
        engine = "lxml" if type(flow.renderer).__name__ == "LxmlRenderer" else "fast"
        self.flow = flow
        self.started: list[tuple[Any, Any, str]] = []
        try:
            for number, part in enumerate(parts[1:], 1):
                spool = os.path.join(folder, f".spool-{os.getpid()}-{number}")
                receiver, sender = context.Pipe(duplex=False)
                worker = context.Process(target=_worker, args=(source, site, engine, part, spool, sender),
                                         daemon=True)
                worker.start()
                sender.close()
                self.started.append((worker, receiver, spool))
        except BaseException:
            self.close()
            raise

    def chunks(self, collector: Collector) -> Iterator[Chunk]:
        """The later parts' pages, part by part, once each worker is done; their
        findings merged first. Raises ``Sequential`` where one process must redo it."""
        for _, receiver, spool in self.started:
            try:
                findings = pickle.loads(receiver.recv_bytes())
            except EOFError as exc:  # the worker died: let one process do it all
                raise Sequential from exc
            collector.merge(findings)
            with open(spool, "rb") as handle:
                for chunk in Spool(handle).chunks():
                    if not chunk.claim(self.flow.seen):
                        raise Sequential  # a URL of an earlier part again
                    yield chunk
            os.unlink(spool)

    def close(self) -> None:
        for worker, receiver, spool in self.started:
            receiver.close()
            if worker.is_alive():
                worker.terminate()
            worker.join()
            if os.path.exists(spool):
                os.unlink(spool)


__all__ = ["Chunk", "Part", "Sequential", "Workers", "split"]
