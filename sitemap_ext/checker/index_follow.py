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
from .judge_file import FileResult, Task, check_file
from .live_fetch import LiveFetching
from .run_state import RunState


class IndexFollowing:
    """The steps of a check that follow an index to its children (a fetched index's
    children fetched by ``live``)."""

    def __init__(self, state: RunState, live: LiveFetching) -> None:
        self.state = state
        self.live = live

    def index(self, path: str, sniffed: Sniffed, checked: list[FileResult] | None = None) -> list[Task]:
        task = self.state.task(path, sniffed, None, False)
        if task is None:
            return []
        return self.index_task(task, checked)

    def index_task(self, task: Task, checked: list[FileResult] | None = None) -> list[Task]:
        """An index checked here, and its children planned: found on disk, or fetched.
        Its result is merged now, or put in ``checked`` to be merged later."""
        result = check_file(task, self.state.options, self.state.noted)
        if checked is not None:
            checked.append(result)
        else:
            self.state.merge(result)
        if task.display is not None and self.state.remote is not None:
            return self.live.fetched_children(task, result.children)
        path = task.path
        display = str(result.record["file"])
        tasks = []
        for child_url, line in result.children:
            found = self.state.locate(path, child_url)
            if found is None:
                self.state.collector.report("X111", f"{child_url} is not found on disk, so it is not checked; give its "
                                            "folder with --base-url URL=DIR", Where(display, line), url=child_url)
                continue
            local, index_url = found
            # An index lists itself only when an entry is its own URL (by identity); a
            # file found by the entry's path is never the index itself (see RunState.locate).
            same = task.url is not None and url_key(child_url) == url_key(task.url)
            if not same and os.path.realpath(local) == os.path.realpath(path):
                same = True  # (--base-url maps the entry to this very file: its URL, spelt otherwise)
            child_sniffed = None if same else sniff(local)
            if not self.state.child_ok(same, child_sniffed, display_name(local), Where(display, line), child_url):
                continue
            submitted = task.submitted or (index_url is not None and index_url in self.state.submitted)
            child = self.state.task(local, child_sniffed, child_url, submitted)
            if child is not None:
                tasks.append(child)
        return tasks
