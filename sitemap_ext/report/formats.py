"""Diagnostics to text, JSON or GitHub annotations; the exit code from what was found."""

from __future__ import annotations

import csv
import json
import os
import re
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import quote

from ..dates import format_instant
from ..diagnostics import Collector, Diagnostic, Severity
from ..safeio import Refused, read_bounded

if TYPE_CHECKING:
    from ..checker.check import Counts

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_IO = 0, 1, 2, 3
FORMATS = ("text", "json", "github", "csv", "sarif", "html")
#: The version of the JSON report's shape (specs/report.schema.json); raised when a
#: field changes meaning or goes, not when one is added.
JSON_VERSION = 1
CSV_COLUMNS = ("code", "severity", "file", "line", "column", "url", "hreflang", "message", "suggestion")
_SOURCE_LINE_LIMIT = 8 * 1024 * 1024  # show source lines only from files up to this size
_SOURCE_WIDTH = 160  # longer source lines are cut

# --- What a report may contain: the one place each format's text is made safe ---------
#
# Findings quote what the inputs hold (URLs, hreflang values, source lines, file
# names), so each format neutralises them here, and nowhere else:
#   text, github, html: control characters (C0 but tab, DEL, C1), line and paragraph
#     separators and bidi controls are shown escaped (``\x1b``, ``\u202e``);
#   csv: a cell starting with = + - @ tab or CR gets a leading ' (OWASP, CSV injection);
#   json, sarif: exact (JSON escapes), but a file name's bytes that are not UTF-8
#     (os.fsdecode keeps them as lone surrogates) are written as ``\xNN`` text, as
#     in every other format, so that every report is valid UTF-8.
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _escaped(match: re.Match[str]) -> str:
    point = ord(match.group())
    if 0xDC80 <= point <= 0xDCFF:  # a byte of a name that is not UTF-8 (surrogateescape)
        return f"\\x{point - 0xDC00:02x}"
    return f"\\x{point:02x}" if point < 0x100 else f"\\u{point:04x}"


def visible(text: str) -> str:
    """``text`` for a terminal, a log or a page: what could move the cursor, ring,
    start a new line or turn the text around is shown as its escape."""
    return _UNSAFE.sub(_escaped, text)


