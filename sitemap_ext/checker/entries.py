"""Rules on the entries of existing sitemaps: <url>s, index <sitemap>s, text lines.

Each rule reports into the shared collector with the file, the line of the
element and the URL it concerns. Cross-file facts (duplicates, hreflang
clusters) go to ``Shared`` and are judged when every file has been read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .. import langtags
from ..dates import DateCache, Lastmod, format_instant
from ..diagnostics import Collector, Where
from ..ext import SITEMAP_NS
from ..ext import xhtml
from ..limits import MAX_URLS_PER_FILE
from ..model import CHANGEFREQS
from ..urls import is_clean, normalise, origin_text
from ..hashes import HashSet
from .clusters import ClusterIndex
from .media import check_media

_SM = f"{{{SITEMAP_NS}}}"
LOC, LASTMOD, CHANGEFREQ, PRIORITY = (_SM + n for n in ("loc", "lastmod", "changefreq", "priority"))
URL, SITEMAP = _SM + "url", _SM + "sitemap"
_XHTML_LINK = f"{{{xhtml.URI}}}link"


def known_namespaces() -> dict[str, str]:
    """Namespace URI -> prefix of every namespace the sitemap schemas define."""
    from ..ext import EXTENSIONS

    known = {SITEMAP_NS: "sitemap", xhtml.URI: xhtml.PREFIX}
    known.update({ext.uri: ext.prefix for ext in EXTENSIONS.values()})
    return known


def loose_namespace(uri: str) -> str:
    """A namespace URI with the usual misspellings folded away."""
    text = uri.strip().lower()
    for scheme in ("https://", "http://"):
        if text.startswith(scheme):
            text = text[len(scheme):]
    return text.rstrip("/")


@dataclass
class Shared:
    """What all files checked together share: the clock, duplicates, clusters."""

    collector: Collector
    now: float | None
    clusters: ClusterIndex  # also knows every URL of the XML sitemaps (duplicates)
    dates: DateCache = field(default_factory=DateCache)
    # URLs of text sitemaps, which repeat the XML ones: duplicates judged apart.
    seen_text: HashSet = field(default_factory=HashSet)
    noted: set[tuple[str, str]] = field(default_factory=set)  # facts reported once per run: (kind, value)
    namespaces: dict[str, str] = field(default_factory=lambda: known_namespaces())
    urls: int = 0


@dataclass
class FileState:
    display: str
    url: str | None  # where the file is served, when known (from an index or --base-url)
    shared: Shared
    origin: str | None = None
    folder: str | None = None
    entries: int = 0
    lastmod_first: str | None = None
    lastmod_count: int = 0
    lastmods_differ: bool = False
    bad_namespaces: set[str] = field(default_factory=set)
    news: int = 0
    complete: bool = True  # False when reading stopped early (nothing to judge as a whole)
    submitted: bool = False  # listed in a robots.txt: may list URLs outside its folder
    # The previous <url>'s links as read, and what they gave, when they raised nothing:
    # the members of a cluster follow each other with the same links.
    previous_links: tuple[Any, ...] | None = None
    previous_alternates: list[tuple[str, str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.url is not None:
            self.origin = origin_text(self.url).lower()
            if not self.submitted:
                self.folder = self.url[: self.url.rindex("/") + 1]

    def where(self, line: int | None) -> Where:
        return Where(self.display, line)

    def report(self, code: str, message: str, line: int | None, **extra: object) -> None:
        self.shared.collector.report(code, message, self.where(line), **extra)  # type: ignore[arg-type]


def check_namespace(uri: str, state: FileState, line: int) -> None:
    """A namespace the schemas do not define: a misspelling of one they do (X105)?"""
    if uri in state.bad_namespaces:
        return
    right = {loose_namespace(known): known for known in state.shared.namespaces}.get(loose_namespace(uri))
    if right is not None:
        state.bad_namespaces.add(uri)
        state.report("X105", f"namespace '{uri}' is not '{right}'; namespace URIs must match to the letter, or "
                     "search engines ignore the elements", line, suggestion=right)


# --- one URL -------------------------------------------------------------------------


def check_loc(text: str | None, state: FileState, line: int, what: str = "loc") -> str | None:
    """A loc as written: reported problems; the URL (stripped) if usable."""
    if text is None or not text.strip():
        state.report("X107", f"{what} is empty", line)
        return None
    if is_clean(text):
        url = text  # already in the one form we write: nothing to normalise
        fixed: str | None = text
        problems: tuple[Any, ...] = ()
    else:
        url = text.strip()
        if url != text:
            state.report("U105", f"{what} has whitespace around the URL; remove it", line, url=url)
        fixed, problems = normalise(url)
    for problem in problems:
        if problem.code == "U106":
            state.report("U106", f"{what} holds '&amp;' after XML decoding: the & was escaped twice; escape it once "
                         "(&amp; in the file)", line, url=url, suggestion=fixed)
        else:
            state.report(problem.code, f"{what}: {problem.message}", line, url=url, suggestion=problem.suggestion)
    if fixed is None:
        return None
    if fixed != url and fixed != url + "/" and not any(p.code in ("U105", "U106") for p in problems):
        state.report("U111", f"{what} is not written as an escaped URI (RFC 3986); write {fixed}", line,
                     url=url, suggestion=fixed)
    origin = origin_text(url).lower()  # foreign input: compare hosts without case
    if state.origin is None:
        state.origin = origin
    elif origin != state.origin:
        state.report("U107", f"{url} is not on {state.origin}, the host of this sitemap; each host needs its "
                     "own sitemap (or a cross-submission in that host's robots.txt)", line, url=url)
    elif state.folder is not None and not url.startswith(state.folder):
        state.report("U108", f"{url} lies outside {state.folder}, where this sitemap is served; search engines "
                     "accept it only if the sitemap is submitted in robots.txt", line, url=url)
    return url


def check_lastmod(text: str | None, state: FileState, line: int, url: str | None) -> Lastmod | None:
    if text is None:
        return None
    lastmod, problems = state.shared.dates.parse(text)
    for problem in problems:
        if problem.code == "D106":
            state.report("D108", f"lastmod '{text.strip()}' is a W3C form the sitemap XSD rejects; write "
                         f"{problem.suggestion}", line, url=url, suggestion=problem.suggestion)
        else:
            state.report(problem.code, problem.message, line, url=url, suggestion=problem.suggestion)
    if lastmod is None:
        return None
    now = state.shared.now
    if now is not None and lastmod.instant > now:
        state.report("D102", f"lastmod {lastmod.text} is after {format_instant(now)}; lastmod is when the page "
                     "last changed", line, url=url)
    if state.lastmod_first is None:
        state.lastmod_first = lastmod.text
    elif lastmod.text != state.lastmod_first:
        state.lastmods_differ = True
    state.lastmod_count += 1
    return lastmod


_KINDS = {LOC: 0, LASTMOD: 1, CHANGEFREQ: 2, PRIORITY: 3, _XHTML_LINK: 4}


def check_url(element: etree._Element, line: int, state: FileState) -> None:
    shared = state.shared
    state.entries += 1
    shared.urls += 1
    if state.entries == MAX_URLS_PER_FILE + 1:
        state.report("X108", f"more than {MAX_URLS_PER_FILE:,} URLs in one sitemap; split it and list the parts "
                     "in an index", line)
    locs: list[etree._Element] = []
    core: list[etree._Element] = []
    links: list[etree._Element] = []
    others: list[etree._Element] = []
    rank, in_order, extensions_started = -1, True, False
    for child in element:  # one pass: sort the children, and judge their order
        kind = _KINDS.get(child.tag)
        if kind is None:
            if isinstance(child.tag, str):
                others.append(child)
                extensions_started = True
        elif kind == 4:
            links.append(child)
            extensions_started = True
        else:
            if extensions_started or kind <= rank:
                in_order = False
            rank = kind
            (locs if kind == 0 else core).append(child)
    if len(locs) != 1:
        state.report("X107", f"a <url> needs exactly one <loc>, this one has {len(locs)}", line)
        if not locs:
            return
    elif not in_order:
        state.report("X106", "elements of this <url> are out of order: loc, then lastmod, changefreq, priority, "
                     "then extension elements (the XSD rejects anything else)", line)
    loc = check_loc(locs[0].text, state, locs[0].sourceline or line)
    if loc is not None and shared.clusters.seen(loc, state.display, line):
        state.report("U104", f"{loc} is listed more than once", line, url=loc)
    for child in core:
        tag, child_line = child.tag, child.sourceline or line
        if tag == LASTMOD:
            check_lastmod(child.text, state, child_line, loc)
        elif tag == CHANGEFREQ:
            check_changefreq(child.text, state, child_line, loc)
        else:
            check_priority(child.text, state, child_line, loc)
    if links:
        check_links(tuple([(link.get("rel"), link.get("hreflang"), link.get("href")) for link in links]),
                    [link.sourceline or line for link in links], state, line, loc)
    media: list[etree._Element] = []
    known = state.shared.namespaces
    for child in others:
        if child.tag.startswith(_SM):
            state.report("X112", f"<{etree.QName(child).localname}> is not a sitemap element; search engines ignore "
                         "it", child.sourceline or line, url=loc)
            continue
        namespace = child.tag[1:child.tag.find("}")] if child.tag[0] == "{" else ""
        if namespace not in known:
            check_namespace(namespace, state, child.sourceline or line)
        media.append(child)
    if loc is not None and media:
        check_media(media, state, loc)


def check_links(raw: tuple[tuple[str | None, str | None, str | None], ...], lines: list[int], state: FileState,
                line: int, loc: str | None) -> None:
    """The xhtml:links of one <url>, as (rel, hreflang, href) with each one's line."""
    shared = state.shared
    collector = shared.collector
    same = raw == state.previous_links
    if same:
        alternates = state.previous_alternates  # judged for the previous member, without a finding
    else:
        before = len(collector.diagnostics) + sum(collector.suppressed.values())
        alternates = []
        for (rel, code, href), link_line in zip(raw, lines):
            alternate = check_link(rel, code, href, state, link_line, loc)
            if alternate is not None:
                alternates.append(alternate)
        clean = len(collector.diagnostics) + sum(collector.suppressed.values()) == before
        state.previous_links, state.previous_alternates = (raw, alternates) if clean else (None, [])
    if loc is not None and alternates:
        shared.clusters.add(loc, alternates, state.display, line, same=same)
    else:
        state.previous_links = None  # the cluster index did not see these links


