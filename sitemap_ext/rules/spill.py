"""The cluster index past a memory budget (``--memory-budget``): its large columns in
files of a private temporary folder, read back a page at a time.

A column (``SpillArray``) stands in for an ``array``: it is appended to and read by
number, as the rules read the store. Until the store passes its budget every value is
in memory; from then on (``spill()``) whole pages are written to the column's file as
they fill, and read back through a small cache of pages (the last ``kept`` read, the
least recently read given up first): the process keeps a page's tail and the pages
kept, whatever the number of entries. The folder (``SpillFolder``) is made by
``tempfile.mkdtemp`` (mode 0700, in the system's temporary folder, never beside the
user's input or output) and removed when the check ends, on an error or Ctrl-C too.

The sort of the spilled keys (``sort_spilled``) deals every entry into 256 buckets
by the top byte of its key, written to one file a chunk at a time; each bucket is then
sorted in memory on its own (1/256 of the keys), and the keys and entry numbers in
order are appended to two spilled columns.
"""

from __future__ import annotations

import os
import re
import shutil
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from tempfile import gettempdir, mkdtemp
from types import TracebackType
from typing import Generic, Protocol, SupportsIndex, TypeVar, overload

from ..limits import SPILL_PAGE_BYTES, SPILL_PAGES_KEPT, SPILL_TEXT_BLOCK

T = TypeVar("T", int, float)


class SpillFailed(Exception):
    """The spill folder could not be made or written (a full disk, a quota): ``reason``."""

    def __init__(self, reason: str, folder: str) -> None:
        super().__init__(f"{reason} ({folder})")
        self.reason = reason
        self.folder = folder

    def __reduce__(self) -> tuple[type[SpillFailed], tuple[str, str]]:  # (raised on a Dask worker, said here)
        return SpillFailed, (self.reason, self.folder)


class BudgetTooSmall(ValueError):
    """A memory budget smaller than what the check must keep in memory (``minimum`` bytes;
    ``so_far``: found as the files were added, and more may be needed)."""

    def __init__(self, budget: int, minimum: int, what: str, so_far: bool = False) -> None:
        more = (f"more than {size_text(minimum)} in memory ({what}, with files still to read); give a larger budget"
                if so_far else f"at least {size_text(minimum)} in memory ({what}); give {size_text(minimum)} or more")
        super().__init__(f"--memory-budget {size_text(budget)} is too small: this check needs {more}")
        self.minimum = minimum
        self._given = (budget, minimum, what, so_far)

    def __reduce__(self) -> tuple[type[BudgetTooSmall], tuple[int, int, str, bool]]:  # (raised on a Dask worker)
        return BudgetTooSmall, self._given


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)([KMGT]?)(?:I?B)?", re.IGNORECASE)


def parse_size(text: str) -> int:
    """A size in bytes from ``512M``, ``2G``, ``1.5G`` or ``100000`` (K, M, G, T: powers of
    1,024; an optional trailing B or iB). ValueError for anything else."""
    match = _SIZE.fullmatch(text.strip())
    if match is None or float(match[1]) * _UNITS[match[2].upper()] < 1:
        raise ValueError(f"a size such as 512M or 2G, not {text!r}")
    return int(float(match[1]) * _UNITS[match[2].upper()])


