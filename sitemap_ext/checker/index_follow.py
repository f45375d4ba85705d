"""An index followed: checked here, before the files it lists, and its children
found on disk (under ``--base-url URL=DIR``, or beside the index by the end of the
URL path) or fetched (a live check). X111 for a child not found.
"""

from __future__ import annotations

import os

from ..diagnostics import Where
from ..read.description_file import display_name
from ..read.sniff import Sniffed, sniff
from ..urls import url_key
from .inputs import Inputs, Judging, child_ok
from .judge_file import FileResult, Task
from .live_fetch import LiveFetching
from .results import Results


class IndexFollowing:
    """The steps of a check that follow an index to its children (a fetched index's
    children fetched by ``live``)."""

    def __init__(self, judging: Judging, inputs: Inputs, results: Results, live: LiveFetching) -> None:
        self.judging = judging
        self.inputs = inputs
        self.results = results
        self.live = live

    def index(self, path: str, sniffed: Sniffed, checked: list[FileResult] | None = None) -> list[Task]:
        task = self.inputs.task(path, sniffed, None, False)
        if task is None:
            return []
        return self.index_task(task, checked)

    def index_task(self, task: Task, checked: list[FileResult] | None = None) -> list[Task]:
        """An index checked here, and its children planned: found on disk, or fetched.
        Its result is merged now, or put in ``checked`` to be merged later."""
        result = self.judging.judge(task)
        if checked is not None:
            checked.append(result)
        else:
            self.results.merge(result)
        if task.display is not None and self.live.on:
            return self.live.fetched_children(task, result.children)
        path = task.path
        display = str(result.record["file"])
        tasks = []
        for child_url, line in result.children:
            found = self.inputs.locate(path, child_url)
            if found is None:
                self.judging.collector.report("X111", f"{child_url} is not found on disk, so it is not checked; give "
                                              "its folder with --base-url URL=DIR", Where(display, line), url=child_url)
                continue
            local, index_url = found
            # An index lists itself only when an entry is its own URL (by identity); a
            # file found by the entry's path is never the index itself (see Inputs.locate).
            same = task.url is not None and url_key(child_url) == url_key(task.url)
            if not same and os.path.realpath(local) == os.path.realpath(path):
                same = True  # (--base-url maps the entry to this very file: its URL, spelt otherwise)
            child_sniffed = None if same else sniff(local)
            if not child_ok(self.judging.collector, same, child_sniffed, display_name(local), Where(display, line),
                            child_url):
                continue
            submitted = task.submitted or self.inputs.is_submitted(index_url)
            child = self.inputs.task(local, child_sniffed, child_url, submitted)
            if child is not None:
                tasks.append(child)
        return tasks
