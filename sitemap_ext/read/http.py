"""Fetching over HTTP for a check of a live site: bounded, polite, and never elsewhere.

httpx is the client (timeouts of each kind, streaming, HTTP/1.1 keep-alive, a
thread-safe connection pool); the rest is ours because a checker must see what a
crawler sees, not what a browser hides:

* Redirects are followed here, one hop at a time (at most ``max_redirects``), so each
  hop is known (a redirected sitemap is a finding) and each target passes the guard.
* The guard: only http and https; a host that resolves to an address that is not
  globally routable (``is_public``: loopback, private, carrier-grade NAT, link-local,
  multicast, reserved, and IPv6 forms that carry one of those) is refused unless
  ``allow_private`` (a checker run by a CI service must not be pointed at that
  service's own network); at every hop and again at the connection.
* The headers the user gives (``headers``: authentication, cookies) go only to the
  origins (scheme, host, port) of the URLs given (``Fetcher.trust``), never across a
  redirect to another origin, nor to another host's sitemap, robots.txt or pages.
* Bodies stream to a file, counted as they come: ``limit`` bytes after every layer of
  ``Content-Encoding`` is undone, each layer a bounded piece at a time (a gzip bomb,
  stacked or not, costs one chunk).
* Time: ``timeout`` to connect and for each read; ``deadline`` for the whole of one
  URL (every hop, retry and wait, the headers and the body), enforced on every read
  of the socket, so a server that drips headers or a body a byte at a time is cut off.
* The bodies on disk are counted (``disk_limit`` at once); the caller frees each one
  once it is judged (``release``).
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
import math
import os
import socket
import tempfile
import threading
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from .._version import __version__
from ..limits import MAX_BYTES_PER_FILE

if TYPE_CHECKING:  # (an optional dependency, imported when a live check starts: client_module)
    import httpx as httpx_types
    from httpcore import NetworkStream
    from httpcore._backends.base import SOCKET_OPTION

USER_AGENT = f"sitemap-ext/{__version__} (sitemap checker; +https://pypi.org/project/sitemap-ext/)"
_CHUNK = 1 << 16
_MAX_LAYERS = 4  # Content-Encoding layers undone at most ("gzip, gzip" is legal; ten of them is an attack)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # IPv4 addresses translated (RFC 6052): judged by the IPv4 one
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class LiveUnavailable(RuntimeError):
    """httpx or protego is not installed (pip install 'sitemap-ext[live]')."""


def client_module() -> ModuleType:
    try:
        import httpx
    except ImportError as exc:  # pragma: no cover - the extra is installed in tests
        raise LiveUnavailable("checking URLs needs httpx and protego: pip install 'sitemap-ext[live]'") from exc
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


class Refusal(Exception):
    """A URL the guard refuses (the message says why)."""


def guard(url: str, allow_private: bool) -> None:
    """Refuse what a check may not fetch: another scheme, or an address that is not
    public (unless allowed). The host is resolved here; every address it gives counts.
    (The connection itself is made to an address checked again when it is made:
    ``_Backend``, so a name that resolves elsewhere the second time is refused too.)"""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise Refusal(f"only http and https URLs are fetched, not {parts.scheme or 'a relative URL'}")
    host = parts.hostname
    if not host:
        raise Refusal("the URL names no host")
    if not allow_private:
        public_addresses(host, parts.port or (443 if parts.scheme == "https" else 80))


def is_public(address: Address) -> bool:
    """The one address predicate of the guard: a globally routable unicast address.
    Not loopback, private, carrier-grade NAT (100.64.0.0/10), link-local, multicast,
    reserved, documentation or unspecified; an IPv6 address that carries an IPv4 one
    (IPv4-mapped, 6to4, Teredo, NAT64) is public only when that IPv4 address is."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # ::ffff:a.b.c.d connects to a.b.c.d
            return is_public(address.ipv4_mapped)
        if address in _NAT64:  # 64:ff9b::a.b.c.d (DNS64) reaches a.b.c.d through a translator
            return is_public(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if any(inner is not None and not is_public(inner) for inner in (*(address.teredo or ()), address.sixtofour)):
            return False
    return address.is_global and not address.is_multicast and not address.is_reserved


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
        if not is_public(address):
            raise Refusal(f"{host} resolves to {address}, an address that is not public (loopback, private, "
                          "carrier-grade NAT, link-local or reserved); a check fetches public addresses only "
                          "(--allow-private to check a local or staging server)")
        found.append(text)
    if not found:
        raise Refusal(f"the host {host} resolves to no address")
    return found


_answer = threading.local()  # ``end``: the deadline (time.monotonic()) of the URL this thread fetches


def _left(timeout: float | None) -> float | None:
    """The time a read, write or connection may take: ``timeout``, and never past the
    deadline of the URL being fetched (then it times out at once)."""
    end: float | None = getattr(_answer, "end", None)
    if end is None:
        return timeout
    left = end - time.monotonic()
    if left <= 0:
        import httpcore
        raise httpcore.ReadTimeout("the deadline of the answer has passed")
    return left if timeout is None else min(timeout, left)


def _transport(httpx: ModuleType, allow_private: bool) -> httpx_types.HTTPTransport:
    """httpx's transport, connecting through ``_Backend``: the address checked is the
    address connected to (unless private addresses are allowed), and every read and
    write of the socket ends by the deadline of its answer."""
    import ssl

    import certifi
    import httpcore
    from httpcore._backends.sync import SyncBackend

    class _Bounded(httpcore.NetworkStream):
        def __init__(self, stream: NetworkStream) -> None:
            self._stream = stream

        def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
            return self._stream.read(max_bytes, _left(timeout))

        def write(self, buffer: bytes, timeout: float | None = None) -> None:
            self._stream.write(buffer, _left(timeout))

        def close(self) -> None:
            self._stream.close()

        def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                      timeout: float | None = None) -> NetworkStream:
            return _Bounded(self._stream.start_tls(ssl_context, server_hostname, _left(timeout)))

        def get_extra_info(self, info: str) -> object:
            return self._stream.get_extra_info(info)

    class _Backend(SyncBackend):
        def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                        socket_options: Iterable[SOCKET_OPTION] | None = None) -> NetworkStream:
            if not allow_private:
                host = public_addresses(host, port)[0]  # (TLS still names and verifies the URL's host)
            return _Bounded(super().connect_tcp(host, port, _left(timeout), local_address, socket_options))

    transport: httpx_types.HTTPTransport = httpx.HTTPTransport(trust_env=False)
    transport._pool = httpcore.ConnectionPool(
        ssl_context=ssl.create_default_context(cafile=certifi.where()), max_connections=32,
        max_keepalive_connections=16, network_backend=_Backend())
    return transport


