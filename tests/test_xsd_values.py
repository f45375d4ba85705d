"""Values judged by the official schema's datatypes: every form a lastmod or priority
takes, the check's verdict beside what sitemap.xsd itself says of a one-entry urlset."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from sitemap_ext import build, check
from sitemap_ext.dates import DateCache, judge_date

from .conftest import SCHEMAS

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
LATER = "2100-01-01T00:00:00Z"  # a clock after every date here: no D102
REJECTED = {"D101", "D105", "D108"}  # what says "the XSD rejects it"

# value -> the codes a check gives (D111: the XSD's form, not W3C Datetime's)
LASTMODS: dict[str, set[str]] = {
    "2026-11-20T10:00:00-00:00": set(),
    "2026-11-20T10:00:00+14:00": set(),
    "2026-11-20T10:00:00-14:00": set(),
    "2026-11-20T10:00:00+14:30": {"D108"},  # the XSD's zones end at 14:00
    "2026-11-20T10:00:00+15:00": {"D108"},
    "2026-11-20T10:00": {"D107", "D108"},  # no zone (W3C) and no seconds (the XSD): both said
    "2026-11-20T10:00:00": {"D107"},  # the XSD takes a time without a zone; W3C does not
    "2026-11-20T24:00:00Z": {"D111"},  # the XSD's end of day; W3C's hours end at 23
    "2026-11-20T24:00:01Z": {"D101"},
    "2016-12-31T23:59:60Z": {"D101"},  # leap seconds: neither takes them
    "0999-01-01": set(),
    "0001-01-01": set(),
    "0000-01-01": {"D101"},
    "2026": {"D108"},
    "2026-11": {"D108"},
    "2026-11-20T10:00Z": {"D108"},  # no seconds
    "2026-11-20T10:00+01:00": {"D108"},
    "2026-11-20T10:00:00.5Z": set(),
    "2026-11-20T10:00:00.123456789+01:00": set(),
    "2026-11-20T10:00:00.Z": {"D101"},
    " 2026-11-20 ": set(),
    "\n  2026-11-20T10:00:00Z\n": set(),
    "2026-11-20T10:00:00": {"D107"},  # the XSD takes no zone; W3C requires one
    "2026-11-20Z": {"D111"},
    "2026-11-20+01:00": {"D111"},
    "2026-11-20 10:00:00Z": {"D108"},
    "2026-11-20t10:00:00z": {"D108"},
    "2026-11-20T10:00:00+0100": {"D108"},
    "2026-11-20T10:00:00+01": {"D108"},
    "2026-02-30": {"D101"},
    "20261120": {"D101"},
}
# Valid for the XSD's type, and still D101: no W3C Datetime (a year in four digits,
# from 0001), and no page changed then.
XSD_ONLY = {"-0001-01-01", "12026-01-01"}
PRIORITIES: dict[str, set[str]] = {
    "1e-1": {"D105"}, ".5": set(), "+0.5": set(), "1.0000": set(), " 0.5 ": set(), "0x1": {"D105"},
    "5.": {"D105"}, "0.": set(), "-0.0": set(), "1.00000000000000000001": {"D105"}, "0.99999999999999999999": set(),
    "\uff10.5": {"D105"}, "0_5": {"D105"}, "nan": {"D105"}, "1.5": {"D105"},
}


def document(field: str, value: str) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}"><url><loc>https://www.example.com/</loc>'
            f"<{field}>{value}</{field}></url></urlset>\n")


def codes(tmp_path: Path, field: str, value: str) -> set[str]:
    path = tmp_path / "sitemap.xml"
    path.write_text(document(field, value), encoding="utf-8")
    return {d.code for d in check([str(path)], now=LATER).collector.sorted()}


@pytest.fixture(scope="module")
def sitemap_xsd() -> etree.XMLSchema:
    path = SCHEMAS / "sitemap.xsd"
    if not path.is_file():
        pytest.skip(f"the schema is not at {path}: tests/data/xsd is missing from this copy of the repository")
    return etree.XMLSchema(etree.parse(str(path)))


@pytest.mark.parametrize("value", sorted(LASTMODS | dict.fromkeys(XSD_ONLY, {"D101"})))
def test_every_lastmod_form(tmp_path: Path, value: str) -> None:
    expected = LASTMODS.get(value, {"D101"})
    assert codes(tmp_path, "lastmod", value) == expected


@pytest.mark.parametrize("value", sorted(PRIORITIES))
def test_every_priority_form(tmp_path: Path, value: str) -> None:
    assert codes(tmp_path, "priority", value) == PRIORITIES[value]


@pytest.mark.parametrize(("field", "value"), [("lastmod", v) for v in sorted(LASTMODS)] +
                         [("priority", v) for v in sorted(PRIORITIES)])
def test_the_verdict_is_the_xsds(tmp_path: Path, sitemap_xsd: etree.XMLSchema, field: str, value: str) -> None:
    """D101, D105 and D108 (the XSD rejects it) exactly when sitemap.xsd rejects the file."""
    valid = sitemap_xsd.validate(etree.fromstring(document(field, value).encode()))
    assert bool(codes(tmp_path, field, value) & REJECTED) == (not valid), value


def test_the_years_w3c_does_not_write(sitemap_xsd: etree.XMLSchema, tmp_path: Path) -> None:
    for value in XSD_ONLY:
        assert sitemap_xsd.validate(etree.fromstring(document("lastmod", value).encode()))
        assert codes(tmp_path, "lastmod", value) == {"D101"}


_two = st.integers(0, 99).map(lambda n: f"{n:02d}")
_zone = st.sampled_from(["", "Z", "z", "-00:00", "+00:00", "+14:00", "+14:01", "-13:59", "+23:59", "+01", "+0100"])
_time = st.tuples(_two, _two, st.sampled_from(["", ":00", ":59", ":60", ":07.25", ":07."]), _zone).map(
    lambda t: f"T{t[0]}:{t[1]}{t[2]}{t[3]}")
_dates = st.tuples(st.sampled_from(["2026", "0999", "0000", "1970", "2024", "9999"]),
                   st.sampled_from(["", "-01", "-02", "-13", "-00"]),
                   st.sampled_from(["", "-01", "-29", "-30", "-31", "-00"]),
                   st.one_of(st.just(""), _time, _zone),
                   st.sampled_from(["", " ", "\n"])).map(lambda t: t[4] + "".join(t[:4]) + t[4])


@settings(max_examples=400, deadline=None)
@given(_dates)
def test_generated_dates_agree_with_the_xsd(sitemap_xsd: etree.XMLSchema, value: str) -> None:
    found: list[str] = []
    judge_date(value, DateCache(), lambda code, *a, **k: found.append(code), None)
    valid = sitemap_xsd.validate(etree.fromstring(document("lastmod", value).encode()))
    assert bool(set(found) & REJECTED) == (not valid), (value, found)


def test_a_build_writes_a_zone_of_minus_zero_without_a_finding(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text("site:\n  base_url: https://www.example.com/\n  now: 2027-01-01\npages:\n"
                                        "  - loc: /\n    lastmod: '2026-11-20T10:00:00-00:00'\n"
                                        "  - loc: /b\n    lastmod: '2026-11-20T24:00:00Z'\n", encoding="utf-8")
    result = build(str(tmp_path / "site.yaml"), str(tmp_path / "out"))
    assert [(d.code, d.severity) for d in result.collector.sorted()] == [("D106", "info")]  # (24:00:00, rewritten)
    written = (tmp_path / "out" / "sitemap.xml").read_text(encoding="utf-8")
    assert "<lastmod>2026-11-20T10:00:00+00:00</lastmod>" in written
    assert "<lastmod>2026-11-21T00:00:00Z</lastmod>" in written
