"""YAML text to plain data plus the source position of every key and value.

This room reads; it does not validate. Three things PyYAML would otherwise do
for us are done here on purpose:

* Timestamps stay strings: ``yaml.safe_load`` raises on ``2026-02-30`` with no
  useful message, and ``dates.py`` reports it with its line instead.
* Mapping keys are the scalar's own text: YAML 1.1 reads ``no:`` (Norwegian)
  as ``False``; a hreflang key must stay ``no``.
* Duplicate keys are reported; YAML would keep the last one silently.

``${VAR}`` and ``${VAR:-default}`` are interpolated in string values
(``$${`` writes a literal ``${``), for the variables the top file declares in
``env:`` (a list of names, or names with defaults) and those named ``SITEMAP_*``;
any other name is an error, so a description cannot read the rest of the
environment. A value taken from the environment is never echoed: the collector
shows the variable's name in its place.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..diagnostics import Collector, Where
from ..limits import MAX_YAML_NODES
from .description_findings import given_twice, unreadable, wrong_shape
from .yaml_events import is_site_yaml as is_site_yaml  # (its home is yaml_events; named here as before)
from .yaml_events import past_node_limit

Path = tuple[str | int, ...]

_STR_TAG = "tag:yaml.org,2002:str"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_VAR = re.compile(r"\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_SURROGATE = re.compile("[\ud800-\udfff]")
#: Variables of this prefix may be used without being declared in ``env:``.
ENV_PREFIX = "SITEMAP_"
# Nesting deeper than this is refused (a YAML list in a list in ... 10,000 deep
# would exhaust Python's stack when converted).
MAX_DEPTH = 64


@dataclass
class Doc:
    """One YAML file as plain data, with positions by path.

    ``values[path]`` is where the value at ``path`` starts, ``keys[path]`` where
    its key is written, and ``texts[path]`` the scalar's own text where YAML
    typed it (``no`` read as False keeps ``"no"`` here).
    """

    file: str
    data: Any
    env: dict[str, str | None] = field(default_factory=dict)  # declared variables, with defaults
    values: dict[Path, Where] = field(default_factory=dict)
    keys: dict[Path, Where] = field(default_factory=dict)
    texts: dict[Path, str] = field(default_factory=dict)

    def where(self, path: Path) -> Where:
        """The closest known position to ``path`` (its key if it has one)."""
        while True:
            if path in self.keys:
                return self.keys[path]
            if path in self.values:
                return self.values[path]
            if not path:
                return Where(self.file, 1, 1)
            path = path[:-1]

    def value_where(self, path: Path) -> Where:
        return self.values.get(path) or self.where(path)


class _TooManyNodes(Exception):
    """The document holds more nodes than MAX_YAML_NODES (raised while composing)."""


class _Mark:
    """Where a node starts, kept small: a document may hold millions of nodes, and
    PyYAML's marks (a dict each, two per node) were most of their memory."""

    __slots__ = ("name", "index", "line", "column", "buffer", "pointer")

    def __init__(self, name: str, index: int, line: int, column: int) -> None:
        self.name, self.index, self.line, self.column = name, index, line, column
        self.buffer, self.pointer = None, 0

    def get_snippet(self) -> None:
        return None

    def __str__(self) -> str:
        return f'  in "{self.name}", line {self.line + 1}, column {self.column + 1}'


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, composing at most MAX_YAML_NODES nodes: the limit holds
    while the document is read, so a large file costs what the limit allows, never
    its whole node graph."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.nodes = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        self.nodes += 1
        if self.nodes > MAX_YAML_NODES:  # (counted on the events first: a guard, where parsers differ)
            mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]  # (PyYAML stubs)
            raise _TooManyNodes((mark.line + 1, mark.column + 1))
        node = super().compose_node(parent, index)
        if node is None:  # (typed so by the stubs; PyYAML always gives a node)
            return None
        start = node.start_mark
        if not isinstance(start, _Mark):  # (an alias is a node composed before)
            node.start_mark = node.end_mark = _Mark(start.name, start.index, start.line, start.column)
        return node


def expanded_size(root: Node) -> int:
    """Nodes the document has once aliases are expanded, counted on the shared graph.

    An alias is the same node object in several places, so sizes are memoised per
    node: a billion-laughs document is measured in microseconds, not expanded.
    """
    sizes: dict[int, int] = {}

    def size(node: Node) -> int:
        known = sizes.get(id(node))
        if known is not None:
            return known
        sizes[id(node)] = 1  # a recursive alias (&a [*a]) counts once
        if isinstance(node, SequenceNode):
            total = 1 + sum(size(child) for child in node.value)
        elif isinstance(node, MappingNode):
            total = 1 + sum(size(k) + size(v) for k, v in node.value)
        else:
            total = 1
        sizes[id(node)] = total
        return total

    return size(root)


