"""The check step of the GitHub Action (action.yml): one run of ``sitemap-ext check``
gives the SARIF report, the job summary and the annotations.

The inputs come as environment variables (CHECK, BASE_URL, ARGS, NOW, SARIF), never
pasted into a script. CHECK, BASE_URL and ARGS are split into words as a shell
splits them (``'a b'`` and ``"a b"`` one word, so ``--header 'Authorization: Bearer
x'`` is two words and a quoted path with a space one) by ``shlex``: nothing of them is
run or expanded (no globs, no variables, no ``$(...)``). The tool is run once (a
``--pages`` check fetches a live site once) with ``--format sarif``; it adds the job
summary itself, and the annotations are read back from the SARIF report (which then
keeps the errors and warnings, as ``--quiet`` writes it). The step
then writes ``sarif`` (the report's path, empty when no report was written, so
that nothing uploads a file that is not there) and ``status`` (the tool's exit code)
to GITHUB_OUTPUT and exits 0: a later step fails the job, after the upload.

Exit 2 without running the tool: an input that cannot be split (an unclosed quote),
no path to check, a word of an input, NOW or the SARIF path holding a line break (a
usage error could echo it into the log, where a line that starts with ``::`` is a
workflow command), or a SARIF path outside GITHUB_WORKSPACE (after links: the step
removes a report left from before, and writes one there).

Only the standard library: it runs with whichever sitemap-ext the action installed.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from typing import Any
from urllib.parse import unquote

_KINDS = {"error": "error", "warning": "warning", "note": "notice"}
# what could move the cursor, start a line or turn the text around in a log (C0 but
# the tab, DEL, C1, the line and paragraph separators, bidirectional controls): escaped,
# as the tool's own --format github shows it
_UNSEEN = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


class Stop(Exception):
    """The step cannot run: an ``::error`` annotation saying why, exit 2."""


def words(variable: str, name: str) -> list[str]:
    """The environment variable ``variable`` (the input ``name``) split as a shell would."""
    try:
        found = shlex.split(os.environ.get(variable, ""))
    except ValueError as exc:
        raise Stop(f"the input {name} cannot be split into words: {exc}") from exc
    for word in found:
        one_line(word, name)
    return found


def one_line(word: str, name: str) -> str:
    """``word`` when it holds no line break: the tool may echo a word it refuses (a
    usage error on stderr), and a line of the log that starts with ``::`` is a
    workflow command."""
    if "\n" in word or "\r" in word:
        raise Stop(f"the input {name} holds a line break inside a word (in quotes); write it on one line")
    return word


def command() -> tuple[list[str], str]:
    """The one ``sitemap-ext check`` to run, and the SARIF report's path."""
    paths = words("CHECK", "check")
    if not paths:
        raise Stop("the input check names no path to check")
    options = [word for pair in words("BASE_URL", "base-url") for word in ("--base-url", pair)]
    if os.environ.get("NOW"):
        options += ["--now", one_line(os.environ["NOW"], "now")]
    sarif = os.environ.get("SARIF") or "sitemap-ext.sarif"
    if "\n" in sarif or "\r" in sarif:
        raise Stop("the input sarif holds a line break")
    if not inside_workspace(sarif):  # (the step removes a report left from before: never a file elsewhere)
        raise Stop(f"the input sarif {sarif} lies outside the workspace (GITHUB_WORKSPACE); name a file in it")
    # (the report's format and file come last: they win over any given in args)
    return ["sitemap-ext", "check", *paths, *options, *words("ARGS", "args"), "--format", "sarif", "-o", sarif], sarif


def inside_workspace(path: str) -> bool:
    """Whether ``path`` (after links) lies in GITHUB_WORKSPACE; True where none is set."""
    workspace = os.environ.get("GITHUB_WORKSPACE")
    if not workspace:
        return True
    root, real = os.path.realpath(workspace), os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def escaped(text: str, *, prop: bool = False) -> str:
    """``text`` as a workflow command's message (or property) may hold it."""
    text = _UNSEEN.sub(lambda found: f"\\x{ord(found.group()):02x}" if ord(found.group()) < 0x100
                       else f"\\u{ord(found.group()):04x}", text.replace("%", "%25"))
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def annotation(result: dict[str, Any]) -> str:
    """One SARIF result as a workflow command (``::error file=F,line=L,col=C,title=CODE::message``)."""
    props = []
    locations = result.get("locations") or [{}]
    physical = locations[0].get("physicalLocation")
    if physical:
        props.append(f"file={escaped(unquote(physical.get('artifactLocation', {}).get('uri', '')), prop=True)}")
        region = physical.get("region", {})
        props += [f"{key}={region[field]}" for key, field in (("line", "startLine"), ("col", "startColumn"))
                  if isinstance(region.get(field), int)]
    props.append(f"title={escaped(str(result.get('ruleId', 'sitemap-ext')), prop=True)}")
    kind = _KINDS.get(result.get("level", "warning"), "warning")
    return f"::{kind} {','.join(props)}::{escaped(str(result.get('message', {}).get('text', '')))}"


def annotations_of(sarif: str) -> list[str]:
    """The annotations of every finding of the report, which then keeps its errors and
    warnings only, as ``--quiet`` writes it: an info (only style) is a notice on the
    run, not an alert to dismiss in code scanning."""
    with open(sarif, encoding="utf-8") as handle:
        document = json.load(handle)
    runs = document.get("runs", ())
    found = [annotation(result) for run in runs for result in run.get("results", ())]
    if any(result.get("level") == "note" for run in runs for result in run.get("results", ())):
        for run in runs:
            run["results"] = [result for result in run.get("results", ()) if result.get("level") != "note"]
        with open(sarif, "w", encoding="utf-8") as handle:
            json.dump(document, handle, ensure_ascii=False, indent=2)
            handle.write("\n")
    return found


def main() -> int:
    try:
        argv, sarif = command()
    except Stop as exc:
        print(f"::error title=sitemap-ext::{escaped(str(exc))}", file=sys.stderr)
        return 2
    if os.path.isfile(sarif):  # (a report left from before is no report of this run)
        os.remove(sarif)
    status = subprocess.run(argv, check=False).returncode  # (no shell: the words as they are)
    written = os.path.isfile(sarif)
    if written:
        try:
            for line in annotations_of(sarif):
                print(line)
        except (OSError, ValueError, AttributeError) as exc:
            print(f"::warning title=sitemap-ext::the SARIF report {escaped(sarif)} could not be read back: {exc}")
    else:
        print(f"::warning title=sitemap-ext::sitemap-ext check exited {status} without writing {escaped(sarif)}: "
              "there is nothing to upload")
    with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as outputs:
        outputs.write(f"sarif={sarif if written else ''}\nstatus={status}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
