"""Pages from a built site: a source ``site: public/`` in a site description.

A static site generator's output folder already says, page by page, what search
engines will read: the hreflang links, the canonical and the robots directives in
each page's head. This producer turns that folder into the pages of the one model,
through the one normaliser (the same URL, date and language-tag rules as YAML pages
and source rows):

* every HTML file is a page, served at the URL its path gives below the source's
  ``url`` (``index.html`` is its folder's URL; ``drop_ext`` drops ``.html``);
* a page that is ``noindex`` (or ``none``) or names another URL as its canonical is
  left out: a sitemap lists canonical, indexable URLs only;
* a page's hreflang links become its cluster, written once, from the first of its
  members in path order. An alternate to a left-out page (H114), to a URL of the
  built site that no file serves (H115), or to a page already written in another
  cluster that does not name this one (H104) is left out of what is written and
  reported; a later member whose links give another set is H110. ``sitemap-ext
  check`` with the built pages judges the rest (codes, return links, x-default);
* lastmod comes from where the page says it, in the order the source names:
  ``meta:NAME`` (``<meta property|name=NAME content>``), ``time`` / ``time.CLASS``
  / ``time#ID`` (the first such ``<time datetime>`` in the page), or ``git`` (the
  last commit of the file). Never from the file's modification time, which every
  fresh build or checkout resets. Each version keeps its own.

The folder is read twice, head by head (bounded like every input: ``HEAD_LIMIT``
per head, ``BODY_LIMIT`` per page when a ``<time>`` is looked for): once to learn
which URLs are pages and which are left out, once to make the pages. Memory holds a
key and a lastmod per page, never the pages.
"""

from __future__ import annotations

import fnmatch
import os
import re
import selectors
import subprocess
import time
from dataclasses import dataclass, replace
from typing import Iterator
from urllib.parse import urljoin

from .html import PageHead, Placed, name_is_utf8, page_url, read_head, read_time, served
from ..dates import Lastmod
from ..diagnostics import Collector, Where
from .normalised import BuiltSite, Page
from .pages import PageNormaliser
from .sniff import open_bytes
from ..safeio import walk_inside
from .site_yaml import display_name
from ..urls import url_key
from ..rules.clusters import NOT_BUILT, no_return, sets_differ, to_excluded, to_missing
from ..rules.files import head_unread, name_not_utf8
from ..rules.hreflang import code_twice, no_self

_LEFT_OUT = "; the pair is left out of the sitemap"

BODY_LIMIT = 16 << 20  # bytes of a page read for a <time> lastmod
GIT_LOG_LIMIT = 256 << 20  # bytes of `git log` output read for commit times
GIT_TIMEOUT = 300  # seconds
_CHUNK = 64 << 10  # bytes of git's output read at a time


class _At(Where):
    """Where a value of a page is: its column (a scan of its line in the page) is found
    only when a finding is made, never for every value read. A page of 15,000 links
    on one line would otherwise cost 15,000 scans of that line."""

    def __init__(self, file: str, place: Placed) -> None:  # (no super().__init__: column is read-only)
        self.file = file
        self.line = place.line
        self._place = place

    @property  # type: ignore[override]
    def column(self) -> int | None:
        return self._place.column


@dataclass(slots=True)
class _Known:
    """What the first pass learnt: each page's URL key, and which are left out."""

    pages: dict[int, Lastmod | None]  # an indexable, self-canonical page -> its lastmod
    excluded: dict[int, str]  # a page left out -> why ("is noindex", "names ... as its canonical")
    root: str  # the folder's real path


