"""The package's layout: its modules import each other without a cycle.

The graph is the static one: each module's imports of the package's modules at module
level (inside ``try`` and ``if`` too), leaving out ``if TYPE_CHECKING:`` blocks, which
never run. A cycle here would make the order in which modules are first imported decide
whether they load. An import inside a function counts too, in a second graph: deferred,
it loads, but two modules that need each other are one room split in two (what they
share belongs in one of them, or below both). The table of codes imports
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


def _everywhere(body: list[ast.stmt]) -> list[ast.stmt]:
    """Every import statement of a module, in functions and classes too (leaving out
    ``if TYPE_CHECKING:`` blocks, at any depth)."""
    found: list[ast.stmt] = []
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and _type_checking(node):
            todo += node.orelse
        else:
            todo += ast.iter_child_nodes(node)
    return found


def imports(name: str, *, in_functions: bool = False) -> set[str]:
    """The package's modules ``name`` imports at module level (and, asked for, in its
    functions)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    body = ast.parse(path.read_text(encoding="utf-8")).body
    for node in (_everywhere(body) if in_functions else _statements(body)):
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


def graph(*, in_functions: bool = False) -> dict[str, set[str]]:
    return {name: imports(name, in_functions=in_functions) for name in sorted(MODULES)}


def _cycle(edges: dict[str, set[str]]) -> list[str]:
    try:
        tuple(graphlib.TopologicalSorter(edges).static_order())
    except graphlib.CycleError as exc:
        return list(exc.args[1])
    return []


def test_the_scan_reads_relative_imports_and_leaves_out_type_checking_blocks() -> None:
    assert "sitemap_ext.diagnostics" in imports("sitemap_ext.codes")
    assert "sitemap_ext.rules.values" in imports("sitemap_ext.rules.rule_set")  # from . import (..., values)
    assert "sitemap_ext.limits" in imports("sitemap_ext.rules.files")  # from ..limits import ...
    assert "sitemap_ext.rules.config" not in imports("sitemap_ext.checker.judge_file")  # (only for its types)


def test_the_deep_scan_reads_imports_in_functions_and_leaves_out_type_checking_blocks() -> None:
    tree = ast.parse("import a\nif TYPE_CHECKING:\n    import b\nelse:\n    import c\n"
                     "def f():\n    import d\n    if TYPE_CHECKING:\n        import e\n"
                     "class K:\n    def m(self):\n        from . import g\n")
    assert sorted(ast.unparse(node) for node in _everywhere(tree.body)) == \
        ["from . import g", "import a", "import c", "import d"]
    assert "sitemap_ext.api" in imports("sitemap_ext", in_functions=True)  # (in __getattr__)
    assert "sitemap_ext.api" not in imports("sitemap_ext")


def test_no_import_cycle() -> None:
    cycle = _cycle(graph())
    assert cycle == [], f"modules import each other in a cycle: {' -> '.join(cycle)}"


def test_no_import_cycle_counting_imports_in_functions() -> None:
    cycle = _cycle(graph(in_functions=True))
    assert cycle == [], f"modules import each other in a cycle (in functions too): {' -> '.join(cycle)}"


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


def _package_classes() -> set[str]:
    return {node.name for path in MODULES.values() for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ClassDef)}


def _inherited(prefix: str) -> dict[str, list[str]]:
    """The classes of the modules named ``prefix``... that subclass one of the package's
    classes, with those bases."""
    ours = _package_classes()
    inherited = {f"{name}.{node.name}": [ast.unparse(base) for base in node.bases
                                         if ast.unparse(base).rpartition(".")[2] in ours]
                 for name, path in MODULES.items() if name.startswith(prefix)
                 for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.ClassDef)}
    return {name: bases for name, bases in inherited.items() if bases}


def test_the_checks_parts_are_composed_not_mixed_in() -> None:
    """The check's orchestration is small objects (``Run`` holds its inputs, results,
    built pages, folder walk, index following, live fetch and header files), not a
    class that inherits them: no class of checker/ subclasses one of the package's classes."""
    assert _inherited("sitemap_ext.checker") == {}


# The build's one page normaliser and its parts: the single fields, the URLs per locale, the media.
PAGE_NORMALISER = ("sitemap_ext.write.page_normaliser", "sitemap_ext.write.page_fields",
                   "sitemap_ext.write.page_locales", "sitemap_ext.write.page_media")