def size_text(size: int) -> str:
    for unit in ("G", "M", "K"):
        if size >= _UNITS[unit] and size % (_UNITS[unit] // 16 or 1) == 0:
            return f"{size / _UNITS[unit]:g}{unit}"
    return f"{size:,} bytes" if size < 1 << 20 else f"{size / (1 << 20):.1f}M"


@dataclass(frozen=True)
class Budget:
    """A check's memory budget for its cluster index: ``size`` bytes; ``page``: the bytes
    of a column read or written at a time; ``kept``: the pages each column keeps read;
    ``block``: the bytes of URLs compressed together (and kept inflated, 8 blocks a text)."""

    size: int
    page: int = SPILL_PAGE_BYTES
    kept: int = SPILL_PAGES_KEPT
    block: int = SPILL_TEXT_BLOCK

    @classmethod
    def of(cls, given: Budget | int | str) -> Budget:
        """A budget from a Budget, a number of bytes or a size (``512M``); ValueError else."""
        if isinstance(given, Budget):
            return given
        if isinstance(given, str):
            return cls(parse_size(given))
        if not isinstance(given, int) or isinstance(given, bool):
            raise TypeError(f"a memory budget is a size such as '512M' or a number of bytes, not {given!r}")
        if given > 0:
            return cls(given)
        raise ValueError(f"a memory budget is a size such as '512M' or a number of bytes, not {given!r}")


def resident_bytes() -> int:
    """This process's resident memory now, from Linux's ``/proc/self/statm`` (its second
    number, in pages); 0 where there is no such file (the budget then weighs the index's
    own estimate alone)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read(256).split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return 0


class SpillFolder:
    """A private temporary folder for the columns of one check, removed by ``close()``
    (or leaving a ``with``), and the budget they are kept within."""

    def __init__(self, budget: Budget) -> None:
        self.settings = budget
        self.budget = budget.size
        self.page = budget.page
        self.kept = budget.kept
        self.block = budget.block
        try:
            self.path = mkdtemp(prefix="sitemap-ext-spill-")  # (mode 0700)
        except OSError as exc:
            raise SpillFailed(exc.strerror or str(exc), gettempdir()) from exc
        self._fds: list[int] = []

    def open(self, name: str) -> int:
        """A new file of the folder, for reading and writing."""
        try:
            fd = os.open(os.path.join(self.path, f"{len(self._fds)}-{name}"),
                         os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError as exc:
            raise SpillFailed(exc.strerror or str(exc), self.path) from exc
        self._fds.append(fd)
        return fd

    def write(self, fd: int, data: bytes | memoryview, offset: int) -> None:
        """All of ``data`` at ``offset``; a full disk is SpillFailed. Every view of ``data``
        is released before this returns, whoever holds this frame (a Dask worker's
        profiler may, for a moment): the array it views may be resized at once."""
        try:
            with memoryview(data) as given, given.cast("B") as view:
                written = 0
                while written < len(view):
                    with view[written:] as rest:
                        written += os.pwrite(fd, rest, offset + written)
        except OSError as exc:
            raise SpillFailed(exc.strerror or str(exc), self.path) from exc

    @staticmethod
    def read(fd: int, size: int, offset: int) -> bytes:
        data = os.pread(fd, size, offset)
        while len(data) < size:  # (a short read: the rest)
            more = os.pread(fd, size - len(data), offset + len(data))
            if not more:
                raise OSError(f"the spill file ends at {offset + len(data)}, before {offset + size}")
            data += more
        return data

    def close(self) -> None:
        for fd in self._fds:
            os.close(fd)
        self._fds = []
        shutil.rmtree(self.path, ignore_errors=True)

    def __enter__(self) -> SpillFolder:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


class Column(Protocol[T]):
    """What the rules do with a column of the store: an ``array`` or a ``SpillArray``."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: SupportsIndex, /) -> T: ...
    @overload
    def __getitem__(self, index: slice, /) -> Sequence[T]: ...
    def __iter__(self) -> Iterator[T]: ...
    def __contains__(self, value: object, /) -> bool: ...
    def append(self, value: T, /) -> None: ...
    def extend(self, values: Iterable[T], /) -> None: ...
    def tobytes(self) -> bytes: ...


class SpillArray(Generic[T]):
    """An ``array`` of one typecode whose values, once ``spill()`` is called, live in a
    file of ``folder`` but for the last page's: see the module's docstring."""

    def __init__(self, typecode: str, folder: SpillFolder, values: Iterable[T] = ()) -> None:
        self.typecode = typecode
        self.folder = folder
        self.tail: array[T] = array(typecode, values)
        self.itemsize = self.tail.itemsize
        self.per_page = max(1, folder.page // self.itemsize)
        self.done = 0  # values in the file (whole pages)
        self.fd: int | None = None
        self._pages: OrderedDict[int, array[T]] = OrderedDict()
        self._last = -1  # the page read last, and its values
        self._last_page: array[T] = self.tail

    @property
    def spilled(self) -> bool:
        return self.fd is not None

    def nbytes(self) -> int:
        """The bytes this column holds in memory (its tail, the pages kept)."""
        return (len(self.tail) + len(self._pages) * self.per_page) * self.itemsize

    def spill(self) -> None:
        """From now on, whole pages to the file as they fill."""
        if self.fd is None:
            self.fd = self.folder.open(self.typecode)
            self._flush()

    def in_memory(self) -> array[T]:
        """Every value, as the array it is (only before ``spill()``)."""
        assert self.fd is None
        return self.tail

    def _flush(self) -> None:
        whole = len(self.tail) // self.per_page * self.per_page
        if whole and self.fd is not None:
            with memoryview(self.tail) as view, view[:whole] as pages:  # (released before the tail is cut)
                self.folder.write(self.fd, pages, self.done * self.itemsize)
            del self.tail[:whole]
            self.done += whole

    def append(self, value: T, /) -> None:
        self.tail.append(value)
        if self.fd is not None and len(self.tail) >= self.per_page:
            self._flush()

    def extend(self, values: Iterable[T], /) -> None:
        self.tail.extend(values)
        if self.fd is not None and len(self.tail) >= self.per_page:
            self._flush()

    def __len__(self) -> int:
        return self.done + len(self.tail)

    def _page(self, number: int) -> array[T]:
        page = self._pages.get(number)
        if page is None:
            assert self.fd is not None
            page = array(self.typecode)
            page.frombytes(self.folder.read(self.fd, self.per_page * self.itemsize,
                                            number * self.per_page * self.itemsize))
            self._pages[number] = page
            if len(self._pages) > self.folder.kept:
                self._pages.popitem(last=False)
        else:
            self._pages.move_to_end(number)
        return page

    @overload
    def __getitem__(self, index: SupportsIndex, /) -> T: ...
    @overload
    def __getitem__(self, index: slice, /) -> Sequence[T]: ...

    def __getitem__(self, index: SupportsIndex | slice, /) -> T | Sequence[T]:
        if isinstance(index, slice):
            return array(self.typecode, map(self.__getitem__, range(*index.indices(len(self)))))
        number = index.__index__()
        if number < 0:
            number += len(self)
            if number < 0:
                raise IndexError("SpillArray index out of range")
        if number >= self.done:
            return self.tail[number - self.done]
        page, at = divmod(number, self.per_page)
        if page == self._last:  # (the rules read mostly in order: the page read last, without the cache's work)
            return self._last_page[at]
        found = self._last_page = self._page(page)
        self._last = page
        return found[at]

    def chunks(self) -> Iterator[array[T]]:
        """Every value in order, a run of pages at a time (kept by no cache)."""
        step = self.per_page * 16
        for start in range(0, self.done, step):
            chunk: array[T] = array(self.typecode)
            assert self.fd is not None
            count = min(step, self.done - start)
            chunk.frombytes(self.folder.read(self.fd, count * self.itemsize, start * self.itemsize))
            yield chunk
        yield self.tail

    def __iter__(self) -> Iterator[T]:
        for chunk in self.chunks():
            yield from chunk

    def __contains__(self, value: object, /) -> bool:
        return any(value in chunk for chunk in self.chunks())

    def tobytes(self) -> bytes:
        return b"".join(chunk.tobytes() for chunk in self.chunks())


def _zip_chunks(keys: SpillArray[int], kinds: SpillArray[int]) -> Iterator[tuple[array[int], array[int]]]:
    """The two columns' values side by side, in runs of the same length."""
    kind_chunks = kinds.chunks()
    pending: array[int] = array("b")
    for chunk in keys.chunks():
        while len(pending) < len(chunk):
            pending.extend(next(kind_chunks))
        yield chunk, pending[:len(chunk)]
        del pending[:len(chunk)]


class _Buckets:
    """Entries dealt by the top byte of their key, each bucket written to one file a
    chunk at a time: (key, entry, listed) of each, where listed is 1 unless the entry
    is a URL's own (a page's head, its Link header)."""

    def __init__(self, folder: SpillFolder) -> None:
        self.folder = folder
        self.fd = folder.open("buckets")
        self.size = 0
        self.chunk = max(64, folder.page // 64)
        self.keys = [array("q") for _ in range(256)]
        self.entries = [array("I") for _ in range(256)]
        self.listed = [bytearray() for _ in range(256)]
        self.written: list[list[tuple[int, int]]] = [[] for _ in range(256)]  # (offset, count)

    def deal(self, keys: SpillArray[int], kinds: SpillArray[int], not_own: bytes) -> None:
        entry = 0
        for key_chunk, kind_chunk in _zip_chunks(keys, kinds):
            for key, listed in zip(key_chunk, kind_chunk.tobytes().translate(not_own), strict=True):
                bucket = (key >> 56) + 128  # signed keys: the top byte -128..127 to 0..255
                self.keys[bucket].append(key)
                self.entries[bucket].append(entry)
                self.listed[bucket].append(listed)
                entry += 1
                if len(self.keys[bucket]) >= self.chunk:
                    self._write(bucket)

    def _write(self, bucket: int) -> None:
        count = len(self.keys[bucket])
        data = self.keys[bucket].tobytes() + self.entries[bucket].tobytes() + bytes(self.listed[bucket])
        self.folder.write(self.fd, data, self.size)
        self.written[bucket].append((self.size, count))
        self.size += len(data)
        self.keys[bucket], self.entries[bucket], self.listed[bucket] = array("q"), array("I"), bytearray()

    def bucket(self, bucket: int) -> tuple[array[int], array[int], bytearray]:
        keys, entries, listed = array("q"), array("I"), bytearray()
        for offset, count in self.written[bucket]:
            data = self.folder.read(self.fd, count * 13, offset)
            keys.frombytes(data[:count * 8])
            entries.frombytes(data[count * 8:count * 12])
            listed += data[count * 12:]
        keys.extend(self.keys[bucket])
        entries.extend(self.entries[bucket])
        listed += self.listed[bucket]
        return keys, entries, listed


def sort_spilled(keys: SpillArray[int], kinds: SpillArray[int], not_own: bytes,
                 folder: SpillFolder) -> tuple[SpillArray[int], SpillArray[int], int]:
    """The entries in order of their keys (ties in entry order) and the keys so sorted,
    both spilled; and the distinct keys of the entries that are no URL's own (translated
    by ``not_own``: kind -> 1 unless a URL's own)."""
    buckets = _Buckets(folder)
    buckets.deal(keys, kinds, not_own)
    order: SpillArray[int] = SpillArray("I", folder)
    ordered: SpillArray[int] = SpillArray("q", folder)
    order.spill()
    ordered.spill()
    distinct = 0
    for number in range(256):
        bucket_keys, entries, listed = buckets.bucket(number)
        if not bucket_keys:
            continue
        places = sorted(range(len(bucket_keys)), key=bucket_keys.__getitem__)
        order.extend(map(entries.__getitem__, places))
        ordered.extend(map(bucket_keys.__getitem__, places))
        last = None
        for place in places:
            if listed[place] and bucket_keys[place] != last:
                distinct += 1
                last = bucket_keys[place]
    return order, ordered, distinct
