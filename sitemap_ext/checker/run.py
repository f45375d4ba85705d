"""Checking sitemaps that exist: which files, in which order, read where.

Inputs are files and folders; a folder's files are told apart by their content
(``sniff.py``): sitemaps, indexes and feeds are checked, robots.txt files say
which sitemaps were submitted, and anything else (HTML, JSON, images) is skipped
and counted (``folder_walk.py``). Indexes are read first, here, and their children
found on disk (``index_follow.py``).

Every other file is read and judged by ``check_file`` (``judge_file.py``): in this
process, or in a pool of worker processes (``workers.py``), a sitemap alone, built
pages in batches (sniffed and read by the worker, their entries in one cluster log
per batch, handed over while the folder is walked). Results are taken in a fixed
order (the pages as walked, the indexes, then the other files), so the findings are
the same for any number of jobs; then the cluster rules judge all files together
(``rules/clusters.py``). URLs given to a check are fetched first (``read/live.py``) and
checked as files named by their URLs (``live_fetch.py``).

The check's state and the steps its parts share are ``RunState`` (``run_state.py``);
``Run`` is the whole: its parts, and the order they run in.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..diagnostics import Where
from ..read.description_file import display_name
from ..read.sniff import Sniffed, is_sitemap, missing, sniff
from .folder_walk import FolderWalk, is_robots
from .index_follow import IndexFollowing
from .judge_file import FileResult, Options, Task, check_file
from .workers import Workers

__all__ = ["Options", "Run"]


class Run(FolderWalk, IndexFollowing):
    """One check of many files: the plan, the merge, the cluster rules."""

    def check(self, paths: Sequence[str]) -> None:
        # An index's children are looked for only in these folders: those given (a
        # file's own folder) and those --base-url names. Never above them.
        self.roots = tuple(sorted({os.path.realpath(p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p)))
                                   for p in paths} | {os.path.realpath(f) for _, f in self.options.base_urls}))
        with Workers(self) as workers:
            # Built pages depend on no index: a folder's pages go to the workers in
            # batches while the walk goes on. Sitemaps are planned when all are found.
            found = self._twins(self._inputs(paths, workers))
            # The order results are taken in (so findings are the same for any number of
            # jobs): the pages, in the order walked; the indexes (checked here, now, for
            # their children); then their children and the other files, in order. The
            # sitemaps go to the workers before the pages are taken, to run beside them.
            checked: list[FileResult] = []  # the indexes' own results, taken after the pages'
            plan = workers.plan(self._tasks(found, checked))
            while self._page_batches:
                self._take(self._page_batches.pop(0))
            for result in checked:
                self._merge(result)
            plan.reverse()
            while plan:  # (each batch let go once taken: its results, a file's cluster log with its
                self._take(plan.pop())  # URLs, are in the index now, and would stay until the end)
            self._late()
            self._static_headers()
            if self.remote is not None and self.pages_budget != 0:
                self._live_pages()  # (judged here a window at a time: each fetched file freed once judged)
        self._judge_together()

    def _inputs(self, paths: Sequence[str], workers: Workers) -> list[tuple[str, Sniffed | None]]:
        """The files given and those in the folders given (their pages handed to the
        workers as they are found); robots.txt files read."""
        found: list[tuple[str, Sniffed | None]] = []
        for path in paths:
            if not os.path.exists(path):
                self.collector.report(*missing(path), Where(display_name(path)))
            elif os.path.isdir(path):
                found += self._walk(path, workers)
            elif is_robots(path):
                self._robots(path)
            else:
                found.append((path, sniff(path)))
        return found

    def _tasks(self, found: list[tuple[str, Sniffed | None]], checked: list[FileResult]) -> list[Task]:
        """The files to check, in order: the sitemaps fetched (an index's children
        first), the indexes' children, then the other files. The indexes are checked
        here, now (their results put in ``checked``)."""
        indexes = [(path, sniffed) for path, sniffed in found if sniffed is not None
                   and sniffed.kind == "sitemapindex"]
        tasks: list[Task] = []
        fetched = [self._fetched_task(given) for given in self.remote_inputs]
        for task in fetched:
            if task is not None and task.sniffed is not None and task.sniffed.kind == "sitemapindex":
                tasks += self._index_task(task, checked)
        tasks += [task for task in fetched if task is not None and task.sniffed is not None
                  and task.sniffed.kind != "sitemapindex"]
        for path, index in indexes:
            tasks += self._index(path, index, checked)
        for path, sniffed in found:
            if sniffed is None or sniffed.kind != "sitemapindex":
                task = self._task(path, sniffed, None, False)
                if task is not None:
                    tasks.append(task)
        return tasks

    def _judge_together(self) -> None:
        """The rules across files, when every file is merged."""
        self.clusters.finish()
        if self.excluded:
            self.clusters.excluded(self.excluded)
        if self.page_roots or self.page_status:
            self.clusters.missing(self._served)
        if self.indexable:
            self.clusters.unlisted(self.indexable)
        self.clusters.conflicts()  # (a no-op without pages' heads or Link headers)

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
