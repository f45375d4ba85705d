"""Checking sitemaps that exist: which files, in which order, read where.

Inputs are files and folders; a folder's files are told apart by their content
(``sniff.py``): sitemaps, indexes and feeds are checked, robots.txt files say
which sitemaps were submitted, and anything else (HTML, JSON, images) is skipped
and counted. Indexes are read first, here, and their children found on disk
(under ``--base-url URL=DIR``, or beside the index by the end of the URL path).

Every other file is read and judged by ``check_file``: in this process, or in a
pool of worker processes (``jobs``), a sitemap alone, built pages in batches (sniffed
and read by the worker, their entries in one cluster log per batch, handed over
while the folder is walked). Results are taken in a fixed order (the pages as
walked, the indexes, then the other files), so the findings are the same for any
number of jobs; then the cluster rules judge all files together (``clusters.py``).
URLs given to a check are fetched first (``live.py``) and checked as files named by
their URLs.
"""

from __future__ import annotations

import hashlib
import os
from array import array
from collections import Counter, deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Callable, Iterator, Sequence
from urllib.parse import unquote, urljoin, urlsplit

from .. import langtags
from ..codes import REGISTRY
from ..diagnostics import Collector, Diagnostic, Where
from ..read.http import Fetched
from ..limits import MAX_STORED_PER_CODE, MAX_URLS_PER_FILE
from ..folder import retained_files
from ..pool import default_jobs, process_pool
from ..safeio import Refused, inside, open_regular, regular_file, walk_inside
from ..read.site_yaml import display_name, is_error_page
from ..urls import origin_text, url_key
from .. import rules
from .clusters import FEED, HTML, IMAGE, NEWS, TEXT, VIDEO, WEB, ClusterIndex, ClusterLog, Excluded
from ..read.html import (PageHead, Placed, name_is_utf8, page_url, read_head, says_noindex, served)
from .config import Policy
from ..read.live import CHILD_WINDOW, LISTED_UNFETCHED, Input, Remote, sitemap_lines
from ..read.text import read_text
from ..read.xml import read_xml
from ..read.record import FileFacts, IndexEntry, Stray, UrlEntry, Value
from .context import Context
from .hreflang import judge_links
from ..read.sniff import Sniffed, is_sitemap, open_bytes, sniff, sniff_open
# Codes after which a file is not read to its end (unreadable, too large, corrupt, malformed).
_TAG_LINES = 64  # a start tag is looked for this many lines back
_LONG_LINE = 1 << 16
_STOPPED = frozenset(("F101", "X101", "X102", "X109", "X114"))


@dataclass(frozen=True)
class Options:
    now: float | None = None
    base_urls: tuple[tuple[str, str], ...] = ()  # (URL prefix, folder), longest first
    cross_submitted: frozenset[str] = frozenset()  # origins
    policy: Policy | None = None
    jobs: int = 1
    max_per_code: int | None = MAX_STORED_PER_CODE  # findings kept per code (None: all)
    # HTML pages in the inputs: "on" (read their heads; index.html is its folder's
    # URL), "drop-ext" (also: a page's URL has no .html), "off" (skipped).
    html: str = "on"
    robots: tuple[tuple[str, str], ...] = ()  # (origin, robots.txt text): a live check's hosts


@dataclass(frozen=True)
class Task:
    """One file to check, with what is known of it before it is read."""

    path: str
    url: str | None
    submitted: bool
    sniffed: Sniffed | None  # None: a file named as a page, whose content its worker sniffs
    display: str | None = None  # how findings name it (a fetched file: its URL), else by its path
    noindex: bool = False  # a fetched page whose X-Robots-Tag says noindex

    @property
    def page(self) -> bool:
        return self.sniffed is None or is_page(self.path, self.sniffed)


@dataclass
class FileResult:
    record: dict[str, object]
    diagnostics: list[Diagnostic]
    suppressed: Counter[str]
    ignored: Counter[str]
    log: ClusterLog | None
    children: list[tuple[str, int]] = field(default_factory=list)  # an index's sitemaps: (URL, line)
    page: tuple[str, int, bool, str | None] | None = None  # a built page's facts (FileFacts.page)
    resniffed: tuple[str, Sniffed] | None = None  # a file named as a page that holds something else


# --- one file ---------------------------------------------------------------------------

