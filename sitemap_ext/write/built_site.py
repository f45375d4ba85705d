"""Pages from a built site: a source ``site: public/`` in a site description.

A static site generator's output folder already says, page by page, what search
engines will read: the hreflang links, the canonical and the robots directives in
each page's head. This producer turns that folder into the pages of the one model,
through the one normaliser (the same URL, date and language-tag rules as YAML pages
and source rows):

* every HTML file is a page, served at the URL its path gives below the source's
  ``url`` (``index.html`` is its folder's URL; ``drop_ext`` drops ``.html``);
* a page that is ``noindex`` (or ``none``) or names another URL as its canonical (by
  identity: ``c%2B%2B/`` is the file ``c++/index.html``, which is then written so) is
  left out: a sitemap lists canonical, indexable URLs only;
* a page's hreflang links become its cluster, written once, from the first of its
  members in path order. An alternate to a left-out page (H114), to a URL of the
  built site that no file serves (H115), to a page whose head does not name this one
  back (H104, by the check's own return-link rule, ``return_missing``), or to a page
  already written in another cluster that does not name this one (H104) is left out
  of what is written and reported; a later member whose links give another set is H110. ``sitemap-ext
  check`` with the built pages judges the rest (codes, return links, x-default);
* lastmod comes from where the page says it, in the order the source names:
  ``meta:NAME`` (``<meta property|name=NAME content>``), ``time`` / ``time.CLASS``
  / ``time#ID`` (the first such ``<time datetime>`` in the page), or ``git`` (the
  last commit of the file). Never from the file's modification time, which every
  fresh build or checkout resets. Each version keeps its own.

The folder is read twice, head by head (bounded like every input: ``HEAD_LIMIT``
per head, ``BODY_LIMIT`` per page when a ``<time>`` is looked for): once to learn
which URLs are pages and which are left out (and what each page's head lists, as URL
keys and codes, for the return links), once to make the pages. Memory holds keys, codes
and a lastmod per page, never the pages.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urljoin

from ..dates import CONTENT, ContentDated, Lastmod, of_versions
from ..diagnostics import Collector, Where
from ..read.description_file import display_name
from ..read.git_times import commit_times as _commit_times  # (the tests read it here)
from ..read.git_times import git_command, git_environment, run_bounded
from ..read.html import PageHead, Placed, name_is_utf8, page_url, read_head, read_time, served
from ..read.html_content import content_digest
from ..read.normalised import BuiltSite
from ..read.normalised import NormalisedPage as Page
from ..read.page_record import page_entry
from ..read.record import UrlEntry
from ..read.sniff import open_bytes
from ..rules.cluster_findings import return_missing
from ..rules.clusters import Excluded
from ..rules.files import head_unread, name_not_utf8
from ..rules.hreflang import lang_differs
from ..safeio import walk_inside
from ..urls import url_key

if TYPE_CHECKING:  # (only its type: the build's normaliser is handed in)
    from .page_normaliser import PageNormaliser

BODY_LIMIT = 16 << 20  # bytes of a page read for a <time> lastmod
GIT_LOG_LIMIT = 256 << 20  # bytes of `git log` output read for commit times
GIT_TIMEOUT = 300  # seconds


class _At(Where):
    """Where a value of a page is: its column (a scan of its line in the page) is found
    only when a finding is made, never for every value read. A page of 15,000 links
    on one line would otherwise cost 15,000 scans of that line."""

    def __init__(self, file: str, place: Placed) -> None:  # (no super().__init__: column is read-only)
        self.file = file
        self.line = place.line
        self._place = place

    @property
    def column(self) -> int | None:  # type: ignore[override]  # (a Where's column, found when asked)
        return self._place.column


class Heads(Protocol):
    """Where a build hands what the check of the pages would read: each page's head as
    its record (with why it is left out, if it is), and the folder's URL. The build's
    judge (write/judge.py) judges them with the check's engine; the cluster rules then
    say what this module once said itself (H104, H110, H114, H115)."""

    def head(self, entry: UrlEntry, display: str, excluded: Excluded | None) -> None: ...

    def folder(self, prefix: str, root: str) -> None: ...


@dataclass(slots=True)
class _Known:
    """What the first pass learnt: each page's URL key, and which are left out."""

    pages: dict[int, Lastmod | None]  # an indexable, self-canonical page -> its lastmod
    excluded: dict[int, str]  # a page left out -> why ("is noindex", "names ... as its canonical")
    root: str  # the folder's real path
    digests: dict[int, bytes | None]  # a page -> the digest of its main content (when a state is kept)
    # a page with hreflang links -> each URL it lists -> the codes it lists it as (for return links)
    lists: dict[int, dict[int, frozenset[str]]]


