"""Diagnostics as data, and the collector every stage reports into.

A diagnostic has a stable code (listed in ``code_table.py``, the registry in
``codes.py``), a severity taken from the code's registry entry, a
message saying what is wrong and how to fix it, and a location: file, line, column
for descriptions and text input, the URL for sitemap input. Printing is the CLI's
job; nothing here writes to a stream.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .limits import MAX_STORED_PER_CODE


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(slots=True, unsafe_hash=True)
class Where:
    """A position in an input file (1-based line and column).

    Treated as immutable (hashable by value) but not frozen, which would make it
    three times as costly to make: a build makes one per source row."""

    file: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


NOWHERE = Where()


@dataclass(frozen=True, slots=True)
class Related:
    """The other end of a finding (the page that does not link back, say)."""

    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    url: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("message", "file", "line", "column", "url")}


@dataclass(frozen=True, slots=True)
class Code:
    """A registry entry: one stable code, never reused for another meaning (a row of
    ``code_table.TABLE``, which says what each field means)."""

    code: str
    severity: Severity
    name: str
    summary: str
    # An input/output failure (unreadable input, unwritable output): exit code 3.
    io: bool = False
    # A finding of it means an input, or a file an input lists, was not read whole as a
    # sitemap (rejected, missing, unfetched): what was read is less than the site. With
    # ``io``, such a finding is never recorded in a baseline nor hidden by one, and a
    # diff of a side that has one stops (exit 3).
    unread: bool = False
    # "preview", "stable", "deprecated" or "removed" (code_table.STAGES).
    stage: str = "stable"

    @property
    def not_read(self) -> bool:
        """Whether a finding of it says an input, or a file an input lists, was not read
        (``io`` or ``unread``): the one predicate the exit code of check and build, a
        build's verdict, a diff's side and a baseline take; shown or not, it counts."""
        return self.io or self.unread


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: its ``code`` (see ``sitemap-ext rules`` and specs/rules.md), its
    ``severity``, a ``message`` that says what to do, where it is (``file``, ``line``,
    ``column``), the ``url`` and ``hreflang`` it is about, a ``suggestion`` (the value
    to write instead) where there is one, and ``related`` places."""

    code: str
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    url: str | None = None
    hreflang: str | None = None
    # A replacement value that fixes the problem (machine-applicable).
    suggestion: str | None = None
    related: tuple[Related, ...] = ()
    # A fact reported once per run ("images on host H"): its key. Internal, not output.
    once: str | None = None

    @property
    def where(self) -> Where:
        return Where(self.file, self.line, self.column)

    def sort_key(self) -> tuple[Any, ...]:
        return (self.file or "", self.line or 0, self.column or 0, self.url or "", self.code, self.message)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "url": self.url,
        }
        if self.hreflang is not None:
            out["hreflang"] = self.hreflang
        if self.suggestion is not None:
            out["suggestion"] = self.suggestion
        if self.related:
            out["related"] = [r.as_dict() for r in self.related]
        return out


# A message or URL is shown with at most this many characters: every valid URL fits.
_MAX_ECHO = 2_100


def _shorten(text: str) -> str:
    if len(text) <= _MAX_ECHO:
        return text
    return f"{text[:_MAX_ECHO - 60]}... ({len(text):,} characters in all)"


