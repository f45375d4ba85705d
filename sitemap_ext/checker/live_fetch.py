"""A live check: the sitemaps fetched for the URLs given, an index's children
fetched a window at a time, and the pages they list fetched (their heads) within a
budget; each file judged here as it comes and freed once judged (``read/live.py``
fetches, ``check_file`` judges).
"""

from __future__ import annotations

from .. import rules
from ..diagnostics import Where
from ..read.html import says_noindex
from ..read.http import Fetched
from ..read.live import CHILD_WINDOW, LISTED_UNFETCHED, Input
from ..read.sniff import sniff
from ..urls import url_key
from .header_files import HeaderFiles
from .judge_file import Task, check_file
from .run_state import RunState
from .workers import work_batch


class LiveFetching:
    """The steps of a check that fetch (with the state's fetcher, ``remote``); a fetched
    URL's Link header goes to ``headers``."""

    def __init__(self, state: RunState, headers: HeaderFiles) -> None:
        self.state = state
        self.headers = headers

    def fetched_task(self, given: Input) -> Task | None:
        """A sitemap fetched for a URL given (its file, named by its URL)."""
        fetched = given.fetched
        assert fetched.path is not None
        if not self._first(fetched.final):
            return None
        submitted = given.submitted or fetched.url in self.state.submitted or fetched.final in self.state.submitted
        return Task(fetched.path, fetched.final, submitted, sniff(fetched.path), display=fetched.url)

    def _first(self, url: str) -> bool:
        """Whether a fetched file's final URL is met for the first time (a file is read once)."""
        key = "\0url:" + url  # (beside the real paths of local files: no path holds a NUL)
        if key in self.state.done:
            return False
        self.state.done.add(key)
        return True

    def fetched_children(self, task: Task, children: list[tuple[str, int]]) -> list[Task]:
        """A fetched index's children: fetched ``CHILD_WINDOW`` at a time and judged here
        as they come, each file freed once judged, so that the disk holds a window of
        children and never all of them. Nothing is left to plan (the empty list)."""
        remote = self.state.remote
        assert remote is not None
        display = task.display or task.path
        for start in range(0, len(children), CHILD_WINDOW):
            window = children[start:start + CHILD_WINDOW]
            for (child_url, line), fetched in zip(window, remote.fetch_many([url for url, _ in window]), strict=True):
                where = Where(display, line)
                same = child_url == task.url or child_url == task.display
                if same or remote.answered(fetched, where, self.state.collector, listed=True):
                    sniffed = None if same or fetched.path is None else sniff(fetched.path)
                    if self.state.child_ok(same, sniffed, child_url, where, child_url) and self._first(fetched.final):
                        assert fetched.path is not None and sniffed is not None
                        submitted = task.submitted or fetched.final in self.state.submitted
                        child = Task(fetched.path, fetched.final, submitted, sniffed, display=child_url)
                        self.state.merge(check_file(child, self.state.options, self.state.noted))
                remote.release(fetched)
        return []

    def live_pages(self) -> list[Task]:
        """The listed URLs and their alternates that robots.txt lets Googlebot fetch (the
        others are R107 and never fetched), fetched (their heads) within the budget a
        window at a time, and judged here: each one that answers is a page checked, each
        that does not a finding; each file is freed once judged. Nothing is left to plan."""
        remote = self.state.remote
        assert remote is not None
        reported = {d.url for d in self.state.collector.diagnostics if d.code == "R107"}
        urls = []
        for url in self.state.clusters.named_urls():
            if remote.allows(url):
                urls.append(url)
            elif url not in reported:
                rules.robots.named_disallowed(self.state.collector.report, url, Where(url))
        for window in remote.pages(urls, self.state.pages_budget, self.state.pages_delay):
            tasks = [task for task in map(self._live_page, window) if task is not None]
            if tasks:
                results, log = work_batch(tasks, self.state.options, self.state.noted)
                for result in results:
                    self.state.merge(result)
                if log is not None:
                    self.state.clusters.add(None, log)
            for fetched in window:
                link = fetched.headers.get("link") if fetched.ok and not fetched.hops else None
                if link:  # (an HTML page or not, a PDF: the Link header is the third method)
                    self.headers.link_header(fetched.url, link)
                remote.release(fetched)
        return []

    def _live_page(self, fetched: Fetched) -> Task | None:
        """A fetched page: a page to check, or what it answered instead (a finding, its status)."""
        key = url_key(fetched.url)
        where = Where(fetched.url)
        if fetched.problem is not None and fetched.problem[0] in ("R101", "R104", "R106"):
            code = LISTED_UNFETCHED if fetched.problem[0] == "R101" else fetched.problem[0]
            self.state.collector.report(code, f"{fetched.url}: {fetched.problem[1]}", where, url=fetched.url)
            self.state.page_status[key] = f"it cannot be fetched ({fetched.problem[1]})"
            return None
        if fetched.hops:
            self.state.collector.report("R109", f"{fetched.url} redirects ({fetched.chain}); list and name the final "
                                        "URL: search engines take a redirect's target, and hreflang links to a "
                                        "redirect are not followed", where, url=fetched.url, suggestion=fetched.final)
            self.state.page_status[key] = None  # (its redirect is the finding)
            return None
        if not fetched.ok or fetched.path is None:
            status = f"it answers HTTP {fetched.status}" if fetched.status else "it cannot be fetched"
            self.state.page_status[key] = status
            return None
        self.state.page_status[key] = None
        if fetched.media_type and "html" not in fetched.media_type:
            return None  # a PDF, an image: no head to read
        noindex = says_noindex(fetched.headers.get("x-robots-tag", ""))
        return Task(fetched.path, fetched.url, False, None, display=fetched.url, noindex=noindex)
