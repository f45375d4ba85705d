"""A failing and a passing example of each code, kept in the rule catalogue itself
(specs/rules.md, its "Examples" part: one fenced block a code, ```` ```yaml example
X101 ````): ``sitemap-ext rules CODE`` prints them, and the tests run every one through
the real check (each failing example gives exactly its code, each passing example no
finding).

An example is the text of one file (``name``), with the files beside it (``files``)
and, where the finding depends on where the files are served, the URL of their folder
(``served_at``, as ``--base-url URL=FOLDER`` gives it); ``also``: the codes the same
defect gives besides (a missing page is also unverifiable). A sitemap example written as
entries (``<url>`` or ``<sitemap>`` elements) is read inside a ``<urlset>`` or
``<sitemapindex>`` that declares the namespaces (``document``).

The catalogue is read from the package's copy (``sitemap_ext/specs/rules.md``, which a
wheel carries: setup.py copies specs/ into it), or else from ``specs/rules.md`` beside
the package (a checkout, an editable install). A block that is no example (YAML that
does not parse, a key not known, a second block of one code, a block of the Examples
part not named ``yaml example CODE``) raises ``CatalogueError``: never skipped.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..limits import MAX_CATALOGUE_BYTES
from ..safeio import Refused, read_bounded

NOW = "2026-11-21T12:00:00Z"  # the instant the examples' dates are judged at
_NAMESPACES = ('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"\n'
               '        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"\n'
               '        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"\n'
               '        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"')
_ROOTS = {"<url>": "urlset", "<sitemap>": "sitemapindex"}
# Codes whose examples are site descriptions (the builder's codes, and D106 and N110).
_DESCRIBED = ("C", "S", "O")
_PART = "## Examples"  # the catalogue's part that holds them (every block in it is one)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_INFO = re.compile(r"yaml example ([A-Z]\d{3})")
_KEYS = {"failing": str, "passing": str, "name": str, "files": dict, "served_at": str, "also": list}
_REQUIRED = ("failing", "passing")


class CatalogueError(ValueError):
    """A block of the catalogue that should be an example and is not one, with its line;
    or a catalogue that is missing or cannot be read (too large, no file, not UTF-8)."""


@dataclass(frozen=True)
class Example:
    code: str
    failing: str
    passing: str
    name: str
    files: dict[str, str] = field(default_factory=dict)
    served_at: str | None = None
    also: tuple[str, ...] = ()  # codes the failing example gives besides its own (one defect, two verdicts)

    @property
    def wrapped_in(self) -> str | None:
        """The root an example written as entries is read inside (None: a whole file)."""
        return next((root for start, root in _ROOTS.items() if self.failing.lstrip().startswith(start)), None)

    def inputs(self) -> list[str]:
        """The files a check is given: the example and the built pages beside it (an
        index's children, an include or a source are read through the example)."""
        return [self.name, *(name for name in self.files if name.endswith(".html"))]

    def document(self, text: str) -> str:
        """The file an example's text stands for."""
        root = self.wrapped_in
        if root is None:
            return text
        inner = "".join(f"  {line}\n" for line in text.splitlines())
        return f'<?xml version="1.0" encoding="UTF-8"?>\n<{root} {_NAMESPACES}>\n{inner}</{root}>\n'



@functools.cache
def examples() -> dict[str, Example]:
    """Every example, by code (read once from the catalogue, bounded)."""
    path = catalogue()
    try:
        text = read_bounded(str(path), MAX_CATALOGUE_BYTES).decode("utf-8")
    except (OSError, Refused, UnicodeDecodeError) as exc:  # a catalogue missing, too large, a FIFO, not UTF-8
        raise CatalogueError(f"{path}: the rule catalogue cannot be read: {exc}") from exc
    return parse(text, str(path))


def example(code: str) -> Example | None:
    return examples().get(code)


def catalogue() -> Path:
    """specs/rules.md: the wheel's copy inside the package, or the checkout's beside it."""
    package = Path(__file__).resolve().parent.parent
    for path in (package / "specs" / "rules.md", package.parent / "specs" / "rules.md"):
        if path.is_file():
            return path
    raise CatalogueError(f"the rule catalogue (specs/rules.md) is neither in {package} nor beside it")


def parse(text: str, where: str = "specs/rules.md") -> dict[str, Example]:
    """The examples of a catalogue's text, by code, in the order they are written."""
    out: dict[str, Example] = {}
    for line, code, body in blocks(text, where):
        if code in out:
            raise CatalogueError(f"{where}:{line}: a second example of {code}")
        out[code] = _example(code, _mapping(body, f"{where}:{line}: the example of {code}", line))
    return out


def blocks(text: str, where: str) -> Iterator[tuple[int, str, str]]:
    """Each example block: the line of its opening fence, its code and its text. A block
    named as an example anywhere, and every block of the Examples part, must be one."""
    for line, info, body, part in _fenced(text.splitlines(), where):
        named = _INFO.fullmatch(info)
        if named is not None:
            yield line, named.group(1), body
        elif part == _PART or "example" in info.split():
            raise CatalogueError(f"{where}:{line}: a block of the examples opens with ```yaml example CODE,"
                                 f" not ```{info}")


def _fenced(lines: list[str], where: str) -> Iterator[tuple[int, str, str, str]]:
    """Each fenced block (CommonMark: a run of 3 or more backticks or tildes, closed by
    a run as long or longer of the same): its line, its info string, its text, and the
    level-2 heading it is under."""
    part, opened, body = "", None, list[str]()
    for number, line in enumerate(lines, 1):
        if opened is None:
            match = _FENCE.match(line)
            if match is not None:
                opened, body = (number, match.group(1), match.group(2).strip()), []
            elif line.startswith("## "):
                part = line.rstrip()
        elif _closes(line, opened[1]):
            yield opened[0], opened[2], "".join(f"{text}\n" for text in body), part
            opened = None
        else:
            body.append(line)
    if opened is not None:
        raise CatalogueError(f"{where}:{opened[0]}: a block that is never closed")


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]} and len(line) - len(line.lstrip()) < 4


