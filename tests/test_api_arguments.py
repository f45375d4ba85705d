"""The Python API takes plain Python values, and says clearly when an argument is wrong."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Callable

import pytest

from sitemap_ext import build, check

from .test_safety_check import NEWS_SITE

# An article two days before 2026-11-21 and one on it: drop_old_news keeps both at 2026-11-19.
NEWS = NEWS_SITE


@pytest.mark.parametrize("now", [
    dt.datetime(2026, 11, 19, tzinfo=dt.timezone.utc),
    dt.datetime(2026, 11, 19, 1, 0, tzinfo=dt.timezone(dt.timedelta(hours=1))),  # the same instant
    dt.datetime(2026, 11, 19),  # naive: taken as UTC
    dt.date(2026, 11, 19),
    "2026-11-19T00:00:00Z",
])
def test_now_takes_datetimes_dates_and_strings(make_site: Callable[..., Path], tmp_path: Path,
                                               now: object) -> None:
    result = build(make_site(NEWS), tmp_path / "out", now=now)  # a Path for each path argument
    assert result.ok and result.site is not None
    assert result.site.now == dt.datetime(2026, 11, 19, tzinfo=dt.timezone.utc).timestamp()
    assert not [d for d in result.collector.diagnostics if d.code == "N110"]  # a day old at most: kept
    report = check(tmp_path / "out", now=now)
    assert report.now == result.site.now


def test_wrong_arguments_raise_clear_errors(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(NEWS)
    with pytest.raises(ValueError, match="not a W3C date"):
        build(site, now="yesterday")
    with pytest.raises(TypeError, match="now must be a datetime"):
        check(tmp_path, now=1_795_000_000)
    with pytest.raises(TypeError, match="path of a site description"):
        build({"site": {"base_url": "https://e.com/"}})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a path .* or a list of them"):
        check(123)  # type: ignore[arg-type]
