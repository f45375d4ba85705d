"""``--format html``: one self-contained HTML report for people (a client, a team).

A summary; the findings grouped by code, each group with its rule's documentation
and each finding with its file, line and URL, filterable by severity (CSS only: no
script, no network); and, for a check, the hreflang coverage picture: for each
cluster (rows) and locale (columns), the URL named and whether it is listed and
announces the cluster back. The picture keeps defective clusters first and at most
``COVERAGE_ROWS`` of them, and says how many there were, so that the report of a
site with 100,000 clusters stays a page a browser opens.
"""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import unquote

from ..codes import REGISTRY
from ..diagnostics import Collector, Diagnostic, Severity
from ..rules.clusters import ABSENT, DIFFERS, WHOLE, Coverage
from .formats import plural, visible

if TYPE_CHECKING:  # (diff's modules load with a diff's report: a check's report loads none of them)
    from ..diff import ClusterChange, DiffResult

COVERAGE_ROWS = 2_000  # clusters drawn in the picture; the rest are counted
DIFF_ROWS = 5_000  # rows of each list of a diff; the rest are counted
_MARKS = {WHOLE: ("✓", "listed and announces the cluster back"),
          DIFFERS: ("≠", "listed, but announces other alternates: some return link is missing"),
          ABSENT: ("✗", "in no sitemap given")}
_SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)

_STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5rem; color: #1d2330; }
h1 { font-size: 1.5rem; margin: 0 0 .2rem; overflow-wrap: anywhere; } h2 { font-size: 1.2rem; margin: 1.6rem 0 .5rem; }
.muted { color: #5a6273; } a { color: #1a56db; }
.counts span { display: inline-block; margin-right: 1rem; font-weight: 600; }
.error { color: #b42318; } .warning { color: #a15c07; } .info { color: #1a56db; }
table { border-collapse: collapse; width: 100%; margin: .4rem 0 .8rem; }
th, td { text-align: left; vertical-align: top; padding: .3rem .5rem; border-bottom: 1px solid #e3e6ec; }
td { overflow-wrap: break-word; } th { background: #f4f6f9; }
details { border: 1px solid #e3e6ec; border-radius: 6px; margin: .5rem 0; padding: .3rem .7rem; }
summary { cursor: pointer; font-weight: 600; }
.filters label { margin-right: 1rem; color: #1a56db; text-decoration: underline; cursor: pointer; }
#all:checked ~ main .group { display: block; }
#errors:checked ~ main .group:not(.g-error) { display: none; }
#warnings:checked ~ main .group:not(.g-warning) { display: none; }
#infos:checked ~ main .group:not(.g-info) { display: none; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
.coverage td.cell { font-size: .85rem; min-width: 7rem; overflow-wrap: normal; word-break: normal; }
.coverage th.page { font-weight: 600; min-width: 9rem; background: #fff; overflow-wrap: normal;
                    position: sticky; left: 0; box-shadow: 1px 0 0 #e3e6ec; }
.coverage .path { color: #1d2330; }
.coverage td.whole { background: #e7f6ec; } .coverage td.differs { background: #fdf1dc; }
.coverage td.absent { background: #fde4e1; } .coverage td.none { background: #f8f9fb; }
@media (max-width: 640px) {
  body { margin: .75rem; }
  .findings, .findings tbody, .findings tr, .findings td { display: block; }
  .findings thead { display: none; }
  .findings tr { border-bottom: 1px solid #e3e6ec; padding: .3rem 0; }
  .findings td { border: 0; padding: .1rem 0; overflow-wrap: anywhere; }
  .findings td:empty { display: none; }
  .findings td::before { content: attr(data-label) ": "; color: #5a6273; }
}
"""


def _h(text: str) -> str:
    """Text for the page: markup escaped (quotes too, for attributes), and control,
    separator and bidi characters shown as their escapes (``report.visible``)."""
    return html.escape(visible(text))


def _link(url: str, mark: str) -> str:
    """A link to a URL of the sitemaps: only http(s) (a ``javascript:`` URL is text)."""
    if url[:8].lower().startswith(("http://", "https://")):
        return f"<a href=\"{_h(url)}\">{mark}</a>"
    return mark


def write_html(collector: Collector, out: TextIO, *, title: str, files: Iterable[dict[str, Any]] = (),
               read: str | None = None, coverage: Coverage | None = None, clock: str | None = None,
               quiet: bool = False) -> None:
    """The report, as one HTML document written to ``out``; its header says what was
    read as the other formats say it (``read``: ``report.read_line`` of a check's
    counts, a build's own line), else how many ``files``."""
    diagnostics = [d for d in collector.sorted() if not (quiet and d.severity is Severity.INFO)]
    if read is None:
        read = plural(len(list(files)), "file")
    write = out.write
    write("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
          f"<meta name=\"robots\" content=\"noindex\"><title>{_h(title)}</title><style>{_STYLE}</style>"
          "</head><body>\n")
    write(f"<h1>{_h(title)}</h1>\n<p class=\"muted\" id=\"read\">{_h(read)}"
          + (f"; dates judged at {_h(clock)}" if clock else "") + "</p>\n")
    write("<p class=\"counts\">" + "".join(
        f"<span class=\"{s.value}\">{count:,} {s.value}{'s' if count != 1 else ''}</span>"
        for s, count in ((Severity.ERROR, collector.errors), (Severity.WARNING, collector.warnings),
                         (Severity.INFO, collector.infos))) + "</p>\n")
    # The filter: radio buttons before <main>, read by the sibling selectors of the style.
    write("<input type=\"radio\" name=\"f\" id=\"all\" checked hidden><input type=\"radio\" name=\"f\" "
          "id=\"errors\" hidden><input type=\"radio\" name=\"f\" id=\"warnings\" hidden><input type=\"radio\" "
          "name=\"f\" id=\"infos\" hidden>\n<p class=\"filters\">Show: <label for=\"all\">all</label>"
          "<label for=\"errors\">errors</label><label for=\"warnings\">warnings</label>"
          "<label for=\"infos\">infos</label></p>\n<main>\n")
    _findings(write, diagnostics, collector)
    if coverage is not None:
        _coverage(write, coverage)
    write("</main>\n<p class=\"muted\">Written by sitemap-ext. Each code's rule, with the search engines' "
          "documentation it follows: specs/rules.md in sitemap-ext, or <code>sitemap-ext rules</code>.</p>\n"
          "</body></html>\n")


def _findings(write: Any, diagnostics: list[Diagnostic], collector: Collector) -> None:
    write("<h2>Findings</h2>\n")
    if not diagnostics:
        write("<p>No findings.</p>\n")
        return
    groups: dict[str, list[Diagnostic]] = defaultdict(list)
    for diag in diagnostics:
        groups[diag.code].append(diag)
    order = sorted(groups, key=lambda code: (_SEVERITIES.index(groups[code][0].severity), code))
    for code in order:
        found = groups[code]
        severity = found[0].severity.value
        rule = REGISTRY.get(code)
        more = collector.suppressed.get(code, 0)
        write(f"<details class=\"group g-{severity}\" id=\"{_h(code)}\"{' open' if severity == 'error' else ''}>"
              f"<summary><span class=\"{severity}\">{_h(code)}</span> {_h(rule.name if rule else '')} "
              f"<span class=\"muted\">{severity}, {len(found) + more:,}</span></summary>\n")
        if rule is not None:
            write(f"<p class=\"muted\">{_h(rule.summary)}</p>\n")
        write("<table class=\"findings\"><thead><tr><th>Where</th><th>URL</th><th>Finding</th></tr></thead><tbody>\n")
        for diag in found:
            where = _h(diag.file or "") + (f":{diag.line}" if diag.line else "")
            fix = f"<br><span class=\"muted\">fix: {_h(diag.suggestion)}</span>" if diag.suggestion else ""
            write(f"<tr><td data-label=\"where\">{where}</td><td data-label=\"URL\">{_h(diag.url or '')}</td>"
                  f"<td data-label=\"finding\">{_h(diag.message)}{fix}</td></tr>\n")
        write("</tbody></table>\n")
        if more:
            write(f"<p class=\"muted\">{more:,} more not kept (--max-per-code; 0 keeps all).</p>\n")
        write("</details>\n")


def _coverage(write: Any, coverage: Coverage) -> None:
    write("<h2>hreflang coverage</h2>\n")
    if not coverage.clusters:
        write("<p>No hreflang clusters in these sitemaps.</p>\n")
        return
    write(f"<p>{coverage.clusters:,} clusters (distinct lists of alternates); {coverage.whole:,} whole, where every "
          f"URL named announces the same list back; {coverage.clusters - coverage.whole:,} with a defect.")
    if len(coverage.rows) < coverage.clusters:
        write(f" Shown: {len(coverage.rows):,}, those with a defect first.")
    write("</p>\n<p class=\"muted\">" + "; ".join(f"{mark} {_h(text)}" for mark, text in _MARKS.values())
          + "; blank: the cluster names no URL for that code.</p>\n")
    # Each row named by its page (the path of the first version), each cell showing its
    # URL's path (the host is the table's, mostly): readable without hovering; the
    # table scrolls sideways on a phone and long paths wrap at their separators.
    write("<div class=\"scroll\"><table class=\"coverage\"><thead><tr><th>page</th>"
          + "".join(f"<th>{_h(code)}</th>" for code in coverage.codes) + "</tr></thead><tbody>\n")
    for row in coverage.rows:
        cells = []
        for code in coverage.codes:
            found = row.get(code)
            if found is None:
                cells.append("<td class=\"cell none\"></td>")
                continue
            url, state = found
            mark, text = _MARKS[state]
            cells.append(f"<td class=\"cell {state}\" title=\"{_h(text)}\">{_link(url, mark)} "
                         f"<span class=\"path\">{_breakable(_path(url))}</span></td>")
        first = next(iter(row.values()))[0] if row else ""
        write(f"<tr><th class=\"page\">{_breakable(_path(first))}</th>{''.join(cells)}</tr>\n")
    write("</tbody></table></div>\n")


def _path(url: str) -> str:
    """A URL's path and query (its host left out: the columns' hosts are mostly one),
    percent-escapes of UTF-8 shown as the characters they stand for (``/de/mütze``)."""
    rest = url.split("//", 1)[-1]
    slash = rest.find("/")
    path = rest[slash:] if slash >= 0 else "/"
    try:
        return unquote(path, errors="strict")
    except UnicodeDecodeError:
        return path


def _breakable(text: str) -> str:
    """Escaped text that may wrap after a URL's separators (not in the middle of a word)."""
    escaped = _h(text)
    for separator in ("/", "?", "&amp;", "=", "-", "_", "."):
        escaped = escaped.replace(separator, separator + "<wbr>")
    return escaped


def write_diff_html(result: DiffResult, out: TextIO, *, title: str, clock: str | None = None) -> None:
    """A diff (``sitemap-ext diff``) as one HTML document: its counts, why it fails,
    then each list (at most ``DIFF_ROWS`` rows each; the text and JSON have all)."""
    from .diff_formats import failure_lines, totals_line

    write = out.write
    write("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
          f"<meta name=\"robots\" content=\"noindex\"><title>{_h(title)}</title><style>{_STYLE}</style>"
          "</head><body>\n")
    write(f"<h1>{_h(title)}</h1>\n<p class=\"muted\" id=\"read\">{_h(totals_line(result))}"
          + (f"; dates judged at {_h(clock)}" if clock else "") + "</p>\n")
    failures = failure_lines(result)
    write("<p class=\"counts\">" + ("".join(f"<span class=\"error\">{_h(line)}</span>" for line in failures)
                                     if failures else "<span>Within limits.</span>") + "</p>\n<main>\n")
    _rows(write, "URLs added", [(_link(url, _h(url)),) for url in result.added[:DIFF_ROWS]], len(result.added))
    _rows(write, "URLs removed", [(_link(url, _h(url)),) for url in result.removed[:DIFF_ROWS]],
          len(result.removed))
    _rows(write, "URLs changed (lastmod moved)",
          [(_link(c.url, _h(c.url)), _h(c.old_lastmod or "none"), _h(c.new_lastmod or "none"))
           for c in result.changed[:DIFF_ROWS]], len(result.changed), ("URL", "OLD lastmod", "NEW lastmod"))
    _rows(write, "hreflang clusters", [(_h(c.change), _link(c.name, _h(c.name)), _cluster_cell(c))
                                       for c in result.clusters[:DIFF_ROWS]], len(result.clusters),
          ("change", "cluster", "members"))
    _rows(write, "Files", [(_h("added"), _h(name)) for name in result.files_added]
          + [(_h("removed"), _h(name)) for name in result.files_removed],
          len(result.files_added) + len(result.files_removed), ("change", "file"))
    _rows(write, "New errors in NEW", [(_h(d.code), _h(d.file or "") + (f":{d.line}" if d.line else ""),
                                        _h(d.url or ""), _h(d.message)) for d in result.new_errors[:DIFF_ROWS]],
          len(result.new_errors), ("code", "where", "URL", "finding"))
    write("</main>\n<p class=\"muted\">Written by sitemap-ext diff.</p>\n</body></html>\n")


def _rows(write: Any, heading: str, rows: Sequence[Sequence[str]], total: int, columns: tuple[str, ...] = ("URL",)
          ) -> None:
    """A section: its heading with the count, and a table of (already escaped) cells."""
    write(f"<h2>{_h(heading)} ({total:,})</h2>\n")
    if not total:
        write("<p class=\"muted\">None.</p>\n")
        return
    write("<div class=\"scroll\"><table><thead><tr>" + "".join(f"<th>{_h(c)}</th>" for c in columns)
          + "</tr></thead><tbody>\n")
    for row in rows:
        write("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>\n")
    write("</tbody></table></div>\n")
    if total > len(rows):
        write(f"<p class=\"muted\">{total - len(rows):,} more not shown here: --format json or text lists "
              "them all.</p>\n")


def _cluster_cell(change: ClusterChange) -> str:
    """A cluster's members, each change said as the text says it: + gained, - lost,
    ! broken (with its state)."""
    from ..diff.clusters import GONE, NEW
    from .diff_formats import STATES

    gained = {(m.hreflang, m.url) for m in change.gained}
    broken = {(m.hreflang, m.url): m.state for m in change.broken}
    parts = []
    for member in change.members:
        key = (member.hreflang, member.url)
        said = ""
        if key in broken:
            said = f"! {_h(member.hreflang)} {_breakable(member.url)} broken: {_h(STATES[broken[key] or 'absent'])}"
        elif key in gained and change.change != NEW:
            said = f"+ {_h(member.hreflang)} {_breakable(member.url)} gained"
        parts.append(said or f"{_h(member.hreflang)} {_breakable(member.url)}")
    parts += [f"- {_h(m.hreflang)} {_breakable(m.url)} lost" for m in change.lost if change.change != GONE]
    return "<br>".join(parts)


__all__ = ["COVERAGE_ROWS", "DIFF_ROWS", "write_diff_html", "write_html"]
