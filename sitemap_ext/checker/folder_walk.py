"""The inputs found: a folder walked (its files told apart by their content, built
pages handed to the workers in batches as the walk goes), robots.txt files read
for the sitemaps they submit, and a .gz twin of a sitemap left out (X117).
"""

from __future__ import annotations

import hashlib
import os

from ..diagnostics import Where
from ..folder import retained_files, versioned_like
from ..read.description_file import display_name
from ..read.live import sitemap_lines
from ..read.sniff import Sniffed, cannot_read, is_sitemap, open_bytes, sniff
from ..safeio import Refused, open_regular, walk_listed
from ..urls import origin_text
from .header_files import HeaderFiles, HeaderSite, header_files_in
from .inputs import BaseUrls, Inputs, Judging
from .judge_file import Task, is_page
from .results import Results
from .workers import PAGE_BATCH, Workers


class FolderWalk:
    """The steps of a check that find its inputs in folders and robots.txt files."""

    def __init__(self, judging: Judging, inputs: Inputs, results: Results, headers: HeaderFiles,
                 base: BaseUrls) -> None:
        self.judging = judging
        self.inputs = inputs
        self.results = results
        self.headers = headers
        self.base = base
        # A versioned build's previous sitemaps, held back from the walk (path, real path):
        # checked if an index lists them, else skipped (``held_back``).
        self.held: list[tuple[str, str]] = []

    def walk(self, folder: str, workers: Workers) -> list[tuple[str, Sniffed | None]]:
        found: list[tuple[str, Sniffed | None]] = []
        pages: list[Task] = []
        # A versioned build keeps its previous sitemaps one build longer (for readers of
        # the previous index): they are not part of what the folder now publishes. The
        # manifest that says so is a file anyone may add, so only a name a versioned
        # build gives is held back, and it is checked still if an index lists it.
        retained = {os.path.join(folder, *name.split("/")) for name in retained_files(folder) if versioned_like(name)}
        headers = header_files_in(folder)  # (_headers, vercel.json: applied to every file, once all are known)
        served: list[str] = []
        for path, real, siblings in walk_listed(folder):
            if real is None:  # a link out of the folder
                self.inputs.skip(display_name(path))
                continue
            if path in retained:
                self.held.append((path, real))
                continue
            if headers:
                served.append("/".join(os.path.relpath(path, folder).split(os.sep)))
                if path in headers:
                    continue
            self.inputs.walked(path, real)
            if is_robots(path):
                self.robots(path)
                continue
            if self.judging.options.html != "off" and path.lower().endswith((".html", ".htm")):
                task = self.inputs.task(path, None, None, False, siblings)  # a page, most likely: its worker reads it
                if task is not None:
                    pages.append(task)
                    if len(pages) == PAGE_BATCH:
                        self._page_batch(workers, pages)
                        pages = []
                continue
            sniffed = sniff(path)
            if is_sitemap(path, sniffed) or (is_page(path, sniffed) and self.judging.options.html != "off"):
                found.append((path, sniffed))
            else:
                self.inputs.skip(display_name(path))
        if pages:
            self._page_batch(workers, pages)
        if headers:
            self.headers.add(HeaderSite(folder, tuple(os.path.basename(path) for path in headers), tuple(served)))
        return found

    def held_back(self) -> None:
        """The previous build's sitemaps held back from the walk that no index listed
        (so none was checked as its child): skipped, by name (the JSON's ``skipped``)."""
        for path, real in self.held:
            if not self.inputs.planned(real):
                self.inputs.skip(display_name(path))
        self.held.clear()

    def _page_batch(self, workers: Workers, pages: list[Task]) -> None:
        """A batch of pages to the workers; once a few are in flight, the oldest is taken
        (waiting for it if need be): the results a large site's walk runs ahead of are
        not all held at once. When a batch is taken depends on counts only, never on
        timing, so the order of findings is the same in every run."""
        waiting = self.results.hand_over(workers.batch(pages))
        most = workers.in_flight()
        if most is not None and waiting > most:
            self.results.take_oldest()

    def robots(self, path: str) -> None:
        """Sitemap: lines of a robots.txt: those sitemaps may list URLs outside their folder,
        and, where the robots.txt's own host is known (--base-url), that host's URLs."""
        own = self.base.url_of(os.path.realpath(path))
        try:
            with open_regular(path) as handle:
                data = handle.read(1 << 20)  # Google reads the first 500 KiB of a robots.txt
        except (OSError, Refused) as exc:
            self.judging.collector.report(*cannot_read(display_name(path), str(getattr(exc, "strerror", None) or exc)),
                                          Where(display_name(path)))
            return
        for value, _ in sitemap_lines(data.decode("utf-8", "replace")):
            self.inputs.submit(value)
            if own is not None and origin_text(value).lower() != origin_text(own).lower():
                self.judging.cross_submit(origin_text(own).lower())

    def twins(self, found: list[tuple[str, Sniffed | None]]) -> list[tuple[str, Sniffed | None]]:
        """sitemap.xml and sitemap.xml.gz with the same bytes are one sitemap: the .gz is left out (X117)."""
        paths = {path for path, _ in found}
        kept = []
        for path, sniffed in found:
            twin = path[:-3]
            if path.lower().endswith(".gz") and twin in paths and _digest(path) == _digest(twin):
                self.judging.collector.report("X117", f"{display_name(path)} holds the same sitemap as "
                                              f"{display_name(twin)}; it is checked once", Where(display_name(path)))
                continue
            kept.append((path, sniffed))
        return kept


def _digest(path: str) -> bytes:
    hasher = hashlib.blake2b(digest_size=16)
    for chunk in open_bytes(path, lambda *args, **kw: None):
        hasher.update(chunk)
    return hasher.digest()


def is_robots(path: str) -> bool:
    name = os.path.basename(path).lower()
    return name.startswith("robots") and name.endswith(".txt")
