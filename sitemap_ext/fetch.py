"""Fetching over HTTP for a check of a live site: bounded, polite, and never elsewhere.

httpx is the client (timeouts of each kind, streaming, HTTP/1.1 keep-alive, a
thread-safe connection pool); the rest is ours because a checker must see what a
crawler sees, not what a browser hides:

* Redirects are followed here, one hop at a time (at most ``max_redirects``), so each
  hop is known (a redirected sitemap is a finding) and each target passes the guard.
* The guard: only http and https; a host that resolves to a loopback, private,
  link-local, multicast or reserved address is refused unless ``allow_private``
  (a checker run by a CI service must not be pointed at that service's own network).
* Bodies stream to a file, counted as they come: ``limit`` bytes after
  ``Content-Encoding`` is undone (a gzip bomb costs one chunk), and a response
  that takes longer than ``deadline`` in all ends (a server that trickles).
* 429 and 503 are retried (``retries`` times), after ``Retry-After`` when the server
  gives it (capped at ``max_wait``), else after 1, 2, 4 ... seconds.
* Requests to one host are at most ``per_host`` at a time, from any thread.
* With ``cache``, a response is kept with its validators (ETag, Last-Modified): the
  next run asks with If-None-Match / If-Modified-Since and a 304 reuses the body.
"""

from __future__ import annotations

import email.utils
import hashlib
import ipaddress
import json
import os
import socket
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass, field
from typing import Iterator
from urllib.parse import urljoin, urlsplit

from . import __version__
from .limits import MAX_BYTES_PER_FILE

USER_AGENT = f"sitemap-ext/{__version__} (sitemap checker; +https://pypi.org/project/sitemap-ext/)"
_CHUNK = 1 << 16


class LiveUnavailable(RuntimeError):
    """httpx or protego is not installed (pip install 'sitemap-ext[live]')."""


def client_module():  # type: ignore[no-untyped-def]
    try:
        import httpx
    except ImportError as exc:  # pragma: no cover - the extra is installed in tests
        raise LiveUnavailable("checking URLs needs httpx and protego: pip install 'sitemap-ext[live]'") from exc
    return httpx


@dataclass(frozen=True)
class FetchOptions:
    timeout: float = 15.0  # seconds to connect, and between two chunks of a response
    deadline: float = 60.0  # seconds for a whole response
    retries: int = 2  # after a 429 or 503
    max_wait: float = 30.0  # the longest Retry-After honoured
    max_redirects: int = 5  # hops followed (Google follows at most five for robots.txt, RFC 9309)
    per_host: int = 4  # requests in flight to one host
    headers: tuple[tuple[str, str], ...] = ()  # --header NAME: VALUE (staging behind authentication)
    allow_private: bool = False  # loopback and private addresses, file:// URLs
    cache: str | None = None  # a folder for responses and their validators


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


class Refusal(Exception):
    """A URL the guard refuses (the message says why)."""


def guard(url: str, allow_private: bool) -> None:
    """Refuse what a check may not fetch: another scheme, or an address of the local
    network (unless allowed). The host is resolved here; every address it gives counts.
    (The connection itself is made to an address checked again when it is made:
    ``_GuardedBackend``, so a name that resolves elsewhere the second time is refused too.)"""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise Refusal(f"only http and https URLs are fetched, not {parts.scheme or 'a relative URL'}")
    host = parts.hostname
    if not host:
        raise Refusal("the URL names no host")
    if not allow_private:
        public_addresses(host, parts.port or (443 if parts.scheme == "https" else 80))