def check_file(task: Task, options: Options, noted: set[tuple[str, str]] | None = None,
               log: ClusterLog | None = None) -> FileResult:
    """Read one file with the reader its content asks for, and run every rule on it.
    Its entries go to ``log`` when one is given (a batch's), else to a log of its own."""
    opened = None
    if task.sniffed is not None:
        sniffed = task.sniffed
    else:  # named as a page: sniffed here, with the one opening that reads it
        opened = sniff_open(task.path)
        sniffed = opened.sniffed if opened is not None else sniff(task.path)
        if not is_page(task.path, sniffed):  # for the main process to plan
            if opened is not None:
                opened.close()
            return FileResult({}, [], Counter(), Counter(), None, resniffed=(task.path, sniffed))
    display = task.display or display_name(task.path)
    collector = Collector(REGISTRY, policy=options.policy, limit=options.max_per_code)

    facts = FileFacts(display, url=task.url, submitted=task.submitted)

    def report(code: str, message: str, line: int | None, **extra: object) -> None:
        if code in _STOPPED:
            facts.complete = False  # reading stopped: nothing to judge as a whole, nothing to close
        collector.report(code, message, Where(display, line), **extra)

    ctx = Context(facts, report, now=options.now, noted=noted if noted is not None else set(),
                  cross_submitted=options.cross_submitted, robots=dict(options.robots))
    _misnamed(task.display or task.path, sniffed, report)
    chunks = opened.chunks(report) if opened is not None else open_bytes(task.path, report)
    shared = log is not None
    log = log if log is not None else ClusterLog()
    children: list[tuple[str, int]] = []
    if is_page(task.path, sniffed):
        records: Iterator[object] = _page(chunks, facts, task.url, report)
    elif sniffed.xml:
        records = read_xml(chunks, facts, report)
    else:
        records = read_text(chunks, facts, report)
    for record in records:
        if task.noindex and facts.page is not None:
            facts.page = (facts.page[0], facts.page[1], True, facts.page[3])
        if isinstance(record, UrlEntry):
            _entry(record, ctx, log)
        elif isinstance(record, IndexEntry):
            child = _index_entry(record, ctx)
            if child is not None:
                children.append((child, record.line))
        elif isinstance(record, Stray):
            rules.structure.stray(record, ctx)
    if facts.kind is not None and facts.kind != "html":  # (a page is no file of entries)
        for check in rules.FILE_RULES:
            check(ctx)
    diagnostics = collector.diagnostics
    if sniffed.xml and diagnostics:
        diagnostics = _start_lines(task.path, diagnostics)
    record = {"file": display, "kind": facts.kind or "unreadable", "urls": facts.entries, "url": task.url}
    if shared:
        log.end_file(display)
    return FileResult(record, diagnostics, collector.suppressed, collector.ignored,
                      log if facts.kind != "sitemapindex" and not shared else None, children, facts.page)


def _entry(entry: UrlEntry, ctx: Context, log: ClusterLog) -> None:
    facts = ctx.facts
    facts.entries += 1
    if facts.entries > MAX_URLS_PER_FILE:
        rules.files.entry_count(ctx, entry.line)
    loc = None
    if len(entry.locs) == 1:
        text = entry.locs[0].text
        if text:
            loc = text.strip() or None
    if loc is not None and facts.url is not None and not loc.lower().startswith(("http://", "https://")):
        # A relative loc is U101 (its rule says so, at its line); the rest is judged with
        # it resolved against the file's URL, as a browser would: one mistake, one finding.
        loc = _resolved(facts.url, loc) or loc
    ctx.loc = loc
    if loc is not None:
        ctx.loc_key = url_key(loc)
    for check in rules.ENTRY_RULES:
        check(entry, ctx)
    if loc is None:
        return
    if entry.links:
        judged = judge_links(entry.links, loc)
        kind = _kind(entry)
        # A page's links stand on lines of their own: a finding about one is placed there.
        lines = tuple(entry.link_lines[place] for place in judged.cluster_places) if kind == HTML else None
        log.add(loc, ctx.loc_key, entry.line, kind, judged.cluster, judged.cluster_keys, judged.named, lines)
    else:
        log.add(loc, ctx.loc_key, entry.line, _kind(entry), (), (), frozenset())


def _resolved(base: str, reference: str) -> str | None:
    try:
        url = urljoin(base, reference)
    except ValueError:
        return None
    return url if url.lower().startswith(("http://", "https://")) else None


