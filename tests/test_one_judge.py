"""One judge: every diagnostic code is produced by exactly one module.

A code is *produced* where its string literal is handed to a report: the first
argument of a call (``report("D104", ...)``, ``Problem("L101", ...)``), or the code
of a finding tuple that carries its message (``(place, "H101", message, ...)``,
``("U115", message, None)``). A literal that only names a code (``code in ("U105",
"U106")``, a set of codes after which reading stops) is a reference, not a verdict.
codes.py (the catalogue) and rules/__init__.py (the registry) name every code and
are left out; so are docstrings (AST constants only: comments are not in it).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

from sitemap_ext.codes import REGISTRY

PACKAGE = Path(__file__).resolve().parent.parent / "sitemap_ext"
CODE = re.compile(r"^[A-Z]\d{3}$")
CATALOGUES = {"codes.py", "rules/__init__.py"}

# Codes still produced in more than one module (32 before 0.4's one judge). This set
# may only shrink; it is empty.
NOT_YET_ONE: set[str] = set()  # (emptied in 0.4: every code has one producer)


def _is_code(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(CODE.match(node.value))


def produced(tree: ast.AST) -> set[str]:
    """The codes a module produces (see the module's docstring)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and _is_code(node.args[0]):
            found.add(node.args[0].value)  # type: ignore[attr-defined]
        elif isinstance(node, ast.Tuple) and not all(_is_code(e) for e in node.elts):
            for element in node.elts[:2]:
                if _is_code(element):
                    found.add(element.value)  # type: ignore[attr-defined]
    return found


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


def test_the_scan_sees_reports_and_finding_tuples_not_references() -> None:
    tree = ast.parse('report("D104", "m", at)\nfindings.append((place, "H101", f"x", None))\n'
                     'STOP = frozenset(("F101", "X101"))\nif code in ("U105", "U106"): pass\n'
                     'x = problem.code == "D106"\n')
    assert produced(tree) == {"D104", "H101"}


def test_every_produced_code_is_in_the_catalogue() -> None:
    assert set(producers()) <= set(REGISTRY)


def test_every_code_is_produced_by_exactly_one_module() -> None:
    twice = {code: sorted(modules) for code, modules in producers().items() if len(modules) > 1}
    assert {code: modules for code, modules in twice.items() if code not in NOT_YET_ONE} == {}
    assert sorted(NOT_YET_ONE - set(twice)) == [], "fixed: take these out of NOT_YET_ONE"


def test_the_build_judges_nothing_itself() -> None:
    """The build's own modules (the normaliser, a built site's reader, the pipeline)
    produce no code a rule module produces: they call the rule's function."""
    rules = {code for code, modules in producers().items() if any(m.startswith("rules/") for m in modules)}
    for name in ("read/pages.py", "read/page_fields.py", "read/page_locales.py", "read/page_media.py",
                 "read/built_site.py", "read/git_times.py", "write/build.py", "write/page_flow.py",
                 "write/seen_urls.py"):
        mine = produced(ast.parse((PACKAGE / name).read_text(encoding="utf-8")))
        assert mine & rules == set(), name
