"""The third hreflang method in a check: the Link headers a URL is served with.

A built folder's ``_headers`` (Netlify, Cloudflare Pages) and ``vercel.json``
(``read/static_headers.py``) are applied to the URL of each of its files; a fetched
URL's own ``Link`` header is read as it comes (``live_fetch.py``). Either way the
Link values go through the one Link reader (``read/link_header.py``), and each URL's
alternates become an entry of kind HEADER: judged by the rules every entry goes
through, then by the cluster rules with the sitemaps' and the pages' heads (return
links, x-default, H116 when the methods contradict). A rule whose Link values give
hreflang alternates and that matches no file of the folder is H120, at its line (one
whose Link values are preloads or other relations is no concern of hreflang: real
files carry many, for paths a build may not have).
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..diagnostics import Where
from ..read.description_file import display_name
from ..read.html import page_url
from ..read.link_header import Problem, gather, read_links
from ..read.record import UrlEntry
from ..read.static_headers import HEADER_FILES, HeadersFile, read_headers_file
from .inputs import BaseUrls, Inputs, Judging
from .judge_file import check_headers
from .results import Results


@dataclass(frozen=True, slots=True)
class HeaderSite:
    """A folder walked that holds header files at its root: their names, and every file
    below it (relative, '/'-separated, as walked) for the rules to match."""

    folder: str
    names: tuple[str, ...]
    files: tuple[str, ...]


def header_files_in(folder: str) -> tuple[str, ...]:
    """The header files at a folder's root (``_headers``, ``vercel.json``), as paths."""
    return tuple(os.path.join(folder, name) for name in HEADER_FILES if os.path.isfile(os.path.join(folder, name)))


def served_paths(relative: str) -> tuple[str, ...]:
    """The paths (from the site's root, decoded) a built file is served at, as a header
    rule's pattern is matched: its own, its folder's for an ``index.html``, and its
    path without ``.html`` (hosts serve ``/about`` from ``about.html``)."""
    own = "/" + relative
    folder, name = posixpath.split(own)
    if name == "index.html":
        return (folder.rstrip("/") + "/", own)
    if name.endswith(".html"):
        return (own, own[:-len(".html")])
    return (own,)


class HeaderFiles:
    """The steps of a check that read Link headers: of a built folder's header files
    (the folders walked that hold them, ``sites``), of a fetched URL."""

    def __init__(self, judging: Judging, inputs: Inputs, results: Results, base: BaseUrls) -> None:
        self.judging = judging
        self.inputs = inputs
        self.results = results
        self.base = base
        self.sites: list[HeaderSite] = []  # folders walked with _headers or vercel.json

    def add(self, site: HeaderSite) -> None:
        """A folder walked that holds header files: read once every file is known."""
        self.sites.append(site)

    def static_headers(self) -> None:
        """Each header file of the folders walked, applied to their files (in the order walked)."""
        for site in self.sites:
            url = self.base.folder_url(os.path.realpath(site.folder))
            for name in site.names:
                path = os.path.join(site.folder, name)
                if url is None:  # (no --base-url for the folder: its files have no URL, as its pages)
                    self.inputs.skip(display_name(path))
                    continue
                found = read_headers_file(path, display_name(path), name, urlsplit(url).hostname, keep=self._kept())
                self._headers_file(found, url, site.files)

    def _kept(self) -> int | None:
        """How many problems of a code a header file's reader stores: as many as the
        collector keeps (all, when it keeps every error)."""
        collector = self.judging.collector
        return None if collector.errors_kept else collector.limit

    def _headers_file(self, found: HeadersFile, url: str, files: tuple[str, ...]) -> None:
        """A header file's problems, once each at its place (its rules were read once);
        then its rules applied to each file (H119 when too many links reach one)."""
        self._problems(found.display, found.problems, set())
        for code, count in found.unstored.items():
            for _ in range(count):
                self.judging.collector.tally(code, found.display)
        said: set[tuple[str, int, int]] = set()
        entries: list[UrlEntry] = []
        for relative in files:
            if relative in HEADER_FILES:
                continue  # (the hosts read the header file, and serve it to no one)
            reads = found.links_for(served_paths(relative))
            if not reads:
                continue
            own = page_url(relative, url, drop_html=self.judging.options.html == "drop-ext")
            links = gather(reads, own)
            self._problems(found.display, links.problems, said)
            entry = links.entry(own)
            if entry is not None:
                entries.append(entry)
        unused = self._unused_rules(found)
        if entries:
            self.results.merge(check_headers(found.display, entries, self.judging.options, self.judging.noted))
        elif not found.problems and not said and not unused:
            self.inputs.skip(found.display)  # (security headers, caching, preloads: nothing for hreflang)

    def _unused_rules(self, found: HeadersFile) -> int:
        """H120 for each rule that gives hreflang alternates and matched no file; how many.
        (Preloads and other relations for a path the build lacks are no concern of hreflang.)"""
        unused = [rule for rule in found.rules if rule.read is not None and rule.read.alternates and not rule.used]
        for rule in unused:
            self.judging.collector.report(
                "H120", f"the rule '{rule.pattern}' gives hreflang alternates in Link headers, and no file of the "
                "built site is served at a path it matches, so they reach no one: correct the pattern, or remove "
                "the rule", Where(found.display, rule.line, rule.column))
        return len(unused)

    def link_header(self, url: str, value: str) -> None:
        """A fetched URL's Link header (the values of every Link field, as one)."""
        links = read_links([(value, 0, 1)], url)
        self._problems(url, links.problems, set())
        entry = links.entry(url)
        if entry is not None:
            self.results.merge(check_headers(url, [entry], self.judging.options, self.judging.noted))

    def _problems(self, display: str, problems: list[Problem], said: set[tuple[str, int, int]]) -> None:
        """What a header reader could not read (H118, H119, H121), once per place."""
        for code, message, line, column in problems:
            if (code, line, column) not in said:
                said.add((code, line, column))
                self.judging.collector.report(code, message, Where(display, line or None, column if line else None))


__all__ = ["HeaderFiles", "HeaderSite", "header_files_in", "served_paths"]