def public_addresses(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to, when every one is public; else ``Refusal``."""
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, ValueError) as exc:
        raise Refusal(f"the host {host} cannot be resolved ({exc})") from None
    found = []
    for info in infos:
        text = str(info[4][0])
        address = ipaddress.ip_address(text.split("%", 1)[0])
        if address.is_loopback or address.is_private or address.is_link_local or address.is_multicast or \
                address.is_reserved or address.is_unspecified:
            raise Refusal(f"{host} resolves to {address}, an address of a local network; a check fetches "
                          "public addresses only (--allow-private to check a local or staging server)")
        found.append(text)
    if not found:
        raise Refusal(f"the host {host} resolves to no address")
    return found


def _guarded_transport(httpx, allow_private: bool):  # type: ignore[no-untyped-def]
    """httpx's transport, connecting through ``_GuardedBackend`` (unless private
    addresses are allowed): the address checked is the address connected to."""
    transport = httpx.HTTPTransport(limits=httpx.Limits(max_connections=32, max_keepalive_connections=16),
                                    trust_env=False)
    if allow_private:
        return transport
    try:
        import ssl

        import certifi
        import httpcore
        from httpcore._backends.sync import SyncBackend
    except ImportError:  # pragma: no cover - httpx brings them
        return transport
    if not hasattr(transport, "_pool"):  # pragma: no cover - another httpx: the check before each hop stays
        return transport

    class _GuardedBackend(SyncBackend):  # type: ignore[misc]
        def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):  # type: ignore[no-untyped-def]
            address = public_addresses(host, port)[0]  # (TLS still names and verifies ``host``)
            return super().connect_tcp(address, port, timeout, local_address, socket_options)

    transport._pool = httpcore.ConnectionPool(
        ssl_context=ssl.create_default_context(cafile=certifi.where()), max_connections=32,
        max_keepalive_connections=16, network_backend=_GuardedBackend())
    return transport


class Fetcher:
    """One HTTP client for a check: its connections, its per-host limits, its files."""

    def __init__(self, options: FetchOptions, folder: str) -> None:
        httpx = client_module()
        self.options = options
        self.folder = folder  # where bodies are written (a temporary folder of the check)
        headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate"}
        headers.update(dict(options.headers))
        self.client = httpx.Client(headers=headers, follow_redirects=False, trust_env=False,
                                   timeout=httpx.Timeout(options.timeout),
                                   transport=_guarded_transport(httpx, options.allow_private))
        self.cache = _Cache(options.cache) if options.cache else None
        self._hosts: dict[str, threading.BoundedSemaphore] = {}
        self._lock = threading.Lock()
        self._count = 0

    def close(self) -> None:
        self.client.close()

    def _slot(self, url: str) -> threading.BoundedSemaphore:
        host = urlsplit(url).netloc.lower()
        with self._lock:
            slot = self._hosts.get(host)
            if slot is None:
                slot = self._hosts[host] = threading.BoundedSemaphore(self.options.per_host)
            return slot

    def _new_path(self, suffix: str = "") -> str:
        with self._lock:
            self._count += 1
            return os.path.join(self.folder, f"{self._count:08d}{suffix}")

    def get(self, url: str, *, limit: int = MAX_BYTES_PER_FILE, head_only: bool = False) -> Fetched:
        """GET ``url``, following redirects hop by hop; the body of a 2xx answer is
        written to a file (with ``head_only``, only up to the end of an HTML head)."""
        fetched = Fetched(url)
        current, seen = url, {url}
        for _ in range(self.options.max_redirects + 1):
            try:
                guard(current, self.options.allow_private)
            except Refusal as exc:
                fetched.final, fetched.problem = current, ("R106", str(exc))
                return fetched
            status = self._once(current, fetched, limit, head_only)
            fetched.final = current
            if status is None or not (300 <= status < 400) or "location" not in fetched.headers:
                return fetched
            target = urljoin(current, fetched.headers["location"].strip())
            fetched.hops.append((current, status))
            if target in seen:
                fetched.problem = ("R104", f"the redirects loop: {current} leads back to {target}")
                return fetched
            seen.add(target)
            current = target
        fetched.problem = ("R104", f"more than {self.options.max_redirects} redirects; search engines stop "
                           "following a chain this long")
        return fetched

    def _once(self, url: str, fetched: Fetched, limit: int, head_only: bool) -> int | None:
        httpx = client_module()
        cache = self.cache
        kept = cache.lookup(url) if cache is not None else None
        headers = kept.validators() if kept is not None else {}
        for attempt in range(self.options.retries + 1):
            wait = None
            try:
                with self._slot(url):
                    with self.client.stream("GET", url, headers=headers) as response:
                        fetched.status = response.status_code
                        fetched.headers = {k.lower(): v for k, v in response.headers.items()}
                        fetched.content_type = fetched.headers.get("content-type", "")
                        if response.status_code in (429, 503) and attempt < self.options.retries:
                            wait = _retry_after(fetched.headers.get("retry-after"), attempt, self.options.max_wait)
                        elif response.status_code == 304 and kept is not None:
                            fetched.status, fetched.content_type = kept.status, kept.content_type
                            fetched.path, fetched.cached = kept.body, True
                            return kept.status
                        elif 200 <= response.status_code < 300:
                            fetched.path = self._body(_decoded(response, limit), fetched, limit, head_only)
                            if cache is not None and fetched.problem is None and fetched.path is not None:
                                cache.store(url, fetched)
                            return fetched.status
                        else:
                            return fetched.status
            except Refusal as exc:  # (at the connection: the name resolved elsewhere this time)
                fetched.status, fetched.path = None, None
                fetched.problem = ("R106", str(exc))
                return None
            except zlib.error as exc:
                fetched.status, fetched.path = None, None
                fetched.problem = ("X114", f"the answer's Content-Encoding cannot be undone ({exc}); it is corrupt")
                return None
            except httpx.TimeoutException:
                fetched.status, fetched.path = None, None
                fetched.problem = ("R101", f"no answer within {self.options.timeout:g} s (timed out)")
                return None
            except (httpx.HTTPError, OSError, ValueError) as exc:
                fetched.status, fetched.path = None, None
                fetched.problem = ("R101", f"cannot be fetched: {_reason(exc)}")
                return None
            if wait is not None:
                time.sleep(wait)
        return fetched.status

    def _body(self, chunks: Iterator[bytes], fetched: Fetched, limit: int, head_only: bool) -> str | None:
        started = time.monotonic()
        path = self._new_path(".html" if head_only else "")  # (a page's head is read as a page)
        total = 0
        tail = b""
        with open(path, "wb") as out:
            for chunk in chunks:
                total += len(chunk)
                if total > limit:
                    if head_only:  # a page: its head is what was wanted, and it did not end
                        out.write(chunk[: max(limit - (total - len(chunk)), 0)])
                        break
                    fetched.problem = ("X109", f"more than {limit:,} bytes (after Content-Encoding is undone); the "
                                       "protocol's limit is 50 MiB uncompressed. Reading stopped here")
                    break
                out.write(chunk)
                if head_only:
                    tail = (tail + chunk)[-(len(chunk) + 16):]
                    lowered = tail.lower()
                    if b"</head" in lowered or b"<body" in lowered:
                        break
                if time.monotonic() - started > self.options.deadline:
                    fetched.problem = ("R101", f"the answer did not end within {self.options.deadline:g} s "
                                       "(the server sends too slowly)")
                    break
        return path


def _decoded(response, limit: int) -> Iterator[bytes]:  # type: ignore[no-untyped-def]
    """The body with its Content-Encoding (gzip, deflate) undone a bounded piece at a
    time: a chunk of a gzip bomb inflates to at most one chunk, never to its whole."""
    encoding = response.headers.get("content-encoding", "").strip().lower()
    if encoding in ("", "identity"):
        yield from response.iter_raw(_CHUNK)
        return
    if encoding not in ("gzip", "x-gzip", "deflate"):
        yield from response.iter_bytes(_CHUNK)  # (what was not asked for: httpx decodes it, if it can)
        return
    inflater = zlib.decompressobj(wbits=47)  # a gzip or a zlib header, told from the bytes
    for raw in response.iter_raw(_CHUNK):
        data = raw
        while data:
            piece = inflater.decompress(data, _CHUNK)
            if piece:
                yield piece
            data = inflater.unconsumed_tail
            if inflater.eof:
                return
    rest = inflater.flush()
    if rest:
        yield rest


def _retry_after(value: str | None, attempt: int, cap: float) -> float:
    """Seconds to wait before asking again: the server's Retry-After (seconds or an
    HTTP date), else 1, 2, 4 ... seconds; never more than ``cap``."""
    if value:
        value = value.strip()
        if value.isdigit():
            return min(float(value), cap)
        try:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, min(when.timestamp() - time.time(), cap))
        except (TypeError, ValueError):
            pass
    return min(float(2 ** attempt), cap)


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0][:200]


@dataclass
class _Kept:
    status: int
    content_type: str
    etag: str | None
    modified: str | None
    body: str

    def validators(self) -> dict[str, str]:
        headers = {}
        if self.etag:
            headers["If-None-Match"] = self.etag
        if self.modified:
            headers["If-Modified-Since"] = self.modified
        return headers


class _Cache:
    """Responses kept in a folder: per URL (by its SHA-256) a body and a JSON of its
    validators; written atomically (a killed run leaves the old entry whole)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        os.makedirs(folder, exist_ok=True)

    def _names(self, url: str) -> tuple[str, str]:
        digest = hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()
        return os.path.join(self.folder, digest + ".json"), os.path.join(self.folder, digest + ".body")

    def lookup(self, url: str) -> _Kept | None:
        meta, body = self._names(url)
        try:
            with open(meta, encoding="utf-8") as handle:
                data = json.load(handle)
            if not os.path.isfile(body) or data.get("url") != url:
                return None
            return _Kept(int(data["status"]), str(data.get("content_type", "")), data.get("etag"),
                         data.get("last_modified"), body)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def store(self, url: str, fetched: Fetched) -> None:
        etag, modified = fetched.headers.get("etag"), fetched.headers.get("last-modified")
        if not etag and not modified or fetched.path is None or fetched.status is None:
            return  # nothing to ask with next time
        meta, body = self._names(url)
        try:
            with open(fetched.path, "rb") as source, tempfile.NamedTemporaryFile(
                    "wb", dir=self.folder, delete=False) as out:
                while True:
                    chunk = source.read(_CHUNK)
                    if not chunk:
                        break
                    out.write(chunk)
            os.replace(out.name, body)
            text = json.dumps({"url": url, "status": fetched.status, "content_type": fetched.content_type,
                               "etag": etag, "last_modified": modified})
            with tempfile.NamedTemporaryFile("w", dir=self.folder, delete=False, encoding="utf-8") as handle:
                handle.write(text)
            os.replace(handle.name, meta)
        except OSError:
            return  # a cache that cannot be written costs the next run full requests, nothing more