def pages(source: BuiltSite, normaliser: PageNormaliser, collector: Collector, *,
          digests: bool = False, heads: Heads | None = None) -> Iterator[Page]:
    """The built site's pages, in path order, each cluster once; with ``digests``, each
    carries the digest of its main content (for the build state). Each head goes to
    ``heads``, as the check of the pages reads it."""
    root = os.path.realpath(source.path)
    if heads is not None:
        heads.folder(source.url, root)
    files = list(_walk(source, collector))
    metas = frozenset(place[1] for place in source.lastmod if place[0] == "meta")
    git = _git_times(source, collector) if ("git",) in source.lastmod else None
    known = _Known({}, {}, root, {}, {})
    for number, (relative, path, url) in enumerate(files):  # first pass: which URLs are pages
        head = _head(path, metas, collector)
        if head is None:
            continue
        # (the spelling its own head gives: c++/ is served as the c%2B%2B/ its canonical names)
        url = head.served_as(url)
        files[number] = (relative, path, url)
        lang_differs(head, url, _at_line(display_name(path), collector))  # (as the check reads every page)
        why = _left_out(head, url)
        if heads is not None:
            _hand(heads, head, url, display_name(path), why is not None)
        if why is not None:
            known.excluded[url_key(url)] = why
            continue
        known.pages[url_key(url)] = _lastmod(source, relative, path, head, git, normaliser)
        listed = _listed(url, head)
        if listed:
            known.lists[url_key(url)] = listed
        if digests:
            known.digests[url_key(url)] = content_digest(_chunks(path), source.content, BODY_LIMIT)
    written: dict[int, _Cluster] = {}  # a URL written -> the cluster it was written in
    for _relative, path, url in sorted(files):  # second pass: the pages, each cluster once
        if url_key(url) not in known.pages:
            continue
        head = _head(path, frozenset(), None)
        if head is not None:
            page = _page(source, url, display_name(path), head, known, written, normaliser, collector)
            if page is not None:
                yield replace(page, digests=tuple(known.digests.get(url_key(loc)) for loc in page.locs)) \
                    if digests else page


def _hand(heads: Heads, head: PageHead, url: str, display: str, left_out: bool) -> None:
    entry = page_entry(head, url)
    excluded = Excluded(display, entry.line, url, head.noindex, head.canonical_elsewhere(url)) if left_out else None
    heads.head(entry, display, excluded)


def _walk(source: BuiltSite, collector: Collector) -> Iterator[tuple[str, str, str]]:
    """(relative path, path, URL) of each HTML file. Hidden files and folders, links
    that lead out of the folder and ``exclude`` matches are skipped; so is a file whose
    name is not UTF-8 (U116): no URL names it as browsers send them."""
    for path, real in walk_inside(source.path):
        if real is None or not path.lower().endswith((".html", ".htm")):
            continue
        relative = "/".join(os.path.relpath(path, source.path).split(os.sep))
        if any(fnmatch.fnmatchcase(relative, pattern) for pattern in source.exclude):
            continue
        if not name_is_utf8(relative):
            name_not_utf8(collector.report, Where(display_name(path)))
            continue
        yield relative, path, page_url(relative, source.url, drop_html=source.drop_ext)


def _chunks(path: str) -> Iterator[bytes]:
    """A page's bytes, through the checker's bounded reader (the readers stop early)."""
    return open_bytes(path, lambda *_args, **_kwargs: None)  # (a page that cannot be read gives nothing)


def _at_line(display: str, collector: Collector) -> Callable[..., object]:
    """The collector's report for a rule that places a finding by its line in a page."""
    def report(code: str, message: str, line: int | None, **extra: Any) -> object:
        return collector.report(code, message, Where(display, line), **extra)
    return report


def _listed(url: str, head: PageHead) -> dict[int, frozenset[str]]:
    """What a page's head lists: each URL's key -> the codes (lower case) it lists it as."""
    found: dict[int, set[str]] = {}
    for code, target, _ in _resolved(url, _links(head)):
        found.setdefault(url_key(target), set()).add(code.lower())
    return {key: frozenset(codes) for key, codes in found.items()}


def _links(head: PageHead) -> list[tuple[str, str, Placed]]:
    """A head's hreflang links (a feed or a mobile alternate is no language version)."""
    return [(code.strip(), href.strip(), place)
            for (_, code, href, media), place in zip(head.alternates, head.alternate_places, strict=False)
            if code is not None and href is not None and media is None]


