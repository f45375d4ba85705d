"""Strings kept zlib-compressed a block at a time and read back by number: the URLs of
the cluster index (``cluster_store.py``), in memory or, past a budget, in a spill file."""

from __future__ import annotations

import zlib
from array import array
from bisect import bisect_right
from collections import OrderedDict
from itertools import accumulate
from typing import TYPE_CHECKING, ClassVar, cast

if TYPE_CHECKING:
    from .spill import Column, SpillArray, SpillFolder


def _spilling(typecode: str, folder: SpillFolder, values: Column[int]) -> SpillArray[int]:
    from .spill import SpillArray

    return SpillArray(typecode, folder, values)


class PackedText:
    """Strings appended one by one, kept zlib-compressed a block at a time and read back
    by number: a tenth of their size (URLs share hosts and paths). Reading is for
    findings, which often go back and forth between files (a URL listed in two
    sitemaps, an alternate and its page): the last ``KEPT`` blocks read are kept
    inflated (8 MiB), the least recently read given up first. Keeping only the last
    one inflated cost a megabyte's inflation per finding when findings alternate
    between two files: 40 s for 20,000 duplicates instead of a fraction of a second."""

    BLOCK: ClassVar[int] = 1 << 20  # (a spilled text's: its folder's budget's)
    KEPT: ClassVar[int] = 8

    def __init__(self, folder: SpillFolder | None = None) -> None:
        self.blocks: list[bytes] = []
        self.starts = array("Q")  # offset of each block's first byte
        # per string: where it ends (8-byte numbers past 4 GiB, and once spilled)
        self.ends: Column[int] = array("I")
        self.tail = bytearray()
        self.tail_start = 0
        self._inflated: OrderedDict[int, bytes] = OrderedDict()
        self._folder = folder
        self._fd: int | None = None  # once spilled: the blocks' file, each block at its place in ``_at``
        self._at = array("Q", [0])
        self.held = 0  # bytes of the blocks kept in memory

    def spill(self) -> None:
        """From now on, the compressed blocks in a file of the spill folder."""
        if self._folder is None or self._fd is not None:
            return
        self._fd = self._folder.open("text")
        for block in self.blocks:
            self._put(block)
        self.blocks, self.held = [], 0
        ends = self.ends = _spilling("Q", self._folder, self.ends)
        ends.spill()

    def _put(self, block: bytes) -> None:
        if self._fd is None or self._folder is None:
            self.blocks.append(block)
            self.held += len(block)
            return
        self._folder.write(self._fd, block, self._at[-1])
        self._at.append(self._at[-1] + len(block))

    def _block(self, number: int) -> bytes:
        if self._fd is None:
            return self.blocks[number]
        assert self._folder is not None
        return self._folder.read(self._fd, self._at[number + 1] - self._at[number], self._at[number])

    def nbytes(self) -> int:
        """The bytes held in memory: the blocks (until spilled), the tail, the ends' column."""
        ends = self.ends
        ends_held = len(ends) * ends.itemsize if isinstance(ends, array) else cast("SpillArray[int]", ends).nbytes()
        return self.held + len(self.tail) + ends_held

    def __len__(self) -> int:
        return len(self.ends)

    def extend_packed(self, data: bytes | bytearray, lengths: array[int]) -> None:
        """Strings given as their UTF-8 bytes one after another, and each one's length."""
        if not lengths:
            return
        start = self.tail_start + len(self.tail)
        if isinstance(self.ends, array) and self.ends.typecode == "I" and start + sum(lengths) >= 1 << 32:
            self.ends = array("Q", self.ends)
        ends = accumulate(lengths, initial=start)
        next(ends)  # the initial value: where the first one starts
        self.ends.extend(ends)
        self.tail += data
        if len(self.tail) >= (self.BLOCK if self._folder is None else self._folder.block):
            self._put(zlib.compress(self.tail, 1))
            self.starts.append(self.tail_start)
            self.tail_start += len(self.tail)
            self.tail = bytearray()

    def __getitem__(self, number: int) -> str:
        start = self.ends[number - 1] if number else 0
        stop = self.ends[number]
        if start >= self.tail_start:
            data = bytes(self.tail[start - self.tail_start:stop - self.tail_start])
        else:
            block = bisect_right(self.starts, start) - 1
            inflated = self._inflated.get(block)
            if inflated is None:
                inflated = self._inflated[block] = zlib.decompress(self._block(block))
                if len(self._inflated) > self.KEPT:
                    self._inflated.popitem(last=False)
            else:
                self._inflated.move_to_end(block)
            offset = self.starts[block]
            data = inflated[start - offset:stop - offset]
        return data.decode("utf-8", "surrogatepass")
