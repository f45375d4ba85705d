"""A check of a live site: what to fetch for each URL given, and what robots.txt says.

A URL given to ``check`` is one of: a robots.txt (its ``Sitemap:`` lines), a sitemap,
an index or a feed (by its content), or any other page of a site (its host's
robots.txt, then the usual locations). The files found are fetched (``read/http.py``)
into a temporary folder and checked there by the same readers and rules as local
files; every finding names the URL, never the temporary file. Each host's robots.txt
is read once with Protego: its ``Sitemap:`` lines are submissions (a sitemap listed
there may list URLs outside its folder, and on the robots.txt's host when the
sitemap lives elsewhere), and its rules judge the listed URLs (R107).

Sources: sitemaps.org ("Informing search engine crawlers": robots.txt; the sitemap's
location; cross-submission); Google, "Build and submit a sitemap" and "Manage your
sitemaps using the Sitemaps report" (couldn't fetch, HTTP errors, redirects);
RFC 9309 (robots.txt: 4xx means no rules, redirects followed up to five hops, at least
the first 500 KiB read).

What the user gave and what the site lists are told apart: a URL given that cannot
be fetched is the check's failure to read its input (R101, R106: exit 3); a sitemap
or page the site lists that cannot be fetched is a defect of the site
(``LISTED_UNFETCHED``: exit 1). The user's headers go to the origins of the URLs
given only (``Fetcher.trust``).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..diagnostics import Collector, Where
from ..folder import report_cache_removed
from ..limits import HEAD_LIMIT
from ..urls import origin_text
from .http_types import Fetched, FetchOptions
from .robots import CRAWLER, parse_robots
from .sniff import SITEMAP_KINDS, is_sitemap, sniff

if TYPE_CHECKING:
    from .http import Fetcher

USUAL_PLACES = ("/sitemap.xml", "/sitemap_index.xml", "/sitemap-index.xml", "/sitemap.xml.gz", "/sitemap.txt")
_CONTENT_TYPES = ("xml", "text/plain", "gzip", "octet-stream")  # what a sitemap may be served as (by substring)
_ROBOTS_LIMIT = 500 * 1024  # Google reads the first 500 KiB of a robots.txt (RFC 9309: at least 500 KiB)
PAGE_WINDOW = 64  # pages fetched, then judged and their files freed, at a time
CHILD_WINDOW = 8  # an index's children fetched, then judged and freed, at a time (8 x 50 MiB on disk at most)
# A sitemap or page the site lists that cannot be fetched: a defect of the site (exit 1),
# not a failure to read what the user gave (R101, exit 3).
LISTED_UNFETCHED = "R110"


def is_url(text: str) -> bool:
    return text[:8].lower().startswith(("http://", "https://", "file://"))


@dataclass
class Input:
    """A fetched sitemap to check (its file), and whether its host's robots.txt lists it."""

    fetched: Fetched
    submitted: bool = False


@dataclass
class Robots:
    fetched: Fetched
    text: str | None  # None: no robots.txt (4xx, or none could be fetched)
    sitemaps: list[tuple[str, int]] = field(default_factory=list)  # (URL, line)

    @property
    def url(self) -> str:
        return self.fetched.url


