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
import ipaddress
import math
import os
import socket
import threading
import time
import zlib
from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from .._version import __version__
from ..limits import MAX_BYTES_PER_FILE
from ..urls import is_public  # (the one address predicate: a sitemap's URLs are judged by it too)
from .html import HEAD_END
from .http_cache import Cache, Kept
from .http_encoding import TooLarge, Truncated, Undecodable, decoded
from .http_transport import answer as _answer
from .http_transport import transport
from .http_types import CHUNK, Fetched, FetchOptions, LiveUnavailable, client_module, seconds
from .sniff import corrupt, too_large_answer, truncated_answer

if TYPE_CHECKING:  # (an optional dependency, imported when a live check starts: client_module)
    import httpx as httpx_types

__all__ = [
    "USER_AGENT", "Fetched", "FetchOptions", "Fetcher", "LiveUnavailable", "Refusal", "client_module",
    "guard", "is_public", "public_addresses", "refused", "retry_after", "seconds",
]

# (no "+URL" of a page about the checker: the project has no public home yet, and a package
# index page under its name is not ours)
USER_AGENT = f"sitemap-ext/{__version__} (sitemap checker)"


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


def refused(message: str) -> tuple[str, str]:
    """R106: a URL the guard refuses, or one a check does not fetch (the message says why)."""
    return "R106", message


class Fetcher:
    """One HTTP client for a check: its connections, its per-host limits, its files."""

    def __init__(self, options: FetchOptions, folder: str) -> None:
        httpx = client_module()
        self.options = options
        self.folder = folder  # where bodies are written (a temporary folder of the check)
        self.client: httpx_types.Client = httpx.Client(
            headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate"}, follow_redirects=False,
            trust_env=False, timeout=httpx.Timeout(options.timeout), transport=transport(httpx, options.allow_private,
                                                                          public_addresses))
        self.cache = Cache(options.cache) if options.cache else None
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
                    fetched.final, fetched.problem = current, refused(str(exc))
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
        # The cache keeps whole bodies only (sitemaps, indexes): a page's head or a robots.txt's
        # first 500 KiB is read anew, so a 304 never hands a cut body to another reader.
        cached = self.cache is not None and not (truncate or head_only)
        kept = self.cache.lookup(url) if cached and self.cache is not None else None
        headers = kept.validators() if kept is not None else {}
        origin = _origin(url)
        if origin is not None and origin in self._trusted:
            headers.update(self.options.headers)
        try:
            return self._asked(url, fetched, headers, kept, (limit, truncate, head_only), httpx)
        finally:
            if kept is not None:
                kept.close()

    def _asked(self, url: str, fetched: Fetched, headers: dict[str, str], kept: Kept | None,
               reading: tuple[int, bool, bool], httpx: ModuleType) -> int | None:
        """The request sent (again after a 429 or 503), its answer into ``fetched``."""
        for attempt in range(self.options.retries + 1):
            try:
                with self._slot(url), self.client.stream("GET", url, headers=headers) as response:
                    wait = self._answered(url, response, fetched, kept, attempt, reading)
                    if wait is None:
                        return fetched.status
            except (Refusal, zlib.error, Undecodable, TooLarge, Truncated, httpx.HTTPError, httpx.InvalidURL, OSError,
                    ValueError, UnicodeError) as exc:
                return self._failed(fetched, *self._problem(exc, reading[0], httpx))
            left = (_answer.end or 0) - time.monotonic()
            if wait >= left:  # (the answer would come after the deadline: this one stands)
                return fetched.status
            time.sleep(wait)
        return fetched.status

    def _answered(self, url: str, response: httpx_types.Response, fetched: Fetched, kept: Kept | None,
                  attempt: int, reading: tuple[int, bool, bool]) -> float | None:
        """An answer's status, headers and body into ``fetched``; the seconds to wait
        before asking again (a 429 or 503 with retries left), None when it stands.
        ``reading``: the body's limit, and whether to truncate it or read only a head."""
        fetched.status = response.status_code
        fetched.headers = {k.lower(): v for k, v in response.headers.items()}
        fetched.content_type = fetched.headers.get("content-type", "")
        if response.status_code in (429, 503) and attempt < self.options.retries:
            return retry_after(fetched.headers.get("retry-after"), attempt, self.options.max_wait)
        if response.status_code == 304 and kept is not None:  # (the body copied from the file opened at lookup)
            fetched.status, fetched.content_type, fetched.cached = kept.status, kept.content_type, True
            fetched.path = self._body(kept.chunks(), fetched, reading[0], False, False)
        elif 200 <= response.status_code < 300:
            limit, truncate, head_only = reading
            chunks = decoded(response.iter_raw(CHUNK), fetched.headers.get("content-encoding", ""), limit)
            fetched.path = self._body(chunks, fetched, limit, truncate, head_only)
            if self.cache is not None and not (truncate or head_only) and fetched.problem is None \
                    and fetched.path is not None:
                self.cache.store(url, fetched)
        return None

    def _problem(self, exc: BaseException, limit: int, httpx: ModuleType) -> tuple[str, str]:
        """The code and message of a request that failed with ``exc`` (a flat table of cases)."""
        if isinstance(exc, Refusal):  # (at the connection: the name resolved elsewhere this time)
            return refused(str(exc))
        if isinstance(exc, zlib.error):
            return corrupt(exc, answer=True)
        if isinstance(exc, Undecodable):
            return "R101", (f"cannot be read: it is sent with Content-Encoding {exc}, which this check did not ask "
                            "for (gzip, deflate) and does not undo")
        if isinstance(exc, TooLarge):
            return too_large_answer(limit)
        if isinstance(exc, Truncated):  # (the body is dropped: half a sitemap is not judged as a sitemap)
            return truncated_answer()
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
                    if head_only and fetched.media_type and "html" not in fetched.media_type:
                        break  # a PDF, an image: no head to read (its Link header is read, not its body)
                    if total + len(chunk) > limit:
                        if truncate:  # a page's head, a robots.txt: its beginning is what is read
                            out.write(chunk[:limit - total])
                            total = limit
                            break
                        fetched.problem = too_large_answer(limit)
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
                        if HEAD_END.search(tail):  # (the HTML reader's own test of a head's end)
                            break
        except BaseException:
            self.release(path)
            raise
        if fetched.problem is not None:
            self.release(path)
            return None
        return path


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of a URL, the port made explicit; None when it has none."""
    try:
        parts = urlsplit(url)
        scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
        port = parts.port or {"http": 80, "https": 443}.get(scheme)
    except ValueError:
        return None
    return (scheme, host, port) if host and port else None


def retry_after(value: str | None, attempt: int, cap: float) -> float:
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