class _TooLarge(Exception):
    """A layer of Content-Encoding gave more than the limit (reading stops)."""


class _Undecodable(Exception):
    """A Content-Encoding this client did not ask for and does not undo."""


class Fetcher:
    """One HTTP client for a check: its connections, its per-host limits, its files."""

    def __init__(self, options: FetchOptions, folder: str) -> None:
        httpx = client_module()
        self.options = options
        self.folder = folder  # where bodies are written (a temporary folder of the check)
        self.client: httpx_types.Client = httpx.Client(
            headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate"}, follow_redirects=False,
            trust_env=False, timeout=httpx.Timeout(options.timeout), transport=_transport(httpx, options.allow_private))
        self.cache = _Cache(options.cache) if options.cache else None
        self._trusted: set[tuple[str, str, int]] = set()  # the origins the user's headers go to
        self._hosts: dict[str, threading.BoundedSemaphore] = {}
        self._lock = threading.Lock()
        self._count = 0
        self._on_disk: dict[str, int] = {}  # body file -> its bytes, until released

    def close(self) -> None:
        self.client.close()

    def trust(self, url: str) -> None:
        """The user gave ``url``: the headers the user gave go to its origin (scheme,
        host, port), and to no other, as a browser's credentials and curl's do."""
        origin = _origin(url)
        if origin is not None:
            self._trusted.add(origin)

    def release(self, path: str) -> None:
        """A body judged: its file is deleted (a cached body stays in the cache)."""
        with self._lock:
            if self._on_disk.pop(path, None) is None:
                return
        try:
            os.remove(path)
        except OSError:
            pass

    def on_disk(self) -> int:
        with self._lock:
            return sum(self._on_disk.values())

    def _slot(self, url: str) -> threading.BoundedSemaphore:
        host = urlsplit(url).netloc.lower()
        with self._lock:
            slot = self._hosts.get(host)
            if slot is None:
                slot = self._hosts[host] = threading.BoundedSemaphore(self.options.per_host)
            return slot

    def get(self, url: str, *, limit: int = MAX_BYTES_PER_FILE, head_only: bool = False,
            prefix: bool = False) -> Fetched:
        """GET ``url``, following redirects hop by hop, all within the deadline; the body
        of a 2xx answer is written to a file (with ``head_only``, only up to the end of
        an HTML head; with ``prefix``, its first ``limit`` bytes, the rest unread)."""
        fetched = Fetched(url)
        current, seen = url, {url}
        _answer.end = time.monotonic() + self.options.deadline
        try:
            for _ in range(self.options.max_redirects + 1):
                try:
                    guard(current, self.options.allow_private)
                except Refusal as exc:
                    fetched.final, fetched.problem = current, ("R106", str(exc))
                    return fetched
                except ValueError as exc:  # (a port that is no number, an IPv6 host without its ], say)
                    fetched.final, fetched.problem = current, ("R101", f"cannot be requested: {_reason(exc)}")
                    return fetched
                status = self._once(current, fetched, limit, head_only or prefix, head_only)
                fetched.final = current
                if status is None or not (300 <= status < 400) or "location" not in fetched.headers:
                    return fetched
                try:
                    target = urljoin(current, fetched.headers["location"].strip())
                except ValueError as exc:
                    fetched.problem = ("R101", f"redirects to a Location that is no URL: {_reason(exc)}")
                    return fetched
                fetched.hops.append((current, status))
                if target in seen:
                    fetched.problem = ("R104", f"the redirects loop: {current} leads back to {target}")
                    return fetched
                seen.add(target)
                current = target
            fetched.problem = ("R104", f"more than {self.options.max_redirects} redirects; search engines stop "
                               "following a chain this long")
            return fetched
        finally:
            _answer.end = None

    def _once(self, url: str, fetched: Fetched, limit: int, truncate: bool, head_only: bool) -> int | None:
        httpx = client_module()
        kept = self.cache.lookup(url) if self.cache is not None else None
        headers = kept.validators() if kept is not None else {}
        origin = _origin(url)
        if origin is not None and origin in self._trusted:
            headers.update(self.options.headers)
        for attempt in range(self.options.retries + 1):
            try:
                with self._slot(url), self.client.stream("GET", url, headers=headers) as response:
                    wait = self._answered(url, response, fetched, kept, attempt, (limit, truncate, head_only))
                    if wait is None:
                        return fetched.status
            except (Refusal, zlib.error, _Undecodable, _TooLarge, httpx.HTTPError, httpx.InvalidURL, OSError,
                    ValueError, UnicodeError) as exc:
                return self._failed(fetched, *self._problem(exc, limit, httpx))
            left = (_answer.end or 0) - time.monotonic()
            if wait >= left:  # (the answer would come after the deadline: this one stands)
                return fetched.status
            time.sleep(wait)
        return fetched.status

    def _answered(self, url: str, response: httpx_types.Response, fetched: Fetched, kept: _Kept | None,
                  attempt: int, reading: tuple[int, bool, bool]) -> float | None:
        """An answer's status, headers and body into ``fetched``; the seconds to wait
        before asking again (a 429 or 503 with retries left), None when it stands.
        ``reading``: the body's limit, and whether to truncate it or read only a head."""
        fetched.status = response.status_code
        fetched.headers = {k.lower(): v for k, v in response.headers.items()}
        fetched.content_type = fetched.headers.get("content-type", "")
        if response.status_code in (429, 503) and attempt < self.options.retries:
            return _retry_after(fetched.headers.get("retry-after"), attempt, self.options.max_wait)
        if response.status_code == 304 and kept is not None:
            fetched.status, fetched.content_type = kept.status, kept.content_type
            fetched.path, fetched.cached = kept.body, True
        elif 200 <= response.status_code < 300:
            limit, truncate, head_only = reading
            chunks = _decoded(response.iter_raw(_CHUNK), fetched.headers.get("content-encoding", ""), limit)
            fetched.path = self._body(chunks, fetched, limit, truncate, head_only)
            if self.cache is not None and fetched.problem is None and fetched.path is not None:
                self.cache.store(url, fetched)
        return None

    def _problem(self, exc: BaseException, limit: int, httpx: ModuleType) -> tuple[str, str]:
        """The code and message of a request that failed with ``exc`` (a flat table of cases)."""
        if isinstance(exc, Refusal):  # (at the connection: the name resolved elsewhere this time)
            return "R106", str(exc)
        if isinstance(exc, zlib.error):
            return "X114", f"the answer's Content-Encoding cannot be undone ({exc}); it is corrupt"
        if isinstance(exc, _Undecodable):
            return "R101", (f"cannot be read: it is sent with Content-Encoding {exc}, which this check did not ask "
                            "for (gzip, deflate) and does not undo")
        if isinstance(exc, _TooLarge):
            return "X109", _too_large(limit)
        if isinstance(exc, httpx.TimeoutException):
            if time.monotonic() >= (_answer.end or 0):
                return "R101", (f"the answer did not end within {self.options.deadline:g} s (the server sends too "
                                "slowly)")
            return "R101", f"no answer within {self.options.timeout:g} s (timed out)"
        return "R101", f"cannot be fetched: {_reason(exc)}"

    @staticmethod
    def _failed(fetched: Fetched, code: str, message: str) -> None:
        fetched.status, fetched.path, fetched.problem = None, None, (code, message)
        return None

    def _body(self, chunks: Iterator[bytes], fetched: Fetched, limit: int, truncate: bool,
              head_only: bool) -> str | None:
        """The body written to a file of its own, counted against ``limit`` and the disk
        budget; None (and no file) when reading it stopped with a problem."""
        with self._lock:
            self._count += 1
            path = os.path.join(self.folder, f"{self._count:08d}{'.html' if head_only else ''}")
            self._on_disk[path] = 0  # (a page's head is read as a page)
        total = 0
        tail = b""
        try:
            with open(path, "wb") as out:
                for chunk in chunks:
                    if total + len(chunk) > limit:
                        if truncate:  # a page's head, a robots.txt: its beginning is what is read
                            out.write(chunk[:limit - total])
                            total = limit
                            break
                        fetched.problem = ("X109", _too_large(limit))
                        break
                    if time.monotonic() > (_answer.end or math.inf):
                        fetched.problem = ("R101", f"the answer did not end within {self.options.deadline:g} s "
                                           "(the server sends too slowly)")
                        break
                    with self._lock:
                        if sum(self._on_disk.values()) + len(chunk) > self.options.disk_limit:
                            fetched.problem = ("R101", f"not read whole: the check keeps at most "
                                               f"{self.options.disk_limit:,} bytes of fetched files on disk at once")
                            break
                        self._on_disk[path] += len(chunk)
                    out.write(chunk)
                    total += len(chunk)
                    if head_only:
                        tail = (tail + chunk)[-(len(chunk) + 16):]
                        lowered = tail.lower()
                        if b"</head" in lowered or b"<body" in lowered:
                            break
        except BaseException:
            self.release(path)
            raise
        if fetched.problem is not None:
            self.release(path)
            return None
        return path