def is_page(path: str, sniffed: Sniffed) -> bool:
    """A built HTML page: HTML content in a file named as one (HTML served where a
    sitemap should be, as sitemap.xml, is judged as that sitemap: X102 or X104)."""
    return sniffed.kind == "html" and path.lower().endswith((".html", ".htm"))


def _page(chunks: Iterator[bytes], facts: FileFacts, url: str | None,
          report: rules.context.Report) -> Iterator[UrlEntry]:
    """A built page as one record: its URL and the alternates its head gives (the
    rules judge them as they judge a sitemap entry's)."""
    facts.kind = "html"
    head = read_head(chunks)
    if url is None:
        return
    if not head.complete:
        rules.files.head_unread(report, 1, url=url)
        return
    url = head.served_as(url)
    _lang(head, url, report)
    lines = tuple(place.line for place in head.alternate_places)
    # A page with no alternates is a record too: a page that another names as its
    # alternate and does not name it back is then a missing return link (H104).
    first = lines[0] if lines else 1
    facts.page = (url, first, head.noindex, head.canonical_elsewhere(url))
    yield UrlEntry(line=first, locs=(Value(url, first),), links=head.alternates, link_lines=lines, source="html")


def _lang(head: PageHead, url: str, report: rules.context.Report) -> None:
    """L113: <html lang> names another language than the page's own hreflang code."""
    if head.lang is None or not head.lang.text.strip():
        return
    own = _own_alternate(head, url)
    if own is None:
        return
    code, place = own
    written = head.lang.text.strip()
    page_lang, own_code = langtags.judge(written).canonical, langtags.judge(code).canonical
    if page_lang and own_code and langtags.language_of(page_lang) != langtags.language_of(own_code):
        report("L113", f'<html lang="{written}"> says another language than the page\'s own hreflang '
               f'"{code}" (line {place.line}); one of them is wrong', head.lang.line, url=url, hreflang=code)


def _own_alternate(head: PageHead, url: str) -> tuple[str, Placed] | None:
    """The first hreflang link (not x-default, not media) that names the page itself:
    its URL as written, else the same URL in another spelling."""
    candidates = [(code, href.strip(), place) for (_, code, href, media), place
                  in zip(head.alternates, head.alternate_places)
                  if code is not None and media is None and code.lower() != "x-default"]
    for code, href, place in candidates:
        if href == url:  # (the usual case, without a key)
            return code, place
    own = url_key(url)
    for code, href, place in candidates:
        try:
            if url_key(href if href.startswith(("https://", "http://")) else urljoin(url, href)) == own:
                return code, place
        except ValueError:
            continue
    return None


def _kind(entry: UrlEntry) -> int:
    """Which kind of sitemap the listing belongs to (a URL may stand once in each)."""
    if entry.source == "line":
        return TEXT
    if entry.source == "html":
        return HTML
    if entry.source == "item":
        return FEED
    kinds = {item.kind for item in entry.media}
    if "news" in kinds:
        return NEWS
    if "video" in kinds:
        return VIDEO
    if "image" in kinds and not (entry.links or entry.lastmod or entry.changefreq or entry.priority):
        return IMAGE
    return WEB


def _index_entry(entry: IndexEntry, ctx: Context) -> str | None:
    ctx.facts.entries += 1
    rules.files.entry_count(ctx, entry.line)
    ctx.loc = None
    if len(entry.locs) == 1 and entry.locs[0].text and entry.locs[0].text.strip():
        ctx.loc = entry.locs[0].text.strip()
    for check in rules.INDEX_RULES:
        check(entry, ctx)
    return ctx.loc if ctx.loc is not None and ctx.loc.lower().startswith(("http://", "https://")) else None


def _misnamed(path: str, sniffed: Sniffed, report: rules.context.Report) -> None:
    """X116: the name says another kind than the content (the content wins)."""
    name = path.lower()
    if sniffed.kind is None or sniffed.empty:  # unreadable: its F101 says enough; empty: its X115
        return
    said = None
    if name.endswith(".gz") != sniffed.gzipped:
        said = "gzip" if sniffed.gzipped else "not gzip"
    base = name[:-3] if name.endswith(".gz") else name
    if base.endswith(".txt") and sniffed.xml:
        said = "XML"
    elif base.endswith(".xml") and not sniffed.xml:
        said = "text"
    if said is not None:
        report("X116", f"the file's name says one kind and its content is {said}; it is read as its content. "
               "Name it for what it holds: search engines may go by the name or the Content-Type", 1)