def is_changefreq(text: str | None) -> bool:
    """Whether check_changefreq() finds nothing to say."""
    return (text or "").strip() in CHANGEFREQS


def is_priority(text: str | None) -> bool:
    """Whether check_priority() finds nothing to say."""
    value = (text or "").strip()
    try:
        number = float(value)
    except ValueError:
        return False
    return 0.0 <= number <= 1.0 and value.lower() not in ("nan", "inf")


def check_changefreq(text: str | None, state: FileState, line: int, url: str | None) -> None:
    if not is_changefreq(text):
        value = (text or "").strip()
        fix = value.lower() if value.lower() in CHANGEFREQS else None
        state.report("D104", f"changefreq '{value}' is not one of: {', '.join(CHANGEFREQS)}", line, url=url,
                     suggestion=fix)


def check_priority(text: str | None, state: FileState, line: int, url: str | None) -> None:
    if not is_priority(text):
        state.report("D105", f"priority '{(text or '').strip()}' must be a number from 0.0 to 1.0", line, url=url)


def check_link(rel: str | None, code: str | None, href: str | None, state: FileState, line: int,
               loc: str | None) -> tuple[str, str, int] | None:
    """One xhtml:link: (canonical hreflang, href, line) if usable."""
    if rel != "alternate" or not code or not href:
        missing = [name for name, value in (("rel=\"alternate\"", rel == "alternate"), ("hreflang", code),
                                            ("href", href)) if not value]
        state.report("H101", f"xhtml:link needs {', '.join(missing)}", line, url=loc)
        return None
    verdict = langtags.judge(code)
    for problem in verdict.problems:
        state.report(problem.code, problem.message, line, url=loc, hreflang=code, suggestion=problem.suggestion)
    target = href.strip()
    if not target.startswith(("http://", "https://")):
        state.report("H102", f"alternate href '{href}' must be an absolute http(s) URL", line, url=loc,
                     hreflang=code)
        return None
    if verdict.canonical is None:
        return None  # search engines ignore the link; its L-code says why
    return (verdict.canonical, target, line)


def finish_file(state: FileState, kind: str) -> None:
    if not state.complete:
        return
    if state.entries == 0:
        state.report("X115", f"the {kind} has no entries; the XSD requires at least one", None)
    if kind != "sitemap index" and state.lastmod_count > 1 and state.lastmod_count == state.entries \
            and not state.lastmods_differ:
        state.report("D103", f"all {state.entries:,} lastmods are {state.lastmod_first}: that is when the file was "
                     "built, not when pages changed; give each page its own date, or leave lastmod out", None)
