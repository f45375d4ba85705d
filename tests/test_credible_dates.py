"""D109 (issue 29): a sitemap whose lastmods are the time it was generated, judged on
every sitemap read, never beside D103 for one file."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext import check

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'


def sitemap(tmp_path: Path, dates: list[str | None], name: str = "sitemap.xml") -> Path:
    entries = "".join(f"<url><loc>https://e.com/{i}</loc>{'' if d is None else f'<lastmod>{d}</lastmod>'}</url>\n"
                      for i, d in enumerate(dates))
    path = tmp_path / name
    path.write_text(HEAD + entries + "</urlset>\n", encoding="utf-8")
    return path


def found(path: Path) -> list[tuple[str, int | None]]:
    result = check([str(path)], now="2026-12-01T00:00:00Z")
    return [(d.code, d.line) for d in result.collector.sorted() if d.code in ("D103", "D109")]


STAMP = "2026-11-25T04:00:00.536Z"


@pytest.mark.parametrize(("dates", "expected"), [
    ([STAMP] * 8 + ["2025-01-01", "2024-05-05"], [("D109", None)]),  # most (four in five) at the newest
    ([STAMP] * 5 + ["2025-01-01"] * 4, []),  # five of nine: a section's default date, say
    ([STAMP] * 5 + ["2026-11-25T04:00:00.535Z"], [("D109", None)]),  # a millisecond apart: astro, next-sitemap
    ([STAMP] * 8, [("D103", None)]),  # every one the same: D103's verdict alone
    ([STAMP] * 3 + ["2025-01-01", "2024-05-05", "2024-01-01", "2023-01-01", "2022-01-01"], []),  # three of eight
    ([STAMP] * 4 + ["2025-01-01"], []),  # fewer than five share it
    (["2025-01-01"] * 6 + [STAMP, "2024-01-01"], []),  # most share a date, but not the newest: a bulk edit long ago
    ([STAMP] * 5 + [None] * 5, []),  # half, not most
    ([STAMP] * 8 + [None] * 2, [("D109", None)]),  # entries without a lastmod count among the entries
])
def test_most_entries_at_the_newest_date(tmp_path: Path, dates: list[str | None],
                                         expected: list[tuple[str, int | None]]) -> None:
    assert found(sitemap(tmp_path, dates)) == expected


def test_a_large_file_whose_dates_all_fall_in_one_minute(tmp_path: Path) -> None:
    spread = [f"2026-11-25T04:00:{i % 60:02d}Z" for i in range(1000)]
    assert found(sitemap(tmp_path, spread)) == [("D109", None)]
    assert found(sitemap(tmp_path, spread[:999])) == []  # not large
    wider = spread[:999] + ["2026-11-25T04:01:01Z"]
    assert found(sitemap(tmp_path, wider)) == []  # a minute and a second


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 20), min_size=1, max_size=60))
def test_never_both_d103_and_d109_and_d109_only_on_a_majority_at_the_newest(tmp_path_factory: pytest.TempPathFactory,
                                                                          days: list[int]) -> None:
    dates = [f"2026-01-{1 + d:02d}" for d in days]
    codes = [code for code, _ in found(sitemap(tmp_path_factory.mktemp("d"), list(dates)))]
    newest = max(dates)
    majority = dates.count(newest) >= 5 and dates.count(newest) >= 0.8 * len(dates)
    assert codes.count("D103") + codes.count("D109") <= 1
    assert ("D109" in codes) == (majority and len(set(dates)) > 1)
    assert ("D103" in codes) == (len(set(dates)) == 1 and len(dates) >= 5)
