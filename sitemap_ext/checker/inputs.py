"""The inputs of a check planned: each file once, where it is, what URL it has.

Three small objects, each with its own fields: ``Judging`` (what every file is judged
with: the findings, the options, the notes said once), ``BaseUrls`` (--base-url: which
folder serves which URL prefix) and ``Inputs`` (the files planned, each read once, the
files passed over, the sitemaps robots.txt files submit, the folders an index's
children may come from). An index's entry is judged before it is followed
(``child_ok``: X110, X118).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from urllib.parse import unquote, urlsplit

from ..diagnostics import Collector, Where
from ..read.description_file import display_name
from ..read.sniff import Sniffed
from ..safeio import inside, regular_file
from .judge_file import FileResult, Options, Task, check_file, is_page
from .results import BuiltPages


@dataclass
class Judging:
    """What every file of a check is judged with. ``options`` change as robots.txt files
    are read (``cross_submit``); the workers read them as each batch is planned."""

    collector: Collector
    options: Options
    noted: set[tuple[str, str]] = field(default_factory=set)

    def judge(self, task: Task) -> FileResult:
        """A file judged here, in this process."""
        return check_file(task, self.options, self.noted)

    def cross_submit(self, origin: str) -> None:
        """A robots.txt of ``origin`` submits a sitemap of another host: that sitemap may
        list this origin's URLs."""
        self.options = replace(self.options, cross_submitted=self.options.cross_submitted | {origin})


class BaseUrls:
    """--base-url: the URL prefix each folder is served at (real folders, resolved once,
    the longest prefix first)."""

    def __init__(self, pairs: tuple[tuple[str, str], ...]) -> None:
        self.pairs = pairs
        self._roots: list[tuple[str, str]] | None = None

    def roots(self) -> list[tuple[str, str]]:
        """(prefix, real folder) pairs, longest prefix first."""
        if self._roots is None:
            self._roots = [(prefix, os.path.realpath(folder).rstrip(os.sep) or os.sep) for prefix, folder in self.pairs]
        return self._roots

    def url_of(self, real: str) -> str | None:
        """The URL of a file (by its real path)."""
        for prefix, root in self.roots():
            if real.startswith(root + os.sep):
                return prefix + "/".join(real[len(root) + 1:].split(os.sep))
        return None

    def folder_url(self, real: str) -> str | None:
        """The URL a folder (by its real path) is served at."""
        for prefix, root in self.roots():
            if real == root:
                return prefix
            if real.startswith(root + os.sep):
                return prefix + "/".join(real[len(root) + 1:].split(os.sep)) + "/"
        return None


class Inputs:
    """The files of one check planned, each once: a file's task, a child's file, a
    fetched URL met once; what was passed over (``skipped``)."""

    def __init__(self, judging: Judging, base: BaseUrls, site: BuiltPages, *, displays: dict[str, str],
                 submitted: set[str]) -> None:
        self.judging = judging
        self.base = base
        self.site = site
        self.displays = displays  # a file's name in findings, when not its path
        self.submitted = submitted  # sitemap URLs named by robots.txt files
        self.skipped: list[str] = []  # files in folders that are no sitemaps
        self._roots: tuple[str, ...] = ()  # the folders an index's children may come from
        self._done: set[str] = set()  # the real paths (and "\0url:" fetched URLs) planned: each read once
        self._real: dict[str, str] = {}  # a walked file's real path (found once, by the walk)

    def confine(self, folders: set[str]) -> None:
        """The folders (real paths) an index's children may be found in, and no other."""
        self._roots = tuple(sorted(folders))

    def task(self, path: str, sniffed: Sniffed | None, url: str | None, submitted: bool,
             siblings: frozenset[str] | None = None) -> Task | None:
        """A file's task, or None when it was planned already or is a page without a URL."""
        real = self._real.pop(path, None) or os.path.realpath(path)
        if real in self._done:
            return None
        if sniffed is None or is_page(path, sniffed):
            url = self.site.page_url(real, siblings) if self.judging.options.html != "off" else None
            if url is None:  # a page whose URL is not known (no --base-url for its folder)
                self.skipped.append(display_name(path))
                return None
        self._done.add(real)
        url = url or self.base.url_of(real)
        return Task(path, url, submitted or (url is not None and url in self.submitted), sniffed,
                    display=self.displays.get(path))

    def walked(self, path: str, real: str) -> None:
        """A file found by the walk, with its real path (resolved once)."""
        self._real[path] = real

    def again(self, path: str) -> None:
        """A file planned as a page whose content is something else: planned once more."""
        real = os.path.realpath(path)
        self._done.discard(real)
        self._real[path] = real

    def pass_over(self, path: str) -> None:
        """A file that is none to check: skipped, by name."""
        self._real.pop(path, None)
        self.skipped.append(display_name(path))

    def skip(self, display: str) -> None:
        """A file passed over (no sitemap, a link out of the folder, a page without a URL)."""
        self.skipped.append(display)

    def submit(self, url: str) -> None:
        """A sitemap URL a robots.txt names."""
        self.submitted.add(url)

    def planned(self, real: str) -> bool:
        return real in self._done

    def first_fetch(self, url: str) -> bool:
        """Whether a fetched file's final URL is met for the first time (a file is read once)."""
        key = "\0url:" + url  # (beside the real paths of local files: no path holds a NUL)
        if key in self._done:
            return False
        self._done.add(key)
        return True

    def is_submitted(self, url: str | None) -> bool:
        return url is not None and url in self.submitted

    def locate(self, index_path: str, url: str) -> tuple[str, str | None] | None:
        """The child's file, and the index's own URL as inferred from where it was found."""
        for prefix, folder in self.base.pairs:
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
        return inside(candidate, self._roots) and regular_file(candidate)


def child_ok(collector: Collector, same: bool, sniffed: Sniffed | None, name: str, where: Where, url: str) -> bool:
    """X118 (an index that lists itself), X110 (a child that is an index itself): such
    an entry is not followed. True for a child to check."""
    if same:
        collector.report("X118", "the index lists itself; an index lists sitemaps, and search engines "
                         "reject one that names an index: remove this entry", where, url=url)
        return False
    if sniffed is not None and sniffed.kind == "sitemapindex":
        collector.report("X110", f"{name} is itself a sitemap index; an index may list sitemaps only", where, url=url)
        return False
    return True
