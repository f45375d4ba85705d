"""W3C datetimes: every form read, only the forms both W3C and the XSD accept written.

W3C allows YYYY, YYYY-MM, YYYY-MM-DD and date-times with a zone, seconds and
fractions optional. The sitemap XSD (xsd:date | xsd:dateTime) rejects YYYY,
YYYY-MM and hh:mm without seconds, and takes forms W3C does not define (a date with
a zone, 24:00:00). Which forms the XSD takes is the XSD's to say: libxml2 judges each
distinct value against the schema's own datatype (``xsd_values``); the hand-written
reading here adds what W3C Datetime, the format engines document, says beyond it.
So we write YYYY-MM-DD, or a date-time with seconds and a zone, and say so (D106)
when we rewrote what was given.
"""

from __future__ import annotations

import calendar
import datetime as dt
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from .xsd_values import date_accepted

# Digits are ASCII ([0-9], not \d, which takes any Unicode digit: a year in full-width digits would pass,
# be written as it is, and fail the XSD).
_W3C = re.compile(
    r"([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2})"
    r"(?:[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(\.[0-9]+)?)?[ ]?(Z|z|[+-][0-9]{2}(?::?[0-9]{2})?)?)?)?)?"
)
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)


@dataclass(frozen=True, slots=True)
class Lastmod:
    """A valid lastmod: the text to write and its instant (UTC seconds) to compare."""

    text: str
    instant: float


@dataclass(frozen=True, slots=True)
class ContentDated(Lastmod):
    """``lastmod: content``: the build state gives the date (when the page's content
    digest last changed); ``first`` is the date of a page seen for the first time (its
    git commit), else the build's clock is. Never written as it is."""

    first: Lastmod | None = None


CONTENT = ContentDated("content", float("-inf"))


def newer(one: Lastmod | None, other: Lastmod | None) -> Lastmod | None:
    """The newer of two lastmods (``one`` where their instants are equal; either where
    the other is None)."""
    if one is None:
        return other
    if other is None or one.instant >= other.instant:
        return one
    return other


def newest(lastmods: Iterable[Lastmod | None]) -> Lastmod | None:
    """The newest lastmod given (the first of equal instants), None where none is."""
    found = None
    for one in lastmods:
        found = newer(found, one)
    return found


def of_versions(lastmods: tuple[Lastmod | None, ...]) -> tuple[Lastmod | None, tuple[Lastmod | None, ...] | None]:
    """A page's lastmod from its versions' own: the one they all give, and no list; else
    the newest of them, and each version's kept."""
    if len(set(lastmods)) == 1:
        return lastmods[0], None
    return newest(lastmods), lastmods


@dataclass(frozen=True, slots=True)
class DateProblem:
    code: str  # D101 invalid, D106 rewritten (info), D107 no zone (warning)
    message: str
    suggestion: str | None = None
    # For D106: the XSD accepts the value as written, W3C Datetime does not define it
    # (a check says D111), rather than a W3C form the XSD rejects (a check says D108).
    xsd: bool = False


DateInput = str | dt.date | dt.datetime
Parsed = tuple[Lastmod | None, tuple[DateProblem, ...]]


