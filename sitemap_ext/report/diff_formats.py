"""A diff (``sitemap-ext diff OLD NEW``) as text or JSON; its HTML is in ``html.py``.

Both write as they read, a URL at a time: a diff of a million URLs is never a
million strings in memory. The JSON shape is ``specs/diff.schema.json``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TextIO

from ..codes import REGISTRY
from ..diagnostics import Collector
from ..diff import ClusterChange, DiffResult, Member
from ..diff.clusters import GONE, NEW
from .formats import json_text, plural, visible, write_text

#: The version of the diff's JSON shape; raised when a field changes meaning or goes.
DIFF_JSON_VERSION = 1
STATES = {"whole": "announces the cluster back", "differs": "listed, but announces other alternates",
          "absent": "in no sitemap"}


def totals_line(result: DiffResult) -> str:
    """The counts of a diff, as every format says them."""
    removed = plural(len(result.removed), "URL") + " removed"
    if len(result.old.keys):
        removed += f" ({result.removed_share:.1f}% of OLD's {len(result.old.keys):,})"
    return (f"{plural(len(result.added), 'URL')} added, {removed}, {plural(len(result.changed), 'URL')} changed; "
            f"{plural(len(result.clusters), 'cluster')} changed; {plural(len(result.files_added), 'file')} added, "
            f"{len(result.files_removed):,} removed; {plural(len(result.new_errors), 'new error')}")


def failure_lines(result: DiffResult) -> list[str]:
    """Why the diff fails, a line each (none when it passes)."""
    lines = []
    if "removed" in result.failures:
        lines.append(f"NEW drops {result.removed_share:.1f}% of OLD's URLs, more than --fail-on-removed "
                     f"{result.fail_on_removed:g}%")
    if "new-errors" in result.failures:
        lines.append(f"NEW has {plural(len(result.new_errors), 'error')} that OLD did not have")
    return lines


def _members(members: Iterable[Member]) -> str:
    return ", ".join(member.hreflang for member in members)


def _cluster_lines(change: ClusterChange) -> list[str]:
    if change.change in (NEW, GONE):
        return [f"  {change.change} {change.name} ({_members(change.members)})"]
    lines = [f"  changed {change.name} ({_members(change.members)})"]
    lines += [f"    + {m.hreflang} {m.url} gained" + (f": {STATES[m.state]}" if m.state != "whole" and m.state
                                                       else "") for m in change.gained]
    lines += [f"    - {m.hreflang} {m.url} lost" for m in change.lost]
    lines += [f"    ! {m.hreflang} {m.url} broken: {STATES[m.state or 'absent']}" for m in change.broken]
    return lines


def write_diff_text(result: DiffResult, out: TextIO) -> None:
    """Each section with what it holds: URLs added (+), removed (-), changed (~, with
    their lastmods), clusters, files, then NEW's new errors as ``check`` writes them."""
    write = out.write
    if len(result.added):
        write(f"URLs added ({len(result.added):,}):\n")
        for url in result.added:
            write(visible(f"  + {url}") + "\n")
    if len(result.removed):
        write(f"URLs removed ({len(result.removed):,}, {result.removed_share:.1f}% of OLD's):\n")
        for url in result.removed:
            write(visible(f"  - {url}") + "\n")
    if len(result.changed):
        write(f"URLs changed ({len(result.changed):,}, lastmod moved):\n")
        for change in result.changed:
            write(visible(f"  ~ {change.url} {change.old_lastmod or 'none'} -> {change.new_lastmod or 'none'}")
                  + "\n")
    if len(result.clusters):
        write(f"hreflang clusters ({len(result.clusters):,}):\n")
        for cluster in result.clusters:
            write("".join(visible(line) + "\n" for line in _cluster_lines(cluster)))
    if result.files_added or result.files_removed:
        write("files:\n" + "".join(visible(f"  + {name}") + "\n" for name in result.files_added)
              + "".join(visible(f"  - {name}") + "\n" for name in result.files_removed))
    if result.new_errors:
        write(f"new errors in NEW ({len(result.new_errors):,}):\n")
        shown = Collector(REGISTRY, limit=None)
        shown.merge(result.new_errors)
        write_text(shown, out, quiet=False)


def _dump(value: Any) -> str:
    """One value as JSON on one line, through the check's JSON (a file name's byte that
    is not UTF-8 is the text ``\\xNN``, escaped as JSON escapes a backslash)."""
    return json_text(value, indent=None)


def _member(member: Member, state: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"hreflang": member.hreflang, "url": member.url}
    if state:
        out["state"] = member.state
    return out


def _cluster(change: ClusterChange) -> dict[str, Any]:
    return {"name": change.name, "change": change.change, "members": [_member(m) for m in change.members],
            "gained": [_member(m, True) for m in change.gained], "lost": [_member(m) for m in change.lost],
            "broken": [_member(m, True) for m in change.broken]}


def _array(out: TextIO, items: Iterable[Any], indent: str) -> None:
    """A JSON array written an item at a time."""
    first = True
    out.write("[")
    for item in items:
        out.write(("\n" if first else ",\n") + indent + "  " + _dump(item))
        first = False
    out.write("]" if first else "\n" + indent + "]")


def write_diff_json(result: DiffResult, out: TextIO, *, now: dict[str, str] | None) -> None:
    """The diff as one JSON object (``specs/diff.schema.json``), written as it is read."""
    write = out.write
    sides = {name: {"input": side.given, "files": len(side.files()), "urls": len(side.keys)}
             for name, side in (("old", result.old), ("new", result.new))}
    write(f'{{\n  "version": {DIFF_JSON_VERSION},\n  "old": {_dump(sides["old"])},\n  "new": {_dump(sides["new"])},\n'
          '  "urls": {\n    "added": ')
    _array(out, result.added, "    ")
    write(',\n    "removed": ')
    _array(out, result.removed, "    ")
    write(',\n    "changed": ')
    _array(out, ({"url": c.url, "old_lastmod": c.old_lastmod, "new_lastmod": c.new_lastmod}
                 for c in result.changed), "    ")
    write('\n  },\n  "clusters": ')
    _array(out, (_cluster(change) for change in result.clusters), "  ")
    write(f',\n  "files": {_dump({"added": result.files_added, "removed": result.files_removed})},\n'
          '  "new_errors": ')
    _array(out, (d.as_dict() for d in result.new_errors), "  ")
    summary = {"added": len(result.added), "removed": len(result.removed), "changed": len(result.changed),
               "clusters": len(result.clusters), "files_added": len(result.files_added),
               "files_removed": len(result.files_removed), "new_errors": len(result.new_errors),
               "removed_percent": round(result.removed_share, 2), "fail_on_removed": result.fail_on_removed,
               "failed": result.failures, "ok": result.ok}
    write(f',\n  "summary": {_dump(summary)},\n  "now": {_dump(now)}\n}}\n')


__all__ = ["DIFF_JSON_VERSION", "failure_lines", "totals_line", "write_diff_json", "write_diff_text"]