def _head(path: str, metas: frozenset[str], collector: Collector | None) -> PageHead | None:
    """A page's head; None (reported once, in the first pass) when it cannot be read."""
    head = read_head(_chunks(path), metas)
    if not head.complete:
        if collector is not None:
            head_unread(collector.report, Where(display_name(path), 1), consequence="; the page is left out")
        return None
    return head


def _left_out(head: PageHead, url: str) -> str | None:
    """Why a page is no page of the sitemap (None: it is one)."""
    if head.noindex:
        return "is noindex"
    named = head.canonical_elsewhere(url)
    return None if named is None else f"names {named} as its canonical"


def _lastmod(source: BuiltSite, relative: str, path: str, head: PageHead, git: dict[str, str] | None,
             normaliser: PageNormaliser) -> Lastmod | None:
    """The page's lastmod from the first place that gives one (judged by the date rules
    at its place in the page)."""
    display = display_name(path)
    for place in source.lastmod:
        found: Placed | None = None
        if place[0] == "meta":
            found = next((placed for name, placed in head.metas if name == place[1]), None)
        elif place[0] == "time":
            selector = (place[1], place[2]) if len(place) == 3 else None
            found = read_time(_chunks(path), selector, BODY_LIMIT)
        elif place[0] == "content":  # (the build state dates it; a new page takes its commit time)
            first = git.get(relative) if git is not None else None
            return ContentDated("content", CONTENT.instant,
                                None if first is None else normaliser.fields.lastmod(first, Where(display, None)))
        elif git is not None:
            text = git.get(relative)
            if text is not None:
                return normaliser.fields.lastmod(text, Where(display, None))
        if found is not None and found.text.strip():
            return normaliser.fields.lastmod(found.text.strip(), _At(display, found))
    return None


@dataclass(frozen=True, slots=True)
class _Cluster:
    """What was written for a cluster: its (code, URL) pairs and x-default, and whose
    page gave them."""

    pairs: frozenset[tuple[str, int]]
    x_default: int | None
    page: str


def _page(source: BuiltSite, url: str, display: str, head: PageHead, known: _Known,
          written: dict[int, _Cluster], normaliser: PageNormaliser, collector: Collector) -> Page | None:
    """The page to write for a built page: its cluster when its head gives hreflang
    links, itself alone when it gives none; None when an earlier page's cluster wrote
    it already."""
    own = url_key(url)
    lastmod = known.pages[own]
    links = _links(head)
    where = Where(display, links[0][2].line if links else 1)
    if not links:
        if own in written:  # (H110 if its cluster gave others: the cluster rules say it of the heads)
            return None
        return _alone(source, url, display, where, lastmod, written, normaliser)
    resolved = _resolved(url, links)
    if not any(url_key(target) == own for code, target, _ in resolved if code.lower() != "x-default"):
        # (H103: the engine says it of the page's head)
        return None if own in written else _alone(source, url, display, where, lastmod, written, normaliser)
    urls, places, x_default, unreturned = _pairs(source, url, display, resolved, known, collector)
    cluster = _Cluster(frozenset((code.lower(), url_key(target)) for code, target in urls.items()),
                       None if x_default is None else url_key(x_default), url)
    if own in written:  # an earlier page's cluster wrote this one (H110 if it differs: see above)
        return None
    for code in unreturned:
        del urls[code]
    _claim(url, display, urls, places, cluster, written, collector)

    def where_of(field: str | tuple[str, ...]) -> Where:
        if isinstance(field, tuple) and len(field) == 2 and field[1] in places:
            return _At(display, places[field[1]])
        return where

    page = _heard(normaliser, lambda: normaliser.page({"urls": urls, "x_default": x_default or "none"}, where_of,
                                                      source.defaults, where))
    return None if page is None else _dated(page, source, known)


def _heard(normaliser: PageNormaliser, make: Callable[[], Page | None]) -> Page | None:
    """A page made of what its head gives, its findings unsaid: the engine says them of
    the head's record (``Heads.head``), as the check of the pages does, at their links."""
    kept = normaliser.collector
    normaliser.collector = Collector(kept.registry)
    try:
        return make()
    finally:
        normaliser.collector = kept


def _resolved(url: str, links: list[tuple[str, str, Placed]]) -> list[tuple[str, str, Placed]]:
    """A head's links with each href resolved against the page's URL."""
    resolved = []
    for code, href, place in links:
        try:
            resolved.append((code, urljoin(url, href), place))
        except ValueError:
            continue  # (a malformed href: the URL rules say so when check reads the page)
    return resolved


