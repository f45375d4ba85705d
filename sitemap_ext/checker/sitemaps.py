"""Checking sitemaps that exist: files, folders, and indexes followed to their children.

All files of one run are checked together, so duplicates and hreflang return
links are judged across files and hosts. An index's children are looked for on
disk: under a folder given for a URL prefix (``--base-url URL=DIR``), or else
beside the index, matching the end of the child's URL path.
"""

from __future__ import annotations

import gzip
import os
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence
from urllib.parse import unquote, urlsplit

from lxml import etree

from ..diagnostics import Collector, Where
from ..ext import SITEMAP_NS
from ..limits import MAX_SITEMAPS_PER_INDEX
from ..site import display_name
from . import canonical
from .ahead import Ahead, Planned
from .bulk import Probe
from .clusters import ClusterIndex
from .entries import (
    LASTMOD, LOC, SITEMAP, URL, FileState, Shared, check_lastmod, check_loc, check_namespace, check_url, finish_file,
    loose_namespace,
)
from .reader import Entry, Root, Status, read_text, read_xml

SITEMAP_SUFFIXES = (".xml", ".xml.gz", ".txt", ".txt.gz", ".gz")


@dataclass
class _Parent:
    """The index entry that led to a file."""

    display: str
    line: int
    submitted: bool  # the index was named in a robots.txt


