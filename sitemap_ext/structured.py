"""JSON and TOML read bounded: size, then depth, before a parser sees them.

Every JSON or TOML file the toolkit takes (its own manifest, journal, cache entries and
baselines; ``sitemap-ext.toml`` and ``pyproject.toml``; a site's ``vercel.json``) goes
through here. A file is read up to a limit (``safeio.read_bounded``: regular files only,
so a FIFO cannot hang the run), its nesting is counted by one linear scan that skips
strings and comments, and only then is it parsed. Python's ``json`` and ``tomllib``
recurse once per level of nesting, so ten thousand ``[`` would otherwise end in a
``RecursionError``; here they are a ``Malformed`` with the line where the limit was
passed, like any other syntax error.
"""

from __future__ import annotations

import json
import re
import sys
from itertools import accumulate
from typing import Any

from .limits import MAX_STRUCTURED_BYTES, MAX_STRUCTURED_DEPTH
from .safeio import read_bounded

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


class Malformed(ValueError):
    """Text that is not a document of the kind asked for, or nests too deep: ``line``
    and ``column`` (1-based) say where, ``reason`` says what, without the place."""

    def __init__(self, reason: str, line: int = 1, column: int = 1) -> None:
        super().__init__(f"{reason} (line {line}, column {column})")
        self.reason, self.line, self.column = reason, line, column


# What can hold a bracket that is no nesting: strings (with their escapes) and, in
# TOML, comments and literal strings. Each alternative is linear (no nested repetition),
# and a string's closing quote is optional: a string left open is consumed once, to the
# end (or its line), not tried again from each quote inside it, which would be quadratic.
_JSON_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)
_TOML_TOKENS = re.compile(r'"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:""")?|\'\'\'[^\']*(?:\'(?!\'\')[^\']*)*(?:\'\'\')?'
                          r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"?|\'[^\'\n]*\'?|#[^\n]*|[\[\]{}.=,\n]', re.DOTALL)
_OPENERS = frozenset("[{")
_CLOSERS = frozenset("]}")
_KEY_STARTS = frozenset(",\n")


def check_depth(text: str, limit: int = MAX_STRUCTURED_DEPTH, *, toml: bool = False) -> None:
    """``Malformed`` where ``text`` nests arrays and objects (tables) deeper than
    ``limit``; brackets inside strings and comments do not count. In TOML a dotted key
    nests a table a dot (``a.b.c = 1`` is three levels: ``tomllib`` takes time and
    memory that grow faster than its length), so a key's dots count with the brackets
    around it: they are counted from the start of a line, a ``{`` or a ``,`` up to the
    ``=`` (a float's one dot after a ``,`` counts one level, and goes at the next)."""
    if not toml and _json_depth(text, limit) <= limit:
        return  # (the scan below runs only to say where the limit was passed)
    depth = dots = 0
    in_key = True
    for match in (_TOML_TOKENS if toml else _JSON_TOKENS).finditer(text):
        token = match.group()
        if token in _OPENERS:
            depth += 1
            in_key, dots = token == "{" or in_key, 0
        elif token in _CLOSERS:
            depth = max(depth - 1, 0)
            continue
        elif token == ".":
            dots += in_key
        elif token in _KEY_STARTS:
            in_key, dots = True, 0
            continue
        elif token == "=":
            in_key, dots = False, 0
            continue
        else:
            continue
        if depth + dots > limit:
            line = text.count("\n", 0, match.start()) + 1
            column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
            raise Malformed(f"nests deeper than {limit} levels", line, column)


def _json_depth(text: str, limit: int) -> int:
    """How deep JSON text nests, counted at C speed: fewer openers than the limit say
    enough; else escapes are cut out, every byte but quotes and brackets is deleted,
    the strings left (quotes and the brackets in them) are cut out, and the brackets
    left are summed. A string left open is cut to the end, as the scan reads it."""
    if text.count("[") + text.count("{") <= limit:
        return 0
    data = text.encode("utf-8", "surrogatepass")
    if b"\\" in data:
        data = _ESCAPE.sub(b"", data)
    brackets = _QUOTED.sub(b"", data.translate(None, _NOT_STRUCTURE))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


_ESCAPE = re.compile(rb"\\.", re.DOTALL)
_QUOTED = re.compile(rb'"[^"]*"?')
_NOT_STRUCTURE = bytes(byte for byte in range(256) if byte not in b'"[]{}')
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def loads_json(data: bytes | str, *, depth: int = MAX_STRUCTURED_DEPTH) -> Any:
    """A JSON document, its depth checked first; ``Malformed`` if it is none (bytes
    must be UTF-8)."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise Malformed(f"not UTF-8 (byte {exc.start})") from None
    check_depth(text, depth)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise Malformed(exc.msg, exc.lineno, exc.colno) from None
    except (ValueError, RecursionError) as exc:  # (a number past int's digit limit; depth was checked)
        raise Malformed(str(exc) or type(exc).__name__) from None


def loads_toml(data: bytes | str, *, depth: int = MAX_STRUCTURED_DEPTH) -> dict[str, Any]:
    """A TOML document, its depth checked first; ``Malformed`` if it is none."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise Malformed(f"not UTF-8 (byte {exc.start})") from None
    check_depth(text, depth, toml=True)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = re.search(r"\(at line (\d+), column (\d+)\)$", message)
        if found:
            raise Malformed(message[: found.start()].rstrip(), int(found.group(1)), int(found.group(2))) from None
        if message.endswith("(at end of document)"):  # (placed at the end, not at 1:1)
            lines = text.split("\n")
            raise Malformed(message[: -len("(at end of document)")].rstrip() + " at the end of the file",
                            len(lines), len(lines[-1]) + 1) from None
        raise Malformed(message) from None
    except (ValueError, RecursionError) as exc:
        raise Malformed(str(exc) or type(exc).__name__) from None


def read_json(path: str, limit: int = MAX_STRUCTURED_BYTES, *, follow: bool = True) -> Any:
    """A JSON file read bounded (``safeio.Refused`` past ``limit`` or for a file that
    is not regular, ``OSError`` as usual, ``Malformed`` for what is not JSON)."""
    return loads_json(read_bounded(path, limit, follow=follow))


def read_toml(path: str, limit: int = MAX_STRUCTURED_BYTES, *, follow: bool = True) -> dict[str, Any]:
    """A TOML file read bounded (as ``read_json``)."""
    return loads_toml(read_bounded(path, limit, follow=follow))
