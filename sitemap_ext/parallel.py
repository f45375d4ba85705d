"""A large source on several cores: forked workers take alternate chunks of rows.

Each worker reads the whole source (reading is cheap; normalising and rendering
are not) and normalises and renders every ``jobs``-th chunk of rows. The main
process consumes the chunks in order, so everything order-dependent stays where a
sequential build has it:

* Files, splits and the index are written by the main process alone.
* Duplicates are judged in order against every URL before them. A worker knows
  only its own chunks, so when one of its pages repeats a URL seen earlier
  (rare), ``Sequential`` is raised and the build starts again in one process:
  the output is always what a sequential build writes.
* Each worker reports the problems of its own chunks (parse problems included);
  the main process merges them chunk by chunk, and facts reported once per run
  (an image host, a bad column) keep their first report.

A chunk crosses the pipe as one blob of rendered entries plus flat arrays, so the
main process does no per-entry unpickling; entries are written as slices of it.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
from array import array
from itertools import islice
from typing import TYPE_CHECKING, Any, Iterator

from .codes import REGISTRY
from .dates import Lastmod
from .diagnostics import Collector
from .model import Site, Source
from .pages import PageNormaliser
from .sources import Row, read_rows
from .writer import RENDERERS

if TYPE_CHECKING:  # pragma: no cover
    from .builder import PageFlow, Rendered

CHUNK_ROWS = 2048
MIN_BYTES = 4 << 20  # smaller sources are not worth the processes


class Sequential(Exception):
    """A parallel run cannot match a sequential one here; run sequentially."""


def default_jobs() -> int:
    """One: measured on two cores, the row fast path in one process beats two workers
    (W(200,000): 3.5 s against 5.2 s), whose reading and packing cost more than they
    save. --jobs 2 stays for sources the fast path does not cover."""
    return 1


def worth_it(source: Source) -> bool:
    try:
        return os.path.getsize(source.path) >= MIN_BYTES
    except OSError:
        return False


class _Gate(Collector):
    """Passes parse problems on only while the rows read belong to this worker."""

    def __init__(self, target: Collector) -> None:
        super().__init__(REGISTRY)
        self.target = target
        self.open = True

    def report(self, code: str, message: str, *args: Any, **kwargs: Any) -> Any:
        return self.target.report(code, message, *args, **kwargs) if self.open else None


def _pack(records: list[Rendered]) -> tuple[Any, ...]:
    """A chunk's pages as one blob and flat per-page and per-entry arrays."""
    lengths, counts, sizes, hashes = array("I"), array("H"), array("I"), array("q")
    prefixes: list[frozenset[str]] = []
    meta = []
    blobs: list[bytes] = []
    locs: list[str] = []
    for record in records:
        counts.append(len(record.locs))
        entry_sizes = [len(entry) for entry in record.entries]
        lengths.extend(entry_sizes)
        sizes.append(sum(entry_sizes))
        hashes.extend([hash(loc) for loc in record.locs])
        blobs.extend(record.entries)  # type: ignore[arg-type]
        locs.extend(record.locs)
        if record.prefixes not in prefixes:
            prefixes.append(record.prefixes)
        lastmod = record.lastmod
        meta.append((prefixes.index(record.prefixes), lastmod.text if lastmod else None,
                     lastmod.instant if lastmod else 0.0, record.news))
    return b"".join(blobs), lengths, counts, sizes, hashes, "\n".join(locs), prefixes, meta


def _worker(source: Source, site: Site, engine: str, slot: int, jobs: int, connection: Any) -> None:
    from .builder import PageFlow, SourceRows, source_column

    assert site.scope is not None
    findings = Collector(REGISTRY, limit=None)
    gate = _Gate(findings)
    gate.open = slot == 0  # the header's problems belong to the first chunk's worker
    normaliser = PageNormaliser(site.scope, findings)
    flow = PageFlow(findings, site.now, RENDERERS[engine]())
    row_records = SourceRows(site, source, normaliser, flow)
    rows = read_rows(source.path, source.display, source.format, gate, source_column)
    index = 0
    try:
        while True:
            gate.open = index % jobs == slot
            chunk: list[Row] = list(islice(rows, CHUNK_ROWS))
            if not chunk:
                break
            if gate.open:
                records = [record for record in (row_records(raw, where) for raw, where in chunk)
                           if record is not None]
                connection.send_bytes(pickle.dumps((_pack(records), findings.diagnostics), pickle.HIGHEST_PROTOCOL))
                findings.diagnostics = []
            index += 1
        connection.send_bytes(pickle.dumps(None))
    finally:
        connection.close()


class Chunk:
    """A worker's rendered chunk, as the main process consumes it."""

    def __init__(self, packed: tuple[Any, ...]) -> None:
        blob, self.lengths, self.counts, self.sizes, self.hashes, joined, self.prefixes, meta = packed
        self.blob = memoryview(blob)
        self.joined = joined
        self.meta = meta
        self.lastmods = [Lastmod(text, instant) if text is not None else None for _, text, instant, _ in meta]

    def locs(self) -> list[str]:
        return self.joined.split("\n") if self.joined else []

    def uniform(self) -> bool:
        """One set of namespaces and no news page: pages can go in as runs."""
        return len(self.prefixes) == 1 and not any(news for *_, news in self.meta)

    def records(self, start: int = 0) -> Iterator[Rendered]:
        """Pages one by one from page ``start`` (where runs do not apply)."""
        from .builder import Rendered

        locs = self.locs()
        entry = sum(self.counts[:start])
        position = sum(self.sizes[:start])
        for page in range(start, len(self.counts)):
            count = self.counts[page]
            entries = []
            for length in self.lengths[entry:entry + count]:
                entries.append(self.blob[position:position + length])
                position += length
            prefix, _, _, news = self.meta[page]
            yield Rendered(tuple(locs[entry:entry + count]), entries, self.prefixes[prefix], self.lastmods[page],
                           news)
            entry += count


def source_chunks(source: Source, site: Site, flow: PageFlow, collector: Collector, jobs: int) -> Iterator[Chunk]:
    """The source's pages, rendered by ``jobs`` workers, chunk by chunk in order."""
    context = multiprocessing.get_context("fork")
    engine = "lxml" if type(flow.renderer).__name__ == "LxmlRenderer" else "fast"
    receivers, workers = [], []
    for slot in range(jobs):
        receiver, sender = context.Pipe(duplex=False)
        worker = context.Process(target=_worker, args=(source, site, engine, slot, jobs, sender), daemon=True)
        worker.start()
        sender.close()
        receivers.append(receiver)
        workers.append(worker)
    try:
        index = 0
        while True:
            try:
                message = pickle.loads(receivers[index % jobs].recv_bytes())
            except EOFError as exc:  # a worker died: let one process do it all
                raise Sequential from exc
            if message is None:
                return
            packed, findings = message
            collector.merge(findings)
            chunk = Chunk(packed)
            if not flow.claim(chunk.hashes):
                raise Sequential  # a URL of an earlier chunk again
            yield chunk
            index += 1
    finally:
        for receiver in receivers:
            receiver.close()
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
            worker.join()


__all__ = ["Chunk", "Sequential", "default_jobs", "source_chunks", "worth_it"]
