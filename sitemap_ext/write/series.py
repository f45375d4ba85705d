"""Files being filled: numbered urlsets split before a limit would be passed, text
sitemaps, and the thread that writes and compresses them.

Entries arrive rendered (``write/xml.py``); bytes are counted exactly as the final
files will hold them, so a split lands where the limits say.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import queue
import shutil
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from ..dates import Lastmod, newer
from ..read.normalised import OutputConfig
from .xml import URLSET_TAIL, urlset_head

# Level 6, deliberately: sitemaps are so repetitive that levels 6 and 9 give the
# same size (1.7% of the XML) and level 9 costs 40% more CPU; level 3 is 2.5x
# cheaper but 60% larger (2.7%). Compression runs on the writer thread, beside
# rendering, so at W(200,000) level 6 adds about 2.9 s to a 1.7 s build against its
# own 3.7 s of CPU (benchmarks/run.py --gzip measures it).
GZIP_LEVEL = 6
# With the `fast` extra, ISA-L's igzip deflates instead (its level 2 of 0-3): on
# sitemaps about 35x faster than zlib at level 6 and 30% larger (2.2% of the XML
# rather than 1.7%; figures in the README). Output bytes depend on the deflate, so
# SITEMAP_EXT_DEFLATE=zlib keeps zlib where the same bytes are wanted on machines
# with and without the extra.
ISAL_LEVEL = 2
DEFLATE_ENV = "SITEMAP_EXT_DEFLATE"


def deflate_name() -> str:
    """The deflate gzip output is written with: "isal" (if installed and not turned
    off with SITEMAP_EXT_DEFLATE=zlib) or "zlib"."""
    if os.environ.get(DEFLATE_ENV, "").strip().lower() == "zlib":
        return "zlib"
    try:
        import isal.igzip  # noqa: F401
    except ImportError:
        return "zlib"
    return "isal"

_BATCH = 1 << 20  # bytes handed to the writer thread at a time
_TAIL_BYTES = len(URLSET_TAIL)

@dataclass
class WrittenFile:
    name: str  # relative to the output folder, '/'-separated
    kind: str  # "urlset" | "index" | "text" | "robots" | "xsl" | "html" | "headers"
    urls: int = 0
    bytes: int = 0  # on disk
    uncompressed: int = 0
    url: str | None = None  # where it is served
    lastmod: Lastmod | None = None

    def as_dict(self) -> dict[str, object]:
        return {"file": self.name, "kind": self.kind, "urls": self.urls, "bytes": self.bytes,
                "uncompressed_bytes": self.uncompressed, "url": self.url}


class _Background:
    """One thread that performs a series' file writes (and gzip compression) in order.

    File writes and zlib release the GIL, so rendering goes on meanwhile. The queue
    is bounded: a slow disk holds rendering back instead of filling memory. An
    error on the thread is raised on the caller's next call.
    """

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[Callable[..., Any], tuple[Any, ...]] | None] = queue.Queue(maxsize=8)
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def call(self, function: Callable[..., Any], *args: Any) -> None:
        self._raise()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sitemap-ext-writer", daemon=True)
            self._thread.start()
        self._queue.put((function, args))

    def wait(self) -> None:
        """Until everything submitted is done (then raise what failed, if anything)."""
        if self._thread is not None:
            self._queue.join()
        self._raise()

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None
        self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                if self._error is None:
                    function, args = item
                    function(*args)
            except BaseException as exc:  # handed to the caller, who raises it
                self._error = exc
            finally:
                self._queue.task_done()


@dataclass
class _Part:
    """One urlset being filled, written straight into its file.

    The head is written for the namespaces of the file's first page; when a later
    page brings another namespace (rare), the file is rewritten with the right
    head when it is closed. Bytes are counted as the final file will have them.
    """

    path: str
    raw: BinaryIO
    sink: BinaryIO  # raw, or a GzipFile over it
    written_head: bytes
    urls: int = 0
    body_bytes: int = 0
    prefixes: frozenset[str] = frozenset()
    head_bytes: int = 0
    newest: Lastmod | None = None
    pending: list[bytes | memoryview] = field(default_factory=list)  # written in 1 MiB batches
    pending_bytes: int = 0
    background: _Background | None = None

    def write(self, data: bytes | memoryview) -> None:
        self.pending.append(data)
        self.pending_bytes += len(data)
        if self.pending_bytes >= _BATCH:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            batch = b"".join(self.pending)
            if self.background is not None:
                self.background.call(self.sink.write, batch)
            else:
                self.sink.write(batch)
            self.pending = []
            self.pending_bytes = 0


def _gzip(raw: BinaryIO) -> BinaryIO:
    # No file name and mtime 0 in the header: the same input gives the same bytes.
    if deflate_name() == "isal":
        from isal import igzip

        return igzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=ISAL_LEVEL,  # type: ignore[return-value,no-untyped-call]
                              mtime=0)
    return gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=GZIP_LEVEL, mtime=0)  # type: ignore[return-value]


@dataclass
class UrlsetSeries:
    """Numbered urlset files for one host, split before either limit would be passed."""

    folder: str  # the staging folder
    max_urls: int
    max_bytes: int
    gzip: bool
    stylesheet: bool = False  # output.xsl: each file names the stylesheet
    parts: list[tuple[str, WrittenFile]] = field(default_factory=list)  # (file written, stats)
    split: list[int] | None = None  # where the last page's entries went, if not all into one file (add)
    _current: _Part | None = None
    _background: _Background = field(default_factory=_Background)

    def _open(self, prefixes: frozenset[str]) -> _Part:
        path = os.path.join(self.folder, f".part-{len(self.parts) + 1}.xml" + (".gz" if self.gzip else ""))
        raw = open(path, "wb")  # noqa: SIM115 (open while the part fills; _close closes it)
        sink = _gzip(raw) if self.gzip else raw
        head = urlset_head(prefixes, self.stylesheet)
        sink.write(head)
        return _Part(path, raw, sink, head, prefixes=prefixes, head_bytes=len(head), background=self._background)

    def add(self, blob: bytes | memoryview, sizes: Sequence[int], prefixes: frozenset[str],
            lastmod: Lastmod | None) -> None:
        """One page's entries, one after another in ``blob`` (``sizes``: each one's).
        ``split`` says afterwards where they went when the page did not go in whole
        (the number of each entry's file), else it is None: all in the current file."""
        self.split = None
        part = self._current
        if part is None:
            part = self._current = self._open(prefixes)
        if prefixes <= part.prefixes and part.urls:
            # The usual case: no new namespace, so the head's size is known; if the
            # whole page fits, it goes in at once.
            size = len(blob)
            if part.urls + len(sizes) <= self.max_urls and \
                    part.head_bytes + part.body_bytes + size + _TAIL_BYTES <= self.max_bytes:
                part.pending.append(blob)  # (part.write() inlined: this runs for every page)
                part.pending_bytes += size
                if part.pending_bytes >= _BATCH:
                    part.flush()
                part.urls += len(sizes)
                part.body_bytes += size
                if lastmod is not None and (part.newest is None or lastmod.instant > part.newest.instant):
                    part.newest = lastmod
                return
        view, position = memoryview(blob), 0
        split: list[int] = []
        for size in sizes:
            merged = part.prefixes | prefixes
            head = len(urlset_head(merged, self.stylesheet)) if merged != part.prefixes else part.head_bytes
            if part.urls and (part.urls >= self.max_urls
                              or head + part.body_bytes + size + len(URLSET_TAIL) > self.max_bytes):
                self._close()
                part = self._current = self._open(prefixes)
                merged, head = prefixes, part.head_bytes
            part.write(view[position:position + size])
            split.append(len(self.parts) + 1)
            position += size
            part.urls += 1
            part.body_bytes += size
            part.prefixes = merged
            part.head_bytes = head
            part.newest = newer(part.newest, lastmod)
        if split[0] != split[-1]:
            self.split = split

    def add_run(self, blob: memoryview, sizes: list[int], counts: list[int], prefixes: frozenset[str],
                lastmods: list[Lastmod | None]) -> int:
        """As many whole pages of a rendered run as fit the current file, in one write.

        ``sizes`` and ``counts`` are each page's bytes and entries. Returns how many
        pages were taken: the caller adds the next one with add(), which splits.
        """
        part = self._current
        if part is None or not part.urls or not prefixes <= part.prefixes:
            return 0
        room_urls = self.max_urls - part.urls
        room_bytes = self.max_bytes - part.head_bytes - part.body_bytes - len(URLSET_TAIL)
        taken = used_urls = used_bytes = 0
        for size, count in zip(sizes, counts, strict=False):
            if used_urls + count > room_urls or used_bytes + size > room_bytes:
                break
            used_urls += count
            used_bytes += size
            taken += 1
        if taken:
            part.write(blob[:used_bytes])
            part.urls += used_urls
            part.body_bytes += used_bytes
            for lastmod in lastmods[:taken]:
                part.newest = newer(part.newest, lastmod)
        return taken

    @property
    def open(self) -> bool:
        """Whether a file is being filled (it is not in ``parts`` yet)."""
        return self._current is not None

    def quiesce(self) -> None:
        if self._current is not None:
            self._current.flush()
        self._background.stop()

    def _close(self) -> None:
        part = self._current
        if part is None:
            return
        self._current = None
        part.flush()
        self._background.wait()  # the file's size is read below
        part.sink.write(URLSET_TAIL)
        if part.sink is not part.raw:
            part.sink.close()
        size = part.raw.tell()
        part.raw.close()
        head = urlset_head(part.prefixes, self.stylesheet)
        if head != part.written_head:
            size = _rewrite_head(part.path, len(part.written_head), head, self.gzip)
        stats = WrittenFile(name="", kind="urlset", urls=part.urls, bytes=size,
                            uncompressed=len(head) + part.body_bytes + len(URLSET_TAIL), lastmod=part.newest)
        self.parts.append((part.path, stats))

    def finish(self) -> list[tuple[str, WrittenFile]]:
        try:
            self._close()
        finally:
            self._background.stop()
        return self.parts


def _rewrite_head(path: str, old_head: int, head: bytes, compressed: bool) -> int:
    """Give a finished file another head (a later page used another namespace)."""
    fresh = path + ".new"
    with open(path, "rb") as raw_in, open(fresh, "wb") as raw_out:
        source: BinaryIO = gzip.GzipFile(fileobj=raw_in, mode="rb") if compressed else raw_in  # type: ignore[assignment]
        sink = _gzip(raw_out) if compressed else raw_out
        source.read(old_head)
        sink.write(head)
        shutil.copyfileobj(source, sink, 1 << 20)
        if sink is not raw_out:
            sink.close()
        size = raw_out.tell()
    os.replace(fresh, path)
    return size


@dataclass
class TextSeries:
    """Text sitemaps: one URL a line, under the same limits as XML ones."""

    folder: str
    max_urls: int
    max_bytes: int
    parts: list[tuple[str, WrittenFile]] = field(default_factory=list)
    _handle: BinaryIO | None = None
    _urls: int = 0
    _bytes: int = 0

    def add(self, locs: Iterable[str]) -> None:
        for loc in locs:
            line = (loc + "\n").encode()
            if self._handle is not None and (self._urls >= self.max_urls or self._bytes + len(line) > self.max_bytes):
                self._close()
            if self._handle is None:
                path = os.path.join(self.folder, f".text-{len(self.parts) + 1}.txt")
                self._handle = open(path, "wb")  # noqa: SIM115 (open while the part fills)
                self.parts.append((path, WrittenFile(name="", kind="text")))
            self._handle.write(line)
            self._urls += 1
            self._bytes += len(line)

    def _close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            stats = self.parts[-1][1]
            stats.urls, stats.bytes, stats.uncompressed = self._urls, self._bytes, self._bytes
        self._handle, self._urls, self._bytes = None, 0, 0

    def finish(self) -> list[tuple[str, WrittenFile]]:
        self._close()
        return self.parts


def file_names(config: OutputConfig, count: int, *, text: bool = False, pattern: str | None = None,
               single: bool | None = None) -> list[str]:
    """Final names for ``count`` files: the index name when one file needs no index."""
    suffix = ".txt" if text else (".xml.gz" if config.gzip else ".xml")
    if single is None:
        single = count == 1 and (text or config.index == "auto")
    if single:
        return [config.index_file[: -len(".xml")] + suffix]
    stem = (pattern or config.pattern)[: -len(".xml")]
    return [stem.replace("{n}", str(n)) + suffix for n in range(1, count + 1)]




def versioned_name(name: str, path: str) -> str:
    """``sitemap-1.xml`` as ``sitemap-1.<digest>.xml``: the first 10 hex digits of the
    BLAKE2b digest of the file's bytes (``output.versioned``), so a new build's files
    never replace what a reader of the previous index may still fetch."""
    digest = hashlib.blake2b(digest_size=5)
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    for suffix in (".xml.gz", ".xml"):
        if name.endswith(suffix):
            return f"{name[: -len(suffix)]}.{digest.hexdigest()}{suffix}"
    return name