def test_the_page_normalisers_parts_are_composed_not_mixed_in() -> None:
    """``PageNormaliser`` calls a ``FieldNormaliser``, a ``LocaleResolver`` and a
    ``MediaNormaliser``, each an object of its own with its own state, where it was a
    diamond of mixins over one class (one large object split over four files)."""
    assert {name: bases for prefix in PAGE_NORMALISER for name, bases in _inherited(prefix).items()} == {}
    assert _small_and_self_contained(PAGE_NORMALISER) == ({}, [])


# The readers that still import the build (write/): none since the description's loaders
# (its YAML, sources, output, a built site's pages: they hand each page to the build's
# normaliser) are the build's, in write/. This set may only shrink.
READERS_ON_THE_BUILD: set[str] = set()


def test_read_only_reads() -> None:
    """No module of read/ imports write/, checker/ or what stands above them (in its
    functions either), but the loaders listed in READERS_ON_THE_BUILD."""
    above = ("sitemap_ext.write", "sitemap_ext.checker", "sitemap_ext.api", "sitemap_ext.cli",
             "sitemap_ext.report", "sitemap_ext.diff")
    edges = graph(in_functions=True)
    found = {name for name, others in edges.items()
             if name.startswith("sitemap_ext.read.") and any(other.startswith(above) for other in others)}
    assert sorted(found - READERS_ON_THE_BUILD) == []
    assert sorted(READERS_ON_THE_BUILD - found) == [], "fixed: take it out of READERS_ON_THE_BUILD"


_MUTATORS = {"append", "add", "pop", "discard", "update", "clear", "extend", "remove", "insert", "setdefault"}


def _reaches_in(node: ast.AST) -> bool:
    """``self.part.field`` (an attribute of an object another object holds)."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and \
        isinstance(node.value.value, ast.Name) and node.value.value.id == "self"


def _fields(cls: ast.ClassDef) -> set[str]:
    """The attributes a class gives its instances: ``self.x = ...`` anywhere in it, and
    the annotated fields of its body (a dataclass's)."""
    own = {node.target.id for node in cls.body if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
    for node in ast.walk(cls):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        own |= {target.attr for target in targets if isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name) and target.value.id == "self"}
    return own


# A part of the check or of the page normaliser holds a few objects and its own fields;
# RunState held 25, the page normaliser's one object (its mixins together) 24.
MOST_FIELDS = 10


def _frozen(cls: ast.ClassDef) -> bool:
    """A frozen dataclass: a value (a file's task, the options), not an object that changes."""
    return any(isinstance(node, ast.Call) and any(k.arg == "frozen" and ast.unparse(k.value) == "True"
                                                  for k in node.keywords) for node in cls.decorator_list)


def test_the_checks_objects_are_small_and_change_only_their_own_fields() -> None:
    """Each class of checker/ (a frozen value aside) owns at most MOST_FIELDS fields, and none changes a field
    of an object it holds (``self.state.skipped.append(...)``, ``self.state.options =
    ...``): it asks that object, through a method, to change itself."""
    assert _small_and_self_contained(("sitemap_ext.checker",)) == ({}, [])


def _small_and_self_contained(prefixes: tuple[str, ...]) -> tuple[dict[str, int], list[str]]:
    """The classes of the modules named ``prefixes``... that own more than MOST_FIELDS
    fields (a frozen value aside), and the places where one changes a field of an object
    it holds."""
    too_big: dict[str, int] = {}
    reaching: list[str] = []
    for name, path in MODULES.items():
        if not name.startswith(prefixes):
            continue
        for cls in (node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                    if isinstance(node, ast.ClassDef)):
            if len(_fields(cls)) > MOST_FIELDS and not _frozen(cls):
                too_big[f"{name}.{cls.name}"] = len(_fields(cls))
            for node in ast.walk(cls):
                targets = node.targets if isinstance(node, ast.Assign) else \
                    [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
                changed = [target for target in targets if _reaches_in(target)]
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                        node.func.attr in _MUTATORS and _reaches_in(node.func.value):
                    changed.append(node.func.value)
                reaching += [f"{name}.{cls.name}:{node.lineno} {ast.unparse(target)}" for target in changed]
    return too_big, reaching


def test_one_class_of_each_name_for_the_sites_objects() -> None:
    """The public API's Site, Page and Locale (model.py) and its Rendered (api.py) are
    the only classes of those names: the normalised description's are
    NormalisedSite, NormalisedPage and NormalisedLocale, and a page rendered inside the
    writer is a RenderedPage."""
    defined: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name in ("Site", "Page", "Locale", "Rendered"):
                defined.setdefault(node.name, []).append(name)
    assert defined == {"Site": ["sitemap_ext.model"], "Page": ["sitemap_ext.model"],
                       "Locale": ["sitemap_ext.model"], "Rendered": ["sitemap_ext.api"]}
