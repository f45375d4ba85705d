"""Header rules of a static host, read from the built site: ``_headers`` and ``vercel.json``.

Static hosts set a response's headers from a file deployed with the site, so a
built folder says which ``Link`` headers each of its files is served with:

* ``_headers`` (Netlify, Cloudflare Pages): a path pattern on a line of its own, then
  the headers of the files it matches on ``Name: value`` lines (indented, as the
  hosts' documentation writes them; their parsers tell a path from a header by how the
  line starts, '/' or a URL, and so does this one); ``#`` starts a comment. In a
  pattern, ``*`` (a splat) matches anything, ``/`` included, and a segment ``:name``
  (a placeholder) matches one segment. A Cloudflare pattern may be a whole URL
  (``https://:project.pages.dev/*``): the rule is the site's only where its host
  matches the host the folder is served at (``:name`` one label, ``*`` anything), and
  then its path is taken; a rule for another host (a preview deployment's, as real
  files give them) is not the site's. Every rule that matches a path applies.
  Cloudflare's ``! Name`` lines (which detach a header another rule set) are taken as
  read, not applied.
* ``vercel.json``: ``headers`` is a list of ``{"source": PATTERN, "headers":
  [{"key": NAME, "value": VALUE}, ...]}``; ``source`` is a path-to-regexp pattern
  (``:name`` one segment, ``:name*`` any, ``:name+`` one or more, ``(regex)`` as
  written; ``*`` is taken as a splat too). A rule with ``has`` or ``missing``
  applies to some requests only, so it is not judged.

Each rule keeps its file, line and column, and those of its ``Link`` values. The
reader is bounded (``MAX_HEADERS_FILE_BYTES``); a line or a rule it cannot read is
H121 at its place, and the rest is read.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from ..limits import (
    MAX_HEADERS_FILE_BYTES,
    MAX_LINK_HEADER_BYTES,
    MAX_PATTERN_QUANTIFIERS,
    MAX_PATTERN_RULES,
    MAX_STORED_PER_CODE,
)
from ..safeio import Refused, read_bounded
from ..structured import Malformed, loads_json
from .header_patterns import Matcher, bounded_matcher, host_matcher, netlify_matcher, repetitions, vercel_matcher
from .link_header import Columns, ParsedLinks, Problem

NETLIFY_FILE = "_headers"
VERCEL_FILE = "vercel.json"
HEADER_FILES = (NETLIFY_FILE, VERCEL_FILE)
_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # a header's name: an RFC 9110 token
_Make = Callable[[str], "Matcher | None"]


@dataclass(slots=True)
class HeaderRule:
    """One rule: its pattern, where it stands, and its Link values, read once (``read``:
    None while it gives none, or when it is one pattern rule too many)."""

    pattern: str
    line: int
    column: int
    matcher: Matcher
    number: int = 0  # (its place among the file's rules)
    read: ParsedLinks | None = None
    used: bool = False  # whether it matched a file
    exact: str | None = None  # the one path it matches, when it has no '*' or placeholder
    dropped: bool = False  # one pattern rule too many: its Link values are not read


@dataclass(slots=True)
class HeadersFile:
    """A ``_headers`` or ``vercel.json``: its rules that give Link values, and what could
    not be read: at most ``keep`` problems of a code stored, the others only counted
    (``unstored``), as the collector keeps findings (a 4 MiB rule of parts that are no
    link holds a million)."""

    display: str
    host: str | None = None  # the host the folder is served at (a rule for another host is not read)
    keep: int | None = MAX_STORED_PER_CODE
    rules: list[HeaderRule] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    unstored: Counter[str] = field(default_factory=Counter)
    # The rules that give Link values: those of one path by it, the others (patterns) in order.
    exact: dict[str, list[int]] = field(default_factory=dict)
    patterns: list[int] = field(default_factory=list)
    _stored: Counter[str] = field(default_factory=Counter)
    dropping: bool = False  # whether a pattern rule past MAX_PATTERN_RULES was met

    def add(self, problem: Problem) -> None:
        """A problem of the file, stored while fewer than ``keep`` of its code are, else counted."""
        code = problem[0]
        if self.keep is None or self._stored[code] < self.keep:
            self._stored[code] += 1
            self.problems.append(problem)
        else:
            self.unstored[code] += 1

    def add_link(self, rule: HeaderRule, value: str, line: int, columns: Columns) -> None:
        """A Link value of ``rule``, read now, once for every file the rule applies to.
        A rule is indexed by its first (a path's are found at once; only patterns are
        matched, at most ``MAX_PATTERN_RULES`` of them)."""
        if rule.read is None and not rule.dropped:
            if rule.exact is not None:
                self.exact.setdefault(rule.exact, []).append(rule.number)
            elif len(self.patterns) < MAX_PATTERN_RULES:
                self.patterns.append(rule.number)
            else:
                rule.dropped = True
                if not self.dropping:  # (said once)
                    self.dropping = True
                    self.add(("H121", f"more than {MAX_PATTERN_RULES} rules with a pattern ('*', ':name') give Link "
                              "headers; this one and the next are not read", rule.line, rule.column))
            rule.read = None if rule.dropped else ParsedLinks()
        if rule.read is not None:
            rule.read.read(value, line, columns, self.add)

    def links_for(self, paths: tuple[str, ...]) -> list[ParsedLinks]:
        """The Link values (read) of every rule that matches one of ``paths`` (a file's
        URL path, percent-decoded, in its spellings), in the file's order."""
        numbers = {number for path in paths for number in self.exact.get(path, ())}
        numbers.update(number for number in self.patterns if any(
            self.rules[number].matcher.fullmatch(path) for path in paths))
        reads: list[ParsedLinks] = []
        for number in sorted(numbers):
            rule = self.rules[number]
            rule.used = True
            if rule.read is not None:
                reads.append(rule.read)
        return reads