def pages(source: BuiltSite, normaliser: PageNormaliser, collector: Collector) -> Iterator[Page]:
    """The built site's pages, in path order, each cluster once."""
    root = os.path.realpath(source.path)
    files = list(_walk(source, collector))
    metas = frozenset(place[1] for place in source.lastmod if place[0] == "meta")
    git = _git_times(source, collector) if ("git",) in source.lastmod else None
    known = _Known({}, {}, root)
    for relative, path, url in files:  # first pass: which URLs are pages
        head = _head(path, metas, collector)
        if head is None:
            continue
        why = _left_out(head, url)
        if why is not None:
            known.excluded[url_key(url)] = why
            continue
        known.pages[url_key(url)] = _lastmod(source, relative, path, head, git, normaliser)
    written: dict[int, _Cluster] = {}  # a URL written -> the cluster it was written in
    for relative, path, url in sorted(files):  # second pass: the pages, each cluster once
        if url_key(url) not in known.pages:
            continue
        head = _head(path, frozenset(), None)
        if head is not None:
            page = _page(source, url, display_name(path), head, known, written, normaliser, collector)
            if page is not None:
                yield page


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
        elif git is not None:
            text = git.get(relative)
            if text is not None:
                return normaliser.lastmod(text, Where(display, None))
        if found is not None and found.text.strip():
            return normaliser.lastmod(found.text.strip(), _At(display, found))
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
    it already (H110 when that cluster is not the one this page gives)."""
    own = url_key(url)
    lastmod = known.pages[own]
    links = [(code.strip(), href.strip(), place)
             for (_, code, href, media), place in zip(head.alternates, head.alternate_places)
             if code is not None and media is None]  # (a feed or a mobile alternate is no language version)
    where = Where(display, links[0][2].line if links else 1)
    if not links:
        if own in written:
            _differs(url, None, written[own], where, collector)
            return None
        written[own] = _Cluster(frozenset(), None, url)
        return _one(source, {"loc": url}, display, where, lastmod, normaliser)
    resolved = []
    for code, href, place in links:
        try:
            resolved.append((code, urljoin(url, href), place))
        except ValueError:
            continue  # (a malformed href: the URL rules say so when check reads the page)
    if not any(url_key(target) == own for code, target, _ in resolved if code.lower() != "x-default"):
        no_self(collector.report, url, where, consequence="; it is written without alternates")
        if own in written:
            return None
        written[own] = _Cluster(frozenset(), None, url)
        return _one(source, {"loc": url}, display, where, lastmod, normaliser)
    # The pairs the head gives that can be written: not to a page left out (H114), not
    # to a URL no file serves (H115), not a second URL for one code (H106).
    urls: dict[str, str] = {}
    places: dict[str, Placed] = {}
    x_default: str | None = None
    for code, target, place in resolved:
        key = url_key(target)
        at = _At(display, place)
        if key != own:
            why = known.excluded.get(key)
            if why is not None:
                to_excluded(collector.report, url, target, code, why, at, consequence=_LEFT_OUT)
                continue
            if key not in known.pages and target.startswith(source.url) and \
                    not served(target, source.url, known.root):
                to_missing(collector.report, url, target, code, NOT_BUILT, "build the page or name the right URL",
                           at, consequence=_LEFT_OUT)
                continue
        if code.lower() == "x-default":
            if x_default is None:
                x_default = target
            continue
        if code in urls:
            code_twice(collector.report, url, code, urls[code], target, at, consequence="; the first is written")
            continue
        urls[code] = target
        places[code] = place
    cluster = _Cluster(frozenset((code.lower(), url_key(target)) for code, target in urls.items()),
                       None if x_default is None else url_key(x_default), url)
    if own in written:  # an earlier page's cluster wrote this one
        _differs(url, cluster, written[own], where, collector)
        return None
    for code, target in list(urls.items()):
        key = url_key(target)
        if key != own and key in written:
            no_return(collector.report, url, target, code, _At(display, places[code]),
                      detail=f" (it was written in the cluster {written[key].page} gives; the pair is left out)")
            del urls[code]
    for target in urls.values():
        written[url_key(target)] = cluster

    def where_of(field: str | tuple[str, ...]) -> Where:
        if isinstance(field, tuple) and len(field) == 2 and field[1] in places:
            return _At(display, places[field[1]])
        return where

    page = normaliser.page({"urls": urls, "x_default": x_default or "none"}, where_of, source.defaults, where)
    if page is None:
        return None
    # Each version's own lastmod (a page that gives none takes the description's default).
    lastmods = tuple(known.pages.get(url_key(loc)) or source.defaults.lastmod for loc in page.locs)
    newest = None
    for one in lastmods:
        newest = _newer(newest, one)
    if len(set(lastmods)) == 1:
        return replace(page, lastmod=newest)
    return replace(page, lastmod=newest, lastmods=lastmods)


def _differs(url: str, given: _Cluster | None, wrote: _Cluster, where: Where, collector: Collector) -> None:
    """H110: a page whose cluster was written from another page's links gives others."""
    if given is not None and given.pairs == wrote.pairs and given.x_default == wrote.x_default:
        return
    sets_differ(collector.report, url, wrote.page, where,
                detail=f" ({'none' if given is None else 'another set'} in its own head)",
                consequence=f"; the sitemap follows {wrote.page}")


def _one(source: BuiltSite, raw: dict[str, str], display: str, where: Where, lastmod: Lastmod | None,
         normaliser: PageNormaliser) -> Page | None:
    defaults = source.defaults if lastmod is None else replace(source.defaults, lastmod=lastmod)
    return normaliser.page(raw, lambda _field: where, defaults, where)


def _newer(one: Lastmod | None, other: Lastmod | None) -> Lastmod | None:
    if one is None:
        return other
    if other is None or one.instant >= other.instant:
        return one
    return other