class Remote:
    """The live side of one check: the client, the fetched files, each host's robots.txt."""

    def __init__(self, options: FetchOptions, collector: Collector,
                 progress: Callable[[str], None] | None = None) -> None:
        self.options = options
        self.collector = collector
        self.progress = progress
        from .http import Fetcher  # (the client and its transport load for a URL given: a check of files loads none)

        self._folder = tempfile.TemporaryDirectory(prefix="sitemap-ext-live-")
        self.fetcher: Fetcher = Fetcher(options, self._folder.name)
        self.robots: dict[str, Robots] = {}  # origin -> its robots.txt
        self._fetched: dict[str, Fetched] = {}
        self._kept: set[int] = set()  # the ids of the Fetched of inputs: their files stay for the whole check

    def close(self) -> None:
        for path, reason in self.fetcher.cache.damaged if self.fetcher.cache is not None else ():
            report_cache_removed(self.collector, path, reason)
        self.fetcher.close()
        self._folder.cleanup()

    # --- fetching -----------------------------------------------------------------------

    def fetch(self, url: str, *, head_only: bool = False) -> Fetched:
        found = self._fetched.get(url)
        if found is None:
            found = self._fetched[url] = self.fetcher.get(url, limit=HEAD_LIMIT + 1, head_only=True) if head_only \
                else self.fetcher.get(url)
        return found

    def release(self, fetched: Fetched) -> None:
        """A fetched file judged: deleted (unless it is an input's, read again when the
        check is run again), and fetched anew if it is asked for again."""
        if id(fetched) in self._kept or fetched.path is None:
            return
        if self._fetched.get(fetched.url) is fetched:
            del self._fetched[fetched.url]
        self.fetcher.release(fetched.path)
        fetched.path = None

    def fetch_many(self, urls: Iterable[str], *, head_only: bool = False) -> list[Fetched]:
        """Each URL fetched (threads; the client keeps each host to its share), in order."""
        urls = list(urls)
        distinct = list(dict.fromkeys(urls))  # (a URL named twice is fetched once: no race on the memo)
        if len(distinct) <= 1:
            answers = [self.fetch(url, head_only=head_only) for url in distinct]
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=8) as pool:
                answers = list(pool.map(lambda url: self.fetch(url, head_only=head_only), distinct))
        by_url = dict(zip(distinct, answers, strict=True))
        return [by_url[url] for url in urls]

    def robots_of(self, url: str) -> Robots:
        """The robots.txt of the URL's host (fetched once)."""
        origin = origin_text(url).lower()
        found = self.robots.get(origin)
        if found is None:
            fetched = self.fetcher.get(origin + "/robots.txt", limit=_ROBOTS_LIMIT + 1, prefix=True)
            if fetched.status is not None and fetched.status >= 500:  # (4xx: no rules, as if there were none)
                self.collector.report("R102", f"{fetched.url} answers HTTP {fetched.status}: while a robots.txt "
                                      "cannot be read, Google crawls nothing of the host (RFC 9309: unreachable "
                                      "means disallowed); the rest of this check reads it as if it had no rules",
                                      Where(fetched.url), url=fetched.url)
            text = None
            if fetched.ok and fetched.path is not None:
                with open(fetched.path, "rb") as handle:
                    data = handle.read(_ROBOTS_LIMIT + 1)
                self.fetcher.release(fetched.path)
                if len(data) > _ROBOTS_LIMIT:  # longer: its first 500 KiB, to the end of their last whole line
                    data = data[:_ROBOTS_LIMIT]
                    data = data[:data.rfind(b"\n") + 1]
                text = data.decode("utf-8", "replace")
            found = self.robots[origin] = Robots(fetched, text, sitemap_lines(text or ""))
        return found

    def allows(self, url: str) -> bool:
        """Whether the URL's host's robots.txt lets Googlebot fetch it (read first)."""
        text = self.robots_of(url).text
        if text is None:
            return True
        try:
            return bool(parse_robots(text).can_fetch(url, CRAWLER))
        except Exception:
            return True

    # --- what each URL given leads to -------------------------------------------------------

    def inputs(self, urls: list[str]) -> list[Input]:
        """The sitemaps the URLs given lead to, fetched; what cannot be fetched is reported."""
        found: list[Input] = []
        for url in urls:
            self.fetcher.trust(url)
        from .http import refused

        for url in urls:
            if url.lower().startswith("file://"):
                self.collector.report(*refused("file:// URLs are not fetched; give the file's path instead"),
                                      Where(url), url=url)
                continue
            if url.split("?", 1)[0].lower().endswith("/robots.txt"):
                found += self._from_robots(url, given=True)
                continue
            if _path(url) not in ("", "/"):  # a site's root is the site: nothing to fetch of it
                fetched = self.fetch(url)
                if not self.answered(fetched, Where(url)):
                    continue
                if _holds_sitemap(fetched):
                    found.append(Input(fetched, url in self._submitted(url)))
                    continue
            # A page of the site: its robots.txt names the sitemaps, else the usual places.
            named = self._from_robots(origin_text(url).lower() + "/robots.txt", given=False)
            robots = self.robots_of(url).fetched
            if robots.problem is not None and robots.problem[0] in ("R101", "R106"):
                self.answered(robots, Where(url))  # the site cannot be reached (or may not be): that, not R108
                continue
            if not named:
                named = self._usual(url)
            if not named:
                self.collector.report("R108", f"{origin_text(url)} names no sitemap in its robots.txt and has none at "
                                      f"{', '.join(USUAL_PLACES)}; give the sitemap's URL, or add a Sitemap: line "
                                      "to robots.txt", Where(url), url=url)
            found += named
        self._kept |= {id(given.fetched) for given in found}
        return found

    def _from_robots(self, url: str, *, given: bool) -> list[Input]:
        robots = self.robots_of(url)
        if robots.text is None:
            if given:
                self.answered(robots.fetched, Where(url))
            return []
        inputs = []
        located = self.fetch_many([sitemap for sitemap, _ in robots.sitemaps])
        for (_, line), fetched in zip(robots.sitemaps, located, strict=True):
            if self.answered(fetched, Where(robots.url, line), listed=True):
                inputs.append(Input(fetched, True))
        return inputs

    def _usual(self, url: str) -> list[Input]:
        origin = origin_text(url)
        for place in USUAL_PLACES:
            fetched = self.fetch(origin + place)
            if fetched.ok and _holds_sitemap(fetched):
                return [Input(fetched, False)]
        return []

    def _submitted(self, url: str) -> set[str]:
        return {sitemap for sitemap, _ in self.robots_of(url).sitemaps}

    def answered(self, fetched: Fetched, where: Where, collector: Collector | None = None, *,
                 listed: bool = False) -> bool:
        """Report what went wrong in fetching a sitemap or robots.txt (at ``where``, the
        place that names it; to ``collector``, else the check's); True when there is a
        body to check. ``listed``: the site names it (a robots.txt line, an index
        entry), and not the user: a failure to fetch it is the site's."""
        report = (collector or self.collector).report
        url = fetched.url
        if fetched.problem is not None:
            code, message = fetched.problem
            if listed and code == "R101":
                code = LISTED_UNFETCHED
            if code == "X109":  # (a finding of the file itself: it is too large)
                report(code, message, Where(url), url=url)
            else:
                report(code, f"{url}: {message}", where, url=url)
            return False
        if fetched.status is not None and not 200 <= fetched.status < 300:
            reason = {404: "not found", 410: "gone", 403: "forbidden", 401: "needs authentication",
                      429: "too many requests, after retries", 503: "unavailable, after retries"}.get(fetched.status)
            report("R102", f"{url} answers HTTP {fetched.status}" + (f" ({reason})" if reason else "")
                   + "; search engines report it as 'Couldn't fetch' and read nothing of it", where, url=url)
            return False
        if fetched.hops:
            report("R103", f"{url} redirects ({fetched.chain}); list and submit the final URL: a sitemap's location "
                   "decides which URLs it may list", where, url=url, suggestion=fetched.final)
        if fetched.path is None:
            return False
        media = fetched.media_type
        if media and not any(part in media for part in _CONTENT_TYPES) and \
                sniff(fetched.path).kind in SITEMAP_KINDS + ("text",):
            report("R105", f"{url} is served as {media}; serve a sitemap as application/xml, text/xml "
                   "or text/plain (a .gz as application/gzip)", where, url=url)
        return True

    # --- pages --------------------------------------------------------------------------------

    def pages(self, urls: list[str], budget: int | None, delay: float) -> Iterator[list[Fetched]]:
        """The heads of listed pages and alternates (at most ``budget``; None: all), in
        order, ``PAGE_WINDOW`` at a time (the caller judges and frees each window before
        the next is fetched). Without ``delay``, several at a time (at most ``per_host``
        to one host); with it, one at a time, ``delay`` seconds apart on one host.
        Progress (counts, rate, time left) goes to ``progress`` about once a second."""
        chosen = urls if budget is None else urls[:budget]
        meter = _Meter(len(chosen), self.progress)
        last: dict[str, float] = {}
        from concurrent.futures import ThreadPoolExecutor, as_completed

        with ThreadPoolExecutor(max_workers=8) as pool:
            for start in range(0, len(chosen), PAGE_WINDOW):
                window = chosen[start:start + PAGE_WINDOW]
                if not delay:
                    futures = [pool.submit(self.fetch, url, head_only=True) for url in window]
                    for _ in as_completed(futures):
                        meter.step()
                    yield [future.result() for future in futures]
                    continue
                done: list[Fetched] = []
                for url in window:
                    host = origin_text(url).lower()
                    if host in last:
                        pause = last[host] + delay - time.monotonic()
                        if pause > 0:
                            time.sleep(pause)
                    done.append(self.fetch(url, head_only=True))
                    last[host] = time.monotonic()
                    meter.step()
                yield done


