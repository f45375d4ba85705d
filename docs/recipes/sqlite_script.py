"""Recipe: sitemaps for pages kept in SQLite, from a plain script.

    python docs/recipes/sqlite_script.py pages.db public/

The table ``pages(slug, locale, updated, photo)`` holds one row per page and
language; the rows of one slug are one page in several languages. The cursor is
streamed: a million rows never stand in memory at once.
"""

from __future__ import annotations

import itertools
import sqlite3
import sys

from sitemap_ext import Alternate, Image, Locale, Page, Site, build

SITE = Site(base_url="https://www.example.com/", x_default="en",
            locales=(Locale(code="en", prefix="/en/"), Locale(code="de", prefix="/de/")))


def pages(connection: sqlite3.Connection):
    rows = connection.execute("SELECT slug, locale, updated, photo FROM pages ORDER BY slug, locale")
    for slug, group in itertools.groupby(rows, key=lambda row: row[0]):
        versions = list(group)
        yield Page(alternates=tuple(Alternate(code=locale, url=f"/{locale}/{slug}") for _, locale, _, _ in versions),
                   lastmod=max(updated for _, _, updated, _ in versions),
                   images=tuple(Image(loc=photo) for photo in sorted({photo for *_, photo in versions if photo})))


def main(database: str, out_dir: str) -> int:
    with sqlite3.connect(database) as connection:
        result = build(SITE, out_dir, pages=pages(connection))
    for finding in result.collector.sorted():
        print(finding.code, finding.file, finding.line, finding.message, file=sys.stderr)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
