"""The patterns of header rules, each made a regular expression through one gate.

A ``_headers`` path (``*`` a splat, ``:name`` a segment), the host of a whole-URL
``_headers`` pattern (``:name`` a label) and a ``vercel.json`` ``source``
(path-to-regexp) each become a regular expression, and each passes
``bounded_matcher``: Python's re backtracks and has no time limit, so a pattern is run
only when it repeats at most ``MAX_PATTERN_QUANTIFIERS`` times in all.
"""

from __future__ import annotations

import re

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


def netlify_matcher(pattern: str) -> re.Pattern[str] | None:
    """A ``_headers`` path pattern as a regular expression: ``*`` anything, ``:name`` a
    segment; None when it has more than ``MAX_PATTERN_QUANTIFIERS`` of them together."""
    parts = []
    for piece in re.split(r"(\*)", pattern):
        if piece == "*":
            parts.append(".*")
            continue
        last = 0
        for match in _PLACEHOLDER.finditer(piece):
            starts_segment = match.start() == 0 or piece[match.start() - 1] == "/"
            if starts_segment:
                parts.append(re.escape(piece[last:match.start()]) + "[^/]+")
                last = match.end()
        parts.append(re.escape(piece[last:]))
    return bounded_matcher("".join(parts))


_PLACEHOLDER = re.compile(r":[a-z_][a-z0-9_]*")


def host_matcher(pattern: str) -> re.Pattern[str] | None:
    """The host of a whole-URL ``_headers`` pattern as a regular expression (lower case):
    a label ``:name`` is any one label, ``*`` anything; a port, if written, is no part of
    the host. None when it has more than ``MAX_PATTERN_QUANTIFIERS`` splats and
    placeholders together (a placeholder is a whole label or plain text: ``:a:b:c...``
    in one label, each a repetition, would backtrack for ever)."""
    host = pattern.lower().rsplit("@", 1)[-1]
    host = re.sub(r":[0-9]*$", "", host)
    parts = []
    for label in host.split("."):
        if _PLACEHOLDER.fullmatch(label):
            parts.append("[^.]+")
        else:
            parts.append(".*".join(re.escape(piece) for piece in label.split("*")))
    return bounded_matcher(r"\.".join(parts))


def vercel_matcher(pattern: str) -> re.Pattern[str] | None:
    """A ``vercel.json`` ``source`` (path-to-regexp) as a regular expression; None when
    a group in it is no regular expression, or it repeats more than ``MAX_PATTERN_QUANTIFIERS``
    times (a hostile pattern such as ``(a*)*b`` backtracks for ever)."""
    parts, last = [], 0
    for match in _VERCEL_PART.finditer(pattern):
        parts.append(re.escape(pattern[last:match.start()]))
        token = match.group()
        if token == "*":
            parts.append(".*")
        elif token.startswith("\\"):
            parts.append(re.escape(token[1:]))  # (an escaped character: itself)
        elif token.startswith("("):
            parts.append(token)
        else:
            parts.append({"*": ".*", "+": ".+", "?": "[^/]*"}.get(token[-1], "[^/]+"))
        last = match.end()
    parts.append(re.escape(pattern[last:]))
    return bounded_matcher("".join(parts))


__all__ = ["bounded_matcher", "host_matcher", "netlify_matcher", "repetitions", "vercel_matcher"]