def _claim(url: str, display: str, urls: dict[str, str], places: dict[str, Placed], cluster: _Cluster,
           written: dict[int, _Cluster], collector: Collector) -> None:
    """A cluster's URLs marked written in it; a pair to a page written in an earlier
    cluster is left out (H104: that cluster does not link back)."""
    own = url_key(url)
    for code, target in list(urls.items()):
        key = url_key(target)
        if key != own and key in written:  # (H104: the cluster rules say it, of the pages' heads)
            del urls[code]
    for target in urls.values():
        written[url_key(target)] = cluster


def _alone(source: BuiltSite, url: str, display: str, where: Where, lastmod: Lastmod | None,
           written: dict[int, _Cluster], normaliser: PageNormaliser) -> Page | None:
    """A built page written alone (no alternates), as its own cluster."""
    written[url_key(url)] = _Cluster(frozenset(), None, url)
    return _one(source, {"loc": url}, display, where, lastmod, normaliser)


def _pairs(source: BuiltSite, url: str, display: str, resolved: list[tuple[str, str, Placed]], known: _Known,
           collector: Collector) -> tuple[dict[str, str], dict[str, Placed], str | None, tuple[str, ...]]:
    """The pairs a page's head gives that can be written: not to a page left out (H114),
    not to a URL no file serves (H115), not a second URL for one code (H106). Each
    code's URL and place, the x-default URL, and the codes whose page does not name
    this one back (H104: in the cluster the head gives, but not to be written)."""
    own = url_key(url)
    own_codes = known.lists.get(own, {}).get(own, frozenset())
    unreturned: list[str] = []
    urls: dict[str, str] = {}
    places: dict[str, Placed] = {}
    x_default: str | None = None
    for code, target, place in resolved:
        key = url_key(target)
        # (to a page left out, H114, or to a URL no file serves, H115: the pair is not
        # written; the cluster rules say so of the page's head, as the check does)
        if key != own and (key in known.excluded or (key not in known.pages and target.startswith(source.url) and
                                                     not served(target, source.url, known.root))):
            continue
        if code.lower() == "x-default":
            if x_default is None:
                x_default = target
            continue
        # (the check's rule: a pair its other end, a page of this site, does not name back)
        # (H104: the cluster rules say it of the page's head, as the check does)
        unreturned_pair = key != own and key in known.pages and \
            return_missing(known.lists.get(key, {}).get(own), own_codes) is not None
        if code in urls:  # (H106: the engine says it of the page's head; the first is written)
            continue
        urls[code] = target
        places[code] = place
        if unreturned_pair:
            unreturned.append(code)
    return urls, places, x_default, tuple(unreturned)


def _dated(page: Page, source: BuiltSite, known: _Known) -> Page:
    """Each version's own lastmod (a page that gives none takes the description's default)."""
    lastmod, each = of_versions(tuple(known.pages.get(url_key(loc)) or source.defaults.lastmod for loc in page.locs))
    return replace(page, lastmod=lastmod) if each is None else replace(page, lastmod=lastmod, lastmods=each)


def _one(source: BuiltSite, raw: dict[str, str], display: str, where: Where, lastmod: Lastmod | None,
         normaliser: PageNormaliser) -> Page | None:
    defaults = source.defaults if lastmod is None else replace(source.defaults, lastmod=lastmod)
    return normaliser.page(raw, lambda _field: where, defaults, where)


def _git_times(source: BuiltSite, collector: Collector) -> dict[str, str] | None:
    """Each file's last commit time (ISO 8601), by its path relative to the folder;
    None (S110) when the folder is in no git repository or git cannot run."""
    try:
        status, data, error, cut = run_bounded(git_command(source.path), git_environment(), GIT_LOG_LIMIT,
                                                GIT_TIMEOUT)
    except OSError as exc:
        collector.report("S110", f"lastmod from git: git cannot run ({exc.strerror or exc}); install git",
                         source.where)
        return None
    if status is None:
        collector.report("S110", f"lastmod from git: git log gave no answer within {GIT_TIMEOUT} seconds; the "
                         f"pages of {source.display} get no lastmod from git", source.where)
        return None
    if status != 0 and not cut:
        message = error.decode("utf-8", "replace").strip()
        collector.report("S110", f"lastmod from git: {source.display} is in no git repository "
                         f"({message.splitlines()[0] if message else 'git failed'}); its pages get "
                         "no lastmod from git", source.where)
        return None
    times = _commit_times(data, cut)
    if times is None:
        collector.report("S110", f"lastmod from git: the output of git log for {source.display} is not what "
                         "it should be; its pages get no lastmod from git", source.where)
    return times


__all__ = ["BODY_LIMIT", "pages"]
