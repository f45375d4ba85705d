"""What a build writes, judged by the check's engine: every entry, as the record the
reader makes of it, through the entry rules; each file's entries through the file
rules; every file's entries through the rules across files.

Each page's entries come as the records ``read/xml.py`` (the reader ``check OUT``
reads them with) makes of the bytes written, made from the page by
``records.page_entries`` (no XML parsed: tests/test_build_records.py proves them
equal), media and alternates as written; they go to ``rules.engine`` with a
``Context`` per output file, gathered across pages into the engine's batches, and
their URLs and alternates to a ``ClusterLog`` for
``rules.clusters``. A build's verdict on a site is then the check's verdict on what it
wrote, plus what only a description shows (its keys, sources and settings).

A finding about an entry is placed where its page is described (the YAML key, the
source row); a finding about a whole file at the output file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..dates import DateCache
from ..diagnostics import NOWHERE, Collector, Where
from ..read.normalised import NormalisedSite as Site
from ..read.normalised import Placed
from ..read.record import FileFacts, UrlEntry
from ..rules.cluster_log import ClusterLog
from ..rules.clusters import ClusterIndex, Excluded
from ..rules.context import Context
from ..rules.engine import BATCH, judge_entries, judge_entry, judge_file_end
from ..urls import origin_of, origin_text, url_key
from .series import file_names
from .xml import RenderedPage as Rendered

if TYPE_CHECKING:  # pragma: no cover
    from .files import Files
    from .parallel import Chunk

# Which output file an entry goes to: (its host's origin, news or not, the file's number).
FileKey = tuple[str, bool, int]


class BuildJudge:
    """The engine's rules over a build's entries, as they are written."""

    def __init__(self, collector: Collector, now: float | None) -> None:
        self.collector = collector
        self.now = now
        self.dates = DateCache()
        self.noted: set[tuple[str, str]] = set()
        self.contexts: dict[FileKey, Context] = {}
        self.log = ClusterLog()
        self._where: Where = NOWHERE  # where the finding being made is placed
        self._display: str | None = None  # the description file whose entries the log is taking
        self._placed: tuple[Placed, ...] = ()  # the page's findings placed by the description (Page.placed)
        self._used: set[int] = set()  # those the engine said
        self._said_now: dict[str, int] = {}  # of the entry being judged: how many of each code it said
        # The entries gathered for the engine (engine.judge_entries), a batch per output file
        # (a page's versions may go to a file per host), with where the page of each is
        # described: by the id of the file's context, in the order the files were first met.
        self._batches: dict[int, tuple[Context, list[UrlEntry], list[Where]]] = {}
        # A built site's pages (write/built_site.py): their keys, those left out, its folders
        self.pages_read: set[int] = set()
        self.excluded: dict[int, Excluded] = {}
        self.folders: dict[str, str] = {}  # URL prefix -> folder

    def _report(self, code: str, message: str, line: int | None, column: int | None = None, **extra: Any) -> None:
        where = self._where
        if self._placed:
            where = self._place(code) or where
        self.collector.report(code, message, where, **extra)

    def _place(self, code: str) -> Where | None:
        """Where the description gives the value a finding of ``code`` is about (the
        page's media and URL findings, ``Page.placed``, in the order the engine says
        them: it runs the same parse on the same fields)."""
        numbers = [k for k, found in enumerate(self._placed) if found[0] == code]
        if not numbers:
            return None
        said = self._said_now.get(code, 0)
        self._said_now[code] = said + 1
        number = numbers[min(said, len(numbers) - 1)]
        self._used.add(number)
        return self._placed[number][2]

    def _context(self, key: FileKey) -> Context:
        ctx = self.contexts.get(key)
        if ctx is None:
            # (published=False: U117 is the description's, at site.base_url, where public_url and
            # base_url show whether the pages' host is one no crawler reaches)
            ctx = self.contexts[key] = Context(FileFacts("", kind="urlset"), self._report, now=self.now,
                                               dates=self.dates, noted=self.noted, published=False)
        return ctx

    def page(self, entries: Sequence[UrlEntry], where: Where | None, news: bool,
             key_of: Callable[[str, bool], FileKey], placed: tuple[Placed, ...] = (),
             split: list[int] | None = None) -> None:
        """A page's entries as written (``key_of`` says into which file by the URL's
        origin: asked for the first entry, and for an entry on another host than the
        first's), each judged where the page is described (``where``). ``split``: the
        number of each entry's file, where the page's entries went into several."""
        where = where or NOWHERE
        if where.file != self._display:
            self._flush()
            if self._display is not None:
                self.log.end_file(self._display)
            self._display = where.file
        contexts = self._contexts(entries, news, key_of, split)
        if not placed:
            for entry, ctx in zip(entries, contexts, strict=True):
                self._queue(entry, ctx, where)
            return
        self._flush()  # (its findings placed by the description's, which are counted entry by entry)
        self._where, self._placed, self._used = where, placed, set()
        for entry, ctx in zip(entries, contexts, strict=True):
            self._said_now = {}
            judge_entries([entry], ctx, self.log)
        self._unwritten(placed, entries)

    def _queue(self, entry: UrlEntry, ctx: Context, where: Where) -> None:
        """An entry into its output file's batch, judged when the batch holds engine.BATCH
        entries (or when the judge settles). One batch per file: the versions of a page on
        three hosts go to three files, and a batch cut at each change of file would hand
        the engine one entry at a time."""
        batch = self._batches.get(id(ctx))
        if batch is None:
            batch = self._batches[id(ctx)] = (ctx, [], [])
        batch[1].append(entry)
        batch[2].append(where)
        if len(batch[1]) >= BATCH:
            del self._batches[id(ctx)]
            self._judge_batch(*batch)

    def settle(self) -> None:
        """Judge the entries gathered so far (``page`` gathers them for the engine; ``head``
        and ``finish`` settle them first)."""
        self._flush()

    def _flush(self) -> None:
        """Every file's gathered entries through the engine, in the order the files were met."""
        batches, self._batches = self._batches, {}
        for batch in batches.values():
            self._judge_batch(*batch)

    def _judge_batch(self, ctx: Context, entries: list[UrlEntry], wheres: list[Where]) -> None:
        """One file's gathered entries through the engine, each finding placed at its page's ``where``."""
        def starting(number: int) -> None:
            self._where = wheres[number]
        judge_entries(entries, ctx, self.log, starting)

    def _contexts(self, entries: Sequence[UrlEntry], news: bool, key_of: Callable[[str, bool], FileKey],
                  split: list[int] | None) -> list[Context]:
        """The context of the file each entry goes to."""
        context = self._context
        found: list[Context] = []
        first: Context | None = None  # the first entry's file: a page's entries are mostly on its host
        first_loc, host = "", None
        for number, entry in enumerate(entries):
            loc = entry.locs[0].text or ""
            if split is not None:  # (a page across a split, or on several hosts: each entry's own file)
                origin, is_news, _ = key_of(loc, news)
                ctx = context((origin, is_news, split[number]))
            elif first is None:
                ctx = first = context(key_of(loc, news))
                first_loc = loc
            else:
                if host is None:  # (from a page's second entry on: one entry needs no origin)
                    host = origin_text(first_loc)
                ctx = first if origin_text(loc) == host else context(key_of(loc, news))
            found.append(ctx)
        return found

    def _unwritten(self, placed: tuple[Placed, ...], entries: Sequence[UrlEntry]) -> None:
        """What the build found of a value it does not write (the engine, judging what
        is written, cannot say it): said by the build, where the value is given."""
        url = entries[0].locs[0].text if entries else None
        for number, (code, message, where, suggestion, once) in enumerate(placed):
            if number not in self._used:
                self.collector.report(code, message, where, url=url, suggestion=suggestion, once=once)
        self._placed = ()

    def head(self, entry: UrlEntry, display: str, excluded: Excluded | None) -> None:
        """A built page's head as the check of the pages reads it (``read/page_record.py``):
        judged by the entry rules at its lines in the page, into the cluster log as the
        page's own listing, so the rules across files see the heads the check sees."""
        self._flush()
        if display != self._display:
            if self._display is not None:
                self.log.end_file(self._display)
            self._display = display
        report = self.collector.report

        def at_line(code: str, message: str, line: int | None, column: int | None = None, **extra: Any) -> None:
            report(code, message, Where(display, line, column), **extra)

        judge_entry(entry, Context(FileFacts(display, kind="html"), at_line, now=self.now, dates=self.dates,
                                   noted=self.noted), self.log)
        url = entry.locs[0].text or ""
        self.pages_read.add(url_key(url))
        if excluded is not None:
            self.excluded[url_key(url)] = excluded

    def folder(self, prefix: str, root: str) -> None:
        """A built site's folder and the URL it is served at (which URLs it serves)."""
        self.folders[prefix] = root

    def _serves(self, url: str, key: int) -> bool | None:
        from ..read.html import served_in  # (a built site's only: a build of a description loads no HTML reader)
        return True if key in self.pages_read else served_in(url, self.folders)

    def finish(self, name_of: Callable[[FileKey], str]) -> None:
        """The file rules on each output file (``name_of`` names it), then the rules
        across files."""
        self._flush()
        for key in sorted(self.contexts):
            ctx = self.contexts[key]
            self._where = Where(name_of(key))
            judge_file_end(ctx)
        self.log.end_file(self._display or "")
        clusters = ClusterIndex(self.collector)
        clusters.add(None, self.log)
        clusters.judge_all(self.excluded, self._serves if self.folders else None)  # (as the check calls them)


