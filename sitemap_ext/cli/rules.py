"""sitemap-ext rules [CODE|NAME...]: every code with its severity and one line, or one
rule explained: what it means, the rule that reports it and why (its sources), and a
failing and a passing example (the catalogue's, specs/rules.md)."""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from typing import Any

from ..codes import REGISTRY
from ..diagnostics import Code
from ..report.formats import EXIT_IO, EXIT_USAGE
from ..rules import clusters
from ..rules.config import ConfigError, code_of
from ..rules.examples import NOW, CatalogueError, example
from ..rules.rule_set import CLUSTER_CODES, RULES


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except CatalogueError as exc:  # the catalogue missing, too large or damaged: no traceback
        sys.stderr.write(f"sitemap-ext rules: {exc}\n")
        return EXIT_IO


def _run(args: argparse.Namespace) -> int:
    if not args.names:
        return _all(args.format)
    chosen: list[Code] = []
    for name in args.names:
        try:
            prefix = code_of(name)
        except ConfigError as exc:
            sys.stderr.write(f"sitemap-ext rules: {exc}\n")
            return EXIT_USAGE
        chosen += [entry for code, entry in sorted(REGISTRY.items()) if code.startswith(prefix)]
    if args.format == "json":
        json.dump([_explained(entry) for entry in chosen], sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for number, entry in enumerate(chosen):
        if number:
            sys.stdout.write("\n")
        sys.stdout.write(_text(_explained(entry)))
    return 0


def _all(fmt: str) -> int:
    entries = sorted(REGISTRY.values(), key=lambda c: c.code)
    if fmt == "json":
        json.dump([{"code": c.code, "severity": c.severity.value, "name": c.name, "summary": c.summary,
                    "not_read": c.not_read} for c in entries], sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for c in entries:
        sys.stdout.write(f"{c.code}  {c.severity.value:<7}  {c.name:<24}  {c.summary}\n")
    return 0


def _explained(entry: Code) -> dict[str, object]:
    """One code: its severity, what it means, and the rule that reports it with its
    documentation (the rule's docstring and its module's sources)."""
    out: dict[str, object] = {"code": entry.code, "severity": entry.severity.value, "name": entry.name,
                              "summary": entry.summary, "not_read": entry.not_read}
    rule = next((r for r in RULES if entry.code in r.codes), None)
    if rule is not None:
        module = inspect.getmodule(rule.check)
        out["rule"] = {"name": rule.name, "judges": f"each {rule.scope}", "doc": rule.doc,
                       "sources": _sources(inspect.getdoc(module) or "")}
    elif entry.code in CLUSTER_CODES:  # judged across every file: the cluster rules' module
        out["rule"] = {"name": "clusters", "judges": "every file together", "doc": "",
                       "sources": _sources(inspect.getdoc(clusters) or "")}
    shown = example(entry.code)
    if shown is not None:
        out["examples"] = {"file": shown.name, "inside": shown.wrapped_in, "served_at": shown.served_at,
                           "files": shown.files, "also": list(shown.also), "failing": shown.failing,
                           "passing": shown.passing}
    return out


def _sources(doc: str) -> str:
    """The paragraph of a rule module's docstring that names its sources."""
    for paragraph in doc.split("\n\n"):
        if paragraph.lstrip().startswith("Sources"):
            return " ".join(paragraph.split())
    return ""


def _text(explained: dict[str, object]) -> str:
    lines = [f"{explained['code']} ({explained['name']}): {explained['severity']}", f"  {explained['summary']}"]
    rule = explained.get("rule")
    if isinstance(rule, dict):
        lines.append(f"  rule: {rule['name']} (judges {rule['judges']})")
        if rule["doc"]:
            lines += ["  " + line for line in str(rule["doc"]).splitlines()]
        if rule["sources"]:
            lines.append(f"  why: {rule['sources']}")
    shown = explained.get("examples")
    if isinstance(shown, dict):
        lines += _examples(shown)
    lines.append("  more: the catalogue, specs/rules.md, says what it means in full, with the fix")
    return "\n".join(lines) + "\n"


def _examples(shown: dict[str, Any]) -> list[str]:
    """The failing and the passing example, and how to check them."""
    inside = f", inside a <{shown['inside']}> declaring the namespaces" if shown["inside"] else ""
    lines = [f"  failing ({shown['file']}{inside}):"]
    lines += ["    " + line for line in str(shown["failing"]).splitlines()]
    if shown["also"]:
        lines.append(f"  (the same defect also gives {', '.join(shown['also'])})")
    lines.append("  passing:")
    lines += ["    " + line for line in str(shown["passing"]).splitlines()]
    for name, text in shown["files"].items():
        lines.append(f"  beside it, {name}:")
        lines += ["    " + line for line in str(text).splitlines()]
    served = f" --base-url {shown['served_at']}=." if shown["served_at"] else ""
    pages = "".join(f" {name}" for name in shown["files"] if name.endswith(".html"))
    lines.append(f"  try: sitemap-ext check {shown['file']}{pages}{served} --now {NOW}")
    return lines
