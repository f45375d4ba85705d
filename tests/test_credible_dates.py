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


# --- a clock stamping each entry: the spread of milliseconds (issue 38) -------------------

def stamped(count: int, start_ms: int = 400, spread_ms: int = 17) -> list[str | None]:
    """next-sitemap's lastmods: new Date() per URL as it writes them, ``count`` entries
    spread over ``spread_ms`` milliseconds (2 to 17 in the files seen)."""
    out: list[str | None] = []
    for i in range(count):
        seconds, millis = divmod(start_ms + i * spread_ms // max(count - 1, 1), 1000)
        out.append(f"2026-11-25T04:00:{seconds:02d}.{millis:03d}Z")
    return out


@pytest.mark.parametrize(("count", "spread_ms"), [(88, 2), (88, 17), (276, 17), (276, 5)])
def test_lastmods_milliseconds_apart_at_the_newest_second(tmp_path: Path, count: int, spread_ms: int) -> None:
    """Not all equal (D103), few at the newest value (D109's majority), fewer than 1,000
    (the minute rule's size): judged by their spread."""
    dates = stamped(count, spread_ms=spread_ms)
    assert len(set(dates)) > 1 and dates.count(max(d for d in dates if d)) < 0.8 * count
    assert found(sitemap(tmp_path, dates)) == [("D109", None)]


def test_a_stamped_file_with_a_few_older_pages(tmp_path: Path) -> None:
    assert found(sitemap(tmp_path, stamped(88) + ["2025-03-01", "2024-07-19"] * 5)) == [("D109", None)]


def test_a_first_import_beside_older_pages_is_left_alone(tmp_path: Path) -> None:
    """Many pages put up within one minute once (an import), half the entries older."""
    imported = [f"2026-11-25T04:00:{i % 60:02d}.{i * 7 % 1000:03d}Z" for i in range(150)]
    older = [f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}" for i in range(150)]
    assert found(sitemap(tmp_path, imported + older)) == []
    near = stamped(150)  # even when the import's dates are milliseconds apart
    assert found(sitemap(tmp_path, near + older)) == []


def test_a_small_site_stamped_in_one_second_is_below_the_minimum(tmp_path: Path) -> None:
    assert found(sitemap(tmp_path, stamped(9))) == []
    assert found(sitemap(tmp_path, stamped(10))) == [("D109", None)]


def test_the_spread_is_counted_in_any_order(tmp_path: Path) -> None:
    dates = stamped(120, start_ms=990, spread_ms=30)  # across a second's boundary
    older = ["2024-01-01"] * 20
    assert found(sitemap(tmp_path, older[:10] + dates[::-1] + older[10:])) == [("D109", None)]
