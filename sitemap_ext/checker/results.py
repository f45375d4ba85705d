"""The results of a check merged, in a fixed order, and the built site they tell of.

``Results`` owns what the check found (the file records, the findings, the cluster
index) and the batches handed to the workers and not yet taken; ``BuiltPages`` owns
what is known of a built site (the pages read or fetched, the folders they came from,
those that are noindex or canonical elsewhere, those to list), and hands the cluster
rules what they ask of it once every file is merged.
"""

from __future__ import annotations

import os
from array import array
from typing import TYPE_CHECKING, Any

from ..diagnostics import Collector, Diagnostic, Where
from ..folder import is_error_page, is_view
from ..read.description_file import display_name
from ..read.html import name_is_utf8, page_url, served_in
from ..read.sniff import Sniffed
from ..rules.cluster_log import OWN, ClusterLog
from ..rules.clusters import ClusterIndex, Excluded
from ..rules.files import name_not_utf8
from ..urls import url_key
from .judge_file import FileResult
from .placing import place
from .workers import Pending

if TYPE_CHECKING:
    from ..rules.spill import SpillFolder


class BuiltPages:
    """The pages of a built site a check read (from disk, or fetched), by URL key."""

    def __init__(self, collector: Collector, roots: list[tuple[str, str]], html: str) -> None:
        self.collector = collector
        self.roots = roots  # --base-url's (prefix, real folder), longest prefix first
        self.drop_html = html == "drop-ext"
        self.read: set[int] = set()  # the url_key of every built page read
        self.excluded: dict[int, Excluded] = {}  # built pages that are noindex or canonical elsewhere
        self.indexable = array("q")  # the keys of the pages to list
        self.folders: dict[str, str] = {}  # URL prefix -> folder, where built pages were read
        self.status: dict[int, str | None] = {}  # fetched page key -> None (2xx) or why not

    def page_url(self, real: str, siblings: frozenset[str] | None = None) -> str | None:
        """A built page's URL, through --base-url and the conventions of --html
        (``siblings``: the files beside it, where the walk listed them)."""
        for prefix, root in self.roots:
            if real.startswith(root + os.sep):
                relative = "/".join(real[len(root) + 1:].split(os.sep))
                if is_error_page(relative):  # served with an error status: no page, in any language
                    return None
                if relative.endswith(".html") and is_view(real, siblings):  # a build's HTML view of its sitemaps
                    return None
                if not name_is_utf8(relative):
                    name_not_utf8(self.collector.report, Where(display_name(real)))
                    return None
                self.folders[prefix] = root  # (this prefix's folder is a built site: its URLs have files)
                return page_url(relative, prefix, drop_html=self.drop_html)
        return None

    def add(self, file: str, page: tuple[str, int, bool, str | None]) -> None:
        """A page read: its URL, line, whether noindex, and its canonical URL."""
        url, line, noindex, canonical = page
        key = url_key(url)
        self.read.add(key)
        if noindex or canonical is not None:
            self.excluded[key] = Excluded(file, line, url, noindex, canonical)
        elif key not in self.status:  # (a fetched page: whether it is listed is no question here)
            self.indexable.append(key)

    def fetched(self, url: str, status: str | None) -> None:
        """A page of a live site fetched: None (it answered), or why it cannot be read."""
        self.status[url_key(url)] = status

    def serves(self, url: str, key: int) -> bool | str | None:
        """Whether a file of the built site serves ``url``: a page read, or a file where
        the URL's path leads (itself, its index.html, or its path with .html). None for
        a URL outside every folder that held built pages. A page of a live site fetched:
        True, or why not (a string)."""
        if key in self.status:
            status = self.status[key]
            return True if status is None else status
        if key in self.read:
            return True
        return served_in(url, self.folders)

    def judge(self, clusters: ClusterIndex) -> None:
        """Every rule across files, with what the built or fetched pages ask, once every
        file is merged (``ClusterIndex.judge_all``, as a build calls it)."""
        clusters.judge_all(self.excluded, self.serves if self.folders or self.status else None, self.indexable)


