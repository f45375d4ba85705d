"""The patterns of header rules, each through one gate, each matched in linear time.

A ``_headers`` path (``*`` a splat, ``:name`` a segment), the host of a whole-URL
``_headers`` pattern (``:name`` a label) and a ``vercel.json`` ``source``
(path-to-regexp) each pass ``repetitions``: a pattern is run only when it repeats at
most ``MAX_PATTERN_QUANTIFIERS`` times in all (a ``vercel.json`` group is a regular
expression, and Python's re backtracks and has no time limit).

Three repetitions are still too many for re: ``/*a*a*ab`` backtracks over every split of
a path in three, a second on 1,000 characters, over a minute on 4,000. So a pattern made
of text, splats and placeholders only (every ``_headers`` pattern and host, a
``vercel.json`` source without a group) is matched by ``TokenMatcher``, which keeps the
set of positions the pattern can have reached after each of its parts (a bitset: no
choice is ever taken back), whatever the pattern and the text: O(parts x length).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias

from ..limits import MAX_PATTERN_QUANTIFIERS

_VERCEL_PART = re.compile(r":[A-Za-z_][A-Za-z0-9_]*[*+?]?|\((?:[^()\\]|\\.)*\)|\*|\\.")
# A regular expression's tokens where a repetition can hide: an escape, a character class
# (its closing ']' optional, so an unclosed one is read once, to the end), a group's '(?'
# (whose '?' repeats nothing), and the repetitions themselves. Each alternative is linear.
_REGEX_TOKENS = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]?|\(\?|[*+?{]", re.DOTALL)
_REPEATS = frozenset("*+?{")


def repetitions(regex: str) -> int:
    """How many times a regular expression repeats: each '*', '+', '?' and '{' that is
    no literal (escaped, in a character class, a group's '(?'). Counted generously (a
    lazy '*?' counts two, a literal '{' one): too many is safe, too few is not."""
    return sum(match.group() in _REPEATS for match in _REGEX_TOKENS.finditer(regex))


def bounded_matcher(regex: str) -> re.Pattern[str] | None:
    """The one gate of every pattern a header file gives (a ``_headers`` path, a
    whole-URL pattern's host, a ``vercel.json`` source), as a regular expression:
    compiled when it repeats at most ``MAX_PATTERN_QUANTIFIERS`` times (Python's re
    backtracks, and has no time limit: ``.*a.*a...`` twelve times runs for minutes on
    a path of 40 characters); None when it repeats more, or is no regular expression."""
    if repetitions(regex) > MAX_PATTERN_QUANTIFIERS:
        return None
    try:
        return re.compile(regex)
    except (re.error, RecursionError, OverflowError):  # (groups nested thousands deep: re's parser recurses)
        return None


class Matcher(Protocol):
    """What a rule matches paths (or hosts) with: a compiled ``re`` pattern or a
    ``TokenMatcher``; ``pattern`` is the regular expression it stands for."""

    @property
    def pattern(self) -> str: ...

    def fullmatch(self, text: str, /) -> object: ...


@dataclass(frozen=True, slots=True)
class Run:
    """A splat or a placeholder: any run of characters but ``stop`` (``'\\n'`` for
    ``.*``, as re's ``.`` without DOTALL; ``'/'`` or ``'.'`` for a segment or a label),
    of at least ``least`` (0 or 1) characters."""

    stop: str
    least: int


Token: TypeAlias = str | Run  # (a str: text, as written)


class TokenMatcher:
    """A pattern of text, splats and placeholders, matched as ``re.fullmatch(pattern)``
    matches but with no backtracking: after each token, the bitset of the positions of
    the text it can have reached (bit p: the first p characters matched). Text that
    starts or ends the pattern is looked for where it must stand, first."""

    __slots__ = ("_body", "_head", "_tail", "pattern", "tokens")

    def __init__(self, pattern: str, tokens: tuple[Token, ...]) -> None:
        self.pattern, self.tokens = pattern, tokens
        first = tokens[0] if tokens else None
        self._head = first if isinstance(first, str) else ""
        last = tokens[-1] if len(tokens) > bool(self._head) else None
        self._tail = last if isinstance(last, str) else ""
        self._body = tokens[bool(self._head):len(tokens) - bool(self._tail)]

    def fullmatch(self, text: str, /) -> Literal[True] | None:
        """True when the whole of ``text`` matches, else None (as re's fullmatch)."""
        end = len(text) - len(self._tail)
        if end < len(self._head) or not text.startswith(self._head) or not text.endswith(self._tail):
            return None
        bits, reach = _Bits(text), 1 << len(self._head)
        for token in self._body:
            reach = bits.after_text(reach, token) if isinstance(token, str) else bits.after_run(reach, token)
            if not reach:
                return None
        return True if reach >> end & 1 else None


# Positions reached that are checked one by one with startswith, and occurrences of a
# character set one by one with find (past these, whole bitsets: str.translate, one AND
# a character of the text to match, whatever the reach).
_FEW = 8


class _Bits:
    """Bitsets of one text (bit p for its character p), each made when first asked."""

    __slots__ = ("_equal", "size", "text")

    def __init__(self, text: str) -> None:
        self.text, self.size = text, len(text)
        self._equal: dict[str, int] = {}

    def equal(self, char: str) -> int:
        """The positions of ``char`` in the text."""
        bits = self._equal.get(char)
        if bits is None:
            text, bits = self.text, 0
            if text.count(char) <= _FEW:
                at = text.find(char)
                while at >= 0:
                    bits |= 1 << at
                    at = text.find(char, at + 1)
            else:  # (one pass in C: the text as binary digits, its last character first)
                table = dict.fromkeys(map(ord, set(text)), "0")
                table[ord(char)] = "1"
                bits = int(text[::-1].translate(table), 2)
            self._equal[char] = bits
        return bits

    def after_run(self, reach: int, run: Run) -> int:
        """Where a run can end from any position of ``reach``: the carry of an addition
        fills each stretch of crossable characters from its first position reached
        (MatchStar of bitstream regular expression matching: ((M & C) + C) ^ C | M)."""
        may = ((1 << self.size) - 1) ^ self.equal(run.stop)
        if run.least:
            reach = (reach & may) << 1
        return (((reach & may) + may) ^ may) | reach

    def after_text(self, reach: int, text: str) -> int:
        """Where ``text`` ends when it starts at a position of ``reach``."""
        size = len(text)
        reach &= (1 << max(self.size - size + 1, 0)) - 1  # (where it fits)
        if reach.bit_count() <= _FEW:
            ends = 0
            while reach:
                low = reach & -reach
                if self.text.startswith(text, low.bit_length() - 1):
                    ends |= low << size
                reach ^= low
            return ends
        for offset, char in enumerate(text):
            reach &= self.equal(char) >> offset
            if not reach:
                break
        return reach << size


class _Pattern:
    """A pattern being made: its regular expression and its tokens, side by side."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.tokens: list[Token] = []

    def text(self, text: str) -> None:
        if text:
            self.parts.append(re.escape(text))
            if self.tokens and isinstance(self.tokens[-1], str):
                self.tokens[-1] += text
            else:
                self.tokens.append(text)

    def run(self, regex: str, run: Run) -> None:
        self.parts.append(regex)
        self.tokens.append(run)

    def matcher(self) -> Matcher | None:
        """The gate: None past ``MAX_PATTERN_QUANTIFIERS`` repetitions; re for a pattern
        of ``_RE_REPETITIONS`` at most, a ``TokenMatcher`` for more."""
        regex = "".join(self.parts)
        count = repetitions(regex)
        if count > MAX_PATTERN_QUANTIFIERS:
            return None
        return re.compile(regex) if count <= _RE_REPETITIONS else TokenMatcher(regex, tuple(self.tokens))


# re for a pattern of at most this many repetitions: a fullmatch tries each length of its
# one run once, each try checking the text after it (so linear in the text; times the
# length of that text in all: 1.3 ms for '/*' and 1,000 characters on 2,000); and re is
# 5 to 8 times quicker than a TokenMatcher for the common '/docs/*' or '/*.pdf'.
_RE_REPETITIONS = 1
_SPLAT = Run("\n", 0)  # .*


def netlify_matcher(pattern: str) -> Matcher | None:
    """A ``_headers`` path pattern: ``*`` anything, ``:name`` a segment; None when it
    has more than ``MAX_PATTERN_QUANTIFIERS`` of them together."""
    made = _Pattern()
    for piece in re.split(r"(\*)", pattern):
        if piece == "*":
            made.run(".*", _SPLAT)
            continue
        last = 0
        for match in _PLACEHOLDER.finditer(piece):
            starts_segment = match.start() == 0 or piece[match.start() - 1] == "/"
            if starts_segment:
                made.text(piece[last:match.start()])
                made.run("[^/]+", Run("/", 1))
                last = match.end()
        made.text(piece[last:])
    return made.matcher()


_PLACEHOLDER = re.compile(r":[a-z_][a-z0-9_]*")


def host_matcher(pattern: str) -> Matcher | None:
    """The host of a whole-URL ``_headers`` pattern (lower case): a label ``:name`` is
    any one label, ``*`` anything; a port, if written, is no part of the host. None when
    it has more than ``MAX_PATTERN_QUANTIFIERS`` splats and placeholders together (a
    placeholder is a whole label; ``:a:b:c...`` in one label is plain text)."""
    host = pattern.lower().rsplit("@", 1)[-1]
    host = re.sub(r":[0-9]*$", "", host)
    made = _Pattern()
    for number, label in enumerate(host.split(".")):
        if number:
            made.text(".")
        if _PLACEHOLDER.fullmatch(label):
            made.run("[^.]+", Run(".", 1))
            continue
        for index, piece in enumerate(label.split("*")):
            if index:
                made.run(".*", _SPLAT)
            made.text(piece)
    return made.matcher()


# path-to-regexp's modifiers of a ':name': its regex, and its run (none: one segment)
_MODIFIERS = {"*": (".*", _SPLAT), "+": (".+", Run("\n", 1)), "?": ("[^/]*", Run("/", 0))}


def vercel_matcher(pattern: str) -> Matcher | None:
    """A ``vercel.json`` ``source`` (path-to-regexp); None when a group in it is no
    regular expression, or it repeats more than ``MAX_PATTERN_QUANTIFIERS`` times (a
    hostile pattern such as ``(a*)*b`` backtracks for ever). A source with a group is
    run by re (a group is a regular expression); one without, as a ``_headers`` path."""
    made, last, groups = _Pattern(), 0, []
    for match in _VERCEL_PART.finditer(pattern):
        made.text(pattern[last:match.start()])
        token = match.group()
        if token == "*":
            made.run(".*", _SPLAT)
        elif token.startswith("\\"):
            made.text(token[1:])  # (an escaped character: itself)
        elif token.startswith("("):
            made.parts.append(token)
            groups.append(token)
        else:
            made.run(*_MODIFIERS.get(token[-1], ("[^/]+", Run("/", 1))))
        last = match.end()
    made.text(pattern[last:])
    return bounded_matcher("".join(made.parts)) if groups else made.matcher()


__all__ = ["Matcher", "Run", "TokenMatcher", "bounded_matcher", "host_matcher", "netlify_matcher", "repetitions",
           "vercel_matcher"]