class _Meter:
    """Progress of a run of requests: a line now and then, and one at the end."""

    def __init__(self, total: int, progress: Callable[[str], None] | None) -> None:
        self.total, self.progress = total, progress
        self.done = 0
        self.started = self.shown = time.monotonic()

    def step(self) -> None:
        self.done += 1
        if self.progress is None:
            return
        now = time.monotonic()
        if self.done == self.total:
            self.progress(f"pages: {self.done:,}/{self.total:,} fetched in {now - self.started:,.1f} s")
        elif now - self.shown >= 1.0:
            self.shown = now
            rate = self.done / max(now - self.started, 1e-6)
            left = (self.total - self.done) / rate
            self.progress(f"pages: {self.done:,}/{self.total:,} fetched, {rate:,.1f}/s, about {left:,.0f} s left")


def _path(url: str) -> str | None:
    """The URL's path; None for a URL that does not parse (fetching it says why)."""
    try:
        return urlsplit(url).path
    except ValueError:
        return None


def _holds_sitemap(fetched: Fetched) -> bool:
    """Whether a fetched body is one to judge as a sitemap (by its content, as a file's is)."""
    return fetched.path is not None and is_sitemap(fetched.path, sniff(fetched.path))


def sitemap_lines(text: str) -> list[tuple[str, int]]:
    """The ``Sitemap:`` lines of a robots.txt, with their line numbers (RFC 9309 leaves
    them outside groups; Google takes any number)."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        name, _, value = line.partition(":")
        value = value.split("#", 1)[0].strip()
        if name.strip().lower() == "sitemap" and value:
            found.append((value, number))
    return found


__all__ = ["Input", "Remote", "Robots", "is_url", "sitemap_lines"]