def _zone(tzd: str) -> tuple[str, int] | None:
    """Normalise a zone designator to 'Z' or '+hh:mm'; None if impossible."""
    if tzd in ("Z", "z"):
        return "Z", 0
    sign = 1 if tzd[0] == "+" else -1
    digits = tzd[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    if hours > 23 or minutes > 59:
        return None
    if hours == 0 and minutes == 0:
        return "+00:00", 0
    return f"{tzd[0]}{hours:02d}:{minutes:02d}", sign * (hours * 60 + minutes)


def _invalid(raw: str, why: str) -> Parsed:
    return None, (
        DateProblem(
            "D101",
            f"'{raw}' is not a valid lastmod: {why}; write YYYY-MM-DD or "
            "YYYY-MM-DDThh:mm:ss+hh:mm (W3C Datetime)",
        ),
    )


def parse_w3c(raw: str) -> Parsed:
    """Read a W3C datetime string; report what is wrong or what was rewritten. The XSD's
    datatype has the last word on which forms it rejects (D106 where it does)."""
    text = raw.strip()
    match = _W3C.fullmatch(text)
    if match is None:
        return _outside_w3c(raw, text)
    year_s, month_s, day_s, hh, mm, ss, frac, tzd = match.groups()
    year = int(year_s)
    month = int(month_s) if month_s else 1
    day = int(day_s) if day_s else 1
    if year < 1 or not 1 <= month <= 12:
        return _invalid(raw, "no such month")
    if day < 1 or day > calendar.monthrange(year, month)[1]:
        return _invalid(raw, f"{calendar.month_name[month]} {year} has no day {day}")
    date = (year, month, day)
    return _schema_verdict(raw, text, _date(*date) if hh is None else _date_time(raw, date, (hh, mm, ss, frac, tzd)))


def _schema_verdict(raw: str, text: str, parsed: Parsed) -> Parsed:
    """A W3C form the XSD rejects is rewritten (D106, which a check reports as D108);
    one it accepts is no finding, whatever the writer makes of it (``-00:00`` as
    ``+00:00``). The XSD judges the value as written; what we write must pass it too."""
    lastmod, problems = parsed
    if lastmod is None or any(p.code == "D101" for p in problems):
        return parsed
    no_zone = tuple(p for p in problems if p.code == "D107")  # (the XSD takes a time without a zone, W3C not)
    if date_accepted(raw):
        return lastmod, no_zone or tuple(p for p in problems if p.xsd)
    if not date_accepted(lastmod.text):  # a zone past 14:00, which the XSD's dateTime rejects: in UTC
        try:
            lastmod = Lastmod(format_instant(lastmod.instant), lastmod.instant)
        except (ValueError, OverflowError):  # (9999-12-31T23:59:59-23:59 is in the year 10000 in UTC)
            return _invalid(raw, "in UTC it falls outside the years 0001 to 9999")
    out = lastmod.text
    return lastmod, (*no_zone, DateProblem("D106", f"lastmod '{raw}' is written as {out}{_rejected_form(text)}", out))


def _rejected_form(text: str) -> str:
    """Why the XSD rejects a W3C form, where its length says it."""
    if len(text) in (4, 7):
        return ": the XSD rejects YYYY and YYYY-MM"
    if len(text) in (16, 17) or (len(text) > 16 and text[16] in "Zz+-"):
        return ": the XSD requires seconds"
    return ""


# Forms the XSD's types take and W3C Datetime does not define (a date with a zone; a
# year of other than four digits, or before the common era).
_XSD_DATE_ZONE = re.compile(r"(-?[0-9]{4,}-[0-9]{2}-[0-9]{2})(?:Z|[+-][0-9]{2}:[0-9]{2})")


def _outside_w3c(raw: str, text: str) -> Parsed:
    """No W3C Datetime: D101, unless the XSD accepts it. Then a date with a zone is its
    date (D106: a check says D111); a year of other than four digits is D101 still: the
    XSD's type takes it, but no page changed in year 12026 or -0001."""
    if not date_accepted(raw):
        return _invalid(raw, "not in a W3C Datetime form")
    zoned = _XSD_DATE_ZONE.fullmatch(text)
    if zoned is not None and len(zoned.group(1)) == 10:
        lastmod, problems = parse_w3c(zoned.group(1))
        if lastmod is not None and not problems:
            return lastmod, (_outside(raw, lastmod.text, "a date with a zone"),)
    return _invalid(raw, "the XSD's type takes it, but W3C Datetime writes a year in four digits, from 0001")


def _outside(raw: str, out: str, what: str) -> DateProblem:
    return DateProblem("D106", f"lastmod '{raw}' is written as {out}: {what} is valid for the XSD, but W3C "
                       "Datetime, the format search engines document, does not define it", out, xsd=True)


def _date(year: int, month: int, day: int) -> Parsed:
    """A valid date with no time (YYYY and YYYY-MM stand for their first day)."""
    out = f"{year:04d}-{month:02d}-{day:02d}"
    instant = (dt.datetime(year, month, day, tzinfo=dt.timezone.utc) - _EPOCH).total_seconds()
    return Lastmod(out, instant), ()


def _date_time(raw: str, date: tuple[int, int, int],
               clock: tuple[str, str, str | None, str | None, str | None]) -> Parsed:
    """A valid date with a time: ``clock`` is the matched hours, minutes, seconds,
    fraction and zone (the last three may be missing)."""
    year, month, day = date
    hh, mm, ss, frac, tzd = clock
    hour, minute, second = int(hh), int(mm), int(ss or 0)
    if hour == 24 and tzd is not None and date_accepted(raw):  # the XSD's end of day: the next day's midnight
        if (year, month, day) == (9999, 12, 31):  # (no date follows it)
            return _invalid(raw, "in UTC it falls outside the years 0001 to 9999")
        next_day = dt.date(year, month, day) + dt.timedelta(days=1)
        lastmod, _ = _date_time(raw, (next_day.year, next_day.month, next_day.day), ("00", "00", "00", None, tzd))
        return (lastmod, (_outside(raw, lastmod.text, "24:00:00"),)) if lastmod is not None else \
            _invalid(raw, "no such time zone")
    if hour > 23 or minute > 59 or second > 59:
        return _invalid(raw, "no such time of day")
    problems: list[DateProblem] = []
    if tzd is None:
        zone_text, offset = "Z", 0
        problems.append(
            DateProblem(
                "D107",
                f"lastmod '{raw}' has a time but no zone (W3C requires one); UTC is assumed. "
                "Add Z or +hh:mm",
                None,
            )
        )
    else:
        zone = _zone(tzd)
        if zone is None:
            return _invalid(raw, f"'{tzd}' is not a time zone offset")
        zone_text, offset = zone
    fraction = frac or ""
    out = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}{fraction}{zone_text}"
    local = dt.datetime(year, month, day, hour, minute, second, tzinfo=dt.timezone.utc)
    instant = (local - _EPOCH).total_seconds() - offset * 60 + (float(fraction) if fraction else 0.0)
    return Lastmod(out, instant), tuple(problems)