def interpolate(text: str, env: Mapping[str, str], on_missing: Any,
                declared: Mapping[str, str | None] | None = None, on_undeclared: Any = None,
                on_value: Any = None) -> str:
    """Replace ``${VAR}`` / ``${VAR:-default}``; call ``on_missing(name)`` for unset ones.

    With ``declared``, only those names (their value there is a default) and names
    starting with ``SITEMAP_`` are read; ``on_undeclared(name)`` is called for
    others. ``on_value(name, value)`` hears of every value taken from ``env``."""
    if "$" not in text:
        return text

    def replace(match: re.Match[str]) -> str:
        if match.group(0) == "$${":
            return "${"
        name, default = match.group(1), match.group(2)
        if declared is not None:
            if name not in declared and not name.startswith(ENV_PREFIX):
                on_undeclared(name)
                return ""
            if default is None:
                default = declared.get(name)
        value = env.get(name)
        if value is not None and (value != "" or default is None):
            if on_value is not None:
                on_value(name, value)
            return value
        if default is not None:
            return default
        on_missing(name)
        return ""

    return _VAR.sub(replace, text)


def _where(file: str, node: Node) -> Where:
    return Where(file, node.start_mark.line + 1, node.start_mark.column + 1)


class _Converter:
    def __init__(self, doc: Doc, collector: Collector, env: Mapping[str, str]) -> None:
        self.doc = doc
        self.collector = collector
        self.env = env
        self.constructor = yaml.SafeLoader("")  # its constructor methods for plain scalars

    def convert(self, node: Node, path: Path) -> Any:
        self.doc.values[path] = _where(self.doc.file, node)
        if len(path) > MAX_DEPTH:
            self.collector.report("C110", f"values nested more than {MAX_DEPTH} deep; a site description "
                                  "needs a few levels", _where(self.doc.file, node))
            return None
        if isinstance(node, ScalarNode):
            return self._scalar(node, path)
        if isinstance(node, SequenceNode):
            return [self.convert(child, path + (i,)) for i, child in enumerate(node.value)]
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        raise TypeError(f"unexpected YAML node {node!r}")  # pragma: no cover

    def _scalar(self, node: ScalarNode, path: Path) -> Any:
        if node.tag == _STR_TAG:
            where = _where(self.doc.file, node)
            if _SURROGATE.search(node.value):
                unreadable(self.collector.report, "the string holds a lone surrogate (an escape such as \\ud800), "
                                      "which is no character: UTF-8 cannot write it", where)
                return None

            def missing(name: str) -> None:
                self.collector.report(
                    "C105",
                    f"${{{name}}} is not set in the environment; set it, or give a default "
                    f"as ${{{name}:-value}}",
                    where,
                )

            def undeclared(name: str) -> None:
                self.collector.report(
                    "C105",
                    f"${{{name}}} is not declared: list it under env: at the top of the site description "
                    f"(env: [{name}]), or name it {ENV_PREFIX}...; a description reads no other variable",
                    where,
                )

            return interpolate(node.value, self.env, missing, self.doc.env, undeclared, self.collector.redact)
        if node.tag == _TIMESTAMP_TAG:
            return node.value
        try:
            value = self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError) as exc:  # ValueError: an integer of over 4,300 digits
            problem = getattr(exc, "problem", None) or ("a number too long to read" if isinstance(exc, ValueError)
                                                        else exc)
            unreadable(self.collector.report,
                f"cannot read this value ({problem}); quote it to make it a string",
                _where(self.doc.file, node),
            )
            return None
        if value is not None:
            self.doc.texts[path] = node.value
        return value

    def _mapping(self, node: MappingNode, path: Path) -> dict[str, Any]:
        try:
            self.constructor.flatten_mapping(node)  # resolve '<<' merge keys
        except yaml.YAMLError as exc:
            unreadable(self.collector.report, f"bad merge key: {exc}", _where(self.doc.file, node))
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key_where = _where(self.doc.file, key_node)
            if not isinstance(key_node, ScalarNode):
                wrong_shape(self.collector.report, "a mapping key must be a plain name, not a list or mapping",
                            key_where)
                continue
            key = key_node.value
            if key in out:
                first = self.doc.keys[path + (key,)]
                given_twice(self.collector.report,
                    f"'{key}' is given twice in this mapping (first on line {first.line}); "
                    "remove one or merge them",
                    key_where,
                )
                continue
            self.doc.keys[path + (key,)] = key_where
            out[key] = self.convert(value_node, path + (key,))
        return out