def utf8_exact(text: str) -> str:
    """``text`` unchanged but for lone surrogates (a file name's bytes that are not
    UTF-8), which become ``\\xNN``: what JSON and SARIF may carry."""
    return _SURROGATE.sub(_escaped, text) if _SURROGATE.search(text) else text


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet will not run as a formula (numbers stay numbers)."""
    if not isinstance(value, str):
        return value
    value = utf8_exact(value)
    return "'" + value if value.startswith(_FORMULA) else value


def sarif_uri(file: str) -> str:
    """A path as a SARIF ``artifactLocation.uri``: a relative URI reference with
    ``/`` between segments, each byte of the name percent-encoded but unreserved
    characters (so ``#``, ``%``, ``?`` and ``:`` name this file and no other)."""
    try:
        raw = os.fsencode(file.replace(os.sep, "/"))
    except UnicodeEncodeError:  # a surrogate no file system gave (a name made in Python)
        raw = utf8_exact(file.replace(os.sep, "/")).encode()
    return quote(raw, safe="/")


def json_text(document: Any, indent: int | None = 2) -> str:
    """JSON of a report (a check's, a diff's): exact, valid UTF-8 (see ``utf8_exact``)."""
    text = json.dumps(document, ensure_ascii=False, indent=indent)
    # In JSON text a lone surrogate can only stand inside a string, where its
    # replacement's backslash must be escaped.
    return _SURROGATE.sub(lambda m: _escaped(m).replace("\\", "\\\\"), text) if _SURROGATE.search(text) else text


def exit_code(collector: Collector, strict: bool, *, exit_zero: bool = False) -> int:
    """3 when an input could not be read or an output written; 1 for errors (warnings
    too with ``strict``), unless ``exit_zero`` (the findings are reported, CI goes on).
    A finding --select or --ignore hides still counts when it says an input was not
    read (``Collector.failed``): what is shown is the user's choice, what was read is not."""
    if collector.has_io_failure():
        return EXIT_IO
    if not exit_zero and collector.failed(strict):
        return EXIT_ERRORS
    return EXIT_OK


def hidden_unread_line(collector: Collector) -> str:
    """For a summary: the findings not shown, and how many of them say an input was not
    read, with their codes ("" when none does)."""
    hidden = collector.hidden_unread()
    if not hidden:
        return ""
    count = sum(hidden.values())
    return (f"{plural(sum(collector.ignored.values()), 'finding')} not shown by --select/--ignore, {count:,} of "
            f"them saying an input was not read ({', '.join(sorted(hidden))}): the exit code counts "
            f"{'it' if count == 1 else 'them'}")


def write_findings(collector: Collector, fmt: str, out: TextIO, *, quiet: bool, statistics: bool) -> None:
    """The findings in a line format (text, GitHub, CSV, SARIF), or their counts per code
    with ``statistics``; colour for text on a terminal (wants_colour)."""
    if statistics:
        write_statistics(collector, out, quiet=quiet)
    else:
        write_diagnostics(collector, fmt, out, quiet=quiet, colour=fmt == "text" and wants_colour(out))


class _Lines:
    """Source lines to show under a diagnostic, read once per file."""

    def __init__(self) -> None:
        self._files: dict[str, list[str] | None] = {}

    def get(self, file: str | None, line: int | None) -> str | None:
        if file is None or line is None:
            return None
        if file not in self._files:
            self._files[file] = self._read(file)
        lines = self._files[file]
        if lines is None or not 0 < line <= len(lines):
            return None
        return lines[line - 1].rstrip("\r\n")

    @staticmethod
    def _read(file: str) -> list[str] | None:
        """The lines of a file a diagnostic names (one the run read: a regular file,
        at most 8 MiB, not gzip); None where they are not to be shown."""
        if file.endswith((".gz", ".parquet")):  # (a Parquet finding's line is its row: no text to quote)
            return None
        from ..read.sniff import wide_encoding  # (where a finding's line is shown: a clean run loads no reader)
        try:
            data = read_bounded(file, _SOURCE_LINE_LIMIT)
        except (OSError, Refused, ValueError):
            return None
        if wide_encoding(data):
            return None
        return data.decode("utf-8", errors="replace").split("\n")  # lines as parsers count them


def _location(diag: Diagnostic) -> str:
    if diag.file is None:
        return diag.url or "<input>"
    parts = [diag.file]
    if diag.line is not None:
        parts.append(str(diag.line))
        if diag.column is not None:
            parts.append(str(diag.column))
    return ":".join(parts)


# ANSI colours of the text format's severities, on a terminal (see wants_colour).
_COLOURS = {Severity.ERROR: "\033[1;31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_BOLD, _RESET = "\033[1m", "\033[0m"


def wants_colour(out: TextIO) -> bool:
    """Colour for the text format: NO_COLOR (set and not empty) says no, FORCE_COLOR says
    yes (no-color.org, force-color.org), else colour on a terminal only."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return bool(getattr(out, "isatty", lambda: False)())


def _headline(diag: Diagnostic, message: str, colour: bool) -> str:
    """A finding's first line: ``file:line:col: severity code message``. Colour is our
    escapes around text made visible (a sitemap's own ESC is still shown as \\x1b)."""
    if not colour:
        return visible(f"{_location(diag)}: {diag.severity.value} {diag.code} {message}") + "\n"
    return (f"{_BOLD}{visible(_location(diag))}:{_RESET} {_COLOURS[diag.severity]}{diag.severity.value}{_RESET} "
            f"{_BOLD}{diag.code}{_RESET} {visible(message)}\n")


def write_text(collector: Collector, out: TextIO, *, quiet: bool, colour: bool = False) -> None:
    lines = _Lines()
    shown = [diag for diag in collector.sorted() if not (quiet and diag.severity is Severity.INFO)]
    said: dict[int, list[Diagnostic]] = {}
    hidden: set[int] = set()
    if len(shown) > 1:  # (one finding on many entries of a file: said once, counted)
        from .repeats import more_line, repeats

        said, hidden = repeats(shown)
    for diag in shown:
        if id(diag) in hidden:
            continue
        message = diag.message
        if diag.url and diag.file is not None and diag.url not in message:
            message += f" [{diag.url}]"
        out.write(_headline(diag, message, colour))
        _write_source(out, lines.get(diag.file, diag.line), diag.column)
        for related in diag.related:
            where = ":".join(str(p) for p in (related.file, related.line) if p is not None) or related.url or ""
            out.write(visible(f"    note: {related.message}" + (f" ({where})" if where else "")) + "\n")
        if id(diag) in said:
            out.write(more_line(said[id(diag)]))
    for code, count in sorted(collector.suppressed.items()):
        if not (quiet and collector.severity_of(code) is Severity.INFO):
            out.write(f"... and {count:,} more {code} not shown\n")


def _write_source(out: TextIO, source: str | None, column: int | None) -> None:
    """The source line under a finding, with a caret under its column."""
    if source is None or not source.strip():
        return
    if len(source) > _SOURCE_WIDTH:  # cut; quoted from the column if there is one (a minified sitemap's element)
        start = column - 1 if column is not None and 0 < column <= len(source) else 0
        cut = source[start:start + _SOURCE_WIDTH] + ("..." if start + _SOURCE_WIDTH < len(source) else "")
        source, column = ("..." + cut, 4) if start else (cut, None)
    out.write(f"    {visible(source)}\n")
    if column is not None:  # under the character, however wide the escapes before it
        out.write("    " + " " * len(visible(source[:column - 1])) + "^\n")


def _escape_github(text: str, *, prop: bool = False) -> str:
    text = visible(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def write_github(collector: Collector, out: TextIO, *, quiet: bool) -> None:
    kinds = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    for diag in collector.sorted():
        if quiet and diag.severity is Severity.INFO:
            continue
        props = []
        if diag.file is not None:
            props.append(f"file={_escape_github(diag.file, prop=True)}")
        if diag.line is not None:
            props.append(f"line={diag.line}")
        if diag.column is not None:
            props.append(f"col={diag.column}")
        props.append(f"title={diag.code}")
        message = diag.message + (f" [{diag.url}]" if diag.url and diag.url not in diag.message else "")
        out.write(f"::{kinds[diag.severity]} {','.join(props)}::{_escape_github(message)}\n")


def summary(collector: Collector, files: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "errors": collector.errors,
        "warnings": collector.warnings,
        "infos": collector.infos,
        "not_shown": dict(sorted(collector.suppressed.items())),
        "ignored": dict(sorted(collector.ignored.items())),
        "files": files,
    }


def write_json(collector: Collector, out: TextIO, files: list[dict[str, Any]], *,
               counts: Mapping[str, int] | None = None, **extra: Any) -> None:
    """The report as JSON (specs/report.schema.json); a check's ``counts``
    (``Counts.as_dict``: files_checked, url_entries, distinct_urls, ...) go in its summary."""
    skipped = extra.pop("skipped", None)
    totals = summary(collector, files)
    if counts is not None:
        totals.update(counts)
    if skipped is not None:
        totals["skipped"] = skipped
    document = {"version": JSON_VERSION, "diagnostics": [d.as_dict() for d in collector.sorted()], "summary": totals}
    document.update(extra)
    out.write(json_text(document) + "\n")


def write_csv(collector: Collector, out: TextIO, *, quiet: bool) -> None:
    """One finding per row, with a header row (RFC 4180 quoting)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for diag in collector.sorted():
        if quiet and diag.severity is Severity.INFO:
            continue
        row = diag.as_dict()
        writer.writerow(["" if row.get(column) is None else csv_cell(row[column]) for column in CSV_COLUMNS])


SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_SARIF_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def write_sarif(collector: Collector, out: TextIO, *, quiet: bool) -> None:
    """SARIF 2.1.0 (GitHub code scanning and other viewers): one run, a rule per code
    found, a result per finding with its file, line and column (paths as given, with
    '/'), and the places a finding names as related locations."""
    from .._version import __version__

    shown = [d for d in collector.sorted() if not (quiet and d.severity is Severity.INFO)]
    codes = sorted({d.code for d in shown})
    index = {code: number for number, code in enumerate(codes)}
    rules = []
    for code in codes:
        entry = collector.registry[code]
        rules.append({
            "id": code, "name": "".join(part.capitalize() for part in entry.name.split("-")),
            "shortDescription": {"text": entry.summary},
            "defaultConfiguration": {"level": _SARIF_LEVELS[collector.severity_of(code)]},
            "properties": {"tags": [entry.name]},
        })
    results = []
    for diag in shown:
        message = diag.message + (f" [{diag.url}]" if diag.url and diag.url not in diag.message else "")
        result: dict[str, Any] = {"ruleId": diag.code, "ruleIndex": index[diag.code],
                                  "level": _SARIF_LEVELS[diag.severity], "message": {"text": message}}
        if diag.file is not None:
            result["locations"] = [_sarif_location(diag.file, diag.line, diag.column)]
        related = [_sarif_location(r.file, r.line, r.column, r.message, number)
                   for number, r in enumerate(diag.related, 1) if r.file is not None]
        if related:
            result["relatedLocations"] = related
        results.append(result)
    document = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "sitemap-ext", "version": __version__, "rules": rules}},
        "columnKind": "unicodeCodePoints", "results": results,
    }]}
    out.write(json_text(document) + "\n")


def _sarif_location(file: str, line: int | None, column: int | None, message: str | None = None,
                    number: int | None = None) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": sarif_uri(file)}}
    if line is not None:
        physical["region"] = {"startLine": line, **({"startColumn": column} if column is not None else {})}
    location: dict[str, Any] = {"physicalLocation": physical}
    if number is not None:
        location["id"] = number
    if message is not None:
        location["message"] = {"text": message}
    return location


def write_statistics(collector: Collector, out: TextIO, *, quiet: bool) -> None:
    """Findings counted per code, the most frequent first: ``count  code  severity  name``."""
    rows = [(count, code) for code, count in collector.counts.items()
            if not (quiet and collector.severity_of(code) is Severity.INFO)]
    for count, code in sorted(rows, key=lambda row: (-row[0], row[1])):
        out.write(f"{count:>7,}  {code}  {collector.severity_of(code).value:<7}  {collector.registry[code].name}\n")


def write_diagnostics(collector: Collector, fmt: str, out: TextIO, *, quiet: bool, colour: bool = False) -> None:
    if fmt == "github":
        write_github(collector, out, quiet=quiet)
    elif fmt == "csv":
        write_csv(collector, out, quiet=quiet)
    elif fmt == "sarif":
        write_sarif(collector, out, quiet=quiet)
    else:
        write_text(collector, out, quiet=quiet, colour=colour)


def write_step_summary(collector: Collector, verb: str, headline: str) -> None:
    """A Markdown summary appended to $GITHUB_STEP_SUMMARY, when GitHub Actions sets it:
    the counts and a table of codes (the findings themselves are annotations)."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    icon = "❌" if collector.failed() or collector.has_io_failure() else ("⚠️" if collector.warnings else "✅")
    unread = hidden_unread_line(collector)
    lines = [f"### {icon} sitemap-ext {verb}", "", f"{visible(headline)}: {counts_line(collector)}"
             + (f"; {unread}" if unread else ""), ""]
    if collector.counts:
        lines += ["| code | severity | name | findings |", "| --- | --- | --- | ---: |"]
        for code, count in sorted(collector.counts.items()):
            entry = collector.registry[code]
            lines.append(f"| {code} | {collector.severity_of(code).value} | {entry.name} | {count:,} |")
        lines.append("")
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
    except OSError as exc:
        sys.stderr.write(f"sitemap-ext: cannot append to GITHUB_STEP_SUMMARY ({exc.strerror or exc})\n")


_PLURALS = {"URL entry": "URL entries", "sitemap listed": "sitemaps listed"}


def plural(count: int, word: str) -> str:
    return f"{count:,} " + (word if count == 1 else _PLURALS.get(word, word + "s"))


def read_line(counts: Counts) -> str:
    """What a check read, as every format says it: ``12 files: 9 URL entries (8
    distinct URLs), 2 sitemaps listed, 3 pages, 6 alternates`` (the last three when
    there are any)."""
    parts = [f"{plural(counts.entries, 'URL entry')} ({plural(counts.distinct_urls, 'distinct URL')})"]
    for count, word in ((counts.sitemaps_listed, "sitemap listed"), (counts.pages, "page"),
                        (counts.alternates, "alternate")):
        if count:
            parts.append(plural(count, word))
    return f"{plural(counts.files, 'file')}: " + ", ".join(parts)


def counts_line(collector: Collector) -> str:
    return ", ".join((plural(collector.errors, "error"), plural(collector.warnings, "warning"),
                      plural(collector.infos, "info")))


def clock_json(now: float | None, source: str) -> dict[str, str] | None:
    """The instant dates were judged at, and where it came from (JSON ``now``)."""
    return None if now is None else {"instant": format_instant(now), "from": source}


def write_clock(now: float | None, source: str) -> None:
    """The summary line naming that instant (on stderr, with the rest of the summary)."""
    if now is not None:
        sys.stderr.write(f"dates judged at {format_instant(now)} (from {source})\n")
