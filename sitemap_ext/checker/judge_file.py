"""One file read and judged: ``check_file``, in this process or in a worker.

The file is read with the reader its content asks for (``read/xml.py``,
``read/text.py``, a built page's head through ``read/html.py``); each record it
gives is handed to the rules of the registry (``rules/__init__.py``), its entries in
batches as they are read (``rules.engine.judge_entries``), and each entry's URL and
alternates go to a ``ClusterLog`` for the rules across files.
What a file gives back (``FileResult``) is merged by the check (``run.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import rules
from ..diagnostics import Code, Collector, Diagnostic, Where
from ..limits import MAX_STORED_PER_CODE
from ..read.description_file import display_name
from ..read.html import read_head
from ..read.page_record import page_entry
from ..read.record import FileFacts, IndexEntry, Stray, UrlEntry
from ..read.sniff import Opened, Sniffed, open_bytes, sniff, sniff_open
from ..read.text import read_text
from ..read.xml import read_xml
from ..rules.cluster_log import ClusterLog
from ..rules.context import Context
from ..rules.engine import BATCH, judge_entries, judge_file_end, judge_index_entry
from ..rules.hreflang import lang_differs
from .placing import place

if TYPE_CHECKING:
    from ..rules.config import Policy

# Codes after which a file is not read to its end (unreadable, too large, corrupt, malformed).
_STOPPED = frozenset(("F101", "X101", "X102", "X109", "X114"))


@dataclass(frozen=True)
class Options:
    # Every code and its severity (codes.REGISTRY, which the check is given and hands on).
    registry: dict[str, Code]
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
    lastmods: bool = False  # keep each entry's lastmod instant in the cluster log (for a diff)
    errors_kept: bool = False  # keep every error past max_per_code (for a diff: Collector.errors_kept)


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
    crowded: str | None = None  # the path of an XML file read whole with entries sharing lines (placing.py)


def check_file(task: Task, options: Options, noted: set[tuple[str, str]] | None = None,
               log: ClusterLog | None = None) -> FileResult:
    """Read one file with the reader its content asks for, and run every rule on it.
    Its entries go to ``log`` when one is given (a batch's), else to a log of its own."""
    opened, sniffed = _opened(task)
    if task.sniffed is None and not is_page(task.path, sniffed):  # for the main process to plan
        if opened is not None:
            opened.close()
        return FileResult({}, [], Counter(), Counter(), None, resniffed=(task.path, sniffed))
    display = task.display or display_name(task.path)
    collector = Collector(options.registry, policy=options.policy, limit=options.max_per_code,
                          errors_kept=options.errors_kept)

    facts = FileFacts(display, url=task.url, submitted=task.submitted)

    def report(code: str, message: str, line: int | None, column: int | None = None, **extra: Any) -> None:
        if code in _STOPPED:
            facts.complete = False  # reading stopped: nothing to judge as a whole, nothing to close
        collector.report(code, message, Where(display, line, column), **extra)

    ctx = Context(facts, report, now=options.now, noted=noted if noted is not None else set(),
                  cross_submitted=options.cross_submitted, robots=dict(options.robots))
    _misnamed(task.display or task.path, sniffed, report)
    chunks = opened.chunks(report) if opened is not None else open_bytes(task.path, report)
    shared = log is not None
    log = log if log is not None else ClusterLog(dated=options.lastmods)
    children = _judge_records(_records(task, sniffed, chunks, facts, report), task, ctx, log)
    if facts.kind is not None and facts.kind != "html":  # (a page is no file of entries)
        judge_file_end(ctx)
    diagnostics = collector.diagnostics
    if sniffed.xml and diagnostics:
        diagnostics = place(task.path, diagnostics, facts.complete)
    record: dict[str, object] = {"file": display, "kind": facts.kind or "unreadable", "urls": facts.entries,
                                 "url": task.url}
    if shared:
        log.end_file(display)
    crowded = task.path if sniffed.xml and facts.complete and facts.crowded else None
    return FileResult(record, diagnostics, collector.suppressed, collector.ignored,
                      log if facts.kind != "sitemapindex" and not shared else None, children, facts.page,
                      crowded=crowded)


def check_headers(display: str, entries: list[UrlEntry], options: Options,
                  noted: set[tuple[str, str]]) -> FileResult:
    """The records a header reader gave (``read/link_header.py``): each URL's Link header
    alternates, judged by the rules every entry goes through, into a log of their own
    (kind HEADER). ``display`` names where they were read (a _headers file, a fetched
    URL). A rule applied to many files says a finding at its place once, unless the
    finding names the file's URL."""
    collector = Collector(options.registry, policy=options.policy, limit=options.max_per_code)
    facts = FileFacts(display, kind="headers")
    said: set[tuple[str, int | None, int | None, str]] = set()

    def report(code: str, message: str, line: int | None, column: int | None = None, **extra: Any) -> None:
        mark = (code, line, column, message)
        if mark not in said:
            said.add(mark)
            collector.report(code, message, Where(display, line or None, column if line else None), **extra)

    ctx = Context(facts, report, now=options.now, noted=noted, cross_submitted=options.cross_submitted,
                  robots=dict(options.robots))
    log = ClusterLog()
    for start in range(0, len(entries), BATCH):
        judge_entries(entries[start:start + BATCH], ctx, log)
    record: dict[str, object] = {"file": display, "kind": "headers", "urls": facts.entries, "url": None}
    return FileResult(record, collector.diagnostics, collector.suppressed, collector.ignored, log)


def _opened(task: Task) -> tuple[Opened | None, Sniffed]:
    """What the file holds; a file named as a page is sniffed here, with the one
    opening that reads it (given back open)."""
    if task.sniffed is not None:
        return None, task.sniffed
    opened = sniff_open(task.path)
    return opened, opened.sniffed if opened is not None else sniff(task.path)


def _records(task: Task, sniffed: Sniffed, chunks: Iterator[bytes], facts: FileFacts,
             report: rules.context.Report) -> Iterator[object]:
    """The reader the content asks for: a built page's head, XML, or text."""
    if is_page(task.path, sniffed):
        return _page(chunks, facts, task.url, report)
    if sniffed.xml:
        return read_xml(chunks, facts, report)
    return read_text(chunks, facts, report)


def _judge_records(records: Iterator[object], task: Task, ctx: Context, log: ClusterLog) -> list[tuple[str, int]]:
    """Every record through the rules, as read, the entries in batches of ``BATCH`` (an
    index entry or a stray element between them ends one); an index's children: (URL, line)."""
    facts = ctx.facts
    children: list[tuple[str, int]] = []
    entries: list[UrlEntry] = []
    for record in records:
        if task.noindex and facts.page is not None:
            facts.page = (facts.page[0], facts.page[1], True, facts.page[3])
        if isinstance(record, UrlEntry):
            entries.append(record)
            if len(entries) >= BATCH:
                judge_entries(entries, ctx, log)
                entries = []
            continue
        judge_entries(entries, ctx, log)
        entries = []
        if isinstance(record, IndexEntry):
            child = judge_index_entry(record, ctx)
            if child is not None:
                children.append((child, record.line))
        elif isinstance(record, Stray):
            rules.structure.stray(record, ctx)
    judge_entries(entries, ctx, log)
    return children


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
    lang_differs(head, url, report)
    entry = page_entry(head, url)
    facts.page = (url, entry.line, head.noindex, head.canonical_elsewhere(url))
    yield entry


def _misnamed(path: str, sniffed: Sniffed, report: rules.context.Report) -> None:
    """X116: the name says another kind than the content (the content wins)."""
    name = path.lower()
    if sniffed.kind is None or sniffed.empty:  # unreadable: its F101 says enough; empty: its X115
        return
    if name.startswith("<") and name.endswith(">"):  # standard input, bytes given to check(): no name to say a kind
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
