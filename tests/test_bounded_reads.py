"""Every JSON, TOML and YAML document the package reads passes one bounded reader.

Held by construction: the package's source is scanned, and a parser of a structured
format is called from its one module only (``structured.py`` for JSON and TOML, the
YAML loader for YAML), so a new reader of a config, a cache entry or a header file
cannot parse a document without the size and depth limits (issue "Safe where it
guards deploys": deep JSON and TOML ended in RecursionError tracebacks).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "sitemap_ext"

# module (relative to the package) -> the parser calls it alone may make
ALLOWED = {
    "structured.py": {"json.loads", "tomllib.loads"},
    "read/yaml_doc.py": {"yaml.compose", "yaml.compose_all", "yaml.parse", "yaml.load"},
    "read/yaml_events.py": {"yaml.parse", "yaml.compose"},
    # the package's own examples (package data, written by us), not input
    "rules/examples.py": {"yaml.safe_load"},
}
PARSERS = {
    "json": {"load", "loads"},
    "tomllib": {"load", "loads"},
    "tomli": {"load", "loads"},
    "yaml": {"load", "safe_load", "full_load", "unsafe_load", "compose", "compose_all", "parse", "load_all",
             "safe_load_all"},
    "pickle": {"load", "loads"},
}


def parser_calls(tree: ast.AST) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and node.func.attr in PARSERS.get(node.func.value.id, ()):
            found.add(f"{node.func.value.id}.{node.func.attr}")
        if isinstance(node, ast.ImportFrom) and node.module in PARSERS:
            for alias in node.names:
                if alias.name in PARSERS[node.module]:
                    found.add(f"{node.module}.{alias.name}")
    return found


def test_structured_documents_are_parsed_by_their_bounded_reader_only() -> None:
    stray = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        calls = parser_calls(ast.parse(path.read_text(encoding="utf-8")))
        calls -= ALLOWED.get(name, set())
        if name == "write/parallel.py":
            calls.discard("pickle.loads")  # (a chunk this build's own worker wrote to its own temporary file)
        if calls:
            stray[name] = sorted(calls)
    assert stray == {}


def test_the_scan_finds_a_parser_call() -> None:
    """The control: the scan sees what it must forbid."""
    assert parser_calls(ast.parse("import json\njson.loads(x)\nfrom tomllib import load\n")) == \
        {"json.loads", "tomllib.load"}
