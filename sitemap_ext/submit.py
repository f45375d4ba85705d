"""IndexNow: the URLs a build added or changed, from its state, told to search engines.

The protocol (indexnow.org, "Documentation"): a key of 8 to 128 characters
``[a-zA-Z0-9-]``, served as a text file at the host's root (``https://HOST/KEY.txt``)
or at ``keyLocation`` on that host (never another: ``key_file``); a JSON POST of ``{"host", "key", "keyLocation"?,
"urlList"}`` with at most 10,000 URLs, all of that host, to an engine's ``/indexnow``.
The answers: 200 (taken), 202 (taken; the key is being validated), 400 (bad request),
403 (the key is not valid), 422 (URLs not of the host, or a key that does not match),
429 (too many requests). One engine shares what it is given with the others.

Here: the URLs pending in the state (added or changed since they were last
submitted) are read as a stream in URL order, which keeps each origin's URLs together,
and sent in batches of at most ``batch`` URLs of one origin. Before an origin's first
batch its key file is fetched and compared (R111: nothing is sent for that origin).
200 and 202 are recorded in the state at once, one transaction a batch, so a run
killed later sends them no more; 400, 403 and 422 are R112 with their meaning (after a
403 the origin's other batches are not sent); 429 and 5xx are retried ``RETRIES``
times, after ``Retry-After`` (at most ``FetchOptions.max_wait``) or 1, 2, 4 seconds,
then R113, and the run stops: what is left stays pending for the next. The requests
go through the live check's client (``read/http.py``): its guard refuses private
addresses unless allowed, and every answer has its deadline.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from .diagnostics import Collector, Where
from .folder import FolderBusy, lock_folder
from .limits import MAX_BYTES_PER_FILE
from .read.http import Fetcher, FetchOptions, Refusal, guard, retry_after
from .read.http_encoding import TooLarge, Undecodable, decoded
from .read.http_transport import answer
from .read.http_types import CHUNK
from .state import UNUSABLE, Row, State, StateError, missing, report_bad_row
from .urls import origin_of

if TYPE_CHECKING:
    import httpx

DEFAULT_ENDPOINT = "https://api.indexnow.org/indexnow"
MAX_BATCH = 10_000  # URLs in one request [INDEXNOW]
RETRIES = 3  # after a 429 or 5xx
_SAID = 300  # bytes of an answer's body read, for its first words in a finding
KEY = re.compile(r"[a-zA-Z0-9-]{8,128}")
_MEANING = {
    400: "bad request: the request or its URLs are malformed",
    403: "forbidden: the key is not valid (its key file was not found, or does not hold the key)",
    422: "unprocessable: URLs that are not of the host, or a key that does not match the protocol's form",
}


@dataclass(frozen=True)
class SubmitProgress:
    """How far a submission is: URLs accepted so far, and pending when it started."""

    accepted: int
    pending: int
    seconds: float


@dataclass
class SubmitResult:
    """What a submission did: its findings (``collector``), the URLs pending when it
    started, those accepted (recorded in the state) and those a dry run would send."""

    collector: Collector
    pending: int = 0
    accepted: int = 0
    requests: int = 0
    would_send: list[str] = field(default_factory=list)  # a dry run's URLs, in order

    @property
    def ok(self) -> bool:
        return not self.collector.failed()


class _Stop(Exception):
    """The endpoint cannot take more now (R113 reported): the rest stays pending."""


@dataclass
class _Run:
    state: State
    key: str
    endpoint: str
    key_location: str | None
    fetcher: Fetcher | None
    result: SubmitResult
    progress: Callable[[SubmitProgress], None] | None
    started: float = field(default_factory=time.monotonic)
    keys: dict[str, bool] = field(default_factory=dict)  # origin -> its key file holds the key
    locations: dict[str, str | None] = field(default_factory=dict)  # origin -> the keyLocation sent for it
    refused: set[str] = field(default_factory=set)  # origins whose key the endpoint refused (403)
    pending_noted: set[str] = field(default_factory=set)  # origins whose 202 was reported

    def report(self, code: str, message: str, url: str | None = None) -> None:
        self.result.collector.report(code, message, Where(self.endpoint), url=url)


def submit_state(state_path: str, key: str, *, endpoint: str = DEFAULT_ENDPOINT, key_location: str | None = None,
                 dry_run: bool = False, fetch: FetchOptions | None = None, batch: int = MAX_BATCH,
                 progress: Callable[[SubmitProgress], None] | None = None, description: str | None = None,
                 collector: Collector, listed: Callable[[str], None] | None = None) -> SubmitResult:
    """Submit the URLs pending in the state at ``state_path`` (see the module's
    docstring). A state that cannot be read is F105 (O108 when ``description`` names
    another description than the state's), into ``collector`` (its caller's, made with
    the registry of codes). ``listed``: each URL a dry run would send goes to it, as it
    is read, instead of into ``would_send``."""
    result = SubmitResult(collector)
    lock = None
    try:
        # (the lock a build into the state's folder takes: no build replaces the state meanwhile)
        lock = None if dry_run else lock_folder(os.path.dirname(os.path.abspath(state_path)))
        state = State(state_path, description=description, write=not dry_run)
    except (StateError, FolderBusy) as exc:
        result.collector.report(exc.code, str(exc), Where(state_path))
        _unlock(lock)
        return result
    except OSError as exc:  # (its folder is missing or unreadable)
        problem = missing(state_path) if not os.path.lexists(state_path) else \
            StateError(f"the build state {state_path} cannot be read ({exc.strerror or exc})", UNUSABLE)
        result.collector.report(problem.code, str(problem), Where(state_path))
        return result
    folder = None if dry_run else tempfile.mkdtemp(prefix="sitemap-ext-submit-")  # (the key files fetched)
    try:
        result.pending = state.count(pending=True)
        run = _Run(state, key, endpoint, key_location,
                   None if folder is None else Fetcher(fetch or FetchOptions(), folder), result, progress)
        try:
            for origin, urls in batches(_usable(state.rows(pending=True), result.collector, state_path), batch):
                if dry_run and listed is not None:
                    for url in urls:
                        listed(url)
                elif dry_run:
                    result.would_send.extend(urls)
                else:
                    _send(run, origin, urls)
        except _Stop:
            pass
        finally:
            if run.fetcher is not None:
                run.fetcher.close()
    except StateError as exc:
        result.collector.report(exc.code, str(exc), Where(state_path))
    finally:
        state.close()
        _unlock(lock)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    return result


def _unlock(lock: int | None) -> None:
    if lock is not None:
        os.close(lock)


def _usable(rows: Iterator[Row], collector: Collector, path: str) -> Iterator[Row]:
    """The rows whose URL is an http(s) URL with a host (a build writes no other); a
    row of another (a state damaged or edited: ``http://[::1``) is skipped, F105, and
    never sent, a dry run's list included."""
    for row in rows:
        try:
            parts = urlsplit(row.url)
            usable = parts.scheme in ("http", "https") and bool(parts.netloc)
        except ValueError:
            usable = False
        if usable:
            yield row
        else:
            report_bad_row(collector, path, row.url)


def batches(rows: Iterator[Row], size: int) -> Iterator[tuple[str, list[str]]]:
    """(origin, URLs) batches of at most ``size`` URLs of one origin, in the order given
    (URL order keeps each origin's URLs together)."""
    origin, urls = "", list[str]()
    for row in rows:
        url = row.url
        own = _origin(url)
        if urls and (own != origin or len(urls) >= size):
            yield origin, urls
            urls = []
        origin = own
        urls.append(url)
    if urls:
        yield origin, urls


def _origin(url: str) -> str:
    return str(origin_of(url)).lower()


def _send(run: _Run, origin: str, urls: list[str]) -> None:
    """One batch: the origin's key checked (once), then POSTed until it is answered."""
    if origin in run.refused or not _key_ok(run, origin):
        return
    body = {"host": urlsplit(origin).netloc, "key": run.key, "urlList": urls}
    location = run.locations.get(origin)
    if location is not None:
        body["keyLocation"] = location
    status, text = _post(run, json.dumps(body).encode("utf-8"), len(urls))
    if status in (200, 202):
        run.state.mark_sent(urls, _now())
        run.result.accepted += len(urls)
        if status == 202 and origin not in run.pending_noted:
            run.pending_noted.add(origin)
            run.report("R114", f"{run.endpoint} answered 202 for {origin}: the URLs are taken while the key is "
                       "validated; they count as submitted")
        if run.progress is not None:
            run.progress(SubmitProgress(run.result.accepted, run.result.pending, time.monotonic() - run.started))
        return
    meaning = _MEANING.get(status, "the endpoint refused the request")
    if status == 403:
        run.refused.add(origin)
    run.report("R112", f"{run.endpoint} answered {status} for {len(urls):,} URLs of {origin} ({meaning})"
               f"{_said(text)}; they stay pending", url=urls[0])


def _key_ok(run: _Run, origin: str) -> bool:
    """R111: the origin's key file must answer 200 with the key (checked once)."""
    found = run.keys.get(origin)
    if found is not None:
        return found
    assert run.fetcher is not None
    where, run.locations[origin] = key_file(origin, run.key, run.key_location)
    elsewhere = "" if run.key_location is None or run.locations[origin] is not None else \
        f" (--key-location {run.key_location} is on another host, so this host's root is asked)"
    fetched = run.fetcher.get(where, limit=4096, prefix=True)
    problem = None
    if fetched.problem is not None:
        problem = fetched.problem[1]
    elif fetched.status != 200 or fetched.path is None:
        problem = f"answers {fetched.status}"
    else:
        with open(fetched.path, "rb") as handle:
            text = handle.read().decode("utf-8", "replace").strip()
        run.fetcher.release(fetched.path)
        if text != run.key:
            problem = "does not hold the key"
    run.keys[origin] = problem is None
    if problem is not None:
        run.result.collector.report(
            "R111", f"the IndexNow key file {where} {problem}{elsewhere}: engines would refuse the key (403); "
            "publish a file "
            f"holding only the key there; nothing is sent for {origin}", Where(where), url=where)
    return problem is None


def _post(run: _Run, body: bytes, count: int) -> tuple[int, str]:
    """The endpoint's answer to one batch (status, its first words), after the retries
    of a 429 or 5xx; raises _Stop (R113) when it does not take it."""
    assert run.fetcher is not None
    options = run.fetcher.options
    for attempt in range(RETRIES + 1):
        run.result.requests += 1
        try:
            guard(run.endpoint, options.allow_private)
            status, text, wait = _request(run.fetcher, run.endpoint, body, options, attempt)
        except (Refusal, ValueError, OSError) as exc:
            run.report("R113", f"{run.endpoint} cannot be reached ({str(exc)[:200]}); {count:,} URLs and the rest "
                       "stay pending: run submit again")
            raise _Stop from None
        if wait is None:
            return status, text
        if attempt < RETRIES:
            time.sleep(wait)
    run.report("R113", f"{run.endpoint} still answered {status} after {RETRIES} retries{_said(text)}; {count:,} URLs "
               "and the rest stay pending: run submit again later")
    raise _Stop


def _request(fetcher: Fetcher, endpoint: str, body: bytes, options: FetchOptions,
             attempt: int) -> tuple[int, str, float | None]:
    """One POST: its status, the start of its body, and the seconds to wait before
    asking again (429, 5xx), else None."""
    import httpx

    answer.end = time.monotonic() + options.deadline
    try:
        with fetcher.client.stream("POST", endpoint, content=body,
                                   headers={"Content-Type": "application/json; charset=utf-8"}) as response:
            text = _start(response)
            status = response.status_code
            wait = retry_after(response.headers.get("retry-after"), attempt, options.max_wait) \
                if status == 429 or 500 <= status < 600 else None
            return status, text, wait
    except httpx.HTTPError as exc:
        raise OSError(str(exc) or type(exc).__name__) from None
    finally:
        answer.end = None


def _start(response: httpx.Response) -> str:
    """The first words of an answer: its raw bytes undone by the check's own bounded
    decoder (``http_encoding.decoded``: every layer of Content-Encoding a chunk at a
    time, counted together), never the client's, which inflates a whole chunk at once
    (a 7 KB ``gzip, gzip`` body is 4 GiB)."""
    data = b""
    try:
        for chunk in decoded(response.iter_raw(CHUNK), response.headers.get("content-encoding", ""),
                             MAX_BYTES_PER_FILE):
            data += chunk
            if len(data) >= _SAID:
                break
    except (TooLarge, Undecodable, zlib.error) as exc:
        return f"[an answer whose Content-Encoding cannot be undone: {type(exc).__name__} {str(exc)[:80]}]"
    return data[:_SAID].decode("utf-8", "replace")


def _said(text: str) -> str:
    words = " ".join("".join(c for c in text if c.isprintable() or c.isspace()).split())[:200]
    return f" (it said: {words})" if words else ""


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def key_file(origin: str, key: str, location: str | None) -> tuple[str, str | None]:
    """Where ``origin``'s key file is fetched, and the keyLocation sent with its batches
    (None: none, the root's ``/KEY.txt``). ``location`` (``--key-location``): a path
    (``/keys/KEY.txt``) is that path on every host; a URL is used for its own origin
    only, and any other host's key file is at its root (the protocol wants keyLocation
    on the host whose URLs it vouches for)."""
    if location is None:
        return f"{origin}/{key}.txt", None
    if not location.startswith("/"):
        return (location, location) if _origin(location) == origin else (f"{origin}/{key}.txt", None)
    url = origin + "/" + location.lstrip("/")
    return url, url


def key_location_problem(location: object) -> str | None:
    """Why ``location`` is no --key-location (None: it is one): a path from a host's
    root, or an http(s) URL."""
    if location is None:
        return None
    if not isinstance(location, str) or not location.startswith(("/", "http://", "https://")) \
            or location.startswith("//") or any(c.isspace() or ord(c) < 32 for c in location):
        return "a key location is a path from each host's root (/keys/KEY.txt) or an http(s) URL on one host"
    try:
        host = urlsplit(location).netloc
    except ValueError:
        host = ""
    if not location.startswith("/") and not host:
        return "a key location is a path from each host's root (/keys/KEY.txt) or an http(s) URL on one host"
    return None


def key_problem(key: object) -> str | None:
    """Why ``key`` is no IndexNow key (None: it is one)."""
    if not isinstance(key, str) or not KEY.fullmatch(key):
        return "an IndexNow key is 8 to 128 characters of a-z, A-Z, 0-9 and '-'"
    return None


__all__ = ["DEFAULT_ENDPOINT", "MAX_BATCH", "SubmitProgress", "SubmitResult", "batches", "key_file",
           "key_location_problem", "key_problem", "submit_state"]
