"""One judge: every diagnostic code is produced by exactly one module.

A code is *produced* wherever its string literal stands, except where it only names
a code: a comparison (``code in ("U105", "U106")``, ``problem.code == "D106"``) and a
collection of codes alone (a set of codes after which reading stops). So a report's
first argument (``report("D104", ...)``), a later one (``OutputError(message,
"O103")``), a keyword or a default (``code="V104"``), a finding tuple (``(place,
"H101", message)``), a code chosen into a variable (``code = "V108" if ... else
"V109"``) or a named constant (``LISTED_UNFETCHED = "R110"``) all count: a module
that hands a code on makes the verdict. rules/__init__.py (the registry of rules) names
the codes of every rule and code_table.py (the table of codes) lists them all: both are
left out. Docstrings are never just a code.

Each code is listed once, in code_table.py, and declared nowhere else (no module has a
``CODES`` of its own, nor calls ``Code(...)`` with a code): every code there is produced
by exactly one module, unless the table says it was removed (then by none), and every
code a module produces is there.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

from sitemap_ext.code_table import REMOVED, TABLE
from sitemap_ext.codes import REGISTRY

PACKAGE = Path(__file__).resolve().parent.parent / "sitemap_ext"
CODE = re.compile(r"^[A-Z]\d{3}$")
TABLE_MODULE = "code_table.py"
CATALOGUES = {"rules/__init__.py", TABLE_MODULE}

# Codes still produced in more than one module (32 before 0.4's one judge; 5 more were
# found when the scan came to see keywords, defaults and later arguments). This set may
# only shrink; it is empty.
NOT_YET_ONE: set[str] = set()


def _is_code(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(CODE.match(node.value))


def _references(tree: ast.AST) -> set[int]:
    """The code literals (by id) that only name a code: see the module's docstring."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            found.update(id(sub) for part in (node.left, *node.comparators) for sub in ast.walk(part))
        elif isinstance(node, (ast.Tuple, ast.Set, ast.List)) and node.elts and all(map(_is_code, node.elts)):
            found.update(id(element) for element in node.elts)
    return found


def produced(tree: ast.AST) -> set[str]:
    """The codes a module produces (see the module's docstring)."""
    references = _references(tree)
    return {node.value for node in ast.walk(tree) if _is_code(node) and id(node) not in references}  # type: ignore[attr-defined]


def producers() -> dict[str, set[str]]:
    """code -> the modules (paths relative to the package) that produce it."""
    by_code: dict[str, set[str]] = defaultdict(set)
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name in CATALOGUES:
            continue
        for code in produced(ast.parse(path.read_text(encoding="utf-8"))):
            by_code[code].add(name)
    return by_code


def test_the_scan_sees_every_way_of_handing_a_code_on_and_not_references() -> None:
    tree = ast.parse('report("D104", "m", at)\nfindings.append((place, "H101", f"x", None))\n'
                     'STOP = frozenset(("F101", "X101"))\nif code in ("U105", "U106"): pass\n'
                     'x = problem.code == "D106"\n'
                     'raise OutputError(message, "O103")\ntext(raw, ctx, code="V104")\n'
                     'def read(path, code="F105"): pass\ncode = "V108" if one else "V109"\nLISTED = "R110"\n')
    assert produced(tree) == {"D104", "H101", "O103", "V104", "F105", "V108", "V109", "R110"}


def test_every_produced_code_is_in_the_table() -> None:
    assert sorted(set(producers()) - set(REGISTRY)) == []


def test_every_code_in_the_table_is_produced_by_exactly_one_module() -> None:
    by_code = producers()
    twice = {code: sorted(modules) for code, modules in by_code.items() if len(modules) > 1}
    assert {code: modules for code, modules in twice.items() if code not in NOT_YET_ONE} == {}
    assert sorted(NOT_YET_ONE - set(twice)) == [], "fixed: take these out of NOT_YET_ONE"
    assert sorted(set(REGISTRY) - set(by_code)) == [], "listed in the table, and produced nowhere"
    removed = {row[0] for row in TABLE if row[3] == REMOVED}
    assert sorted(removed & set(by_code)) == [], "removed: no module may report it again"


def test_the_build_judges_nothing_itself() -> None:
    """The build's own modules (the normaliser, a built site's reader, the pipeline)
    produce no code a rule module or the check's orchestration produces: they call the
    rule's function."""
    rules = {code for code, modules in producers().items()
             if any(m.startswith(("rules/", "checker/")) for m in modules)}
    for name in ("write/page_normaliser.py", "write/page_fields.py", "write/page_locales.py", "write/page_media.py",
                 "write/built_site.py", "read/git_times.py", "write/build.py", "write/page_flow.py",
                 "write/seen_urls.py"):
        mine = produced(ast.parse((PACKAGE / name).read_text(encoding="utf-8")))
        assert mine & rules == set(), name


def declarations(tree: ast.AST) -> list[str]:
    """What in a module declares codes of its own: a ``CODES`` assigned, a ``Code(...)``
    made with a code literal (the registry makes its entries from the table's rows)."""
    found: list[str] = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        found += [f"CODES at line {node.lineno}" for target in targets
                  if isinstance(target, ast.Name) and target.id == "CODES"]
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)) and \
                getattr(node.func, "id", getattr(node.func, "attr", "")) == "Code" and \
                any(map(_is_code, [*node.args, *(keyword.value for keyword in node.keywords)])):
            found.append(f"Code(...) at line {node.lineno}")
    return found


def test_the_scan_of_declarations_sees_both_forms() -> None:
    tree = ast.parse('CODES: tuple[Code, ...] = (Code("D105", Severity.ERROR, "n", "s"),)\n'
                     'x = diagnostics.Code(code="X101")\nentry = Code(code, Severity(severity), name, summary)\n')
    assert sorted(declarations(tree)) == ["CODES at line 1", "Code(...) at line 1", "Code(...) at line 2"]


def test_no_module_but_the_table_declares_codes() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name != TABLE_MODULE and (mine := declarations(ast.parse(path.read_text(encoding="utf-8")))):
            found[name] = mine
    assert found == {}


def test_the_registry_is_the_table() -> None:
    listed = [row[0] for row in TABLE]
    assert len(listed) == len(set(listed)), "a code listed twice"
    assert list(REGISTRY) == [code for code, _, _, stage, _, _ in TABLE if stage != REMOVED]