def from_python(value: dt.date) -> Lastmod:
    """A lastmod from a Python date or datetime (API callers); naive means UTC."""
    if isinstance(value, dt.datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=dt.timezone.utc)
        text = aware.isoformat(timespec="seconds" if not aware.microsecond else "microseconds")
        text = text.replace("+00:00", "Z") if value.tzinfo is None else text
        return Lastmod(text, aware.timestamp())
    instant = dt.datetime(value.year, value.month, value.day, tzinfo=dt.timezone.utc).timestamp()
    return Lastmod(value.isoformat(), instant)


class DateCache:
    """Memoises ``parse_w3c``: source rows repeat a handful of lastmods many times."""

    __slots__ = ("_cache",)
    _LIMIT = 65_536

    def __init__(self) -> None:
        self._cache: dict[str, Parsed] = {}

    def parse(self, raw: str) -> Parsed:
        hit = self._cache.get(raw)
        if hit is None:
            if len(self._cache) >= self._LIMIT:
                self._cache.clear()
            hit = self._cache[raw] = parse_w3c(raw)
        return hit


def bad_clock(what: str, raw: str) -> DateProblem:
    """D101 on a clock a description sets (site.now): no W3C date or date-time."""
    return DateProblem("D101", f"{what} '{raw}' is not a W3C date or date-time")


def empty_lastmod() -> DateProblem:
    """D101 on a lastmod element with no text."""
    return DateProblem("D101", "lastmod is empty; give the date the page last changed, or leave the element out")


def xsd_rejects(what: str, value: str, suggestion: str | None, schema: str = "XSD") -> DateProblem:
    """D108: a date in a W3C form the XSD rejects (``parse_w3c`` said D106), where a check
    reports it rather than rewriting it."""
    return DateProblem("D108", f"{what} '{value}' is a W3C form the {schema} rejects; write {suggestion}",
                       suggestion)