def _start_lines(path: str, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """libxml2 gives an element the line where its start tag ends; a tag written over
    several lines is located where it starts. Done only for files with findings, in
    one streaming pass that keeps the last few lines."""
    wanted = {d.line for d in diagnostics if d.line is not None}
    if not wanted:
        return diagnostics
    moved: dict[int, int] = {}
    recent: deque[bytes] = deque(maxlen=_TAG_LINES)
    for number, text in enumerate(_file_lines(path), 1):
        recent.append(text)
        if number in wanted:
            head = text.split(b">", 1)[0] if b">" in text else None
            if head is not None and b"<" not in head:  # the line starts inside a tag
                for back in range(2, len(recent) + 1):
                    if b"<" in recent[-back]:
                        moved[number] = number - back + 1
                        break
    return [replace(d, line=moved[d.line]) if d.line in moved else d for d in diagnostics]


def _file_lines(path: str) -> Iterator[bytes]:
    pending = b""
    for chunk in open_bytes(path, lambda *args, **kw: None):
        pending += chunk
        *lines, pending = pending.split(b"\n")
        if len(pending) > _LONG_LINE:
            pending = pending[-_LONG_LINE:]  # only a line's end can matter here
        yield from lines
    yield pending


# --- all files --------------------------------------------------------------------------

@dataclass
class Run:
    """One check of many files: the plan, the merge, the cluster rules."""

    collector: Collector
    options: Options
    files: list[dict[str, object]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # files in folders that are no sitemaps
    submitted: set[str] = field(default_factory=set)  # sitemap URLs named by robots.txt files
    noted: set[tuple[str, str]] = field(default_factory=set)
    _done: set[str] = field(default_factory=set)
    _real: dict[str, str] = field(default_factory=dict)  # a walked file's real path (found once, in _walk)
    roots: tuple[str, ...] = ()  # the folders an index's children may come from
    clusters: ClusterIndex = field(init=False)
    excluded: dict[int, Excluded] = field(default_factory=dict)  # built pages that are noindex or canonical elsewhere
    pages: set[int] = field(default_factory=set)  # the url_key of every built page read
    indexable: array = field(default_factory=lambda: array("q"))  # the keys of the pages to list
    page_roots: dict[str, str] = field(default_factory=dict)  # URL prefix -> folder, where built pages were read
    _resniffed: list[tuple[str, Sniffed]] = field(default_factory=list)  # named as pages, holding something else
    _roots_of: list[tuple[str, str]] | None = None
    _page_batches: list[_Pending] = field(default_factory=list)  # handed over, not yet taken; oldest first
    displays: dict[str, str] = field(default_factory=dict)  # a file's name in findings, when not its path
    remote: Remote | None = None  # a live check: the fetcher and what robots.txt files say
    remote_inputs: list[Input] = field(default_factory=list)  # sitemaps fetched for the URLs given
    pages_budget: int | None = 0  # a live check's pages to fetch (None: all)
    pages_delay: float = 0.0
    page_status: dict[int, str | None] = field(default_factory=dict)  # fetched page key -> None (2xx) or why not

    def __post_init__(self) -> None:
        self.clusters = ClusterIndex(self.collector)

    def check(self, paths: Sequence[str]) -> None:
        # An index's children are looked for only in these folders: those given (a
        # file's own folder) and those --base-url names. Never above them.
        self.roots = tuple(sorted({os.path.realpath(p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p)))
                                   for p in paths} | {os.path.realpath(f) for _, f in self.options.base_urls}))
        with _Workers(self) as workers:
            # Built pages depend on no index: a folder's pages go to the workers in
            # batches while the walk goes on. Sitemaps are planned when all are found.
            found: list[tuple[str, Sniffed | None]] = []
            for path in paths:
                if not os.path.exists(path):
                    self.collector.report("F101", f"{path} does not exist", Where(display_name(path)))
                elif os.path.isdir(path):
                    found += self._walk(path, workers)
                elif _is_robots(path):
                    self._robots(path)
                else:
                    found.append((path, sniff(path)))
            found = self._twins(found)
            # The order results are taken in (so findings are the same for any number of
            # jobs): the pages, in the order walked; the indexes (checked here, now, for
            # their children); then their children and the other files, in order. The
            # sitemaps go to the workers before the pages are taken, to run beside them.
            indexes = [(path, sniffed) for path, sniffed in found if sniffed is not None
                       and sniffed.kind == "sitemapindex"]
            checked: list[FileResult] = []  # the indexes' own results, taken after the pages'
            tasks: list[Task] = []
            fetched = [self._fetched_task(given) for given in self.remote_inputs]
            for task in fetched:
                if task is not None and task.sniffed is not None and task.sniffed.kind == "sitemapindex":
                    tasks += self._index_task(task, checked)
            tasks += [task for task in fetched if task is not None and task.sniffed is not None
                      and task.sniffed.kind != "sitemapindex"]
            for path, sniffed in indexes:
                tasks += self._index(path, sniffed, checked)
            for path, sniffed in found:
                if sniffed is None or sniffed.kind != "sitemapindex":
                    task = self._task(path, sniffed, None, False)
                    if task is not None:
                        tasks.append(task)
            plan = workers.plan(tasks)
            while self._page_batches:
                self._take(self._page_batches.pop(0))
            for result in checked:
                self._merge(result)
            for pending in plan:
                self._take(pending)
            self._late()
            if self.remote is not None and self.pages_budget != 0:
                self._live_pages()  # (judged here a window at a time: each fetched file freed once judged)
        self.clusters.finish()
        if self.excluded:
            self.clusters.excluded(self.excluded)
        if self.page_roots or self.page_status:
            self.clusters.missing(self._served)
        if self.indexable:
            self.clusters.unlisted(self.indexable)
        if self.pages:
            self.clusters.conflicts()

    def _task(self, path: str, sniffed: Sniffed | None, url: str | None, submitted: bool) -> Task | None:
        real = self._real.pop(path, None) or os.path.realpath(path)
        if real in self._done:
            return None
        if sniffed is None or is_page(path, sniffed):
            url = self._page_url(real) if self.options.html != "off" else None
            if url is None:  # a page whose URL is not known (no --base-url for its folder)
                self.skipped.append(display_name(path))
                return None
        self._done.add(real)
        url = url or self._url_of(real)
        return Task(path, url, submitted or (url is not None and url in self.submitted), sniffed,
                    display=self.displays.get(path))

    def _take(self, pending: _Pending) -> None:
        results, log = pending.result()
        for result in results:
            self._merge(result)
        if log is not None:
            self.clusters.add(None, log)

    def _merge(self, result: FileResult) -> None:
        if result.resniffed is not None:  # named as a page, it is none: planned again at the end
            self._resniffed.append(result.resniffed)
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

    def _late(self) -> None:
        """Files named as pages whose content is something else (a sitemap saved as
        .html, a text file): judged as their content asks, in this process, after the rest."""
        while self._resniffed:
            path, sniffed = self._resniffed.pop(0)
            real = os.path.realpath(path)
            self._done.discard(real)
            self._real[path] = real
            if sniffed.kind == "sitemapindex":
                tasks = self._index(path, sniffed)
            elif is_sitemap(path, sniffed):
                task = self._task(path, sniffed, None, False)
                tasks = [task] if task is not None else []
            else:
                self._real.pop(path, None)
                self.skipped.append(display_name(path))
                continue
            for task in tasks:
                self._merge(check_file(task, self.options, self.noted))

    # --- indexes ----------------------------------------------------------------------

    def _index(self, path: str, sniffed: Sniffed, checked: list[FileResult] | None = None) -> list[Task]:
        task = self._task(path, sniffed, None, False)
        if task is None:
            return []
        return self._index_task(task, checked)

    def _index_task(self, task: Task, checked: list[FileResult] | None = None) -> list[Task]:
        """An index checked here, and its children planned: found on disk, or fetched.
        Its result is merged now, or put in ``checked`` to be merged later."""
        result = check_file(task, self.options, self.noted)
        if checked is not None:
            checked.append(result)
        else:
            self._merge(result)
        if task.display is not None and self.remote is not None:
            return self._fetched_children(task, result.children)
        path = task.path
        display = str(result.record["file"])
        tasks = []
        for child_url, line in result.children:
            found = self._locate(path, child_url)
            if found is None:
                self.collector.report("X111", f"{child_url} is not found on disk, so it is not checked; give its "
                                      "folder with --base-url URL=DIR", Where(display, line), url=child_url)
                continue
            local, index_url = found
            # An index lists itself only when an entry is its own URL (by identity); a
            # file found by the entry's path is never the index itself (see _locate).
            same = task.url is not None and url_key(child_url) == url_key(task.url)
            if not same and os.path.realpath(local) == os.path.realpath(path):
                same = True  # (--base-url maps the entry to this very file: its URL, spelt otherwise)
            child_sniffed = None if same else sniff(local)
            if not self._child_ok(same, child_sniffed, display_name(local), Where(display, line), child_url):
                continue
            submitted = task.submitted or (index_url is not None and index_url in self.submitted)
            child = self._task(local, child_sniffed, child_url, submitted)
            if child is not None:
                tasks.append(child)
        return tasks

    def _child_ok(self, same: bool, sniffed: Sniffed | None, name: str, where: Where, url: str) -> bool:
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

    # --- a live site ---------------------------------------------------------------------

    def _fetched_task(self, given: Input) -> Task | None:
        """A sitemap fetched for a URL given (its file, named by its URL)."""
        fetched = given.fetched
        assert fetched.path is not None
        if not self._first(fetched.final):
            return None
        submitted = given.submitted or fetched.url in self.submitted or fetched.final in self.submitted
        return Task(fetched.path, fetched.final, submitted, sniff(fetched.path), display=fetched.url)

    def _first(self, url: str) -> bool:
        """Whether a fetched file's final URL is met for the first time (a file is read once)."""
        key = "\0url:" + url  # (beside the real paths of local files: no path holds a NUL)
        if key in self._done:
            return False
        self._done.add(key)
        return True

    def _fetched_children(self, task: Task, children: list[tuple[str, int]]) -> list[Task]:
        """A fetched index's children: fetched ``CHILD_WINDOW`` at a time and judged here
        as they come, each file freed once judged, so that the disk holds a window of
        children and never all of them. Nothing is left to plan (the empty list)."""
        remote = self.remote
        assert remote is not None
        display = task.display or task.path
        for start in range(0, len(children), CHILD_WINDOW):
            window = children[start:start + CHILD_WINDOW]
            for (child_url, line), fetched in zip(window, remote.fetch_many([url for url, _ in window])):
                where = Where(display, line)
                same = child_url == task.url or child_url == task.display
                if same or remote.answered(fetched, where, self.collector, listed=True):
                    sniffed = None if same or fetched.path is None else sniff(fetched.path)
                    if self._child_ok(same, sniffed, child_url, where, child_url) and self._first(fetched.final):
                        assert fetched.path is not None and sniffed is not None
                        submitted = task.submitted or fetched.final in self.submitted
                        child = Task(fetched.path, fetched.final, submitted, sniffed, display=child_url)
                        self._merge(check_file(child, self.options, self.noted))
                remote.release(fetched)
        return []

    def _live_pages(self) -> list[Task]:
        """The listed URLs and their alternates that robots.txt lets Googlebot fetch (the
        others are R107 and never fetched), fetched (their heads) within the budget a
        window at a time, and judged here: each one that answers is a page checked, each
        that does not a finding; each file is freed once judged. Nothing is left to plan."""
        remote = self.remote
        assert remote is not None
        reported = {d.url for d in self.collector.diagnostics if d.code == "R107"}
        urls = []
        for url in self.clusters.named_urls():
            if remote.allows(url):
                urls.append(url)
            elif url not in reported:
                rules.robots.named_disallowed(self.collector.report, url, Where(url))
        for window in remote.pages(urls, self.pages_budget, self.pages_delay):
            tasks = [task for task in map(self._live_page, window) if task is not None]
            if tasks:
                results, log = _work(tasks, self.options, self.noted)
                for result in results:
                    self._merge(result)
                if log is not None:
                    self.clusters.add(None, log)
            for fetched in window:
                remote.release(fetched)
        return []

    def _live_page(self, fetched: Fetched) -> Task | None:
        """A fetched page: a page to check, or what it answered instead (a finding, its status)."""
        key = url_key(fetched.url)
        where = Where(fetched.url)
        if fetched.problem is not None and fetched.problem[0] in ("R101", "R104", "R106"):
            code = LISTED_UNFETCHED if fetched.problem[0] == "R101" else fetched.problem[0]
            self.collector.report(code, f"{fetched.url}: {fetched.problem[1]}", where, url=fetched.url)
            self.page_status[key] = f"it cannot be fetched ({fetched.problem[1]})"
            return None
        if fetched.hops:
            self.collector.report("R109", f"{fetched.url} redirects ({fetched.chain}); list and name the final "
                                  "URL: search engines take a redirect's target, and hreflang links to a "
                                  "redirect are not followed", where, url=fetched.url, suggestion=fetched.final)
            self.page_status[key] = None  # (its redirect is the finding)
            return None
        if not fetched.ok or fetched.path is None:
            self.page_status[key] = f"it answers HTTP {fetched.status}" if fetched.status else "it cannot be fetched"
            return None
        self.page_status[key] = None
        if fetched.media_type and "html" not in fetched.media_type:
            return None  # a PDF, an image: no head to read
        noindex = says_noindex(fetched.headers.get("x-robots-tag", ""))
        return Task(fetched.path, fetched.url, False, None, display=fetched.url, noindex=noindex)

    def _locate(self, index_path: str, url: str) -> tuple[str, str | None] | None:
        """The child's file, and the index's own URL as inferred from where it was found."""
        if "%00" in url:
            return None  # (a NUL names no file)
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

    def _page_url(self, real: str) -> str | None:
        """A built page's URL, through --base-url and the conventions of --html."""
        for prefix, root in self._base_roots():
            if real.startswith(root + os.sep):
                relative = "/".join(real[len(root) + 1:].split(os.sep))
                if is_error_page(relative):  # served with an error status: no page, in any language
                    return None
                if not name_is_utf8(relative):
                    rules.files.name_not_utf8(self.collector.report, Where(display_name(real)))
                    return None
                self.page_roots[prefix] = root  # (this prefix's folder is a built site: its URLs have files)
                return page_url(relative, prefix, drop_html=self.options.html == "drop-ext")
        return None

    def _served(self, url: str, key: int) -> bool | str | None:
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

    def _url_of(self, real: str) -> str | None:
        for prefix, root in self._base_roots():
            if real.startswith(root + os.sep):
                return prefix + "/".join(real[len(root) + 1:].split(os.sep))
        return None

    def _base_roots(self) -> list[tuple[str, str]]:
        """--base-url's (prefix, real folder) pairs, longest prefix first (resolved once)."""
        if self._roots_of is None:
            self._roots_of = [(prefix, os.path.realpath(folder).rstrip(os.sep) or os.sep)
                              for prefix, folder in self.options.base_urls]
        return self._roots_of

    # --- folders and robots.txt -------------------------------------------------------------

    def _walk(self, folder: str, workers: _Workers) -> list[tuple[str, Sniffed | None]]:
        found: list[tuple[str, Sniffed | None]] = []
        pages: list[Task] = []
        # A versioned build keeps its previous files one build longer (for readers of
        # the previous index): they are not part of what the folder now publishes.
        retained = {os.path.join(folder, *name.split("/")) for name in retained_files(folder)}
        for path, real in walk_inside(folder):
            if real is None or path in retained:  # a link out; a previous build's file
                self.skipped.append(display_name(path))
                continue
            self._real[path] = real
            if _is_robots(path):
                self._robots(path)
                continue
            if self.options.html != "off" and path.lower().endswith((".html", ".htm")):
                task = self._task(path, None, None, False)  # a page, most likely: its worker reads its content
                if task is not None:
                    pages.append(task)
                    if len(pages) == _PAGE_BATCH:
                        self._page_batch(workers, pages)
                        pages = []
                continue
            sniffed = sniff(path)
            if is_sitemap(path, sniffed):
                found.append((path, sniffed))
            elif is_page(path, sniffed) and self.options.html != "off":
                found.append((path, sniffed))
            else:
                self.skipped.append(display_name(path))
        if pages:
            self._page_batch(workers, pages)
        return found

    def _page_batch(self, workers: _Workers, pages: list[Task]) -> None:
        """A batch of pages to the workers; once a few are in flight, the oldest is taken
        (waiting for it if need be): the results a large site's walk runs ahead of are
        not all held at once. When a batch is taken depends on counts only, never on
        timing, so the order of findings is the same in every run."""
        self._page_batches.append(workers.batch(pages))
        if workers.pool is not None and len(self._page_batches) > _IN_FLIGHT * max(self.options.jobs, 1):
            self._take(self._page_batches.pop(0))

    def _robots(self, path: str) -> None:
        """Sitemap: lines of a robots.txt: those sitemaps may list URLs outside their folder,
        and, where the robots.txt's own host is known (--base-url), that host's URLs."""
        own = self._url_of(os.path.realpath(path))
        try:
            with open_regular(path) as handle:
                data = handle.read(1 << 20)  # Google reads the first 500 KiB of a robots.txt
        except (OSError, Refused) as exc:
            self.collector.report("F101", f"cannot read {display_name(path)}: {getattr(exc, 'strerror', None) or exc}",
                                  Where(display_name(path)))
            return
        for value, _ in sitemap_lines(data.decode("utf-8", "replace")):
            self.submitted.add(value)
            if own is not None and origin_text(value).lower() != origin_text(own).lower():
                self.options = replace(self.options, cross_submitted=self.options.cross_submitted
                                       | {origin_text(own).lower()})

    def _twins(self, found: list[tuple[str, Sniffed | None]]) -> list[tuple[str, Sniffed | None]]:
        """sitemap.xml and sitemap.xml.gz with the same bytes are one sitemap: the .gz is left out (X117)."""
        paths = {path for path, _ in found}
        kept = []
        for path, sniffed in found:
            twin = path[:-3]
            if path.lower().endswith(".gz") and twin in paths and _digest(path) == _digest(twin):
                self.collector.report("X117", f"{display_name(path)} holds the same sitemap as {display_name(twin)}; "
                                      "it is checked once", Where(display_name(path)))
                continue
            kept.append((path, sniffed))
        return kept