def output_name(out_dir: str | None, name: str) -> str:
    """How a finding names an output file: its path in the output folder."""
    return os.path.join(out_dir, name) if out_dir else name


class JudgedFiles:
    """The build's files (None: a dry run, which writes nothing) with the judge beside
    them: each page added is written, then judged as the file it went to holds it."""

    def __init__(self, judge: BuildJudge, files: Files | None, site: Site) -> None:
        assert site.scope is not None
        self.judge = judge
        self.files = files
        self.base = str(origin_of(site.scope.base_url))
        self.several = len(site.scope.origins) > 1
        self.site = site

    @property
    def entry_bytes(self) -> int:
        return self.files.entry_bytes if self.files is not None else 0

    @property
    def scratch(self) -> str:
        assert self.files is not None
        return self.files.scratch

    def quiesce(self) -> None:
        if self.files is not None:
            self.files.quiesce()

    def add(self, record: Rendered) -> None:
        split = None
        if self.files is not None:
            self.files.add(record)
            split = self.files.split
        self.judge.page(record.entries, record.where, record.news, self._key, record.placed, split)

    def add_chunk(self, chunk: Chunk) -> None:
        """A worker's chunk, written, each run of its pages judged once it is in its file."""
        files = self.files
        assert files is not None
        starts = [0]
        for count in chunk.counts:
            starts.append(starts[-1] + count)
        display, lines = chunk.places
        page = self.judge.page

        def placed(start: int, stop: int) -> None:
            for number in range(start, stop):
                line = lines[number] if number < len(lines) else 0
                page(chunk.entries[starts[number]:starts[number + 1]], Where(display, line or None),
                     chunk.meta[number][3], self._key, chunk.placed.get(number, ()), files.split)
        files.add_chunk(chunk, placed)

    def _key(self, loc: str, news: bool) -> FileKey:
        origin = origin_text(loc) if self.several else self.base
        files = self.files
        return (origin, news, files.parts(origin, news) if files is not None else 1)

    def finish(self, out_dir: str | None) -> None:
        files = self.files
        out = self.site.output

        def name_of(key: FileKey) -> str:
            if files is not None:
                found = files.names.get(key)
                if found is not None:
                    return output_name(out_dir, found)
            return output_name(out_dir, file_names(out, 1, pattern=out.news_pattern if key[1] else None,
                                                   single=True)[0])
        self.judge.finish(name_of)
