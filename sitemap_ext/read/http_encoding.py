"""An answer's Content-Encoding undone, layer by layer, each a bounded piece at a time."""

from __future__ import annotations

import zlib
from collections.abc import Iterator

from .http_types import CHUNK

_MAX_LAYERS = 4  # Content-Encoding layers undone at most ("gzip, gzip" is legal; ten of them is an attack)


class TooLarge(Exception):
    """A layer of Content-Encoding gave more than the limit (reading stops)."""


class Undecodable(Exception):
    """A Content-Encoding this client did not ask for and does not undo."""


class Truncated(Exception):
    """A layer of gzip or deflate that ended before its end-of-stream marker: the
    connection closed early (without Content-Length nothing else tells), so what came
    is not the whole body."""


def decoded(raw: Iterator[bytes], encoding: str, limit: int) -> Iterator[bytes]:
    """The body with every layer of its Content-Encoding undone, the last applied first
    (``gzip, deflate``: deflate, then gzip); each layer a bounded piece at a time, so a
    bomb of any depth inflates to at most a chunk per layer in memory. A layer that is
    not the last may give at most ``limit`` bytes (the last is counted by the caller)."""
    layers = [name.strip().lower() for name in encoding.split(",")]
    layers = [name for name in layers if name not in ("", "identity")]
    unknown = [name for name in layers if name not in ("gzip", "x-gzip", "deflate")]
    if unknown or len(layers) > _MAX_LAYERS:
        raise Undecodable(", ".join(unknown[:3]) if unknown else f"{encoding[:80]} ({len(layers)} layers)")
    chunks = raw
    for depth in range(len(layers)):
        chunks = _inflated(chunks, limit if depth < len(layers) - 1 else None, inner=depth > 0)
    return chunks


def _inflated(chunks: Iterator[bytes], limit: int | None, inner: bool) -> Iterator[bytes]:
    """One layer of gzip or deflate undone: at most a chunk out per step. Input that
    runs out before the stream's end marker (and its checksum) is ``Truncated``: a
    body cut short must not pass for a whole one. (An empty body is no stream: it is
    read as empty, and judged so.) An ``inner`` layer reads the layer under it to its
    end, so that one's end is checked too (what comes after this layer's end counts
    against that layer's limit and is dropped)."""
    inflater = zlib.decompressobj(wbits=47)  # a gzip or a zlib header, told from the bytes
    counted = _Counted(limit)
    started = False
    for data in chunks:
        started = started or bool(data)
        while data:
            piece = counted(inflater.decompress(data, CHUNK))
            if piece:
                yield piece
            data = inflater.unconsumed_tail
            if inflater.eof:
                if inner:
                    _drained(chunks)
                return
    while started and not inflater.eof:  # (output the inflater still holds, a chunk at a time)
        piece = counted(inflater.decompress(b"", CHUNK))
        if not piece:
            raise Truncated()
        yield piece


def _drained(chunks: Iterator[bytes]) -> None:
    for _ in chunks:
        pass


class _Counted:
    """The bytes one layer gave, counted against its limit (``TooLarge`` past it)."""

    def __init__(self, limit: int | None) -> None:
        self.limit, self.total = limit, 0

    def __call__(self, piece: bytes) -> bytes:
        self.total += len(piece)
        if self.limit is not None and self.total > self.limit:
            raise TooLarge()
        return piece