def read_headers_file(path: str, display: str, name: str, host: str | None = None,
                      keep: int | None = MAX_STORED_PER_CODE) -> HeadersFile:
    """A header file (``name``: ``_headers`` or ``vercel.json``) of a built site
    served at ``host`` (the rules a whole-URL pattern gives another host are left out),
    its Link values read once; at most ``keep`` problems of a code stored (None: all)."""
    found = HeadersFile(display, host=host.lower() if host else None, keep=keep)
    try:
        # (follow=False: a link in a built folder is never followed; it could name any file of the machine)
        data = read_bounded(path, MAX_HEADERS_FILE_BYTES, follow=False)
    except (OSError, Refused) as exc:
        found.add(("H121", f"{display} cannot be read ({getattr(exc, 'strerror', None) or exc}); its "
                               "header rules are not judged", 1, 1))
        return found
    text = data.decode("utf-8-sig", "replace")  # (a byte-order mark, as some editors write: not part of a line)
    if name == VERCEL_FILE:
        _vercel(text, found)
    else:
        _netlify(text, found)
    return found


# A _headers line that starts a rule: a path, or a whole URL (Netlify's and Cloudflare's
# parsers both tell it so; indenting the headers under it is the documented style, not a rule).
_PATH_LINE = re.compile(r"/|[A-Za-z][A-Za-z0-9+.-]*://")


def _netlify(text: str, found: HeadersFile) -> None:
    rule: HeaderRule | None = None
    under_pattern = False  # (the headers of a pattern that is no path are skipped with it)
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        column = len(line) - len(line.lstrip()) + 1
        if _PATH_LINE.match(stripped):  # (as both hosts tell a path from a header: by how it starts, not its indent)
            rule = _rule(stripped, number, column, netlify_matcher, found)
            under_pattern = True
            continue
        name, colon, value = stripped.partition(":")
        if (rule is None and under_pattern) or (rule is not None and stripped.startswith("!")):
            continue  # (the headers of a pattern skipped; Cloudflare's "! Name", which detaches a header)
        if rule is None or not colon or not _NAME.fullmatch(name.strip()):
            found.add(("H121", "a line that is no path (one starts with / or a URL) must be a header, "
                                   "'Name: value', under one; it is not read", number, column))
            continue
        if name.strip().lower() == "link":
            start = line.index(":", column - 1) + 1
            start += len(line[start:]) - len(line[start:].lstrip())
            found.add_link(rule, value.strip(), number, start + 1)


def _rule(pattern: str, line: int, column: int, make: _Make, found: HeadersFile) -> HeaderRule | None:
    """A rule for a pattern; None (H121) when the pattern is no path or is not run,
    None (and nothing said) when it is a whole URL for another host than the site's."""
    path = _site_path(pattern, line, column, found)
    if path is None:
        return None
    if not path.startswith("/"):
        found.add(("H121", f"'{pattern[:80]}' is no path pattern: a rule starts with a path from the "
                               "site's root (/docs/*) or a whole URL; its headers are not read", line, column))
        return None
    matcher = make(path)
    if matcher is None:
        found.add(("H121", _not_run(f"'{pattern[:80]}'"), line, column))
        return None
    rule = HeaderRule(pattern, line, column, matcher, number=len(found.rules),
                      exact=path if matcher.pattern == re.escape(path) else None)
    found.rules.append(rule)
    return rule


def _site_path(pattern: str, line: int, column: int, found: HeadersFile) -> str | None:
    """The path of a pattern: itself, or a whole URL's path when its host is the site's;
    None (and H121 said, when it is not run) when it is not read; "" for a URL that is none."""
    if not pattern.lower().startswith(("http://", "https://")):
        return pattern
    try:
        parts = urlsplit(pattern)
    except ValueError:  # ('https://[': an IPv6 address never closed; H121 as no path pattern)
        return ""
    host = host_matcher(parts.netloc)
    if host is None:
        found.add(("H121", _not_run(f"the host of '{pattern[:80]}'"), line, column))
        return None
    if found.host is not None and not host.fullmatch(found.host):
        return None  # (another host's rule, a preview deployment's: its headers are not the site's)
    return parts.path


