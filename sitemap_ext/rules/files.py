"""Whole files: how many entries, and whether their lastmods say anything.

Sources: sitemaps.org protocol (at most 50,000 URLs per sitemap and 50,000
sitemaps per index; the XSD requires at least one entry); Google, "Build and
submit a sitemap" (lastmod must reflect the page's last significant change).
"""

from __future__ import annotations

from typing import Any

from ..limits import HEAD_LIMIT, MAX_URLS_PER_FILE
from .context import Context, Report
from .registry import Rule

_KINDS = {"sitemapindex": "sitemap index", "urlset": "urlset", "text": "text sitemap", "rss": "feed",
          "atom": "feed"}


def entry_count(ctx: Context, line: int) -> None:
    """X108: the 50,001st entry of a file (reported where it stands)."""
    if ctx.facts.entries == MAX_URLS_PER_FILE + 1:
        what = "sitemaps in one index" if ctx.facts.kind == "sitemapindex" else "URLs in one sitemap"
        ctx.report("X108", f"more than {MAX_URLS_PER_FILE:,} {what}; split it and list the parts in an index", line)


def empty(ctx: Context) -> None:
    """X115: a urlset or index with no entries (the XSD requires one), or a file with no
    URL at all (0 bytes, blank lines): search engines reject a sitemap they cannot read
    a URL from (Search Console: "Sitemap is empty")."""
    facts = ctx.facts
    if not facts.complete or facts.entries:
        return
    if facts.kind in ("urlset", "sitemapindex"):
        ctx.report("X115", f"the {_KINDS[facts.kind]} has no entries; the XSD requires at least one", None)
    elif facts.kind == "text":
        ctx.report("X115", "the file holds no URL; search engines reject a sitemap without any: list its URLs, "
                   "or remove it and its listing", None)


# Fewer entries sharing one date say little (two pages may change on one day).
UNIFORM_AT_LEAST = 5


def uniform_lastmod(ctx: Context) -> None:
    """D103: every lastmod of a urlset is the same instant: the build time (or a default),
    not page times. Feeds are left alone: an item's date is its publication, and a
    feed of a few posts of one day is no sign of anything."""
    facts = ctx.facts
    if facts.complete and facts.kind == "urlset" and facts.lastmod_count >= UNIFORM_AT_LEAST \
            and facts.lastmod_count == facts.entries and len(facts.lastmods) < 2:
        ctx.report("D103", f"all {facts.entries:,} lastmods are {facts.first_lastmod}: one date for every page is "
                   "the build's (or a default), not when each page changed, and search engines learn to ignore "
                   "it; give each page its own date, or leave lastmod out", None)


HEAD_UNREAD = (f"the head of this page does not end within its first {HEAD_LIMIT:,} bytes, so its hreflang links, "
               "canonical and robots tags were not read (move scripts and styles out of the head)")
# A built file whose name is not UTF-8 (os gives its bytes as lone surrogates).
NAME_NOT_UTF8 = ("the file's name is not valid UTF-8, so no URL reaches it as browsers and crawlers send them "
                 "(percent-encoded UTF-8): it is no page of the site; rename it")


def head_unread(report: Report, at: Any, url: str | None = None, consequence: str = "") -> None:
    """H117: a built page whose head does not end within its first 1 MiB (the check's
    reader of pages and the build's reader of a built site both stop there)."""
    report("H117", HEAD_UNREAD + consequence, at, url=url)


def name_not_utf8(report: Report, at: Any) -> None:
    """U116: a built file whose name is not UTF-8 is no page of the site."""
    report("U116", NAME_NOT_UTF8, at)


RULES: tuple[Rule, ...] = (
    Rule("empty-file", "file", ("X115",), empty),
    Rule("uniform-lastmod", "file", ("D103",), uniform_lastmod),
)
