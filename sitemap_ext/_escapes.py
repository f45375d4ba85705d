"""Percent escapes in their one spelling (RFC 3986 section 6.2.2), for URL identity
(``urls.identity``): each escape in upper case, an escaped unreserved character
unescaped, and what is neither ASCII nor allowed in a URI escaped as UTF-8.

Without a Python call per escape or per byte: an escaped Cyrillic or CJK path holds
dozens, and a callback each (with quote(), which looks each byte up) made its
identity cost 5-15 us against 0.4 us for a plain path.
"""

from __future__ import annotations

import re

# Every '%' followed by two hex digits starts an escape (an escape holds no '%'), so a
# pattern that matches some escapes finds exactly those. An escape not in its one form:
# an unreserved character (A-Z a-z 0-9 - . _ ~) escaped, or hex in lower case.
_UNRESERVED_ESCAPE = r"%(?:3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]|2[DEde]|5[Ff]|7[Ee])"
_ESCAPE_TO_CHANGE = re.compile(_UNRESERVED_ESCAPE + "|%(?:[0-9A-Fa-f][a-f]|[a-f][0-9A-Fa-f])")
_ESCAPE_UNRESERVED = re.compile(_UNRESERVED_ESCAPE)
# Where neither matches, every escape is of a non-ASCII byte, in upper case: the spelling
# quote() writes of a non-ASCII path, decided by two searches much quicker than the one above.
_NOT_HIGH = re.compile("%[^89A-F]")
_NOT_UPPER = re.compile("%[89A-F][^0-9A-F]")
_ESCAPE_RUN = re.compile("(%[0-9A-Fa-f][0-9A-Fa-f](?:%[0-9A-Fa-f][0-9A-Fa-f])*)")  # (quicker than {2} and +)
_ASCII_ESCAPE = re.compile("%[2-7]")  # (where it finds none, no unreserved character is escaped)
# What quote(part, safe=urls._SAFE) escapes: all but the unreserved characters and
# RFC 3986's reserved ones and '%' (not '[' ']', nor '#': a fragment is split off first).
_TO_QUOTE = re.compile(r"([^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]+)")


def _unescape(match: re.Match[str]) -> str:
    return chr(int(match.group(0)[1:], 16))


def canonical_escapes(part: str) -> str:
    """Each escape in upper case, an escaped unreserved character unescaped. One search
    decides that nothing changes (the common case: what quote() writes); else each run
    of escapes is upper-cased at once, and only an escaped unreserved character (rare)
    costs a call."""
    if "%" not in part or (_NOT_HIGH.search(part) is None and _NOT_UPPER.search(part) is None) \
            or _ESCAPE_TO_CHANGE.search(part) is None:
        return part
    pieces = _ESCAPE_RUN.split(part)  # (the runs are at the odd places)
    pieces[1::2] = [run.upper() for run in pieces[1::2]]
    out = "".join(pieces)  # (its escapes where they were: one pass decodes them as one pass over part would)
    if _ASCII_ESCAPE.search(out) is None or _ESCAPE_UNRESERVED.search(out) is None:
        return out
    return _ESCAPE_UNRESERVED.sub(_unescape, out)


def quoted(part: str) -> str:
    """quote(part, safe=urls._SAFE), a run of characters to escape at a time;
    UnicodeEncodeError on a lone surrogate, as quote() raises."""
    pieces = _TO_QUOTE.split(part)
    pieces[1::2] = ["%" + run.encode("utf-8").hex("%").upper() for run in pieces[1::2]]
    return "".join(pieces)


def canonical_part(part: str) -> str:
    """A path or a query in its one spelling (a non-ASCII one, or one with a space,
    escaped first); UnicodeEncodeError on a lone surrogate."""
    if not part.isascii() or " " in part:  # (what quoted() writes is so already)
        return canonical_escapes(quoted(part)) if "%" in part else quoted(part)
    return canonical_escapes(part)
