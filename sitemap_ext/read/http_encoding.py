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
        chunks = _inflated(chunks, limit if depth < len(layers) - 1 else None)
    return chunks


def _inflated(chunks: Iterator[bytes], limit: int | None) -> Iterator[bytes]:
    """One layer of gzip or deflate undone: at most a chunk out per step."""
    inflater = zlib.decompressobj(wbits=47)  # a gzip or a zlib header, told from the bytes
    total = 0
    for data in chunks:
        while data:
            piece = inflater.decompress(data, CHUNK)
            total += len(piece)
            if limit is not None and total > limit:
                raise TooLarge()
            if piece:
                yield piece
            data = inflater.unconsumed_tail
            if inflater.eof:
                return
    rest = inflater.flush()
    if rest:
        yield rest
