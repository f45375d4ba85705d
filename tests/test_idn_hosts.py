"""IDN hosts are written as browsers write them: UTS 46 non-transitional processing
(IDNA 2008), never IDNA 2003's mapping of ß to ss or its dropping of joiners, which
name another host."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_ext import build, check
from sitemap_ext.urls import identity, normalise

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


@pytest.mark.parametrize(("given", "written"), [
    ("https://straße.example/", "https://xn--strae-oqa.example/"),  # IDNA 2003: strasse.example
    ("https://STRAßE.Example/a", "https://xn--strae-oqa.example/a"),  # upper case folds; ß stays
    ("https://ς.example/", "https://xn--3xa.example/"),  # final sigma kept (IDNA 2003: σ, xn--4xa)
    ("https://σίσυφος.example/", "https://xn--kxa6ajbbmh.example/"),
    ("https://\u0628\u0645\u200c\u0627.example/", "https://xn--mgbb1gu07j.example/"),  # ZWNJ where Arabic joins
    ("https://bücher。example/", "https://xn--bcher-kva.example/"),  # an ideographic full stop separates labels
    ("https://my_sub.bücher.example/", "https://my_sub.xn--bcher-kva.example/"),  # '_' in an ASCII label, as before
    ("https://xn--strae-oqa.example/", "https://xn--strae-oqa.example/"),
])
def test_an_idn_host_is_written_as_browsers_write_it(given: str, written: str) -> None:
    assert normalise(given) == (written, ())
    assert identity(given) == written


@pytest.mark.parametrize("given", ["https://a\u200db.example/", "https://a\u200cb.example/"])
def test_a_joiner_its_context_forbids_is_an_invalid_host(given: str) -> None:
    """IDNA 2003 dropped the joiner, giving ab.example: a host the user did not name."""
    url, problems = normalise(given)
    assert url is None and [p.code for p in problems] == ["U109"]


def test_a_build_writes_the_host_it_was_given(tmp_path: Path) -> None:
    site = tmp_path / "site.yaml"
    site.write_text("site:\n  base_url: https://straße.example/\npages:\n  - loc: /\n  - loc: /über\n",
                    encoding="utf-8")
    result = build(str(site), str(tmp_path / "out"))
    assert [d.code for d in result.collector.sorted()] == []
    written = (tmp_path / "out" / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://xn--strae-oqa.example/</loc>" in written
    assert "<loc>https://xn--strae-oqa.example/%C3%BCber</loc>" in written
    assert "strasse" not in written


def test_a_check_suggests_the_same_host(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(f'<urlset xmlns="{NS}"><url><loc>https://straße.example/</loc></url></urlset>', encoding="utf-8")
    found = check([str(path)]).collector.sorted()
    assert [(d.code, d.line, d.suggestion) for d in found] == [("U111", 1, "https://xn--strae-oqa.example/")]
