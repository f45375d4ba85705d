"""The package's layout: its modules import each other without a cycle.

The graph is the static one: each module's imports of the package's modules at module
level (inside ``try`` and ``if`` too), leaving out ``if TYPE_CHECKING:`` blocks, which
never run, and imports inside functions. A cycle here would make the order in which
modules are first imported decide whether they load. The table of codes imports
nothing, and the registry only the table and the diagnostics, so any module may know
the codes without loading the modules that report them.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "sitemap_ext"


def module_name(path: Path) -> str:
    parts = ["sitemap_ext", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements run when the module is imported (nested in if, else and try)."""
    found: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If):
            if not _type_checking(node):
                found += _statements(node.body) + _statements(node.orelse)
        elif isinstance(node, ast.Try):
            found += _statements(node.body) + _statements(node.orelse) + _statements(node.finalbody)
            for handler in node.handlers:
                found += _statements(handler.body)
        else:
            found.append(node)
    return found


def imports(name: str) -> set[str]:
    """The package's modules ``name`` imports at module level."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _statements(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in MODULES}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            if source not in MODULES:
                continue
            # (``from . import dates`` imports the module dates; ``from .dates import X`` the module)
            found |= {f"{source}.{alias.name}" if f"{source}.{alias.name}" in MODULES else source
                      for alias in node.names}
    return found - {name}


def graph() -> dict[str, set[str]]:
    return {name: imports(name) for name in sorted(MODULES)}


def test_the_scan_reads_relative_imports_and_leaves_out_type_checking_blocks() -> None:
    assert "sitemap_ext.diagnostics" in imports("sitemap_ext.codes")
    assert "sitemap_ext.rules.values" in imports("sitemap_ext.rules")  # from . import (..., values)
    assert "sitemap_ext.read.html" in imports("sitemap_ext.rules.files")  # from ..read.html import ...
    assert "sitemap_ext.rules.config" not in imports("sitemap_ext.checker.judge_file")  # (only for its types)


def test_no_import_cycle() -> None:
    try:
        tuple(graphlib.TopologicalSorter(graph()).static_order())
    except graphlib.CycleError as exc:
        raise AssertionError(f"modules import each other in a cycle: {' -> '.join(exc.args[1])}") from None


def test_the_code_table_imports_nothing_and_the_registry_only_it() -> None:
    """code_table.py has no import at all (not even of the standard library), and what
    codes.py loads of the package is the table, the diagnostics and their limits."""
    edges = graph()

    def reached(name: str) -> set[str]:
        seen: set[str] = set()
        todo = [name]
        while todo:
            for other in edges[todo.pop()] - seen:
                seen.add(other)
                todo.append(other)
        return seen

    table = ast.parse(MODULES["sitemap_ext.code_table"].read_text(encoding="utf-8"))
    assert [node.lineno for node in ast.walk(table) if isinstance(node, (ast.Import, ast.ImportFrom))] == []
    assert reached("sitemap_ext.codes") == {"sitemap_ext.code_table", "sitemap_ext.diagnostics", "sitemap_ext.limits"}


def test_the_rules_know_nothing_of_the_check_that_runs_them() -> None:
    """rules/ holds the rules, their registry and the cluster index; the check's
    orchestration (checker/) imports them, never the other way round: a rule does not
    know whether a build or a check asked."""
    edges = graph()
    rules = [name for name in edges if name == "sitemap_ext.rules" or name.startswith("sitemap_ext.rules.")]
    assert rules
    assert {name: sorted(other for other in edges[name] if other.startswith("sitemap_ext.checker"))
            for name in rules} == {name: [] for name in rules}
