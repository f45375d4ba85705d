"""The check of files, folders and URLs: every rule, nothing written.

Readers (``read/``) turn each file into records; the rules (``rules/``) judge the
records; ``rules/clusters.py`` judges what needs every file; ``run`` plans the files
and spreads them over processes. A site description among the inputs is checked by the
build's dry run, which ``api.check`` hands in (``describe``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..dates import default_clock, format_instant, now_argument, parse_now
from ..diagnostics import Code, Collector, Diagnostic, Where
from ..limits import MAX_DESCRIPTION_BYTES
from ..pool import default_jobs
from ..read.http_types import FetchOptions
from ..read.live import Remote, is_url
from ..rules.clusters import ClusterIndex, Coverage
from ..safeio import Refused, read_bounded
from ..urls import origin_text
from .run import Options, Run

if TYPE_CHECKING:
    from ..rules.config import Policy
    from ..rules.spill import Budget, SpillFailed, SpillFolder

SITE_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class Counts:
    """What a check read, counted once for every format (``CheckResult.counts``).

    ``entries``: URL entries in sitemaps, feeds and text files (a ``<url>``, an item,
    a line; a site description's URLs as its dry build writes them); ``distinct_urls``:
    the URLs among them, each once (by URL identity: two spellings of one URL are one);
    ``sitemaps_listed``: the entries of sitemap indexes; ``pages``: built pages read;
    ``alternates``: hreflang alternate links given (``xhtml:link`` in entries and
    ``<link rel="alternate">`` in pages' heads, each link counted)."""

    files: int = 0
    entries: int = 0
    distinct_urls: int = 0
    sitemaps_listed: int = 0
    pages: int = 0
    alternates: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"files_checked": self.files, "url_entries": self.entries, "distinct_urls": self.distinct_urls,
                "sitemaps_listed": self.sitemaps_listed, "pages": self.pages, "alternates": self.alternates}


_NO_ENTRIES = ("sitemapindex", "html", "site", "headers")  # (a site description's URLs are counted as built)


def count_files(files: Sequence[dict[str, object]], listed: tuple[int, int] | None) -> Counts:
    """The counts of a check's file records and, from the cluster index, the distinct
    URLs its entries list and the alternates given (``ClusterIndex.listed``); without
    one (no sitemap read), each entry counts as a distinct URL."""
    per_kind: dict[str, int] = {}
    for record in files:
        kind = str(record.get("kind"))
        per_kind[kind] = per_kind.get(kind, 0) + int(str(record.get("urls") or 0))
    entries = sum(count for kind, count in per_kind.items() if kind not in _NO_ENTRIES)
    built = per_kind.get("site", 0)
    distinct, alternates = listed if listed is not None else (entries, 0)
    return Counts(files=len(files), entries=entries + built, distinct_urls=distinct + built,
                  sitemaps_listed=per_kind.get("sitemapindex", 0),
                  pages=sum(1 for record in files if record.get("kind") == "html"), alternates=alternates)


@dataclass
class CheckResult:
    """What a check found: its findings (``collector``), the files checked (a record
    each: file, kind, URLs), those skipped as no sitemap, the instant dates were
    judged against and where it came from; ``ok`` when no error."""

    collector: Collector
    files: list[dict[str, object]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # files in folders that hold no sitemap or feed
    now: float | None = None  # the instant dates were judged against
    clock: str = "--now"  # where it came from: --now, SOURCE_DATE_EPOCH, the system clock
    coverage: Coverage | None = None  # the hreflang coverage picture, when asked for
    listed: tuple[int, int] | None = None  # distinct URLs listed, alternates given (ClusterIndex.listed)
    index: ClusterIndex | None = None  # every entry read, with its lastmod (kept for a diff: check_inputs(index=True))

    @property
    def counts(self) -> Counts:
        """The files, entries, distinct URLs, sitemaps listed, pages and alternates read:
        the one count every format shows."""
        return count_files(self.files, self.listed)

    @property
    def ok(self) -> bool:
        return not self.collector.failed()


# A site description checked as a dry build: (path, now as given, collector) -> its URLs.
Describe = Callable[[str, Any, Collector], int]


def check_inputs(paths: list[str], displays: dict[str, str], now: Any, base_urls: Sequence[str], jobs: int | None,
                 policy: Policy | None, cross_submitted: Sequence[str], max_per_code: int | None,
                 only_site_yaml: bool, coverage: int, html: str, fetch: FetchOptions | None,
                 pages: int | str | None, delay: float, progress: Callable[[str], None] | None,
                 describe: Describe, *, registry: dict[str, Code], diff: bool = False,
                 memory_budget: Budget | None = None, client: Any = None) -> CheckResult:
    """Every rule on the inputs (paths of files and folders, and URLs); a site
    description among them is handed to ``describe`` (the build's dry run, which the
    API wires in: the judge imports no writer), and ``registry`` is every code
    (``codes.REGISTRY``, wired in too, so a caller may hand its own). For a ``diff``, the cluster index of
    every entry read, each with its lastmod, is kept in ``result.index``, and every
    error is kept past ``max_per_code`` (which then bounds the warnings and infos). With a
    ``memory_budget``, the cluster index spills to a private temporary folder past it
    (removed before this returns); a folder that cannot be written is F107. With a
    ``client`` (``distributed.Client``), the files the pool would judge are judged on
    its workers (``on_dask.py``), and the rules across files too, in shares of the URL
    keys (unless built pages, Link headers, the coverage picture or a diff ask the
    index here)."""
    budget = _pages_budget(pages)
    now = now_argument(now)
    collector = Collector(registry, policy=policy, limit=max_per_code, errors_kept=diff)
    result = CheckResult(collector)
    given = now  # a site description without it takes its site.now, or the default clock
    if now is None:
        instant, result.clock = default_clock()
        now = format_instant(instant)
    result.now = parse_now(now)
    urls = [path for path in paths if is_url(path)]
    sitemaps, passed_over = _describe_sites(paths, result, given, only_site_yaml, describe)
    if sitemaps or urls:
        options = Options(registry, now=result.now, base_urls=parse_base_urls(base_urls),
                          cross_submitted=_cross_hosts(cross_submitted), policy=policy, jobs=jobs or default_jobs(),
                          max_per_code=max_per_code, html=html, lastmods=diff,
                          errors_kept=diff)

        def judged(folder: SpillFolder | None) -> None:
            run = _live(collector, options, sitemaps, urls, fetch or FetchOptions(), budget, delay, progress,
                        displays, folder) if urls else _local(collector, options, sitemaps, displays, folder, client,
                                                              apart=not (coverage or diff))
            clusters = run.results.clusters
            if coverage:
                result.coverage = clusters.coverage(coverage)
            result.files += run.results.files
            result.listed = run.results.listed()
            if diff:
                result.index = clusters
            result.skipped += run.inputs.skipped

        if memory_budget is None:
            judged(None)
        else:
            _within(memory_budget, judged, collector)
    if not result.files and not collector.errors and not passed_over:
        count = len(result.skipped)
        skipped = (f" ({count:,} {'file that is none was' if count == 1 else 'files that are none were'} skipped)"
                   if count else "")
        collector.report("F104", f"nothing to check: no sitemap, feed or site description among the inputs{skipped}; "
                         "give the folder or files that hold them",
                         Where(displays.get(paths[0], paths[0])) if paths else Where(None))
    return result


def _within(memory_budget: Budget, judged: Callable[[SpillFolder | None], None], collector: Collector) -> None:
    """A check whose cluster index spills past ``memory_budget`` into a folder of its own,
    removed when it ends (an error or Ctrl-C too); F107 where the folder cannot be written."""
    from ..rules.spill import SpillFailed, SpillFolder  # (loaded only for a check given a budget)

    folder: SpillFolder | None = None
    try:
        folder = SpillFolder(memory_budget)
        judged(folder)
    except SpillFailed as exc:
        spill_failed(collector, exc)
    finally:
        if folder is not None:
            folder.close()


def _local(collector: Collector, options: Options, sitemaps: list[str], displays: dict[str, str],
           folder: SpillFolder | None, client: Any = None, apart: bool = False) -> Run:
    """A check of local files; with a ``client``, on its workers, and (``apart``) the rules
    across files too."""
    run = Run(collector, options, displays=displays, client=client, apart=apart)
    if folder is not None:
        run.results.spill_into(folder)
    run.check(sitemaps)
    return run


def spill_failed(collector: Collector, exc: SpillFailed) -> None:
    """F107: the cluster index could not be spilled (a full disk): the files' own findings
    stand, the rules across files were not run."""
    collector.report("F107", f"the cluster index could not be written to its spill folder past --memory-budget: "
                     f"{exc.reason}; the rules across files (duplicates, hreflang return links) were not run: free "
                     "space there, point TMPDIR at a folder with room, or give a larger budget", Where(exc.folder))


def nothing_listed(given: str, registry: Mapping[str, Code]) -> Diagnostic:
    """F104 for a diff's side that read no file that lists URLs (a folder of pages, an
    index that lists nothing): there is nothing to compare."""
    return Diagnostic("F104", registry["F104"].severity,
                      f"{given} holds no sitemap, feed or text sitemap that lists URLs: there is nothing to compare",
                      given)


def _pages_budget(pages: int | str | None) -> int | None:
    """The pages a live check reads: a number (0: none), or None for 'all' (or not said)."""
    if pages == "all" or pages is None:
        return None
    if isinstance(pages, bool) or not isinstance(pages, int) or pages < 0:
        raise ValueError(f"pages must be a number of pages (0: none) or 'all', not {pages!r}")
    return pages


def _describe_sites(paths: list[str], result: CheckResult, given: Any, only_site_yaml: bool,
                    describe: Describe) -> tuple[list[str], int]:
    """Each site description among the local inputs checked by ``describe`` (into
    ``result``); the other local paths, and the YAML files passed over as no site
    description (``only_site_yaml``)."""
    sitemaps = []
    passed_over = 0
    for path in paths:
        if is_url(path):
            continue
        if path.lower().endswith(SITE_SUFFIXES):
            if only_site_yaml and not is_site_description(path):
                result.skipped.append(path)
                passed_over += 1
                continue
            result.files.append({"file": path, "kind": "site", "urls": describe(path, given, result.collector)})
        else:
            sitemaps.append(path)
    return sitemaps, passed_over


def _cross_hosts(cross_submitted: Sequence[str]) -> frozenset[str]:
    """The origins (both schemes) whose sitemaps may list this site's URLs."""
    hosts = frozenset(origin_text(h if "//" in h else f"https://{h}").lower() for h in cross_submitted)
    return hosts | frozenset(h.replace("https://", "http://", 1) for h in hosts if "://" in h)


def _live(collector: Collector, options: Options, paths: list[str], urls: list[str], fetch: FetchOptions,
          pages: int | None, delay: float, progress: Callable[[str], None] | None,
          displays: dict[str, str], folder: SpillFolder | None = None) -> Run:
    """A check with URLs among its inputs: the sitemaps they lead to are fetched and
    checked with the local ones. A sitemap that lists URLs of another host is judged
    again once that host's robots.txt is read: if it lists the sitemap, the sitemap
    may (cross-submission)."""
    remote = Remote(fetch, collector, progress)
    try:
        inputs = remote.inputs(urls)
        for given in inputs:
            remote.robots_of(given.fetched.final)
        cross = set(options.cross_submitted)
        while True:
            submitted, robots = set(), []
            for origin, found in remote.robots.items():
                if found.text is not None:
                    robots.append((origin, found.text))
                for sitemap, _ in found.sitemaps:
                    submitted.add(sitemap)
                    if origin_text(sitemap).lower() != origin:
                        cross.add(origin)  # this host lets that host's sitemap list its URLs
            attempt = Collector(options.registry, policy=options.policy, limit=options.max_per_code,
                                errors_kept=options.errors_kept)
            run = Run(attempt, replace(options, cross_submitted=frozenset(cross), robots=tuple(sorted(robots))),
                      submitted=submitted, remote=remote, given=inputs, budget=pages, delay=delay, displays=displays)
            if folder is not None:
                run.results.spill_into(folder)
            run.check(paths)
            foreign = {origin_text(d.url).lower() for d in attempt.diagnostics if d.code == "U107" and d.url}
            unread = foreign - set(remote.robots)
            if not unread:
                break
            for origin in sorted(unread):
                remote.robots_of(origin + "/")
        collector.merge(attempt.diagnostics, attempt.suppressed, attempt.ignored)
        return run
    finally:
        remote.close()


def is_site_description(path: str) -> bool:
    """Whether a YAML file is a site description: its top level is a mapping with a
    ``site`` key (an include, a workflow or any other YAML has none). Read bounded,
    read as a stream of YAML events (``read.yaml_doc.is_site_yaml``), never raises; one that
    cannot be read is judged (and reported)."""
    from ..read.yaml_events import is_site_yaml  # (the YAML reader: only where a YAML file is given)

    try:
        text = read_bounded(path, MAX_DESCRIPTION_BYTES).decode("utf-8-sig")
    except (OSError, Refused, UnicodeDecodeError):
        return True  # unreadable: judge it, so that the problem is reported
    return is_site_yaml(text)  # (read as a stream of events: a data file is told at its first ones)


def parse_base_urls(pairs: Sequence[str]) -> tuple[tuple[str, str], ...]:
    out = []
    for pair in pairs:
        url, _, folder = pair.partition("=")
        out.append((url if url.endswith("/") else url + "/", folder))
    return tuple(sorted(out, key=lambda pair: len(pair[0]), reverse=True))
