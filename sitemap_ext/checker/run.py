"""Checking sitemaps that exist: which files, in which order, read where.

Inputs are files and folders; a folder's files are told apart by their content
(``sniff.py``): sitemaps, indexes and feeds are checked, robots.txt files say
which sitemaps were submitted, and anything else (HTML, JSON, images) is skipped
and counted (``folder_walk.py``). Indexes are read first, here, and their children
found on disk (``index_follow.py``).

Every other file is read and judged by ``check_file`` (``judge_file.py``): in this
process, in a pool of worker processes (``workers.py``), or on a Dask cluster's
workers (``on_dask.py``): a sitemap alone, built pages in batches (sniffed and read
by the worker, their entries in one cluster log per batch, handed over while the
folder is walked). Results are taken in a fixed
order (the pages as walked, the indexes, then the other files), so the findings are
the same for any number of jobs; then the cluster rules judge all files together
(``rules/clusters.py``). URLs given to a check are fetched first (``read/live.py``) and
checked as files named by their URLs (``live_fetch.py``).

A check is small objects, each owning its own fields: what files are judged with
(``Judging``), --base-url (``BaseUrls``), the inputs planned (``Inputs``, in
``inputs.py``), the results merged with the cluster index (``Results``) and the built
site they tell of (``BuiltPages``, in ``results.py``); and the steps that use them
(``FolderWalk``, ``IndexFollowing``, ``LiveFetching``, ``HeaderFiles``). ``Run``
makes them, hands each what it needs, and says the order they run in.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ..diagnostics import Collector, Where
from ..read.description_file import display_name
from ..read.live import Input, Remote
from ..read.sniff import Sniffed, is_sitemap, missing, sniff
from ..rules.cluster_log import ClusterLog
from .folder_walk import FolderWalk, is_robots
from .header_files import HeaderFiles
from .index_follow import IndexFollowing
from .inputs import BaseUrls, Inputs, Judging
from .judge_file import FileResult, Options, Task
from .live_fetch import LiveFetching
from .results import BuiltPages, Results
from .workers import Cluster, Workers

__all__ = ["Options", "Run"]


class Run:
    """One check of many files: the plan, the merge, the cluster rules. ``remote`` and
    what follows it: a live check (the fetcher, the sitemaps fetched for the URLs given,
    the pages to fetch, None for all, and the pause between them). ``client``: a
    ``distributed.Client`` whose workers judge the files the pool would (``on_dask.py``)."""

    def __init__(self, collector: Collector, options: Options, *, displays: Mapping[str, str] | None = None,
                 submitted: Collection[str] = (), remote: Remote | None = None, given: Sequence[Input] = (),
                 budget: int | None = 0, delay: float = 0.0, client: Any = None, apart: bool = False) -> None:
        self.judging = Judging(collector, options)
        self.cluster = None if client is None else _on_dask(client, options, apart)
        base = BaseUrls(options.base_urls)
        self.site = BuiltPages(collector, base.roots(), options.html)
        self.results = Results(collector, self.site)
        if apart and client is not None:
            self.results.keep_logs()
        self.inputs = Inputs(self.judging, base, self.site, displays=dict(displays or {}), submitted=set(submitted))
        self.headers = HeaderFiles(self.judging, self.inputs, self.results, base)
        self.live = LiveFetching(self.judging, self.inputs, self.results, self.site, self.headers, remote,
                                 tuple(given), budget, delay)
        self.indexes = IndexFollowing(self.judging, self.inputs, self.results, self.live)
        self.folders = FolderWalk(self.judging, self.inputs, self.results, self.headers, base)

    def check(self, paths: Sequence[str]) -> None:
        # An index's children are looked for only in these folders: those given (a
        # file's own folder) and those --base-url names. Never above them.
        given = {os.path.realpath(p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p))) for p in paths}
        self.inputs.confine(given | {os.path.realpath(f) for _, f in self.judging.options.base_urls})
        with Workers(self.judging, self.cluster) as workers:
            # Built pages depend on no index: a folder's pages go to the workers in
            # batches while the walk goes on. Sitemaps are planned when all are found.
            found = self.folders.twins(self._inputs(paths, workers))
            # The order results are taken in (so findings are the same for any number of
            # jobs): the pages, in the order walked; the indexes (checked here, now, for
            # their children); then their children and the other files, in order. The
            # sitemaps go to the workers before the pages are taken, to run beside them.
            checked: list[FileResult] = []  # the indexes' own results, taken after the pages'
            plan = workers.plan(self._tasks(found, checked))
            self.results.take_handed()
            for result in checked:
                self.results.merge(result)
            plan.reverse()
            while plan:  # (each batch let go once taken: its results, a file's cluster log with its
                self.results.take(plan.pop())  # URLs, are in the index now, and would stay until the end)
            self._late()
            self.folders.held_back()
            self.headers.static_headers()
            if self.live.on and self.live.budget != 0:
                self.live.live_pages()  # (judged here a window at a time: each fetched file freed once judged)
        self._judge_together()

    def _inputs(self, paths: Sequence[str], workers: Workers) -> list[tuple[str, Sniffed | None]]:
        """The files given and those in the folders given (their pages handed to the
        workers as they are found); robots.txt files read."""
        found: list[tuple[str, Sniffed | None]] = []
        for path in paths:
            if not os.path.exists(path):
                self.judging.collector.report(*missing(path), Where(display_name(path)))
            elif os.path.isdir(path):
                found += self.folders.walk(path, workers)
            elif is_robots(path):
                self.folders.robots(path)
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
        fetched = self.live.given_tasks()
        for task in fetched:
            if task is not None and task.sniffed is not None and task.sniffed.kind == "sitemapindex":
                tasks += self.indexes.index_task(task, checked)
        tasks += [task for task in fetched if task is not None and task.sniffed is not None
                  and task.sniffed.kind != "sitemapindex"]
        for path, index in indexes:
            tasks += self.indexes.index(path, index, checked)
        for path, sniffed in found:
            if sniffed is None or sniffed.kind != "sitemapindex":
                task = self.inputs.task(path, sniffed, None, False)
                if task is not None:
                    tasks.append(task)
        return tasks

    def _judge_together(self) -> None:
        """The rules across files, when every file is merged: on the cluster's workers where
        the logs were kept there, else here."""
        results = self.results
        # (the built site's rules ask what the client holds: the folders of pages, their answers)
        built = results.own or self.site.folders or self.site.status
        if results.logs and not built and self.cluster is not None:
            spill = results.clusters.spill
            results.counted = self.cluster.across(results.logs, results.collector,
                                                  None if spill is None else spill.settings)
        elif results.logs is not None:
            for log in results.logs:  # (one at a time, in the order taken, each let go once added)
                log = log if isinstance(log, ClusterLog) else log.result()
                if log is not None:
                    results.clusters.add(None, log)
            results.logs = None
        if results.counted is None:
            self.site.judge(results.clusters)
        results.place_across()

    def _late(self) -> None:
        """Files named as pages whose content is something else (a sitemap saved as
        .html, a text file): judged as their content asks, in this process, after the rest."""
        while (aside := self.results.next_set_aside()) is not None:
            path, sniffed = aside
            self.inputs.again(path)
            if sniffed.kind == "sitemapindex":
                tasks = self.indexes.index(path, sniffed)
            elif is_sitemap(path, sniffed):
                task = self.inputs.task(path, sniffed, None, False)
                tasks = [task] if task is not None else []
            else:
                self.inputs.pass_over(path)
                continue
            for task in tasks:
                self.results.merge(self.judging.judge(task))


def _on_dask(client: Any, options: Options, apart: bool) -> Cluster:
    """The cluster whose workers judge the files (loaded only for a check on Dask);
    ``apart``: and the rules across files."""
    from .on_dask import OnDask

    return OnDask(client, options.registry, apart=apart)
