"""lastmod, changefreq and priority.

Sources: sitemaps.org protocol (lastmod in W3C Datetime; changefreq one of seven
words; priority 0.0 to 1.0); sitemap.xsd (xsd:date | xsd:dateTime, so YYYY,
YYYY-MM and times without seconds fail it); Google, "Build and submit a sitemap"
(lastmod is used when it is consistently accurate; changefreq and priority are
ignored).
"""

from __future__ import annotations

from functools import lru_cache

from ..dates import Lastmod, format_instant
from ..read.normalised import CHANGEFREQS
from ..read.record import Value
from .context import Context


def judge_lastmod(value: Value | None, ctx: Context) -> Lastmod | None:
    """D101 (empty or invalid), D102 (future), D107 (no zone), D108 (a form the XSD rejects)."""
    if value is None:
        return None
    text, line, url = value.text, value.line, ctx.loc
    if text is None or not text.strip():
        ctx.report("D101", "lastmod is empty; give the date the page last changed, or leave the element out", line,
                   url=url)
        return None
    lastmod, problems = ctx.dates.parse(text)
    for problem in problems:
        if problem.code == "D106":
            ctx.report("D108", f"lastmod '{text.strip()}' is a W3C form the sitemap XSD rejects; write "
                       f"{problem.suggestion}", line, url=url, suggestion=problem.suggestion)
        else:
            ctx.report(problem.code, problem.message, line, url=url, suggestion=problem.suggestion)
    if lastmod is None:
        return None
    if ctx.now is not None and lastmod.instant > ctx.now:
        ctx.report("D102", f"lastmod {lastmod.text} is after {format_instant(ctx.now)}; lastmod is when the page "
                   "last changed", line, url=url)
    return lastmod


def lastmod(entry: object, ctx: Context) -> None:
    """D101, D102, D107, D108 on the entry's lastmod; counts lastmods for D103."""
    found = judge_lastmod(entry.lastmod, ctx)  # type: ignore[attr-defined]
    if found is not None:
        facts = ctx.facts
        facts.lastmod_count += 1
        if facts.first_lastmod is None:
            facts.first_lastmod = found.text
        elif len(facts.lastmods) < 2:
            facts.lastmods.update((facts.first_lastmod, found.text))


@lru_cache(maxsize=256)
def changefreq_fix(text: str | None) -> tuple[bool, str | None]:
    value = (text or "").strip()
    return value in CHANGEFREQS, (value.lower() if value.lower() in CHANGEFREQS else None)


def changefreq(entry: object, ctx: Context) -> None:
    """D104: changefreq is one of always, hourly, daily, weekly, monthly, yearly, never."""
    value: Value | None = entry.changefreq  # type: ignore[attr-defined]
    if value is not None:
        ok, fix = changefreq_fix(value.text)
        if not ok:
            ctx.report("D104", f"changefreq '{(value.text or '').strip()}' is not one of: {', '.join(CHANGEFREQS)}",
                       value.line, url=ctx.loc, suggestion=fix)


@lru_cache(maxsize=256)
def priority_ok(text: str | None) -> bool:
    value = (text or "").strip()
    if len(value) > 32:
        return False
    try:
        number = float(value)
    except ValueError:
        return False
    return 0.0 <= number <= 1.0 and value.lower() not in ("nan", "inf")


def priority(entry: object, ctx: Context) -> None:
    """D105: priority is a number from 0.0 to 1.0."""
    value: Value | None = entry.priority  # type: ignore[attr-defined]
    if value is not None and not priority_ok(value.text):
        ctx.report("D105", f"priority '{(value.text or '').strip()}' must be a number from 0.0 to 1.0", value.line,
                   url=ctx.loc)