def _not_run(what: str) -> str:
    return (f"{what} repeats more than {MAX_PATTERN_QUANTIFIERS} times ('*' splats, ':name' placeholders and a "
            "regular expression's repetitions counted together), or is no regular expression: a pattern that could "
            "run for ever is not run; its headers are not read")


def _vercel(text: str, found: HeadersFile) -> None:
    try:
        document = loads_json(text)  # (bounded in depth: json recurses once a level)
    except Malformed as exc:
        found.add(("H121", f"{found.display} is not valid JSON ({exc.reason}); its header rules are not read",
                   exc.line, exc.column))
        return
    rules = document.get("headers", []) if isinstance(document, dict) else None
    if not isinstance(rules, list):
        found.add(("H121", '"headers" must be a list of {"source", "headers"} rules', 1, 1))
        return
    places = _Places(text)
    for rule in rules:
        source = rule.get("source") if isinstance(rule, dict) else None
        headers = rule.get("headers") if isinstance(rule, dict) else None
        line, column = places.find("source", source)
        if not isinstance(source, str) or not isinstance(headers, list):
            found.add(("H121", 'a rule of "headers" needs "source" (a path pattern) and "headers" (a '
                                   'list of {"key", "value"}); it is not read', line, column))
            continue
        if "has" in rule or "missing" in rule:
            continue  # (applies to some requests only: not judged)
        made = _rule(source, line, column, vercel_matcher, found)
        for header in headers:
            if not isinstance(header, dict) or not isinstance(header.get("key"), str) or \
                    not isinstance(header.get("value"), str):
                where = places.find("key", header.get("key") if isinstance(header, dict) else None)
                found.add(("H121", 'a header of a rule must be {"key": NAME, "value": VALUE}, both '
                                       "strings; it is not read", *where))
                continue
            if made is not None and header["key"].strip().lower() == "link":
                found.add_link(made, header["value"], *places.string("value", header["value"]))


class _Places:
    """Where the values of a JSON document stand (json gives none): each found in turn,
    after the last one found, by its key and its value as JSON writes it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.lost = False  # a value not found as JSON writes it: the rest are not looked for (each would scan on)
        # (offset, its line, where that line starts): places are asked for in order, so lines
        # are counted on from the last one (a minified file of one line is not scanned again)
        self._counted = (0, 1, 0)

    def _match(self, key: str, value: object) -> int | None:
        """Where the next ``"key": value`` has its value (the offset of its first
        character, a string's opening quote); None when it is not found so."""
        spellings = [json.dumps(value), json.dumps(value, ensure_ascii=False)] if isinstance(value, str) else []
        for spelling in spellings if not self.lost else ():
            # (by plain search, not a regex of the spelling: compiling one of a 3 MB value took a minute)
            quoted, at = f'"{key}"', self.at
            while (at := self.text.find(quoted, at)) >= 0:
                at = _json_space(self.text, at + len(quoted))
                start = _json_space(self.text, at + 1) if self.text.startswith(":", at) else -1
                if start >= 0 and self.text.startswith(spelling, start):
                    self.at = start + len(spelling)
                    return start
        self.lost = self.lost or bool(spellings)
        return None

    def find(self, key: str, value: object) -> tuple[int, int]:
        """The line and column of the next ``"key": value`` (of the last one found, when not found)."""
        start = self._match(key, value)
        return self._line_column(self.at if start is None else start)

    def string(self, key: str, value: str) -> tuple[int, Columns]:
        """The line of a string value, and the column of each of its characters (a JSON
        escape, ``\\"`` in a Link value, takes more than one)."""
        start = self._match(key, value)
        if start is None:
            return self._line_column(self.at)
        line, column = self._line_column(start)
        text, at = self.text, start + 1
        columns: list[int] = []
        while at < len(text) and text[at] != '"' and len(columns) <= MAX_LINK_HEADER_BYTES:  # (no more is read)
            columns.append(column + at - start)
            at += _escape_length(text, at)
        return line, tuple(columns)

    def _line_column(self, offset: int) -> tuple[int, int]:
        start, line, line_start = self._counted
        if offset < start:
            start, line, line_start = 0, 1, 0
        line += self.text.count("\n", start, offset)
        last = self.text.rfind("\n", start, offset)
        line_start = line_start if last < 0 else last + 1
        self._counted = (offset, line, line_start)
        return line, offset - line_start + 1


def _json_space(text: str, at: int) -> int:
    """Where the JSON whitespace from ``at`` ends."""
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _escape_length(text: str, at: int) -> int:
    """How many characters of a JSON string's text give its next character: 1, or an
    escape's (two, ``\\uXXXX`` six, a surrogate pair of them twelve)."""
    if text[at] != "\\":
        return 1
    if text[at + 1:at + 2] != "u":
        return 2
    high = text[at + 2:at + 6].lower()
    return 12 if "d800" <= high <= "dbff" and text[at + 6:at + 8] == "\\u" else 6


__all__ = ["HEADER_FILES", "NETLIFY_FILE", "VERCEL_FILE", "HeaderRule", "HeadersFile", "bounded_matcher",
           "host_matcher", "netlify_matcher", "read_headers_file", "repetitions", "vercel_matcher"]
