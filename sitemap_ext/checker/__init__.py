"""Check: every rule, nothing written. Site descriptions and existing sitemaps.

Readers (``read_xml``, ``read_text``) turn each file into records; the rules in
``rules/`` judge records; ``clusters`` judges what needs every file. ``run``
plans the files and spreads them over processes.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field
from dataclasses import replace
import tempfile
from collections.abc import Iterable, Mapping
from typing import Any, BinaryIO, Callable, Sequence, Union


from .. import arguments
from ..builder import build
from ..codes import REGISTRY
from ..dates import default_clock, format_instant, now_argument, parse_now
from ..diagnostics import Collector, Where
from ..limits import MAX_BYTES_PER_FILE, MAX_DESCRIPTION_BYTES, MAX_STORED_PER_CODE
from ..objects import Site as SiteObject
from ..loader import is_site_yaml
from ..safeio import Refused, read_bounded
from ..urls import origin_text
from .clusters import Coverage
from .config import Policy
from ..fetch import FetchOptions
from .live import Remote, is_url
from .run import Options, Run, default_jobs

SITE_SUFFIXES = (".yaml", ".yml")


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

    @property
    def ok(self) -> bool:
        return self.collector.errors == 0


Checkable = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]  # what check() reads


def check(paths: Sequence[Checkable] | Checkable | SiteObject, *,
          now: str | dt.datetime | dt.date | None = None, base_urls: Sequence[str] = (),
          jobs: int | None = None, policy: Policy | None = None,
          cross_submitted: Sequence[str] = (), allow_read: Sequence[str] = (),
          max_per_code: int | None = MAX_STORED_PER_CODE, only_site_yaml: bool = False,
          coverage: int = 0, html: str = "on", fetch: FetchOptions | None = None,
          pages: int | str | None = 0, delay: float = 0.0,
          progress: Callable[[str], None] | None = None) -> CheckResult:
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
    """
    _arguments(base_urls, jobs, policy, cross_submitted, allow_read, max_per_code, only_site_yaml, coverage, html,
               fetch, None if isinstance(paths, SiteObject) else pages, delay, progress)  # (a Site's: its pages)
    if isinstance(paths, SiteObject):
        return _check_site(paths, pages, now, policy, max_per_code)
    if isinstance(paths, (str, os.PathLike, bytes, bytearray, memoryview)) or _readable(paths):
        paths = [paths]  # type: ignore[list-item]
    if not isinstance(paths, Sequence) or not all(isinstance(p, (str, os.PathLike, bytes, bytearray, memoryview))
                                                  or _readable(p) for p in paths):
        raise TypeError("check() takes a path (str or os.PathLike), a URL, bytes, a binary file object, a Site, "
                        "or a list of them")
    with tempfile.TemporaryDirectory(prefix="sitemap-ext-check-") as held:
        displays: dict[str, str] = {}
        named = []
        for number, item in enumerate(paths, 1):
            if isinstance(item, (str, os.PathLike)):
                named.append(os.fspath(item))
                continue
            local = os.path.join(held, f"input-{number}")
            _hold(item, local)
            displays[local] = f"<input {number}>"
            named.append(local)
        return _check(named, displays, now, base_urls, jobs, policy, cross_submitted, allow_read, max_per_code,
                      only_site_yaml, coverage, html, fetch, pages, delay, progress)


def _arguments(base_urls: Any, jobs: Any, policy: Any, cross_submitted: Any, allow_read: Any, max_per_code: Any,
               only_site_yaml: Any, coverage: Any, html: Any, fetch: Any, pages: Any, delay: Any,
               progress: Any) -> None:
    """check()'s keyword arguments, each of its type (TypeError) and range (ValueError)."""
    arguments.choice("check", "html", html, ("on", "drop-ext", "off"))
    for name, value in (("base_urls", base_urls), ("cross_submitted", cross_submitted), ("allow_read", allow_read)):
        arguments.strings("check", name, value)
    bad = next((pair for pair in base_urls if "=" not in pair), None)
    if bad is not None:
        raise ValueError(f"check(base_urls=...) takes URL=DIR pairs, not {bad!r}")
    arguments.whole("check", "jobs", jobs, least=1)
    arguments.whole("check", "max_per_code", max_per_code, least=1)
    arguments.whole("check", "coverage", coverage, none=False)
    arguments.flag("check", "only_site_yaml", only_site_yaml)
    arguments.instance("check", "policy", policy, Policy, "a Policy (see config.make_policy)")
    arguments.instance("check", "fetch", fetch, FetchOptions, "a FetchOptions")
    if pages != "all":
        arguments.whole("check", "pages", pages)
    arguments.seconds("check", "delay", delay)
    arguments.callback("check", "progress", progress)


def _readable(item: object) -> bool:
    return hasattr(item, "read") and not isinstance(item, (str, bytes))


