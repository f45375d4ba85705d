"""MkDocs hook: the pages made at build time from what the project already keeps, so
that none of them is written twice nor committed.

* ``rules/``: one page per code of the registry (``sitemap_ext/code_table.py``): its
  severity, stage and summary, what the catalogue (``specs/rules.md``) says of it in
  full, the rule that reports it with its sources, and its failing and passing
  examples (``sitemap_ext/rules/examples.yaml``), as ``sitemap-ext rules CODE`` shows
  them; and ``rules/index.md``, every code in a table, after the catalogue's
  introduction (what you see, how inputs are read, the sources cited).
* ``reference/site-format.md`` and the JSON Schemas: ``specs/`` as it is.
* ``reference/api.md``: the public names' signatures and docstrings, in the order and
  sections of the Sphinx reference (``docs/api/index.rst``).
* ``changelog.md``: ``CHANGELOG.md``.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

from sitemap_ext.cli.rules import _explained  # what `sitemap-ext rules CODE` prints, as data
from sitemap_ext.codes import REGISTRY
from sitemap_ext.rules.examples import NOW

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"
_ROW = re.compile(r"^\| ([A-Z]\d{3}) \| (\w+) \| ([\w-]+) \| (.*) \|\s*$")
_LETTERS = {"F": "files and I/O", "C": "the site description", "S": "sources (CSV, JSON Lines)", "U": "URLs",
            "D": "values", "L": "language tags", "H": "hreflang clusters", "X": "sitemap XML being checked",
            "I": "images", "V": "videos", "N": "news", "O": "output", "R": "a live site, over HTTP"}


def on_files(files: Files, config: Any) -> Files:
    catalogue = (SPECS / "rules.md").read_text(encoding="utf-8")
    texts = {m.group(1): m.group(4) for m in map(_ROW.match, catalogue.splitlines()) if m}
    pages = {f"rules/{code}.md": rule_page(code, texts.get(code, "")) for code in REGISTRY}
    pages["rules/index.md"] = rules_index(catalogue)
    pages["reference/site-format.md"] = (SPECS / "site-format.md").read_text(encoding="utf-8")
    pages["reference/api.md"] = api_page((ROOT / "docs" / "api" / "index.rst").read_text(encoding="utf-8"))
    pages["changelog.md"] = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    for schema in sorted(SPECS.glob("*.schema.json")):
        pages[f"reference/schemas/{schema.name}"] = schema.read_text(encoding="utf-8")
    for uri, content in pages.items():
        files.append(File.generated(config, uri, content=content))
    return files


# --- the rule catalogue ---------------------------------------------------------------

def rules_index(catalogue: str) -> str:
    """The catalogue's introduction (everything before its first letter's table), then
    every code, linked to its page, by letter."""
    intro = catalogue.split("\n## F:", 1)[0]
    intro = intro.replace("](diff.schema.json)", "](../reference/schemas/diff.schema.json)")
    lines = [intro.rstrip(), "", "## Every code", ""]
    for letter, title in _LETTERS.items():
        lines += [f"### {letter}: {title}", "", "| code | severity | name | summary |", "| --- | --- | --- | --- |"]
        lines += [f"| [{c.code}]({c.code}.md) | {c.severity.value} | `{c.name}` | {c.summary} |"
                  for c in REGISTRY.values() if c.code.startswith(letter)]
        lines.append("")
    return "\n".join(lines)


def rule_page(code: str, text: str) -> str:
    """One code's page: the same facts `sitemap-ext rules CODE` gives, and the
    catalogue's full text."""
    entry = REGISTRY[code]
    explained = _explained(entry)
    shown_as = (f"`--ignore {entry.name}` (or `{code}`) hides it from the report, but a finding of it says an input"
                " was not read, so it still sets the exit code" if entry.not_read else
                f"`--ignore {entry.name}` (or `{code}`) hides it")
    lines = [f"# {code} `{entry.name}`", "", f"**{entry.severity.value}** · stage: {entry.stage}", "",
             entry.summary, "", f"{shown_as}; `--severity {code}=LEVEL` changes its severity.", ""]
    if text:
        lines += ["## What it means, and the fix", "", text, ""]
        if re.search(r"\[[A-Z][A-Z0-9-]+\]", text):
            lines += ["Keys in brackets (`[G-SM]`) are the [sources](index.md#sources) the verdict rests on.", ""]
    rule = explained.get("rule")
    if isinstance(rule, dict):
        lines += ["## The rule", "", f"Reported by the rule `{rule['name']}`, which judges {rule['judges']}.", ""]
        lines += [str(rule["doc"]), ""] if rule["doc"] else []
        lines += [f"*{rule['sources']}*", ""] if rule["sources"] else []
    shown = explained.get("examples")
    if isinstance(shown, dict):
        lines += example_lines(shown)
    else:
        lines += ["No example: showing this code takes more than a few lines of one file (a limit crossed,"
                  " bytes that are no text, a server, a folder's links or two builds).", ""]
    lines += [f"Printed by `sitemap-ext rules {code}` as well.", ""]
    return "\n".join(lines)