@dataclass
class SitemapChecker:
    collector: Collector
    now: float | None
    base_urls: list[tuple[str, str]] = field(default_factory=list)  # (URL prefix, folder), longest first
    files: list[dict[str, object]] = field(default_factory=list)
    submitted: set[str] = field(default_factory=set)  # sitemap URLs named by Sitemap: lines of robots files
    jobs: int = 1  # processes: workers probe files ahead of the main process (ahead.py)
    _done: set[str] = field(default_factory=set)
    _ahead: list[Ahead] = field(default_factory=list)  # innermost last
    shared: Shared = field(init=False)

    def __post_init__(self) -> None:
        self.shared = Shared(self.collector, self.now, ClusterIndex(self.collector))
        self.base_urls.sort(key=lambda pair: len(pair[0]), reverse=True)

    # --- entry points -----------------------------------------------------------------

    def check_paths(self, paths: Sequence[str]) -> None:
        files: list[str] = []
        for path in paths:
            if not os.path.exists(path):
                self.collector.report("F101", f"{path} does not exist", Where(display_name(path)))
                continue
            for item in self._walk(path) if os.path.isdir(path) else [path]:
                if os.path.basename(item).lower().startswith("robots"):
                    self._robots(item)
                else:
                    files.append(item)
        # Indexes first: their children are then checked knowing their URL.
        index = {path: _is_index(path) for path in files}
        files.sort(key=lambda p: (not index[p], p))
        for path in files:
            if index[path]:
                self.check_file(path)
        rest = [path for path in files if not index[path]]
        with self._looking_ahead(lambda: self._files_plan(rest)):
            for path in rest:
                self.check_file(path)

    def finish(self) -> None:
        self.shared.clusters.finish(self.shared.seen_text)

    def _robots(self, path: str) -> None:
        """Sitemap: lines of a robots.txt: those sitemaps may list URLs outside their folder."""
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    field_name, _, value = line.partition(":")
                    if field_name.strip().lower() == "sitemap" and value.strip():
                        self.submitted.add(value.strip())
        except OSError as exc:
            self.collector.report("F101", f"cannot read {display_name(path)}: {exc.strerror or exc}",
                                  Where(display_name(path)))

    def check_file(self, path: str, url: str | None = None, parent: _Parent | None = None) -> str | None:
        """Check one file; the kind of root it had ('urlset', 'sitemapindex', 'text') or None."""
        real = os.path.realpath(path)
        if real in self._done:
            return None
        self._done.add(real)
        display = display_name(path)
        if not os.path.isfile(path):
            self.collector.report("F101", f"{display} does not exist or is not a file", Where(display))
            return None
        url = url or self._url_of(real)
        submitted = url in self.submitted or (parent is not None and parent.submitted)
        state = FileState(display, url, self.shared, submitted=submitted)
        status = Status()
        record: dict[str, object] = {"file": display, "kind": None, "urls": 0, "url": url}
        self.files.append(record)  # before an index's children, which _xml checks
        if path.lower().endswith((".txt", ".txt.gz")):
            kind = self._text(path, state, status)
        else:
            kind = self._xml(path, state, parent, status)
        state.complete = state.complete and not status.failed
        record.update(kind=kind or "unreadable", urls=state.entries)
        if kind is not None:
            finish_file(state, {"sitemapindex": "sitemap index"}.get(kind, kind))
        return kind

    # --- file kinds ---------------------------------------------------------------------

    def _text(self, path: str, state: FileState, status: Status) -> str:
        for line in read_text(path, state.display, self.collector, status):
            text = line.text
            if not text.strip():
                continue
            if len(text.split()) > 1:
                state.report("X113", "a text sitemap line holds one URL and nothing else", line.line)
                continue
            state.entries += 1
            self.shared.urls += 1
            if state.entries == MAX_SITEMAPS_PER_INDEX + 1:
                state.report("X108", "more than 50,000 URLs in one text sitemap; split it", line.line)
            loc = check_loc(text, state, line.line, what="line")
            if loc is not None and not self.shared.seen_text.add(hash(loc)):
                state.report("U104", f"{loc} is listed more than once", line.line, url=loc)
        return "text"

    def _xml(self, path: str, state: FileState, parent: _Parent | None, status: Status) -> str | None:
        if canonical.check(path, state, self._probed(path, state)):  # the usual shape: no elements needed
            return "urlset"
        kind: str | None = None
        children: list[tuple[str, int]] = []
        for event in read_xml(path, state.display, self.collector, status):
            if isinstance(event, Root):
                kind = self._root(event, state)
                if kind is None:
                    return None
                if kind == "sitemapindex" and parent is not None:
                    self.collector.report(
                        "X110", f"{state.display} is itself a sitemap index; an index may list sitemaps only",
                        Where(parent.display, parent.line), url=state.url,
                    )
                    state.complete = False
                    return kind
                continue
            assert isinstance(event, Entry)
            element = event.element
            if kind == "urlset" and element.tag == URL:
                check_url(element, event.line, state)
            elif kind == "sitemapindex" and element.tag == SITEMAP:
                child = self._index_entry(element, event.line, state)
                if child is not None:
                    children.append((child, event.line))
            else:
                state.report("X112", f"<{etree.QName(element).localname}> does not belong in a <{kind}>", event.line)
        with self._looking_ahead(lambda: self._children_plan(path, state, children)):
            for child_url, line in children:
                self._child(path, state, child_url, line)
        return kind

    def _files_plan(self, paths: list[str]) -> list[Planned]:
        """Files given on their own as check_file() will check them (XML ones not yet checked)."""
        plan = []
        for path in paths:
            real = os.path.realpath(path)
            if real not in self._done and not path.lower().endswith((".txt", ".txt.gz")):
                url = self._url_of(real)
                plan.append(Planned(path, url, url in self.submitted))
        return plan

    def _children_plan(self, index_path: str, index: FileState, children: list[tuple[str, int]]) -> list[Planned]:
        """An index's children as _child() will check them (XML ones on disk, not yet checked)."""
        plan = []
        for child_url, _ in children:
            found = self._locate(index_path, child_url)
            if found is not None and os.path.realpath(found[0]) not in self._done and \
                    not found[0].lower().endswith((".txt", ".txt.gz")):
                submitted = index.submitted or (found[1] is not None and found[1] in self.submitted)
                plan.append(Planned(found[0], child_url, child_url in self.submitted or submitted))
        return plan

    @contextmanager
    def _looking_ahead(self, planned: Callable[[], list[Planned]]) -> Iterator[None]:
        """Workers probe the later files of a plan while it is checked (--jobs); the
        plan is made only then."""
        plan = planned() if self.jobs >= 2 else []
        if len(plan) < 2:
            yield
            return
        with Ahead(plan, self.shared, self.jobs) as ahead:
            self._ahead.append(ahead)
            try:
                yield
            finally:
                self._ahead.pop()

    def _probed(self, path: str, state: FileState) -> Probe | None | bool:
        """A worker's probe of this file as it is checked now, if one made it."""
        for ahead in reversed(self._ahead):
            found = ahead.take(Planned(path, state.url, state.submitted))
            if found is not False:
                return found
        return False

    def _root(self, root: Root, state: FileState) -> str | None:
        qname = etree.QName(root.element)
        self._namespaces(root.element.nsmap, state, root.line)
        if qname.localname in ("urlset", "sitemapindex") and (
                qname.namespace == SITEMAP_NS or loose_namespace(qname.namespace or "") == loose_namespace(SITEMAP_NS)):
            return qname.localname
        state.report("X104", f"the root element is <{qname.localname}> in namespace '{qname.namespace or ''}'; a "
                     f"sitemap starts with <urlset xmlns=\"{SITEMAP_NS}\"> (or <sitemapindex>)", root.line)
        return None

    def _namespaces(self, nsmap: dict[str | None, str], state: FileState, line: int) -> None:
        """The root's declarations (a misspelt one is reported even if nothing uses it)."""
        for uri in nsmap.values():
            if uri not in self.shared.namespaces:
                check_namespace(uri, state, line)

    def _index_entry(self, element: etree._Element, line: int, state: FileState) -> str | None:
        state.entries += 1
        if state.entries == MAX_SITEMAPS_PER_INDEX + 1:
            state.report("X108", f"more than {MAX_SITEMAPS_PER_INDEX:,} sitemaps in one index", line)
        locs = [c for c in element if c.tag == LOC]
        if len(locs) != 1:
            state.report("X107", f"a <sitemap> needs exactly one <loc>, this one has {len(locs)}", line)
            return None
        url = check_loc(locs[0].text, state, locs[0].sourceline or line)
        for child in element:
            if child.tag == LASTMOD:
                check_lastmod(child.text, state, child.sourceline or line, url)
        return url

    def _child(self, index_path: str, index: FileState, url: str, line: int) -> None:
        found = self._locate(index_path, url)
        if found is None:
            index.report("X111", f"{url} is not found on disk, so it is not checked; give its folder with "
                         "--base-url URL=DIR", line, url=url)
            return
        local, index_url = found
        submitted = index.submitted or (index_url is not None and index_url in self.submitted)
        self.check_file(local, url=url, parent=_Parent(index.display, line, submitted))

    # --- where files are --------------------------------------------------------------

    def _locate(self, index_path: str, url: str) -> tuple[str, str | None] | None:
        """The child's file, and the index's own URL as inferred from where it was found."""
        for prefix, folder in self.base_urls:
            if url.startswith(prefix):
                candidate = os.path.join(folder, *unquote(url[len(prefix):]).split("/"))
                if os.path.isfile(candidate):
                    return candidate, None
        segments = [s for s in unquote(urlsplit(url).path).split("/") if s]
        here = os.path.dirname(os.path.abspath(index_path))
        for count in range(1, len(segments) + 1):
            candidate = os.path.join(here, *segments[-count:])
            if os.path.isfile(candidate):
                # The child sits count-1 folders below the index: so does its URL.
                folder_url = url.rsplit("/", count)[0] + "/"
                return candidate, folder_url + os.path.basename(index_path)
        return None

    def _url_of(self, real: str) -> str | None:
        for prefix, folder in self.base_urls:
            root = os.path.realpath(folder)
            if real.startswith(root + os.sep):
                return prefix + "/".join(os.path.relpath(real, root).split(os.sep))
        return None

    @staticmethod
    def _walk(folder: str) -> list[str]:
        found = []
        for top, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if name.lower().startswith("robots") and name.lower().endswith(".txt"):
                    found.append(os.path.join(top, name))
                elif name.lower().endswith(SITEMAP_SUFFIXES):
                    found.append(os.path.join(top, name))
        return found


def _is_index(path: str) -> bool:
    """Whether a file's root is <sitemapindex> (from its first bytes)."""
    try:
        with open(path, "rb") as raw:
            head = raw.read(4096)
            if head[:2] == b"\x1f\x8b":
                head = zlib.decompressobj(wbits=31).decompress(head, 4096)
    except (OSError, zlib.error, gzip.BadGzipFile):
        return False
    return b"<sitemapindex" in head


def parse_base_urls(pairs: Sequence[str]) -> list[tuple[str, str]]:
    out = []
    for pair in pairs:
        url, _, folder = pair.partition("=")
        out.append((url if url.endswith("/") else url + "/", folder))
    return out
