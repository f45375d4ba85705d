"""The registry of diagnostic codes: the one list the catalogue in specs/ mirrors.

Codes are stable and never reused. The letter says where a finding comes from:
F files and I/O, C the site description, S sources, U URLs, D values (dates,
changefreq, priority), O output, X sitemap XML being checked, L language tags,
H hreflang clusters, I images, V videos, N news.
"""

from __future__ import annotations

from .diagnostics import Code, Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

_ENTRIES: tuple[Code, ...] = (
    # --- files and I/O
    Code("F101", E, "input-unreadable", "An input file or folder cannot be read.", io=True),
    Code("F102", E, "output-unwritable", "The output folder cannot be created or written.", io=True),
    # --- site description
    Code("C101", E, "yaml-syntax", "The YAML is malformed."),
    Code("C102", E, "unknown-key", "A key the format does not define (often a misspelling)."),
    Code("C103", E, "wrong-type", "A value of the wrong type (a list where a mapping belongs, say)."),
    Code("C104", E, "missing-key", "A required key is missing."),
    Code("C105", E, "undefined-variable", "${VAR} names an unset environment variable and gives no default."),
    Code("C106", E, "include-failed", "An included file is missing, unreadable or includes itself."),
    Code("C107", E, "duplicate-key", "A mapping names the same key twice; YAML would silently keep the last."),
    Code("C108", E, "bad-output-name", "An output file name escapes the output folder or lacks {n}."),
    Code("C109", E, "bad-setting", "A setting is out of its allowed range."),
    Code("C110", E, "yaml-too-large", "The YAML expands (through aliases) past the node limit."),
    # --- sources (CSV, JSON Lines)
    Code("S101", E, "source-missing", "A source file is missing or unreadable."),
    Code("S102", E, "csv-row-invalid", "A CSV row has more fields than the header."),
    Code("S103", E, "jsonl-line-invalid", "A JSON Lines line is not a JSON object."),
    Code("S104", W, "source-column-unknown", "A source column the format does not define; it is ignored."),
    Code("S105", E, "source-no-url", "A source has no column that gives the page's URL."),
    Code("S106", E, "source-encoding", "A source is not valid UTF-8."),
    Code("S107", E, "source-format-unknown", "A source's format cannot be told from its name."),
    # --- URLs
    Code("U101", E, "url-relative", "A URL is relative where an absolute one is required."),
    Code("U102", E, "url-scheme", "A URL's scheme is not http or https."),
    Code("U103", E, "url-too-long", "A URL has 2,048 characters or more once encoded."),
    Code("U104", W, "url-duplicate", "A URL is listed more than once; it is written once."),
    Code("U105", W, "url-whitespace", "A URL contains whitespace; it is percent-encoded."),
    Code("U106", W, "url-pre-escaped", "A URL contains '&amp;': it was XML-escaped already."),
    Code("U107", E, "url-other-host", "A URL is on another host (or scheme, or port) than its sitemap."),
    Code("U108", W, "url-out-of-scope", "A URL lies outside the folder its sitemap is served from (allowed only through robots.txt)."),
    Code("U109", E, "url-malformed", "A URL cannot be parsed (no host, bad port, bad characters)."),
    Code("U110", W, "url-fragment", "A URL has a #fragment; search engines drop it."),
    # --- values
    Code("D101", E, "lastmod-invalid", "A lastmod is not a W3C datetime, or not a real date."),
    Code("D102", W, "lastmod-future", "A lastmod lies after the build or check time."),
    Code("D103", W, "lastmod-uniform", "Every lastmod in a file is identical: build time, not page time."),
    Code("D104", E, "changefreq-invalid", "A changefreq is not one of the seven values."),
    Code("D105", E, "priority-invalid", "A priority is not a number from 0.0 to 1.0."),
    Code("D106", I, "lastmod-rewritten", "A lastmod was written in a form both W3C and the XSD accept."),
    Code("D107", W, "lastmod-no-zone", "A lastmod has a time but no zone; UTC is assumed."),
    # --- output
    Code("O101", E, "too-many-sitemaps", "More than 50,000 sitemaps would be needed for one index."),
    Code("O102", E, "no-urls", "The site has no URLs to write (an empty urlset fails the XSD)."),
)

REGISTRY: dict[str, Code] = {entry.code: entry for entry in _ENTRIES}

if len(REGISTRY) != len(_ENTRIES):  # pragma: no cover - guards edits to the table
    raise RuntimeError("duplicate diagnostic code in codes.py")