def outside_w3c(what: str, value: str, suggestion: str | None, schema: str = "XSD") -> DateProblem:
    """D111: a date the XSD accepts in a form W3C Datetime does not define (a date with a
    zone, 24:00:00), where a check reports it rather than rewriting it."""
    return DateProblem("D111", f"{what} '{value}' is valid for the {schema} but no W3C Datetime, the format search "
                       f"engines document; write {suggestion}", suggestion)


def judge_date(text: str, dates: DateCache, report: Callable[..., object], at: object, *, url: str | None = None,
               what: str = "lastmod", schema: str = "XSD", rewritten: bool = False) -> Lastmod | None:
    """The one judgement of a W3C date wherever it stands (a page's lastmod, a video's or
    an article's date; in a description, a source or a sitemap): D101 (not a date), D107
    (no zone: UTC assumed), D111 (the XSD's form, not W3C's: a check's verdict; a
    description's is D106 as below), and a W3C form the XSD rejects: D108 where the value stands
    in the file as written (a sitemap's), D106 (a note) where the one writer writes it
    anew in the XSD's form (``rewritten``: a description's, whose file then passes)."""
    lastmod, problems = dates.parse(text)
    for problem in problems:
        message = problem.message if what == "lastmod" else f"{what}: {problem.message}"
        if problem.code == "D106" and not rewritten:
            rejected = outside_w3c(what, text.strip(), problem.suggestion, schema=schema) if problem.xsd else \
                xsd_rejects(what, text.strip(), problem.suggestion, schema=schema)
            report(rejected.code, rejected.message, at, url=url, suggestion=problem.suggestion)
        else:
            report(problem.code, message, at, url=url, suggestion=problem.suggestion)
    return lastmod


def parse_now(raw: str) -> float | None:
    """The clock given by --now or site.now: a W3C date or date-time; None if invalid."""
    lastmod, problems = parse_w3c(raw)
    if lastmod is None or any(p.code == "D101" for p in problems):
        return None
    if not _MIN_INSTANT <= lastmod.instant <= _MAX_INSTANT:  # (no clock past 9999-12-31T23:59:59Z is written)
        return None
    return lastmod.instant


_MIN_INSTANT = (dt.datetime(1, 1, 1, tzinfo=dt.timezone.utc) - _EPOCH).total_seconds()
_MAX_INSTANT = (dt.datetime(9999, 12, 31, 23, 59, 59, tzinfo=dt.timezone.utc) - _EPOCH).total_seconds()


def format_instant(instant: float) -> str:
    """A UTC instant as a W3C date-time (for messages)."""
    return dt.datetime.fromtimestamp(instant, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class ClockError(ValueError):
    """SOURCE_DATE_EPOCH is set to something that is not a count of seconds."""


def default_clock(env: Mapping[str, str] | None = None) -> tuple[float, str]:
    """The instant to judge dates against when none is given (``--now``, ``site.now``):
    ``SOURCE_DATE_EPOCH`` (the reproducible-builds convention: whole seconds since
    1970-01-01 UTC) if set, else the system clock; with where it came from."""
    env = os.environ if env is None else env
    raw = env.get("SOURCE_DATE_EPOCH")
    if raw is not None and raw.strip() != "":
        text = raw.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 11):
            raise ClockError(f"SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, not '{text[:40]}'")
        return float(int(text)), "SOURCE_DATE_EPOCH"
    return float(int(time.time())), "the system clock"


def now_argument(value: object) -> str | None:
    """``now`` as the Python API takes it: None, a W3C date or date-time string, a
    ``datetime`` (naive ones are taken as UTC) or a ``date`` (its midnight UTC); the
    W3C text the rest of the toolkit reads. A wrong type is a TypeError, a string
    that is no date a ValueError: programming errors, not findings."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        moment = value if value.tzinfo is not None else value.replace(tzinfo=dt.timezone.utc)
        return format_instant(moment.timestamp())
    if isinstance(value, dt.date):
        return value.isoformat() + "T00:00:00Z"
    if isinstance(value, str):
        if parse_now(value) is None:
            raise ValueError(f"now={value!r} is not a W3C date or date-time (2026-11-21T09:00:00Z)")
        return value
    raise TypeError(f"now must be a datetime, a date or an ISO 8601 string, not {type(value).__name__}")