@dataclass
class Collector:
    """Collects diagnostics from every stage instead of stopping at the first.

    Severity comes from the registry, so a code has one severity everywhere, unless
    the user's policy (``rules.config.Policy``) overrides it; a finding of a code
    the policy does not show is only counted (``ignored``). Past
    ``MAX_STORED_PER_CODE`` findings of one code only the count grows, which keeps
    memory bounded on a million bad rows.
    """

    registry: dict[str, Code]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    suppressed: Counter[str] = field(default_factory=Counter)
    ignored: Counter[str] = field(default_factory=Counter)
    once_keys: set[str] = field(default_factory=set)
    # How many findings of one code are kept (None: all; a worker keeps all, the
    # main process decides when merging). Past it only the count grows.
    limit: int | None = MAX_STORED_PER_CODE
    policy: Any = None  # rules.config.Policy: what is shown, and at which severity
    # Every error kept, past ``limit`` too (a diff compares all of them); the limit
    # then bounds the warnings and infos only.
    errors_kept: bool = False
    # Environment values a site description used, shown by their variable's name.
    redactions: dict[str, str] = field(default_factory=dict)
    # A partition's (dask_build.partition): every once-keyed finding kept, shown or not,
    # and not held against ``limit`` (``said``: how many, by code); the client's merge
    # says each once, and whether the policy shows it.
    once_kept: bool = False
    said: Counter[str] = field(default_factory=Counter)

    def redact(self, name: str, value: str) -> None:
        """Never show ``value`` (taken from the environment variable ``name``) in a
        message: ``${name}`` stands in its place. Values under 8 characters are too
        common to replace and too short to be secrets."""
        if len(value) >= 8:
            self.redactions[value] = f"${{{name}}}"

    def _redacted(self, text: str) -> str:
        for value, label in self.redactions.items():
            if value in text:
                text = text.replace(value, label)
        return text

    def severity_of(self, code: str) -> Severity:
        """The code's severity as the policy sets it. A finding that an input was not
        read (``Code.not_read``) may be raised but never lowered: a config found in a
        checkout (or ``--severity X101=info``) must not turn "could not read" into a pass,
        as ``--select`` and ``--ignore`` cannot."""
        entry = self.registry[code]
        if self.policy is None:
            return entry.severity
        chosen: Severity = self.policy.severity_of(code, entry.severity)
        if entry.not_read and chosen.rank > entry.severity.rank:
            return entry.severity
        return chosen

    def keeps(self, code: str, file: str | None) -> bool:
        """Whether a finding of ``code`` in ``file`` would be kept (shown, and within the
        limit per code): a rule with a million findings of one code need not compose
        the message of one that is only counted (``tally``)."""
        if self.policy is not None and not self.policy.shown(code, file):
            return False
        return self.limit is None or self.counts[code] - self.said.get(code, 0) < self.limit or \
            (self.errors_kept and self.severity_of(code) is Severity.ERROR)

    def tally(self, code: str, file: str | None) -> None:
        """A finding of ``code`` counted as ``report`` counts one it does not keep."""
        self.registry[code]  # KeyError here is a programming error
        if self.policy is not None and not self.policy.shown(code, file):
            self.ignored[code] += 1
            return
        self.counts[code] += 1
        self.suppressed[code] += 1

    def report(
        self,
        code: str,
        message: str,
        where: Where = NOWHERE,
        *,
        url: str | None = None,
        hreflang: str | None = None,
        suggestion: str | None = None,
        related: Iterable[Related] = (),
        once: str | None = None,
    ) -> Diagnostic | None:
        """Record a finding; with ``once``, only the first finding of that key counts."""
        self.registry[code]  # KeyError here is a programming error
        if once is not None:
            if once in self.once_keys:
                return None
            self.once_keys.add(once)
        if self.policy is not None and not self.policy.shown(code, where.file) and \
                not (self.once_kept and once is not None):  # (a partition's: the merge says whether it is shown)
            self.ignored[code] += 1
            return None
        if len(message) > _MAX_ECHO or (url is not None and len(url) > _MAX_ECHO):  # a 50 MB URL, say
            message, url = _shorten(message), url and _shorten(url)
        if self.redactions:
            message = self._redacted(message)
            suggestion = suggestion and self._redacted(suggestion)
            url = url and self._redacted(url)
        diag = Diagnostic(
            code=code,
            severity=self.severity_of(code),
            message=message,
            file=where.file,
            line=where.line,
            column=where.column,
            url=url,
            hreflang=hreflang,
            suggestion=suggestion,
            related=tuple(related),
            once=once,
        )
        self._add(diag)
        return diag

    def _add(self, diag: Diagnostic) -> None:
        code = diag.code
        self.counts[code] += 1
        if self.once_kept and diag.once is not None:
            self.said[code] += 1
        elif self.limit is not None and self.counts[code] - self.said.get(code, 0) > self.limit and \
                not (self.errors_kept and diag.severity is Severity.ERROR):
            self.suppressed[code] += 1
            return
        self.diagnostics.append(diag)

    def merge(self, diagnostics: Iterable[Diagnostic], suppressed: Counter[str] | None = None,
              ignored: Counter[str] | None = None) -> None:
        """Findings of another collector (a worker's), in their order; once-keys respected.
        The findings it counted without keeping, and those it did not show, are added."""
        for diag in diagnostics:
            if diag.once is not None:
                if diag.once in self.once_keys:
                    continue
                self.once_keys.add(diag.once)
                if self.policy is not None and not self.policy.shown(diag.code, diag.file):
                    self.ignored[diag.code] += 1  # (once for the run, where parts kept it: ``once_kept``)
                    continue
            self._add(diag)
        for code, count in (suppressed or {}).items():
            self.counts[code] += count
            self.suppressed[code] += count
        self.ignored.update(ignored or {})

    def forget(self, diagnostics: Iterable[Diagnostic]) -> None:
        """Drop these findings (the known ones of a baseline): they are neither shown
        nor counted."""
        gone = {id(d) for d in diagnostics}
        for diag in self.diagnostics:
            if id(diag) in gone:
                self.counts[diag.code] -= 1
        self.diagnostics = [d for d in self.diagnostics if id(d) not in gone]
        self.counts = +self.counts

    def moved(self, placed: dict[int, Diagnostic]) -> None:
        """Findings placed anew (the same finding at its element: ``checker/placing.py``),
        each given by the ``id()`` of the one it stands for; counts are unchanged."""
        if placed:
            self.diagnostics = [placed.get(id(d), d) for d in self.diagnostics]

    def count(self, severity: Severity) -> int:
        return sum(n for code, n in self.counts.items() if self.severity_of(code) is severity)

    @property
    def errors(self) -> int:
        return self.count(Severity.ERROR)

    @property
    def warnings(self) -> int:
        return self.count(Severity.WARNING)

    @property
    def infos(self) -> int:
        return self.count(Severity.INFO)

    def has_io_failure(self) -> bool:
        """An input that could not be read or an output not written (exit 3), whether
        its finding is shown or not: --select and --ignore choose what is shown."""
        return any(self.registry[code].io for code in (*self.counts, *self.ignored))

    def hidden_unread(self) -> Counter[str]:
        """The findings not shown (--select, --ignore, a config, per-path ignores) that
        say an input was not read (``Code.not_read``), by code: hidden, they still fail."""
        return Counter({code: n for code, n in self.ignored.items() if self.registry[code].not_read})

    def failed(self, strict: bool = False) -> bool:
        """Whether the run fails: an error (a warning too when ``strict``) among the
        findings shown or counted, or among the hidden ones that say an input was not
        read (at the severity the policy gives them, as if shown)."""
        if self.errors or (strict and self.warnings):
            return True
        failing = (Severity.ERROR, Severity.WARNING) if strict else (Severity.ERROR,)
        return any(self.severity_of(code) in failing for code in self.hidden_unread())

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.diagnostics, key=Diagnostic.sort_key)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.diagnostics)


def unknown_keys(collector: Collector, keys: Iterable[Any], allowed: tuple[str, ...], what: str,
                 where_of: Callable[[Any], Where]) -> None:
    """C102 for each key of a mapping that ``allowed`` does not name (a YAML mapping, or
    a page mapping a program gives), with the closest known name as the fix."""
    for key in keys:
        if isinstance(key, str) and key in allowed:
            continue
        guess = did_you_mean(str(key), allowed)
        hint = f"did you mean '{guess}'?" if guess else f"known keys: {', '.join(allowed)}"
        collector.report("C102", f"unknown key '{key}' in {what}; {hint}", where_of(key), suggestion=guess)


def unknown_field(report: Callable[..., Any], message: str, field: Any, suggestion: str | None) -> None:
    """C102 for a field an extension's mapping does not define, in a description (a
    sitemap being checked has X112 instead: ``rules.structure.unknown_field``)."""
    report("C102", message, field, suggestion=suggestion)


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """The closest known name to a misspelt one, or None."""
    import difflib

    found = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return found[0] if found else None

