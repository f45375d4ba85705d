"""lastmod, changefreq and priority.

Sources: sitemaps.org protocol (lastmod in W3C Datetime; changefreq one of seven
words; priority 0.0 to 1.0); sitemap.xsd (xsd:date | xsd:dateTime, so YYYY,
YYYY-MM and times without seconds fail it); Google, "Build and submit a sitemap"
(lastmod is used when it is consistently accurate; changefreq and priority are
ignored).
"""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter
from typing import Any

from ..dates import Lastmod, empty_lastmod, format_instant, judge_date
from ..read.normalised import CHANGEFREQS
from ..read.record import FileFacts, Value
from ..xsd_values import priority_accepted
from .context import Context, Report
from .registry import Rule


def judge_lastmod(value: Value | None, ctx: Context) -> Lastmod | None:
    """D101 (empty or invalid), D102 (future), D107 (no zone), D108 (a form the XSD rejects), D111
    (a form the XSD accepts and W3C Datetime does not define)."""
    if value is None:
        return None
    text, line, url = value.text, value.line, ctx.loc
    if text:
        found, problems = ctx.dates.parse(text)  # (memoised: a site shares a few lastmods)
        if found is not None and not problems:  # the common case: nothing to say but whether it is ahead
            if ctx.now is not None and found.instant > ctx.now:
                future(found, ctx.now, ctx.report, line, url=url)
            return found
    if text is None or not text.strip():
        empty = empty_lastmod()
        ctx.report(empty.code, empty.message, line, url=url)
        return None
    lastmod = judge_date(text, ctx.dates, ctx.report, line, url=url, schema="sitemap XSD")
    if lastmod is None:
        return None
    future(lastmod, ctx.now, ctx.report, line, url=url)
    return lastmod


def future(lastmod: Lastmod, now: float | None, report: Report, at: Any, url: str | None = None) -> None:
    """D102: a lastmod after the build or check time (the build judges its pages' here too)."""
    if now is not None and lastmod.instant > now:
        report("D102", f"lastmod {lastmod.text} is after {format_instant(now)}; lastmod is when the page last "
               "changed", at, url=url)


def lastmod(entry: object, ctx: Context) -> Lastmod | None:
    """D101, D102, D107, D108, D111 on the entry's lastmod; counts lastmods for D103 and D109."""
    found = judge_lastmod(entry.lastmod, ctx)  # type: ignore[attr-defined]
    count_lastmod(found, ctx)
    return found


def count_lastmod(found: Lastmod | None, ctx: Context, times: int = 1) -> None:
    """An entry's lastmod (as judged: None, none valid) counted for D103 and D109, for
    ``times`` entries. What is kept does not depend on the order lastmods are counted in
    but for the first (the newest, how many have it, the oldest, the newest second and the
    one before it), so entries sharing one may be counted at once."""
    if found is None:
        return
    facts = ctx.facts
    facts.lastmod_count += times
    instant = found.instant
    if facts.first_lastmod is None:
        facts.first_lastmod = found.text
        facts.lastmod_oldest = instant
    elif len(facts.lastmods) < 2:
        facts.lastmods.update((facts.first_lastmod, found.text))
    if facts.lastmod_newest is None or instant > facts.lastmod_newest:
        facts.lastmod_newest, facts.lastmod_at_newest = instant, times
    elif instant == facts.lastmod_newest:
        facts.lastmod_at_newest += times
    facts.lastmod_oldest = min(facts.lastmod_oldest, instant)
    bucket = instant // 1.0
    if bucket == facts.lastmod_bucket:  # (the common case, without a call)
        facts.lastmod_in_bucket += times
    else:
        _count_bucket(facts, bucket, times)


