"""One judge: every diagnostic code is produced by exactly one module.

A code is *produced* where its string literal is handed to a report: the first
argument of a call (``report("D104", ...)``, ``Problem("L101", ...)``), or the code
of a finding tuple that carries its message (``(place, "H101", message, ...)``,
``("U115", message, None)``). A literal that only names a code (``code in ("U105",
"U106")``, a set of codes after which reading stops) is a reference, not a verdict;
so is a declaration (``Code("D104", ...)``). rules/__init__.py (the registry of rules)
names the codes of every rule and is left out; so are docstrings (AST constants only:
comments are not in it). The codes a module hands on in a variable, a keyword or a
table (``PASSED_ON``) are named with their module by hand.

Each code is declared (``Code(code, severity, name, summary)``) in the ``CODES`` at the
end of the module that produces it, and nowhere else; codes.py gathers them.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

from sitemap_ext.codes import REGISTRY

PACKAGE = Path(__file__).resolve().parent.parent / "sitemap_ext"
CODE = re.compile(r"^[A-Z]\d{3}$")
CATALOGUES = {"rules/__init__.py"}

# Codes a module produces in a form the scan does not see, with that module: a code
# chosen into a variable (``code = "F103"``, ``"V108" if ... else "V109"``), given as a
# keyword or a default (``code="V104"``, ``code: str = "F105"``), a later argument
# (``_error(tag, "L101", ...)``, ``OutputError(message, "O103")``, ``readable(..., "S108",
# ...)``), or a named constant (``LISTED_UNFETCHED = "R110"``).
PASSED_ON = {
    "C114": "read/site_yaml.py", "S108": "read/site_sources.py", "F103": "folder.py", "F105": "state.py",
    "O108": "state.py", "H111": "rules/cluster_pairs.py", "N103": "ext/news.py", "R110": "read/live.py",
    **dict.fromkeys(("L101", "L102", "L103", "L104", "L105", "L106", "L110", "L111"), "langtags.py"),
    **dict.fromkeys(("O103", "O104", "O105"), "write/output.py"),
    **dict.fromkeys(("V104", "V105", "V106", "V108", "V109", "V110", "V113", "V117"), "ext/video.py"),
}

# Codes still produced in more than one module (32 before 0.4's one judge). This set
# may only shrink; it is empty.
NOT_YET_ONE: set[str] = set()  # (emptied in 0.4: every code has one producer)


def _is_code(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(CODE.match(node.value))


def _is_declaration(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Name) and node.func.id == "Code"


def produced(tree: ast.AST) -> set[str]:
    """The codes a module produces (see the module's docstring)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and _is_code(node.args[0]) and not _is_declaration(node):
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
                     'x = problem.code == "D106"\nCODES = (Code("D105", Severity.ERROR, "n", "s"),)\n')
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


def producer_of() -> dict[str, str]:
    """code -> the one module that produces it: the scan's, and ``PASSED_ON``."""
    found = {code: min(modules) for code, modules in producers().items()}
    assert sorted(set(found) & set(PASSED_ON)) == [], "the scan sees these now: take them out of PASSED_ON"
    return {**found, **PASSED_ON}


def test_codes_passed_on_are_written_in_their_module() -> None:
    """Each code of ``PASSED_ON`` is a string in its module (a docstring is never just a
    code), and in no other module but the registry of rules."""
    written: dict[str, set[str]] = defaultdict(set)
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        declarations = {id(node.args[0]) for node in ast.walk(tree) if isinstance(node, ast.Call)
                        and _is_declaration(node)}
        for node in ast.walk(tree):
            if _is_code(node) and id(node) not in declarations:
                written[node.value].add(name)  # type: ignore[attr-defined]
    for code, module in PASSED_ON.items():
        assert written[code] - CATALOGUES == {module}, code


def declared() -> dict[str, list[str]]:
    """code -> the modules whose ``CODES`` declare it (paths relative to the package)."""
    by_code: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                if isinstance(node, ast.AnnAssign) and node.value is not None else []
            if any(isinstance(target, ast.Name) and target.id == "CODES" for target in targets):
                for call in ast.walk(node.value):  # type: ignore[attr-defined]
                    if isinstance(call, ast.Call) and _is_declaration(call) and _is_code(call.args[0]):
                        by_code[call.args[0].value].append(name)  # type: ignore[attr-defined]
    return by_code


def test_every_code_is_declared_once_in_the_module_that_produces_it() -> None:
    places = declared()
    assert {code: modules for code, modules in places.items() if len(modules) > 1} == {}
    assert {code: modules[0] for code, modules in places.items()} == producer_of()


def test_the_registry_gathers_every_declaration_and_nothing_else() -> None:
    assert sorted(REGISTRY) == sorted(declared())
    assert sorted(set(REGISTRY) - set(producer_of())) == [], "declared, and produced nowhere"
