"""A live check: the sitemaps fetched for the URLs given, an index's children
fetched a window at a time, and the pages they list fetched (their heads) within a
budget; each file judged here as it comes and freed once judged (``read/live.py``
fetches, ``check_file`` judges).
"""

from __future__ import annotations

from ..diagnostics import Where
from ..read.html import says_noindex
from ..read.http_types import Fetched
from ..read.live import CHILD_WINDOW, LISTED_UNFETCHED, Input, Remote
from ..read.sniff import sniff
from ..rules.robots import named_disallowed
from .header_files import HeaderFiles
from .inputs import Inputs, Judging, child_ok
from .judge_file import Task
from .results import BuiltPages, Results
from .workers import work_batch


class LiveFetching:
    """The steps of a check that fetch (with its fetcher, ``remote``: None for a check
    of local files alone); a fetched URL's Link header goes to ``headers``."""

    def __init__(self, judging: Judging, inputs: Inputs, results: Results, site: BuiltPages, headers: HeaderFiles,
                 remote: Remote | None = None, given: tuple[Input, ...] = (), budget: int | None = 0,
                 delay: float = 0.0) -> None:
        self.judging = judging
        self.inputs = inputs
        self.results = results
        self.site = site
        self.headers = headers
        self.remote = remote
        self.given = given  # sitemaps fetched for the URLs given
        self.budget = budget  # the pages to fetch (None: all)
        self.delay = delay

    @property
    def on(self) -> bool:
        """Whether this is a live check (URLs among its inputs)."""
        return self.remote is not None

    def given_tasks(self) -> list[Task | None]:
        """The sitemaps fetched for the URLs given, each a task (None: met already)."""
        return [self.fetched_task(given) for given in self.given]

    def fetched_task(self, given: Input) -> Task | None:
        """A sitemap fetched for a URL given (its file, named by its URL)."""
        fetched = given.fetched
        assert fetched.path is not None
        if not self.inputs.first_fetch(fetched.final):
            return None
        submitted = given.submitted or self.inputs.is_submitted(fetched.url) or self.inputs.is_submitted(fetched.final)
        return Task(fetched.path, fetched.final, submitted, sniff(fetched.path), display=fetched.url)

    def fetched_children(self, task: Task, children: list[tuple[str, int]]) -> list[Task]:
        """A fetched index's children: fetched ``CHILD_WINDOW`` at a time and judged here
        as they come, each file freed once judged, so that the disk holds a window of
        children and never all of them. Nothing is left to plan (the empty list)."""
        remote = self.remote
        assert remote is not None
        display = task.display or task.path
        for start in range(0, len(children), CHILD_WINDOW):
            window = children[start:start + CHILD_WINDOW]
            for (child_url, line), fetched in zip(window, remote.fetch_many([url for url, _ in window]), strict=True):
                where = Where(display, line)
                same = child_url == task.url or child_url == task.display
                if same or remote.answered(fetched, where, self.judging.collector, listed=True):
                    sniffed = None if same or fetched.path is None else sniff(fetched.path)
                    if child_ok(self.judging.collector, same, sniffed, child_url, where, child_url) \
                            and self.inputs.first_fetch(fetched.final):
                        assert fetched.path is not None and sniffed is not None
                        submitted = task.submitted or self.inputs.is_submitted(fetched.final)
                        child = Task(fetched.path, fetched.final, submitted, sniffed, display=child_url)
                        self.results.merge(self.judging.judge(child))
                remote.release(fetched)
        return []

    def live_pages(self) -> list[Task]:
        """The listed URLs and their alternates that robots.txt lets Googlebot fetch (the
        others are R107 and never fetched), fetched (their heads) within the budget a
        window at a time, and judged here: each one that answers is a page checked, each
        that does not a finding; each file is freed once judged. Nothing is left to plan."""
        remote = self.remote
        assert remote is not None
        reported = {d.url for d in self.judging.collector.diagnostics if d.code == "R107"}
        urls = []
        for url in self.results.named_urls():
            if remote.allows(url):
                urls.append(url)
            elif url not in reported:
                named_disallowed(self.judging.collector.report, url, Where(url))
        for window in remote.pages(urls, self.budget, self.delay):
            tasks = [task for task in map(self._live_page, window) if task is not None]
            if tasks:
                self.results.batch(*work_batch(tasks, self.judging.options, self.judging.noted))
            for fetched in window:
                link = fetched.headers.get("link") if fetched.ok and not fetched.hops else None
                if link:  # (an HTML page or not, a PDF: the Link header is the third method)
                    self.headers.link_header(fetched.url, link)
                remote.release(fetched)
        return []

    def _live_page(self, fetched: Fetched) -> Task | None:
        """A fetched page: a page to check, or what it answered instead (a finding, its status)."""
        where = Where(fetched.url)
        if fetched.problem is not None and fetched.problem[0] in ("R101", "R104", "R106"):
            code = LISTED_UNFETCHED if fetched.problem[0] == "R101" else fetched.problem[0]
            self.judging.collector.report(code, f"{fetched.url}: {fetched.problem[1]}", where, url=fetched.url)
            self.site.fetched(fetched.url, f"it cannot be fetched ({fetched.problem[1]})")
            return None
        if fetched.hops:
            self.judging.collector.report("R109", f"{fetched.url} redirects ({fetched.chain}); list and name the "
                                          "final URL: search engines take a redirect's target, and hreflang links to "
                                          "a redirect are not followed", where, url=fetched.url,
                                          suggestion=fetched.final)
            self.site.fetched(fetched.url, None)  # (its redirect is the finding)
            return None
        if not fetched.ok or fetched.path is None:
            status = f"it answers HTTP {fetched.status}" if fetched.status else "it cannot be fetched"
            self.site.fetched(fetched.url, status)
            return None
        self.site.fetched(fetched.url, None)
        if fetched.media_type and "html" not in fetched.media_type:
            return None  # a PDF, an image: no head to read
        noindex = says_noindex(fetched.headers.get("x-robots-tag", ""))
        return Task(fetched.path, fetched.url, False, None, display=fetched.url, noindex=noindex)
