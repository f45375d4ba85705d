"""The terms of a fetch: what a check of a live site asks (``FetchOptions``), what one
URL gives (``Fetched``), and the client it needs (httpx, an optional dependency)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from types import ModuleType

CHUNK = 1 << 16  # bytes read, inflated or copied at a time


class LiveUnavailable(RuntimeError):
    """httpx or protego (the ``live`` extra) is not installed: ``pip install httpx protego``."""


def client_module() -> ModuleType:
    try:
        import httpx
    except ImportError as exc:  # pragma: no cover - the extra is installed in tests
        raise LiveUnavailable("checking URLs needs httpx and protego (sitemap-ext's 'live' extra): "
                              "pip install httpx protego") from exc
    return httpx


@dataclass(frozen=True)
class FetchOptions:
    """How a check of a live site fetches: time limits (``timeout`` to connect and per
    read, ``deadline`` for a whole URL with its redirects and retries), ``retries``
    after a 429 or 503 and the longest ``Retry-After`` honoured, redirects followed,
    requests in flight per host, ``headers`` sent to the origins given only,
    ``allow_private`` for local and staging servers, a ``cache`` folder for
    conditional requests, and the bytes of fetched bodies kept on disk at once. A value
    out of range raises ``ValueError``."""

    timeout: float = 15.0  # seconds to connect, and between two chunks of a response
    deadline: float = 60.0  # seconds for a whole response
    retries: int = 2  # after a 429 or 503
    max_wait: float = 30.0  # the longest Retry-After honoured
    max_redirects: int = 5  # hops followed (Google follows at most five for robots.txt, RFC 9309)
    per_host: int = 4  # requests in flight to one host
    headers: tuple[tuple[str, str], ...] = ()  # --header NAME: VALUE (staging behind authentication)
    allow_private: bool = False  # loopback and private addresses, file:// URLs
    cache: str | None = None  # a folder for responses and their validators
    disk_limit: int = 512 << 20  # bytes of fetched bodies on disk at once (each is freed once judged)

    def __post_init__(self) -> None:
        seconds("timeout", self.timeout, zero=False)
        seconds("deadline", self.deadline, zero=False)
        seconds("max_wait", self.max_wait)
        for name, least in (("retries", 0), ("max_redirects", 0), ("per_host", 1), ("disk_limit", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be a whole number, {least} or more, not {value!r}")
        for name, value in self.headers:
            if not name.strip() or any(c in name + value for c in "\r\n\0") or ":" in name:
                raise ValueError(f"a header is NAME and VALUE, without line breaks: not {name!r}: {value!r}")
        if self.cache is not None and os.path.exists(self.cache) and not os.path.isdir(self.cache):
            raise ValueError(f"the cache {self.cache} is a file, not a folder")


def seconds(name: str, value: object, *, zero: bool = True) -> float:
    """A number of seconds given by the user: finite, not negative (and above 0 unless
    ``zero``); else ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0 or \
            (not zero and value == 0):
        raise ValueError(f"{name} must be a finite number of seconds{'' if zero else ' above 0'}, not {value!r}")
    return float(value)


@dataclass
class Fetched:
    """What one URL gave: the final answer after redirects, and its body on disk."""

    url: str
    final: str = ""
    status: int | None = None  # None: no answer (refused, failed, timed out)
    hops: list[tuple[str, int]] = field(default_factory=list)  # each redirect: (URL, status)
    path: str | None = None  # the body (2xx only)
    content_type: str = ""
    headers: dict[str, str] = field(default_factory=dict)  # the final response's, lower-case names
    problem: tuple[str, str] | None = None  # (code, message) when it could not be fetched whole
    cached: bool = False  # the body came from the cache (a 304)

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300 and self.problem is None

    @property
    def chain(self) -> str:
        """The redirects, for a message: ``URL (301) -> URL (302) -> final URL``."""
        return " -> ".join([f"{hop} ({status})" for hop, status in self.hops] + [self.final])

    @property
    def media_type(self) -> str:
        """The Content-Type without its parameters, in lower case ("" when none)."""
        return self.content_type.split(";", 1)[0].strip().lower()