def _count_bucket(facts: FileFacts, bucket: float, times: int) -> None:
    """Count a lastmod in its one-second bucket, keeping the newest bucket and the one
    before it (D109's spread: a generator's clock stamps each entry milliseconds apart)."""
    newest = facts.lastmod_bucket
    if newest is None or bucket > newest:
        before = facts.lastmod_in_bucket if newest is not None and bucket == newest + 1 else 0
        facts.lastmod_bucket, facts.lastmod_in_bucket, facts.lastmod_in_bucket_before = bucket, times, before
    elif bucket == newest:
        facts.lastmod_in_bucket += times
    elif bucket == newest - 1:
        facts.lastmod_in_bucket_before += times


def judge_changefreq(text: str | None, report: Report, at: Any, url: str | None = None) -> str | None:
    """D104: the changefreq as written when it is one of the seven (whitespace around
    it aside), else None, reported (with the fix when only its case is wrong). The
    build drops what this gives None for; the check reports it."""
    value, fix = changefreq_fix(text)
    if value is not None:
        return value
    written = (text or "").strip()
    if fix is not None:
        report("D104", f"changefreq '{written}' must be written in lower case: '{fix}'", at, url=url, suggestion=fix)
    else:
        report("D104", f"changefreq '{written}' is not one of: {', '.join(CHANGEFREQS)}", at, url=url)
    return None


@lru_cache(maxsize=256)
def changefreq_fix(text: str | None) -> tuple[str | None, str | None]:
    """(the value, None) when valid; else (None, the fix when only the case is wrong)."""
    value = (text or "").strip()
    if value in CHANGEFREQS:
        return value, None
    return None, (value.lower() if value.lower() in CHANGEFREQS else None)


def changefreq(entry: object, ctx: Context) -> None:
    """D104: changefreq is one of always, hourly, daily, weekly, monthly, yearly, never."""
    value: Value | None = entry.changefreq  # type: ignore[attr-defined]
    if value is not None:
        judge_changefreq(value.text, ctx.report, value.line, ctx.loc)


def format_priority(value: float) -> str:
    """A priority as the files write it: at most three decimals, at least one."""
    text = f"{value:.3f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


@lru_cache(maxsize=1024)
def priority_value(text: str | None) -> str | None:
    """The priority as the files write it ("0.8"), or None if the XSD's type (an
    xsd:decimal from 0.0 to 1.0, exactly: '1.00000000000000000001' is out, '.5' and
    '+0.5' in, '1e-1' and '0x1' no decimal) rejects it: the predicate the build drops a
    value by and the check judges it by. Memoised: a site repeats a few priorities."""
    value = (text or "").strip()
    if len(value) > 32 or not priority_accepted(text or ""):
        return None
    return format_priority(abs(float(value)))  # (abs: -0.0 is 0.0)


def judge_priority(text: str | None, report: Report, at: Any, url: str | None = None) -> str | None:
    """D105: the priority as the files write it, or None (reported)."""
    found = priority_value(text)
    if found is None:
        report("D105", f"priority '{(text or '').strip()}' must be a number from 0.0 to 1.0 (0.5 is the default)",
               at, url=url)
    return found


def priority(entry: object, ctx: Context) -> None:
    """D105: priority is a number from 0.0 to 1.0."""
    value: Value | None = entry.priority  # type: ignore[attr-defined]
    if value is not None:
        judge_priority(value.text, ctx.report, value.line, ctx.loc)


# (The keys: a value's text; its verdict does not depend on its line.)
RULES: tuple[Rule, ...] = (
    Rule("lastmod", "entry", ("D101", "D102", "D107", "D108", "D111"), lastmod, reads="lastmod",
         key=attrgetter("lastmod.text"), tally=count_lastmod),
    Rule("changefreq", "entry", ("D104",), changefreq, reads="changefreq", key=attrgetter("changefreq.text")),
    Rule("priority", "entry", ("D105",), priority, reads="priority", key=attrgetter("priority.text")),
    Rule("index-lastmod", "index", ("D101", "D102", "D107", "D108", "D111"), lastmod, reads="lastmod"),
)
