"""How many processes a build or a check may use: the cores this process may run on."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def default_jobs() -> int:
    """One process per core, at most four. Measured on two cores
    (benchmarks/build_shapes.py, 1,000,000 URLs a shape, medians of 3 in one run),
    two processes beat one on every shape: W 3.8 -> 3.3 s, one locale 8.9 -> 6.8 s,
    non-ASCII paths 6.5 -> 4.0 s, translated slugs 8.0 -> 5.9 s, three hosts 5.7 ->
    4.9 s, 40 locales 12.7 -> 10.4 s, videos 4.2 -> 2.6 s, query strings 3.6 -> 2.9 s.
    A build's sources under 4 MiB, and a check of one file, use one process whatever this says."""
    return min(usable_cores(), 4)