def _hold(item: object, local: str) -> None:
    """Bytes or a binary file object written to a file of the check's own, read no
    further than the protocol's limit (and one byte more, so that X109 still says so)."""
    with open(local, "wb") as out:
        if isinstance(item, (bytes, bytearray, memoryview)):
            out.write(bytes(item)[:MAX_BYTES_PER_FILE + 1])
            return
        left = MAX_BYTES_PER_FILE + 1
        while left > 0:
            chunk = item.read(min(left, 1 << 16))  # type: ignore[attr-defined]
            if not chunk:
                return
            if not isinstance(chunk, (bytes, bytearray)):
                raise TypeError("check() takes binary file objects (open(..., 'rb')), not text ones")
            out.write(chunk)
            left -= len(chunk)


def _check_site(site: SiteObject, pages: Any, now: Any, policy: Policy | None, max_per_code: int | None
                ) -> CheckResult:
    """The pages of a program, checked as a dry build of its Site: every rule, nothing written."""
    if pages == 0:  # (the default of a check of files: no pages)
        pages = None
    if pages is not None and (isinstance(pages, (int, str, bytes, Mapping)) or not isinstance(pages, Iterable)):
        raise TypeError("check(site, pages=...) takes an iterable of Page objects or mappings")
    collector = Collector(REGISTRY, policy=policy, limit=max_per_code)
    result = CheckResult(collector)
    built = build(site, pages=pages, now=now_argument(now), dry_run=True, collector=collector)
    result.files.append({"file": "<site>", "kind": "site", "urls": built.urls})
    return result


def _check(paths: list[str], displays: dict[str, str], now: Any, base_urls: Sequence[str], jobs: int | None,
           policy: Policy | None, cross_submitted: Sequence[str], allow_read: Sequence[str],
           max_per_code: int | None, only_site_yaml: bool, coverage: int, html: str, fetch: FetchOptions | None,
           pages: int | str | None, delay: float, progress: Callable[[str], None] | None) -> CheckResult:
    if pages == "all":
        pages = None
    elif pages is not None and (isinstance(pages, bool) or not isinstance(pages, int) or pages < 0):
        raise ValueError(f"pages must be a number of pages (0: none) or 'all', not {pages!r}")
    now = now_argument(now)
    collector = Collector(REGISTRY, policy=policy, limit=max_per_code)
    result = CheckResult(collector)
    given = now  # a site description without it takes its site.now, or the default clock
    if now is None:
        instant, result.clock = default_clock()
        now = format_instant(instant)
    result.now = parse_now(now)
    sitemaps = []
    passed_over = 0  # YAML files that are no site description (only_site_yaml)
    urls = [path for path in paths if is_url(path)]
    for path in paths:
        if is_url(path):
            continue
        if path.lower().endswith(SITE_SUFFIXES):
            if only_site_yaml and not is_site_description(path):
                result.skipped.append(path)
                passed_over += 1
                continue
            built = build(path, now=given, dry_run=True, collector=collector, allow_read=allow_read)
            result.files.append({"file": path, "kind": "site", "urls": built.urls})
        else:
            sitemaps.append(path)
    if sitemaps or urls:
        hosts = frozenset(origin_text(h if "//" in h else f"https://{h}").lower() for h in cross_submitted)
        hosts |= frozenset(h.replace("https://", "http://", 1) for h in hosts if "://" in h)
        options = Options(now=result.now, base_urls=parse_base_urls(base_urls),
                          cross_submitted=hosts, policy=policy, jobs=jobs or default_jobs(),
                          max_per_code=max_per_code, html=html)
        if urls:
            run = _live(collector, options, sitemaps, urls, fetch or FetchOptions(), pages, delay, progress,
                        displays)
        else:
            run = Run(collector, options, displays=displays)
            run.check(sitemaps)
        if coverage:
            result.coverage = run.clusters.coverage(coverage)
        result.files += run.files
        result.skipped += run.skipped
    if not result.files and not collector.errors and not passed_over:
        skipped = f" ({len(result.skipped):,} files that are none were skipped)" if result.skipped else ""
        collector.report("F104", f"nothing to check: no sitemap, feed or site description among the inputs{skipped}; "
                         "give the folder or files that hold them",
                         Where(displays.get(paths[0], paths[0])) if paths else Where(None))
    return result


def _live(collector: Collector, options: Options, paths: list[str], urls: list[str], fetch: FetchOptions,
          pages: int | None, delay: float, progress: Callable[[str], None] | None,
          displays: dict[str, str]) -> Run:
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
            attempt = Collector(REGISTRY, policy=options.policy, limit=options.max_per_code)
            run = Run(attempt, replace(options, cross_submitted=frozenset(cross), robots=tuple(sorted(robots))),
                      submitted=submitted, remote=remote, remote_inputs=inputs, pages_budget=pages,
                      pages_delay=delay, displays=displays)
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
    read as a stream of YAML events (``loader.is_site_yaml``), never raises; one that
    cannot be read is judged (and reported)."""
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