def example_lines(shown: dict[str, Any]) -> list[str]:
    """The failing and the passing example, the files beside them, and the command
    that checks them."""
    inside = f", inside a `<{shown['inside']}>` declaring the namespaces" if shown["inside"] else ""
    also = f" (the same defect also gives {', '.join(shown['also'])})" if shown["also"] else ""
    lines = ["## Examples", "", f"Failing (`{shown['file']}`{inside}){also}:", "",
             *fenced(shown["failing"], shown["file"]), "Passing:", "", *fenced(shown["passing"], shown["file"])]
    for name, text in shown["files"].items():
        lines += [f"Beside it, `{name}`:", "", *fenced(text, name)]
    served = f" --base-url {shown['served_at']}=." if shown["served_at"] else ""
    pages = "".join(f" {name}" for name in shown["files"] if name.endswith(".html"))
    lines += ["Check them with:", "", *fenced(f"sitemap-ext check {shown['file']}{pages}{served} --now {NOW}", "x.sh")]
    return lines


def fenced(text: str, name: str) -> list[str]:
    language = {"xml": "xml", "yaml": "yaml", "html": "html", "csv": "text", "txt": "text", "sh": "sh"}
    fence = "~" * max([4, *(len(run) + 1 for run in re.findall(r"~+", text))])
    return [f"{fence}{language.get(name.rsplit('.', 1)[-1], 'text')}", str(text).rstrip("\n"), fence, ""]


# --- the Python API -------------------------------------------------------------------

_DIRECTIVE = re.compile(r"^\.\. (autofunction|autoclass|automodule):: (\S+)")


def api_page(index_rst: str) -> str:
    """docs/api/index.rst as Markdown: its sections and prose, and for each name it
    documents, the signature and the docstring."""
    lines: list[str] = []
    rst = index_rst.splitlines()
    for number, line in enumerate(rst):
        following = rst[number + 1] if number + 1 < len(rst) else ""
        if following and set(following) <= {"=", "-"} and len(following) >= len(line) > 0:
            lines.append(("# " if following[0] == "=" else "## ") + line)
        elif (line and set(line) <= {"=", "-"}) or line.lstrip().startswith(":"):
            continue
        elif (m := _DIRECTIVE.match(line)) is not None:
            lines += documented(m.group(2), members(rst[number + 1:]))
        else:
            lines.append(line)
    return rest_to_markdown("\n".join(lines)) + "\n"


def members(rest: list[str]) -> list[str]:
    """The names of a directive's ``:members:`` option."""
    for line in rest:
        if not line.startswith("   "):
            break
        if line.strip().startswith(":members:"):
            return [name.strip() for name in line.split(":members:", 1)[1].split(",") if name.strip()]
    return []


def documented(dotted: str, names: list[str]) -> list[str]:
    obj = resolve(dotted)
    title = dotted.removeprefix("sitemap_ext.")
    lines = [f"### `{title}`", ""]
    signature = _signature(obj)
    if signature:
        lines += ["```python", f"{title.rsplit('.', 1)[-1]}{signature}", "```", ""]
    lines += [inspect.getdoc(obj) or "", ""]
    for name in names:
        member = getattr(obj, name)
        lines += [f"#### `{title}.{name}`", "", inspect.getdoc(member) or "", ""]
    return lines


def resolve(dotted: str) -> Any:
    """The object a dotted name names, as Sphinx finds it: the longest importable module,
    then attributes (``sitemap_ext.diff`` is a module as well as the function ``diff``)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(dotted)


def _signature(obj: Any) -> str:
    """``(a: T, *, b: U = 1) -> R``, the annotations as written (the package postpones
    them, so they are strings) and the defaults as ``repr`` gives them."""
    if inspect.ismodule(obj) or (inspect.isclass(obj) and issubclass(obj, enum.Enum)):
        return ""
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return ""
    params: list[str] = []
    for param in signature.parameters.values():
        if param.kind is param.KEYWORD_ONLY and not any(p.startswith("*") for p in params):
            params.append("*")
        stars = "*" if param.kind is param.VAR_POSITIONAL else "**" if param.kind is param.VAR_KEYWORD else ""
        text = stars + param.name
        text += f": {_note(param.annotation)}" if param.annotation is not param.empty else ""
        text += f" = {param.default!r}" if param.default is not param.empty else ""
        params.append(text)
    ret = signature.return_annotation
    shown = ret is not signature.empty and not inspect.isclass(obj)
    return f"({', '.join(params)})" + (f" -> {_note(ret)}" if shown else "")


def _note(annotation: Any) -> str:
    if isinstance(annotation, str):
        return annotation
    return str(getattr(annotation, "__forward_arg__", None) or getattr(annotation, "__name__", repr(annotation)))


def rest_to_markdown(text: str) -> str:
    """The little reStructuredText the docstrings use, ``literal`` and ``::`` blocks,
    outside the fenced signatures."""
    parts = re.split(r"(^```python\n.*?\n```$)", text, flags=re.S | re.M)
    for number in range(0, len(parts), 2):
        prose = re.sub(r"``([^`]+)``", r"`\1`", parts[number])
        parts[number] = re.sub(r"(\S)::\n", r"\1:\n", prose)
    return "".join(parts)