def _digest(path: str) -> bytes:
    hasher = hashlib.blake2b(digest_size=16)
    for chunk in open_bytes(path, lambda *args, **kw: None):
        hasher.update(chunk)
    return hasher.digest()


def _is_robots(path: str) -> bool:
    name = os.path.basename(path).lower()
    return name.startswith("robots") and name.endswith(".txt")


_PAGE_BATCH = 64  # built pages handed to a worker at once
_IN_FLIGHT = 8  # batches of pages per worker handed over and not yet taken


class _Pending:
    """A batch of files handed to the workers (or, with one job, to be checked here when
    its turn comes): ``result()`` gives its results and the cluster log its pages share."""

    def __init__(self, run: Callable[[], tuple[list[FileResult], ClusterLog | None]]) -> None:
        self.result = run


class _Workers:
    """The worker processes of one check (started at the first batch), or none."""

    def __init__(self, run: Run) -> None:
        self.run = run  # (its options as they are when a batch is planned: robots.txt files change them)
        self.pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)

    def batch(self, tasks: list[Task], *, alone: bool = False) -> _Pending:
        """``tasks`` to check as one batch; in this process when there is one job, or
        when this is the check's one batch (``alone``: a pool would cost more)."""
        options = self.run.options
        if self.pool is None and (options.jobs < 2 or alone):
            return _Pending(partial(_work, tasks, options, self.run.noted))
        if self.pool is None:
            self.pool = process_pool(options.jobs)
        return _Pending(self.pool.submit(_work, tasks, options).result)

    def plan(self, tasks: list[Task]) -> list[_Pending]:
        """Sitemaps, each in a batch of its own (so that large files spread evenly), and
        pages in batches (one message each way per batch, and one cluster log)."""
        batches: list[list[Task]] = []
        for task in tasks:
            if batches and task.page and batches[-1][0].page and len(batches[-1]) < _PAGE_BATCH:
                batches[-1].append(task)
            else:
                batches.append([task])
        return [self.batch(batch, alone=len(batches) == 1) for batch in batches]


def _work(tasks: list[Task], options: Options, noted: set[tuple[str, str]] | None = None
          ) -> tuple[list[FileResult], ClusterLog | None]:
    """In a worker process: one file, or a batch of built pages (whose entries share one
    cluster log, given back beside their results)."""
    if len(tasks) == 1 and not tasks[0].page:
        return [check_file(tasks[0], options, noted)], None
    log = ClusterLog()
    return [check_file(task, options, noted, log) for task in tasks], (log if log.keys else None)
