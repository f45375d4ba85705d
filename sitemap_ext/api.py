"""The public API: the one module that sees both sides, the build and the check.

``build`` writes a site's sitemaps (``write.build``); ``check`` judges files, folders,
URLs, site descriptions and a program's pages (``checker.check``, with the build's dry
run for descriptions); ``diff`` compares two sides, each read as ``check`` reads it
(``diff/``); ``render`` gives the bytes of a sitemap for a web view and
``SitemapWriter`` takes pages one at a time: both are ``build()`` underneath (one
writer, one set of rules). ``render`` builds into a private temporary folder and
gives back the files' bytes; ``SitemapWriter`` feeds ``build(site, pages=...)`` from
a bounded queue on a thread of its own, so a framework can hand over pages as it
produces them and memory stays flat.
"""

from __future__ import annotations

import datetime as dt
import enum
import os
import queue
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .codes import REGISTRY
from .dates import now_argument
from .diagnostics import Collector
from .limits import MAX_STORED_PER_CODE
from .model import Page, Site
from .read.frames import is_dask_frame
from .read.http_types import FetchOptions
from .rules.config import Policy
from .write.build import BuildResult
from .write.build import build as build_here

if TYPE_CHECKING:  # (at run time each loads with the first call, or name, that needs it: see __getattr__)
    from .checker.check import CheckResult
    from .checker.given import Checkable
    from .deploys import Row, StateError, SubmitProgress, SubmitResult, state_rows, submit
    from .diff import DiffResult

# The names of the check's result, diff's and the deploys' (submit, the build state) that
# the api gives, imported when first asked for: a build through the api (as an
# integration's) loads neither the checker, diff, submit nor SQLite.
_DEPLOYS = frozenset({"Row", "StateError", "SubmitProgress", "SubmitResult", "state_rows", "submit"})


