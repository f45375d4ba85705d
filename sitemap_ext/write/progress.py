"""How far a build is, for a progress display: the callback a caller gives, called at
most every ``Meter.INTERVAL`` seconds."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..read.normalised import NormalisedSite as Site
from ..read.normalised import Source
from .files import Files


@dataclass(frozen=True)
class Progress:
    """How far a build is: for a progress display (the CLI's, on a terminal)."""

    urls: int
    files: int  # files finished so far
    seconds: float
    fraction: float | None  # of the sources' bytes read, when it can be told


class Meter:
    """Calls the progress callback at most every ``INTERVAL`` seconds."""

    INTERVAL = 0.25

    def __init__(self, site: Site, files: Files | None, callback: Callable[[Progress], None]) -> None:
        self.callback = callback
        self.files = files
        self.started = self.last = time.monotonic()
        self.read = [0]  # bytes of sources read (the source readers add to it)
        sizes = [os.path.getsize(u.path) for u in site.units if isinstance(u, Source) and os.path.isfile(u.path)]
        plain = all(not u.path.lower().endswith(".gz") for u in site.units if isinstance(u, Source))
        self.total = sum(sizes) if sizes and plain else 0

    def tick(self, urls: int) -> None:
        now = time.monotonic()
        if now - self.last >= self.INTERVAL:
            self.last = now
            done = self.files.finished() if self.files is not None else 0
            read: float = self.read[0]
            fraction = min(read / self.total, 1.0) if self.total else None
            self.callback(Progress(urls, done, now - self.started, fraction))