class Results:
    """What one check found, merged in a fixed order whatever the number of jobs."""

    def __init__(self, collector: Collector, site: BuiltPages) -> None:
        self.collector = collector
        self.site = site
        self.clusters = ClusterIndex(collector)
        self.files: list[dict[str, object]] = []
        self._resniffed: list[tuple[str, Sniffed]] = []  # named as pages, holding something else
        self._handed: list[Pending] = []  # batches handed over, not yet taken; oldest first
        self.crowded: dict[str, str] = {}  # display -> path: XML files whose entries share lines
        # The join across files elsewhere (``keep_logs``): every cluster log in the order taken
        # (a worker's, as a future, or one of this process's), whether some give a URL's own
        # annotations (a page's head, Link headers), and what the join counted.
        self.logs: list[Any] | None = None
        self.own = False
        self.counted: tuple[int, int] | None = None

    def keep_logs(self) -> None:
        """Before any file is merged: the cluster logs kept in order, not added to the index."""
        self.logs = []

    def _log(self, display: str | None, log: Any) -> None:
        if self.logs is None:
            self.clusters.add(display, log)
            return
        if isinstance(log, ClusterLog):
            if display is not None:
                log.of_file(display)
            self.own = self.own or any(bytes((kind,)) in log.kinds.tobytes() for kind in OWN)
        self.logs.append(log)

    def listed(self) -> tuple[int, int]:
        """The distinct URLs listed and the alternates given (``ClusterIndex.listed``)."""
        return self.counted if self.counted is not None else self.clusters.listed()

    def spill_into(self, folder: SpillFolder) -> None:
        """Before any file is merged: the cluster index kept within ``folder``'s memory
        budget, its columns spilled into the folder past it (``--memory-budget``)."""
        self.clusters = ClusterIndex(self.collector, folder)

    def merge(self, result: FileResult) -> None:
        if result.resniffed is not None:  # named as a page, it is none: planned again at the end
            self._resniffed.append(result.resniffed)
            return
        self.files.append(result.record)
        if result.crowded is not None:
            self.crowded[str(result.record["file"])] = result.crowded
        self.collector.merge(result.diagnostics, result.suppressed, result.ignored)
        if result.log is not None:
            self._log(str(result.record["file"]), result.log)
        if result.page is not None:
            self.own = True  # (a built page's head: its log may be a worker's, unseen here)
            self.site.add(str(result.record["file"]), result.page)

    def place_across(self) -> None:
        """The findings across files in files whose entries share lines (a minified
        sitemap), each at its element (``placing.place``), as a file's own are."""
        if not self.crowded:
            return
        mine: dict[str, list[Diagnostic]] = {}
        for diag in self.collector.diagnostics:
            if diag.file in self.crowded and diag.column is None and diag.url is not None:
                mine.setdefault(diag.file, []).append(diag)
        placed: dict[int, Diagnostic] = {}
        for display, diagnostics in mine.items():
            placed.update(zip(map(id, diagnostics), place(self.crowded[display], diagnostics, True), strict=True))
        self.collector.moved(placed)

    def next_set_aside(self) -> tuple[str, Sniffed] | None:
        """The next file set aside as named a page and holding something else (its
        content sniffed), oldest first; None when there is none."""
        return self._resniffed.pop(0) if self._resniffed else None

    def batch(self, results: list[FileResult], log: Any) -> None:
        """A batch's results, and the cluster log its pages share."""
        for result in results:
            self.merge(result)
        if log is not None:
            self._log(None, log)

    def named_urls(self) -> list[str]:
        """Every URL the files merged list or name as an alternate (the cluster index's)."""
        return self.clusters.named_urls()

    def take(self, pending: Pending) -> None:
        self.batch(*pending.result())

    def hand_over(self, pending: Pending) -> int:
        """A batch handed to the workers, taken later in the order handed; how many wait."""
        self._handed.append(pending)
        return len(self._handed)

    def take_oldest(self) -> None:
        self.take(self._handed.pop(0))

    def take_handed(self) -> None:
        """Every batch handed over, oldest first."""
        while self._handed:
            self.take_oldest()