def __getattr__(name: str) -> Any:
    if name == "CheckResult":
        from .checker.check import CheckResult

        return CheckResult
    if name == "DiffResult":
        from .diff import DiffResult

        return DiffResult
    if name in _DEPLOYS:
        from . import deploys

        return getattr(deploys, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build(*args: Any, client: Any = None, **options: Any) -> BuildResult:
    """Build a site's sitemaps: ``write.build.build``'s arguments (below), and ``client``.

    ``client``: a ``distributed.Client``: the build runs on its cluster, a partition a
    task (``dask_build``: the same entries and findings as here); so it does when
    ``pages`` is a Dask DataFrame (on a local cluster when no client is given), its
    partitions named ``<partition N>:ROW`` as ``pages=[frame_1, ..., frame_n]`` names them.
    """
    pages = options.get("pages")
    if client is not None or is_dask_frame(pages):
        from .dask_build.driver import build_on_dask  # (only a build on Dask loads it, and dask)

        return build_on_dask(*args, client=client, **options)
    return build_here(*args, **options)


build.__doc__ = f"{build.__doc__}\n{build_here.__doc__}"


class _End(enum.Enum):
    END = "end"  # the writer's last item


_END = _End.END
_Item = Page | Mapping[str, Any] | BaseException | _End  # what the writer's queue carries


@dataclass
class Rendered:
    """The files a site renders to, by name (``sitemap.xml``, an index and its parts,
    ``robots-sitemap.txt`` ...), in memory, and the build's findings. (One page's
    rendered entries, inside the writer, are ``write.xml.RenderedPage``.)"""

    files: dict[str, bytes] = field(default_factory=dict)
    collector: Collector | None = None

    @property
    def ok(self) -> bool:
        return self.collector is not None and not self.collector.failed()

    @property
    def sitemap(self) -> bytes:
        """The sitemap a view serves at the site's sitemap URL: the index when the
        pages needed several files, else the one sitemap (its bytes)."""
        for name in ("sitemap_index.xml", "sitemap-index.xml", "sitemap.xml", "sitemap_index.xml.gz",
                     "sitemap.xml.gz"):
            if name in self.files:
                return self.files[name]
        return next(iter(self.files.values()), b"")


def render(site: Site | str | os.PathLike[str], pages: Iterable[Page | Mapping[str, Any]] | None = None, *,
           now: str | dt.datetime | dt.date | None = None, gzip: bool | None = None) -> Rendered:
    """The bytes of a site's sitemaps (one sitemap, or an index and its parts, split at
    the protocol's limits), for a web view to serve; nothing is written where the
    caller can see it. The findings are in ``result.collector``; with an error the
    files are empty (as a build replaces nothing then)."""
    with tempfile.TemporaryDirectory(prefix="sitemap-ext-render-") as folder:
        result = build(site, folder, pages=pages, now=now, gzip=gzip)
        rendered = Rendered(collector=result.collector)
        for written in result.files:
            path = os.path.join(folder, *written.name.split("/"))
            with open(path, "rb") as handle:
                rendered.files[written.name] = handle.read()
        return rendered


class SitemapWriter:
    """Pages handed over one at a time (``add``), built as they come; ``close()`` (or
    the end of a ``with`` block) finishes the build and gives its ``BuildResult``. An
    exception in the block abandons the build: the output folder keeps its old files::

        with SitemapWriter(site, "public/") as writer:
            for row in cursor:
                writer.add(Page(loc=row.url, lastmod=row.updated))
        print(writer.result.ok)
    """

    def __init__(self, site: Site | str | os.PathLike[str], out_dir: str | os.PathLike[str] | None = None,
                 **options: Any) -> None:
        if "pages" in options:
            raise TypeError("SitemapWriter takes its pages from add(), not pages=")
        self._queue: queue.Queue[_Item] = queue.Queue(maxsize=1024)
        self._error: BaseException | None = None
        self.result: BuildResult | None = None
        self._closed = False
        # Started at the first page (or close): a writer given nothing valid leaves no thread behind.
        self._thread = threading.Thread(target=self._build, args=(site, out_dir, options), daemon=True,
                                        name="sitemap-ext-writer")

    def _pages(self) -> Iterator[Page | Mapping[str, Any]]:
        while True:
            item = self._queue.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item  # the caller gave up: the build stops and replaces nothing
            yield item

    def _build(self, site: Any, out_dir: Any, options: dict[str, Any]) -> None:
        try:
            self.result = build(site, out_dir, pages=self._pages(), **options)
        except BaseException as exc:  # (handed to the caller's thread at close)
            self._error = exc
            while True:  # let a waiting add() return
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    break

    def add(self, page: Page | Mapping[str, Any]) -> None:
        """One more page (a ``Page`` or a mapping with a page's keys)."""
        if self._closed:
            raise ValueError("this SitemapWriter is closed")
        if not isinstance(page, (Page, Mapping)):
            raise TypeError(f"add() takes a Page or a mapping, not {type(page).__name__}")
        if not self._put(page):
            self._raise()  # the build ended early: its exception, here

    def _put(self, item: _Item) -> bool:
        """Hand ``item`` to the build (waiting while the queue is full); False when the
        build has ended and takes nothing more."""
        if self._thread.ident is None:
            self._thread.start()
        while self._thread.is_alive():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def close(self) -> BuildResult:
        """Finish the build; its result (also in ``self.result``)."""
        if not self._closed:
            self._closed = True
            self._put(_END)
            self._thread.join()
        self._raise()
        assert self.result is not None
        return self.result

    def abandon(self, reason: BaseException | None = None) -> None:
        """Stop without replacing anything in the output folder."""
        if not self._closed:
            self._closed = True
            self._put(reason or RuntimeError("the pages were abandoned"))
            self._thread.join()

    def _raise(self) -> None:
        if self._error is not None and not isinstance(self._error, _Abandoned):
            raise self._error

    def __enter__(self) -> SitemapWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is not None:
            self.abandon(_Abandoned(str(exc)))
            return
        self.close()


class _Abandoned(RuntimeError):
    """The block that fed a writer raised: its build is dropped, and the block's own
    exception goes on."""



# --- check ----------------------------------------------------------------------------

def check(paths: Sequence[Checkable] | Checkable | Site, *,
          now: str | dt.datetime | dt.date | None = None, base_urls: Sequence[str] = (),
          jobs: int | None = None, policy: Policy | None = None,
          cross_submitted: Sequence[str] = (), allow_read: Sequence[str] = (),
          max_per_code: int | None = MAX_STORED_PER_CODE, only_site_yaml: bool = False,
          coverage: int = 0, html: str = "on", fetch: FetchOptions | None = None,
          pages: int | str | None = 0, delay: float = 0.0,
          progress: Callable[[str], None] | None = None, memory_budget: int | str | None = None,
          client: Any = None) -> CheckResult:
    """Run every rule on site descriptions, sitemaps (XML, gzip, text, indexes, RSS and
    Atom feeds, told apart by their content) and folders of them; write nothing.
    Sitemaps are checked together: duplicates and hreflang return links are judged
    across all of them.

    ``base_urls`` are ``URL=DIR`` pairs: the folder where the files served under URL
    are, for following an index to its children and for host and folder checks.
    ``jobs``: processes reading files (default: one per core, at most four); the
    findings are the same for any number. ``policy``: which codes are shown and at
    which severity (every rule runs; the rest are counted). ``cross_submitted``:
    hosts whose robots.txt lists these sitemaps, so they may list those hosts' URLs.
    ``allow_read``: folders besides a site description's own that its sources and
    includes may come from. ``now``: the instant dates are judged against (news age,
    lastmod in the future); default ``SOURCE_DATE_EPOCH``, else the system clock.
    ``max_per_code``: findings kept per code (the rest are counted; None: all).
    ``only_site_yaml``: a YAML file without a top-level ``site:`` key is skipped, not
    judged as a site description (for hooks that pass every changed YAML file).
    A check that finds nothing to check (no sitemap, feed or site description among
    the inputs) reports F104. ``coverage``: keep the hreflang coverage picture of at
    most this many clusters in ``result.coverage`` (defective ones first; 0: none).
    ``html``: built HTML pages among the inputs have their head's alternates judged
    with the sitemaps' ("on": a page's URL comes from ``base_urls``, ``index.html``
    being its folder's URL; "drop-ext": and a page's URL has no ``.html``; "off":
    pages are skipped). A page whose folder no ``base_urls`` entry names is skipped.

    A path that is an http(s) URL is fetched: a robots.txt (its ``Sitemap:`` lines), a
    sitemap, an index or a feed, or any page of a site (its robots.txt, then the usual
    locations); findings name the URLs. ``fetch`` sets the client (timeouts, retries,
    headers, ``allow_private`` for local and staging servers, a ``cache`` folder).
    ``pages``: listed URLs and alternates whose heads are fetched and judged with the
    sitemaps (0: none, a number, or "all"), ``delay`` seconds apart on one host;
    ``progress`` is called with a line of progress now and then.

    ``memory_budget`` (bytes, or a size such as "512M"): the process's memory; near it
    (the index's own estimate, or the process's resident memory where the system says
    it), the index of every entry and alternate the rules across files read spills to
    a private temporary folder (removed when the check ends); the findings are the same. ValueError for a
    malformed size, or a budget smaller than the minimum the check needs (said).

    ``client``: a ``distributed.Client``: each file is judged on its cluster's workers,
    which read it from its path (shared storage); the findings are the same. Paths
    only (ValueError for URLs, bytes, file objects).
    """
    from .checker.given import check as check_given
    from .checker.given import check_arguments

    if isinstance(paths, Site):
        check_arguments(base_urls, jobs, policy, cross_submitted, allow_read, max_per_code, only_site_yaml, coverage,
                        html, fetch, None, delay, progress)  # (a Site's pages: an iterable, checked below)
        return _check_site(paths, pages, now, policy, max_per_code)
    return check_given(paths, now=now, base_urls=base_urls, jobs=jobs, policy=policy, cross_submitted=cross_submitted,
                       allow_read=allow_read, max_per_code=max_per_code, only_site_yaml=only_site_yaml,
                       coverage=coverage, html=html, fetch=fetch, pages=pages, delay=delay, progress=progress,
                       memory_budget=memory_budget, client=client)


def _check_site(site: Site, pages: Any, now: Any, policy: Policy | None, max_per_code: int | None
                ) -> CheckResult:
    """The pages of a program, checked as a dry build of its Site: every rule, nothing written."""
    from .checker.check import CheckResult

    if pages == 0:  # (the default of a check of files: no pages)
        pages = None
    if pages is not None and (isinstance(pages, (int, str, bytes, Mapping)) or not isinstance(pages, Iterable)):
        raise TypeError("check(site, pages=...) takes an iterable of Page objects or mappings")
    collector = Collector(REGISTRY, policy=policy, limit=max_per_code)
    result = CheckResult(collector)
    built = build(site, pages=pages, now=now_argument(now), dry_run=True, collector=collector)
    result.files.append({"file": "<site>", "kind": "site", "urls": built.urls})
    return result

# --- diff -----------------------------------------------------------------------------

def diff(old: str | os.PathLike[str], new: str | os.PathLike[str], *,
         now: str | dt.datetime | dt.date | None = None, base_urls: Sequence[str] = (), jobs: int | None = None,
         policy: Policy | None = None, html: str = "on", fetch: FetchOptions | None = None,
         fail_on_removed: float | None = None, progress: Callable[[str], None] | None = None) -> DiffResult:
    """What changed from ``old`` to ``new``: each a folder, a sitemap file or a URL (a
    deployed site, its robots.txt, a sitemap or an index), read as ``check`` reads it.

    The result gives the URLs ``added``, ``removed`` and ``changed`` (lastmod moved:
    ``UrlChange(url, old_lastmod, new_lastmod)``), each in the order its side lists
    them; the hreflang ``clusters`` that gained, lost or broke a member, or are new or
    gone (``ClusterChange``); ``files_added`` and ``files_removed`` (named relative to
    each side); and ``new_errors``, the errors of NEW whose fingerprints (as a baseline
    records them: not their lines) OLD does not have. ``failures`` says why the diff
    fails a pipeline: ``"removed"`` when more than ``fail_on_removed`` percent of OLD's
    URLs are gone, ``"new-errors"``; ``ok`` when none and both sides were read
    (``unreadable`` holds the findings that kept a side from being read: the diff is
    then empty). ``base_urls`` (``URL=DIR``) serve a side's folder at a URL, each pair
    for the side whose folder holds DIR; the other arguments are ``check``'s, for both
    sides. ``progress`` is called with a line as each side is read.
    """
    from .checker.given import check_arguments
    from .diff import Reading, diff_inputs, refused

    check_arguments(base_urls, jobs, policy, (), (), None, False, 0, html, fetch, 0, 0.0, progress, "diff")
    sides = []
    for name, value in (("old", old), ("new", new)):
        if not isinstance(value, (str, os.PathLike)):
            raise TypeError(f"diff({name}=...) takes a path or a URL, not {type(value).__name__}")
        path = os.fspath(value)
        why = refused(path)
        if why is not None:
            raise ValueError(f"diff({name}=...): {why}")
        sides.append(path)
    if fail_on_removed is not None:
        if isinstance(fail_on_removed, bool) or not isinstance(fail_on_removed, (int, float)):
            raise TypeError(f"diff(fail_on_removed=...) takes a percentage, not {type(fail_on_removed).__name__}")
        if not 0 <= fail_on_removed <= 100:
            raise ValueError(f"diff(fail_on_removed=...) must be a percentage from 0 to 100, not {fail_on_removed}")
    reading = Reading(now=now_argument(now), base_urls=tuple(base_urls), jobs=jobs, policy=policy, html=html,
                      fetch=fetch, progress=progress)
    return diff_inputs(sides[0], sides[1], reading, None if fail_on_removed is None else float(fail_on_removed))



__all__ = ["BuildResult", "CheckResult", "DiffResult", "FetchOptions", "Rendered", "Row", "SitemapWriter",
           "StateError", "SubmitProgress", "SubmitResult", "build", "check", "diff", "render", "state_rows", "submit"]