def _declared(root: Node, file: str, collector: Collector) -> dict[str, str | None]:
    """The top file's ``env:``: a list of names, or a mapping of names to defaults."""
    if not isinstance(root, MappingNode):
        return {}
    for key, value in root.value:
        if not (isinstance(key, ScalarNode) and key.value == "env"):
            continue
        where = _where(file, value)
        names: dict[str, str | None] = {}
        if isinstance(value, SequenceNode):
            pairs = [(item, None) for item in value.value]
        elif isinstance(value, MappingNode):
            pairs = list(value.value)
        else:
            pairs = []
            if not (isinstance(value, ScalarNode) and value.value in ("", "~", "null")):
                wrong_shape(collector.report, "env: must list variable names (env: [SITE_URL]) or give them "
                                 "defaults (env: {SITE_URL: https://www.example.com/})", where)
        for name_node, default_node in pairs:
            name = name_node.value if isinstance(name_node, ScalarNode) else None
            default = default_node.value if isinstance(default_node, ScalarNode) and \
                default_node.tag == _STR_TAG else None
            if name is None or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or \
                    (default_node is not None and default is None and not (
                        isinstance(default_node, ScalarNode) and default_node.value in ("", "~", "null"))):
                wrong_shape(collector.report, "env: entries are variable names (letters, digits, _), each with a "
                                 "string default or none", _where(file, name_node))
                continue
            names[name] = default
        return names
    return {}


def _too_many_nodes(file: str, collector: Collector, where: tuple[int, int] = (1, 1)) -> None:
    """C110 where the node past the limit starts (counted before composing: ``yaml_events``)."""
    collector.report("C110", f"the document holds or expands to more than {MAX_YAML_NODES:,} nodes; move large "
                     "page lists into a CSV or JSON Lines source", Where(file, *where))


def _unreadable_characters(exc: yaml.YAMLError, text: str, file: str, collector: Collector) -> None:
    """C101 for text PyYAML's reader refuses (a control character), at its line."""
    position = getattr(exc, "position", None)
    line = text.count("\n", 0, position) + 1 if isinstance(position, int) else 1
    reason = getattr(exc, "reason", None) or "unreadable characters"
    character = getattr(exc, "character", None)
    what = f" (character {ord(character):#06x})" if isinstance(character, str) and len(character) == 1 else ""
    unreadable(collector.report, f"YAML cannot be read: {reason}{what}; YAML allows no control characters "
                     "but tab and line breaks", Where(file, line, 1))


def load_yaml(
    text: str, file: str, collector: Collector, env: Mapping[str, str] | None = None,
    declared: Mapping[str, str | None] | None = None,
) -> Doc | None:
    """Parse one YAML document; None (with a C101/C110 diagnostic) when unreadable.

    ``declared``: the variables an including file declared; None for a top file,
    whose own ``env:`` says."""
    env = os.environ if env is None else env
    past = past_node_limit(text, MAX_YAML_NODES)
    if past is not None:
        _too_many_nodes(file, collector, past)
        return None
    loader = None
    try:
        loader = _Loader(text)
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Where(file, mark.line + 1, mark.column + 1) if mark else Where(file, 1, 1)
        problem = exc.problem or exc.context or "malformed YAML"
        unreadable(collector.report, f"YAML syntax: {problem}", where)
        return None
    except yaml.YAMLError as exc:  # ReaderError (control characters) and the like
        _unreadable_characters(exc, text, file, collector)
        return None
    except RecursionError:
        collector.report("C110", "the YAML is nested too deeply to read; a site description needs a few levels",
                         Where(file, 1, 1))
        return None
    except _TooManyNodes as exc:
        _too_many_nodes(file, collector, exc.args[0])
        return None
    finally:
        if loader is not None:
            loader.dispose()
    doc = Doc(file=file, data=None)
    if node is not None:
        doc.env = dict(declared) if declared is not None else _declared(node, file, collector)
    if node is None:
        doc.data = {}
        return doc
    try:
        size = expanded_size(node)
    except RecursionError:
        size = MAX_YAML_NODES + 1
    if size > MAX_YAML_NODES:
        _too_many_nodes(file, collector)
        return None
    doc.data = _Converter(doc, collector, env).convert(node, ())
    return doc
