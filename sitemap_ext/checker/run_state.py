"""What one check holds as it goes, and where its files and URLs are.

``RunState`` is the check's state (the files merged, the built pages read, the
cluster index) with the steps every part of a check takes: a file planned once
(``task``), a result merged in the fixed order (``merge``), a file found for a
URL and a URL for a file (``--base-url``, the conventions of ``--html``), and an
index's entry judged before it is followed (X110, X118). The parts of a check are
objects that each hold this one state (never subclasses of it): ``HeaderFiles``,
``LiveFetching``, ``IndexFollowing``, ``FolderWalk``, composed by ``Run``.
"""

from __future__ import annotations

import os
from array import array
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from .. import rules
from ..diagnostics import Collector, Where
from ..folder import is_view
from ..read.description_file import display_name
from ..read.html import name_is_utf8, page_url, served
from ..read.live import Input, Remote
from ..read.site_sources import is_error_page
from ..read.sniff import Sniffed
from ..rules.clusters import ClusterIndex, Excluded
from ..safeio import inside, regular_file
from ..urls import url_key
from .judge_file import FileResult, Options, Task, is_page
from .workers import Pending

if TYPE_CHECKING:
    from .header_files import HeaderSite


@dataclass
class RunState:
    """One check of many files: what it holds, and the steps its parts share."""

    collector: Collector
    options: Options
    files: list[dict[str, object]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # files in folders that are no sitemaps
    submitted: set[str] = field(default_factory=set)  # sitemap URLs named by robots.txt files
    noted: set[tuple[str, str]] = field(default_factory=set)
    done: set[str] = field(default_factory=set)  # the real paths (and "\0url:" fetched URLs) planned: each read once
    real: dict[str, str] = field(default_factory=dict)  # a walked file's real path (found once, in FolderWalk.walk)
    roots: tuple[str, ...] = ()  # the folders an index's children may come from
    clusters: ClusterIndex = field(init=False)
    excluded: dict[int, Excluded] = field(default_factory=dict)  # built pages that are noindex or canonical elsewhere
    pages: set[int] = field(default_factory=set)  # the url_key of every built page read
    indexable: array[int] = field(default_factory=lambda: array("q"))  # the keys of the pages to list
    page_roots: dict[str, str] = field(default_factory=dict)  # URL prefix -> folder, where built pages were read
    resniffed: list[tuple[str, Sniffed]] = field(default_factory=list)  # named as pages, holding something else
    _roots_of: list[tuple[str, str]] | None = None
    page_batches: list[Pending] = field(default_factory=list)  # handed over, not yet taken; oldest first
    displays: dict[str, str] = field(default_factory=dict)  # a file's name in findings, when not its path
    remote: Remote | None = None  # a live check: the fetcher and what robots.txt files say
    remote_inputs: list[Input] = field(default_factory=list)  # sitemaps fetched for the URLs given
    pages_budget: int | None = 0  # a live check's pages to fetch (None: all)
    pages_delay: float = 0.0
    page_status: dict[int, str | None] = field(default_factory=dict)  # fetched page key -> None (2xx) or why not
    header_sites: list[HeaderSite] = field(default_factory=list)  # folders walked with _headers or vercel.json

    def __post_init__(self) -> None:
        self.clusters = ClusterIndex(self.collector)


    def task(self, path: str, sniffed: Sniffed | None, url: str | None, submitted: bool,
              siblings: frozenset[str] | None = None) -> Task | None:
        real = self.real.pop(path, None) or os.path.realpath(path)
        if real in self.done:
            return None
        if sniffed is None or is_page(path, sniffed):
            url = self._page_url(real, siblings) if self.options.html != "off" else None
            if url is None:  # a page whose URL is not known (no --base-url for its folder)
                self.skipped.append(display_name(path))
                return None
        self.done.add(real)
        url = url or self.url_of(real)
        return Task(path, url, submitted or (url is not None and url in self.submitted), sniffed,
                    display=self.displays.get(path))

    def take(self, pending: Pending) -> None:
        results, log = pending.result()
        for result in results:
            self.merge(result)
        if log is not None:
            self.clusters.add(None, log)

    def merge(self, result: FileResult) -> None:
        if result.resniffed is not None:  # named as a page, it is none: planned again at the end
            self.resniffed.append(result.resniffed)
            return
        self.files.append(result.record)
        self.collector.merge(result.diagnostics, result.suppressed, result.ignored)
        if result.log is not None:
            self.clusters.add(str(result.record["file"]), result.log)
        if result.page is not None:
            url, line, noindex, canonical = result.page
            key = url_key(url)
            self.pages.add(key)
            if noindex or canonical is not None:
                self.excluded[key] = Excluded(str(result.record["file"]), line, url, noindex, canonical)
            elif key not in self.page_status:  # (a fetched page: whether it is listed is no question here)
                self.indexable.append(key)

    def child_ok(self, same: bool, sniffed: Sniffed | None, name: str, where: Where, url: str) -> bool:
        """X118 (an index that lists itself), X110 (a child that is an index itself): such
        an entry is not followed. True for a child to check."""
        if same:
            self.collector.report("X118", "the index lists itself; an index lists sitemaps, and search engines "
                                  "reject one that names an index: remove this entry", where, url=url)
            return False
        if sniffed is not None and sniffed.kind == "sitemapindex":
            self.collector.report("X110", f"{name} is itself a sitemap index; an index may list sitemaps only", where,
                                  url=url)
            return False
        return True

    # --- files and URLs ------------------------------------------------------------------

    def locate(self, index_path: str, url: str) -> tuple[str, str | None] | None:
        """The child's file, and the index's own URL as inferred from where it was found."""
        for prefix, folder in self.options.base_urls:
            if url.startswith(prefix):
                candidate = os.path.join(folder, *unquote(url[len(prefix):]).split("/"))
                if self._inside(candidate):
                    return candidate, None
        try:
            segments = [s for s in unquote(urlsplit(url).path).split("/") if s]
        except ValueError:
            return None
        # Without --base-url, the child is looked for by the end of its URL's path beside
        # the index, the longest end first (``/en/sitemap.xml`` is ``en/sitemap.xml``
        # before ``sitemap.xml``); the index's own file is never its child by this guess.
        here = os.path.dirname(os.path.abspath(index_path))
        itself = os.path.realpath(index_path)
        for count in range(len(segments), 0, -1):
            candidate = os.path.join(here, *segments[-count:])
            if self._inside(candidate) and os.path.realpath(candidate) != itself:
                folder_url = url.rsplit("/", count)[0] + "/"  # the child sits count-1 folders below the index
                return candidate, folder_url + os.path.basename(index_path)
        return None

    def _inside(self, candidate: str) -> bool:
        """A regular file inside the folders this check may read (``..``, ``%2e%2e`` and
        links resolved first): an untrusted index cannot point the check elsewhere."""
        return inside(candidate, self.roots) and regular_file(candidate)

    def _page_url(self, real: str, siblings: frozenset[str] | None = None) -> str | None:
        """A built page's URL, through --base-url and the conventions of --html
        (``siblings``: the files beside it, where the walk listed them)."""
        for prefix, root in self.base_roots():
            if real.startswith(root + os.sep):
                relative = "/".join(real[len(root) + 1:].split(os.sep))
                if is_error_page(relative):  # served with an error status: no page, in any language
                    return None
                if relative.endswith(".html") and is_view(real, siblings):  # a build's HTML view of its sitemaps
                    return None
                if not name_is_utf8(relative):
                    rules.files.name_not_utf8(self.collector.report, Where(display_name(real)))
                    return None
                self.page_roots[prefix] = root  # (this prefix's folder is a built site: its URLs have files)
                return page_url(relative, prefix, drop_html=self.options.html == "drop-ext")
        return None

    def serves(self, url: str, key: int) -> bool | str | None:
        """Whether a file of the built site serves ``url``: a page read, or a file where
        the URL's path leads (itself, its index.html, or its path with .html). None for
        a URL outside every folder that held built pages. A page of a live site fetched:
        True, or why not (a string)."""
        if key in self.page_status:
            status = self.page_status[key]
            return True if status is None else status
        if key in self.pages:
            return True
        for prefix, root in sorted(self.page_roots.items(), key=lambda item: -len(item[0])):  # the deepest first
            if url.startswith(prefix):
                return served(url, prefix, root)
        return None

    def url_of(self, real: str) -> str | None:
        for prefix, root in self.base_roots():
            if real.startswith(root + os.sep):
                return prefix + "/".join(real[len(root) + 1:].split(os.sep))
        return None

    def base_roots(self) -> list[tuple[str, str]]:
        """--base-url's (prefix, real folder) pairs, longest prefix first (resolved once)."""
        if self._roots_of is None:
            self._roots_of = [(prefix, os.path.realpath(folder).rstrip(os.sep) or os.sep)
                              for prefix, folder in self.options.base_urls]
        return self._roots_of