# `git log` runs in a folder someone else may have filled: a repository there (or in a
# folder above) has a config of its own, and git runs what a config names (a pager, an
# fsmonitor hook, gpg for log.showSignature, an external diff, a textconv, a fetch for
# a partial clone's missing objects). So git reads no system or global config, takes
# from the user's environment only PATH (and a ceiling, which only narrows the search),
# and gets every setting that could run a program on its command line, which wins over
# any file. Its output is bounded in
# bytes and time. (A safe.directory of the global config is not seen either: a checkout
# that belongs to another user is S110, as git says.)
_GIT_ENVIRONMENT = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_ATTR_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_NO_REPLACE_OBJECTS": "1",
    "HOME": os.devnull,  # (no ~/.gitattributes, ~/.config/git/...)
    "LC_ALL": "C",
}
_GIT_SETTINGS = (
    "core.fsmonitor=false", "core.hooksPath=" + os.devnull, "core.pager=cat", "credential.helper=",
    "protocol.allow=never", "safe.bareRepository=explicit",
    "log.showSignature=false", "gpg.program=" + os.devnull, "gpg.ssh.program=" + os.devnull,
    "gpg.x509.program=" + os.devnull, "diff.external=", "log.follow=false", "log.showRoot=true",
    "i18n.logOutputEncoding=UTF-8",
)
_STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d)")


def _git_command(folder: str) -> list[str]:
    settings = [part for setting in _GIT_SETTINGS for part in ("-c", setting)]
    # Each commit as NUL, its time, NUL, then its files, each ended by a NUL: a name
    # (which may hold any byte but NUL) can never pass for a commit's start.
    return ["git", "--no-pager", *settings, "-C", folder, "log", "--no-show-signature", "--no-ext-diff",
            "--no-textconv", "--format=%x00%cI", "--name-only", "--no-renames", "-z", "--relative", "--", "."]


def _git_environment() -> dict[str, str]:
    """What git runs with: PATH (to be found), a ceiling the user set (which only
    narrows where a repository is looked for), and the settings above."""
    keep = {name: os.environ[name] for name in ("PATH", "SYSTEMROOT", "GIT_CEILING_DIRECTORIES")
            if name in os.environ}
    return {**keep, **_GIT_ENVIRONMENT}


def _run_bounded(command: list[str], environment: dict[str, str], limit: int,
                 timeout: float) -> tuple[int | None, bytes, bytes, bool]:
    """(exit status, stdout, start of stderr, whether stdout was cut) of a program
    run with no input; it is killed past ``limit`` bytes of output or ``timeout``
    seconds (status None then, when it was not cut)."""
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=environment, close_fds=True)
    assert process.stdout is not None and process.stderr is not None
    out, err = bytearray(), bytearray()
    deadline = time.monotonic() + timeout
    cut = timed_out = False
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, out)
        selector.register(process.stderr, selectors.EVENT_READ, err)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, _CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.data is out:
                    out += chunk
                elif len(err) < 4096:
                    err += chunk
            if len(out) > limit:
                cut = True
                break
    if cut or timed_out:
        process.kill()
    process.stdout.close()
    process.stderr.close()
    try:
        status = process.wait(timeout=max(deadline - time.monotonic(), 1))
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        timed_out = True
    return (None if timed_out and not cut else status), bytes(out[:limit]) if cut else bytes(out), bytes(err), cut


def _git_times(source: BuiltSite, collector: Collector) -> dict[str, str] | None:
    """Each file's last commit time (ISO 8601), by its path relative to the folder;
    None (S110) when the folder is in no git repository or git cannot run."""
    try:
        status, data, error, cut = _run_bounded(_git_command(source.path), _git_environment(), GIT_LOG_LIMIT,
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


def _commit_times(data: bytes, cut: bool) -> dict[str, str] | None:
    """Each file's newest commit time from ``git log`` output (see ``_git_command``);
    None when the output is not that. ``cut``: the output stopped early, and its last
    commit may be incomplete (the newest commits come first: what is read is right)."""
    tokens = data.split(b"\0")
    if tokens[0] != b"":
        return None if data else {}
    # Commits start at each empty token (a file name is never empty).
    starts = [index for index, token in enumerate(tokens) if not token]
    records = [tokens[first + 1:following] for first, following in zip(starts, starts[1:] + [len(tokens)])]
    if cut:
        records = records[:-1]
    elif records and not records[-1]:
        records.pop()  # (the NUL that ends the output)
    times: dict[str, str] = {}
    for record in records:
        if not record or not _STAMP.fullmatch(record[0]):
            return None
        stamp, names = record[0].decode("ascii"), record[1:]
        if names:
            if not names[0].startswith(b"\n"):  # (git puts a newline between a commit and its files)
                return None
            names[0] = names[0][1:]
        for name in names:
            times.setdefault(os.fsdecode(name), stamp)
    return times


__all__ = ["BODY_LIMIT", "pages"]
