"""A listed URL that robots.txt keeps crawlers from (a check of a live site).

Sources: Google, "Manage your sitemaps using the Sitemaps report" (a sitemap's URL
blocked by robots.txt is an error: "Submitted URL blocked by robots.txt"); RFC 9309
(the Robots Exclusion Protocol: groups, longest match, Allow over Disallow on a tie),
as Protego implements it.
"""

from __future__ import annotations

from typing import Any

from ..read.robots import CRAWLER, parse_robots
from ..urls import origin_text
from .context import Context, Report
from .registry import Rule


def disallowed(entry: object, ctx: Context) -> None:
    """R107: the entry's URL is one that its host's robots.txt disallows for Googlebot."""
    if not ctx.robots or ctx.loc is None:
        return
    text = ctx.robots.get(origin_text(ctx.loc).lower())
    if text is None:
        return
    try:
        allowed = parse_robots(text).can_fetch(ctx.loc, CRAWLER)
    except Exception:  # (any error) a robots.txt that the parser cannot take blocks nothing here
        return
    if not allowed:
        ctx.report("R107", f"{ctx.loc} is listed, but robots.txt disallows it for {CRAWLER}: search engines do not "
                   "crawl it (Search Console: 'Submitted URL blocked by robots.txt'); allow it or remove it from the "
                   "sitemap", getattr(entry, "line", None), url=ctx.loc)


def named_disallowed(report: Report, url: str, at: Any) -> None:
    """R107, for an alternate the sitemaps name (a live check fetches no such page)."""
    report("R107", f"{url} is named by the sitemaps, but robots.txt disallows it for {CRAWLER}: search engines do "
           "not crawl it, and this check does not fetch it", at, url=url)


RULES: tuple[Rule, ...] = (
    Rule("robots-disallowed", "entry", ("R107",), disallowed),
)
