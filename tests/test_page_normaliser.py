"""The page normaliser is three parts it calls (single fields, URLs per locale, media),
each reporting to the collector the normaliser is given: a collector swapped in after
it is made (a worker's own, or one whose findings a built site's head leaves unsaid)
reaches every part."""

from __future__ import annotations

from typing import Any

from sitemap_ext.codes import REGISTRY
from sitemap_ext.diagnostics import Collector, Where
from sitemap_ext.read.normalised import Defaults
from sitemap_ext.write.page_normaliser import PageNormaliser
from sitemap_ext.write.site_yaml import load_site_data

SITE = {"site": {"base_url": "https://e.com/"}, "locales": {"en": "/en/", "de": "/de/"}}
# A urls key written with an underscore (the resolver's: L101, line 2), a lastmod with
# no such month (the fields': D101, line 3), a video without its required fields and an
# image that is a number (the media's: V101, V102, C103, lines 4 and 5).
PAGE = {"urls": {"en_US": "/en/a", "de": "/de/a"}, "lastmod": "2026-13-01",
        "videos": [{"thumbnail_loc": "https://e.com/t.jpg"}], "images": [5]}
LINES = {"urls": 2, "lastmod": 3, "videos": 4, "images": 5}
FOUND = [("L101", 2), ("D101", 3), ("V101", 4), ("V101", 4), ("V102", 4), ("C103", 5)]


def _where_of(field: Any) -> Where:
    return Where("site.yaml", LINES[field if isinstance(field, str) else field[0]])


def _made(swap: bool) -> tuple[Collector, Collector]:
    """PAGE made by a normaliser, its collector swapped after it is made when ``swap``:
    the collector it was made with, and the one swapped in."""
    first, second = Collector(REGISTRY), Collector(REGISTRY)
    site = load_site_data(SITE, first)
    assert site is not None and site.scope is not None and first.sorted() == []
    normaliser = PageNormaliser(site.scope, first)
    if swap:
        normaliser.collector = second
        assert normaliser.collector is second
    page = normaliser.page(PAGE, _where_of, Defaults(), Where("site.yaml", 1))
    assert page is not None and page.locs == ("https://e.com/de/a",) and page.codes == ("de",)
    return first, second


def test_each_part_reports_to_the_normalisers_collector() -> None:
    first, second = _made(swap=False)
    assert [(d.code, d.line) for d in first.sorted()] == FOUND
    assert second.sorted() == []


def test_a_collector_swapped_in_reaches_every_part() -> None:
    first, second = _made(swap=True)
    assert first.sorted() == []
    assert [(d.code, d.line) for d in second.sorted()] == FOUND