def _too_large(limit: int) -> str:
    return (f"more than {limit:,} bytes (after Content-Encoding is undone); the protocol's limit is 50 MiB "
            "uncompressed. Reading stopped here")


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of a URL, the port made explicit; None when it has none."""
    try:
        parts = urlsplit(url)
        scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
        port = parts.port or {"http": 80, "https": 443}.get(scheme)
    except ValueError:
        return None
    return (scheme, host, port) if host and port else None


def _decoded(raw: Iterator[bytes], encoding: str, limit: int) -> Iterator[bytes]:
    """The body with every layer of its Content-Encoding undone, the last applied first
    (``gzip, deflate``: deflate, then gzip); each layer a bounded piece at a time, so a
    bomb of any depth inflates to at most a chunk per layer in memory. A layer that is
    not the last may give at most ``limit`` bytes (the last is counted by the caller)."""
    layers = [name.strip().lower() for name in encoding.split(",")]
    layers = [name for name in layers if name not in ("", "identity")]
    unknown = [name for name in layers if name not in ("gzip", "x-gzip", "deflate")]
    if unknown or len(layers) > _MAX_LAYERS:
        raise _Undecodable(", ".join(unknown[:3]) if unknown else f"{encoding[:80]} ({len(layers)} layers)")
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
            piece = inflater.decompress(data, _CHUNK)
            total += len(piece)
            if limit is not None and total > limit:
                raise _TooLarge()
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
        if value.isascii() and value.isdigit():
            return min(float(value), cap)
        try:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, min(when.timestamp() - time.time(), cap))
        except (TypeError, ValueError, IndexError, OverflowError):
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
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError:
            pass  # (then nothing is found in it or kept: each request is a full one)

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
        if (not etag and not modified) or fetched.path is None or fetched.status is None:
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