def _mapping(body: str, where: str, fence: int) -> dict[str, object]:
    """An example block's YAML: a mapping of the known keys, each of its type. ``where``
    names the block, ``fence`` is the line of its opening fence."""
    raw = _load(body, where, fence)
    if not isinstance(raw, dict):
        raise CatalogueError(f"{where} is no mapping of {', '.join(_KEYS)}")
    for key, value in raw.items():
        if key not in _KEYS:
            raise CatalogueError(f"{where} has a key {key!r}; its keys are {', '.join(_KEYS)}")
        if not isinstance(value, _KEYS[key]):
            raise CatalogueError(f"{where}: {key} is a {_KEYS[key].__name__}, not {value!r}")
    missing = [key for key in _REQUIRED if key not in raw]
    if missing:
        raise CatalogueError(f"{where} has no {' and no '.join(missing)} (an example needs both)")
    return raw


def _load(body: str, where: str, fence: int) -> object:
    try:
        return yaml.safe_load(body)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" (line {fence + 1 + mark.line})" if mark is not None else ""
        raise CatalogueError(f"{where} is no YAML{at}: {getattr(exc, 'problem', None) or exc}") from exc


def _example(code: str, raw: dict[str, object]) -> Example:
    default = "site.yaml" if code.startswith(_DESCRIBED) else "sitemap.xml"
    files, also = raw.get("files"), raw.get("also")
    files = files if isinstance(files, dict) else {}
    also = also if isinstance(also, list) else []
    return Example(code=code, failing=str(raw["failing"]), passing=str(raw["passing"]),
                   name=str(raw.get("name", default)), files={str(k): str(v) for k, v in files.items()},
                   served_at=None if raw.get("served_at") is None else str(raw["served_at"]),
                   also=tuple(str(c) for c in also))
