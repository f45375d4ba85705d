"""Credible dates: whether a file's lastmods say when its pages changed, and whether a
page's lastmod moved while its content did not.

Sources: Google Search Central blog, "Sitemaps ping endpoint is going away" (June
2023): Google uses lastmod only "if it's consistently and verifiably accurate";
Google, "Build and submit a sitemap" (lastmod is the page's last significant change,
not the time the sitemap was generated); Bing Webmaster blog (July 2025): lastmod is
a key signal, with date and time.
"""

from __future__ import annotations

from ..dates import format_instant
from .context import Context, Report
from .registry import Rule

MOST_AT_LEAST = 5  # entries, as D103: fewer sharing one date say little
# "Most": four entries in five. A section's pages given one date by hand (a default)
# may well be half of a small file; a generator's stamp is on nearly every entry
# (5 of 6 and 17 of 18 in the real-world corpus, a millisecond apart from the rest).
MOST = 0.8
LARGE_FILE = 1_000  # lastmods: a file this large whose dates all fall within one minute
ONE_MINUTE = 60.0
# The spread of a clock stamping each entry as it writes it (next-sitemap calls new Date()
# per URL: 88 to 276 entries 2 to 17 ms apart): most entries within the newest second or
# the one before it. Not below 10 entries, where a small site's pages put up in one sitting
# look the same; a first import beside older pages has its older dates (fewer than "most").
SPREAD_AT_LEAST = 10


def credible_lastmod(ctx: Context) -> None:
    """D109: a urlset's lastmods look like the time it was generated, not page times:
    at least four in five of its entries (and 5) share one lastmod that is the file's
    newest (a generator stamps the time it runs, which comes after every true page
    date), or the lastmods of a file of at least 1,000 fall within one minute (each
    stamped by a clock as the build ran), or at least four in five (and 10) fall within
    the newest second and the one before it (a clock stamping each entry milliseconds
    apart, as next-sitemap does). When every entry has the same lastmod, D103 says so
    instead; a file with older dates on more than one entry in five (a first import beside
    older pages) is left alone.

    Fails: 8 entries, 6 of them at 2026-11-25T04:00:00Z, the newest, and 2 older.
    Passes: 9 entries, 5 at the newest date (a section's default) and 4 at older dates.
    """
    facts = ctx.facts
    if not facts.complete or facts.kind != "urlset" or facts.lastmod_newest is None:
        return
    if facts.lastmod_count == facts.entries and len(facts.lastmods) < 2:
        return  # (one date on every entry: D103's verdict)
    newest = facts.lastmod_newest
    shared = facts.lastmod_at_newest
    if shared >= MOST_AT_LEAST and shared >= MOST * facts.entries:
        ctx.report("D109", f"{shared:,} of {facts.entries:,} lastmods are {format_instant(newest)}, the newest of "
                   "the file: this looks like the time it was generated, not when each page changed (unless they did "
                   "all change then); Google uses lastmod only if it is consistently and verifiably accurate: give "
                   "each page the date its content last changed (sitemap-ext's lastmod: content keeps it from build "
                   "to build), or leave lastmod out", None)
    elif not _spread(ctx) and facts.lastmod_count >= LARGE_FILE and len(facts.lastmods) > 1 and \
            newest - facts.lastmod_oldest <= ONE_MINUTE:
        ctx.report("D109", f"all {facts.lastmod_count:,} lastmods fall within one minute "
                   f"({format_instant(facts.lastmod_oldest)} to {format_instant(newest)}): this looks like the "
                   "time the file was generated, not when each page changed (unless they did all change then); "
                   "Google uses lastmod only if it is consistently and verifiably accurate: give each page the date "
                   "its content last changed (sitemap-ext's lastmod: content keeps it from build to build), or leave "
                   "lastmod out", None)


def _spread(ctx: Context) -> bool:
    """D109 (reported here) when most entries' lastmods lie within the newest second and
    the one before it, a few milliseconds apart: each stamped by a clock as it was
    written, which no two pages' true changes are."""
    facts = ctx.facts
    near = facts.lastmod_in_bucket + facts.lastmod_in_bucket_before
    if facts.lastmod_newest is None or near < SPREAD_AT_LEAST or near < MOST * facts.entries:
        return False
    ctx.report("D109", f"{near:,} of {facts.entries:,} lastmods fall within two seconds of "
               f"{format_instant(facts.lastmod_newest)}, the newest of the file, milliseconds apart: this looks like "
               "a clock stamping each entry as the file was generated, not when each page changed (unless they did "
               "all change then); Google uses lastmod only if it is consistently and verifiably accurate: give each "
               "page the date its content last changed (sitemap-ext's lastmod: content keeps it from build to "
               "build), or leave lastmod out", None)
    return True


def moved_same_content(report: Report, url: str, before: str, now: str, at: object) -> None:
    """D110: with a build state, a page's lastmod moved since the last build while the
    digest of its content did not: the date follows something else (a build time, a
    template) and search engines learn to distrust it."""
    report("D110", f"the lastmod of {url} moved from {before} to {now} since the last build, but its content did "
           "not change; give the date its content last changed (lastmod: content)", at, url=url)


RULES: tuple[Rule, ...] = (
    Rule("credible-lastmod", "file", ("D109",), credible_lastmod),
)
