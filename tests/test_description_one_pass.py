"""Issue 28, point 4 ("Messages as a person reads them"): every problem of a site
description in one pass, even without a usable ``site.base_url`` (the findings that
need the base are not invented, nothing is written); and a CSV source's separator
(``,`` ``;`` tab) told from its header row."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sitemap_ext import build
from sitemap_ext.cli import main
from sitemap_ext.read.sources import delimiter_of
from sitemap_ext.write import parallel

from .test_build import locs

NO_BASE = """\
site:
  now: 2026-01-01
pagez: []
pages:
  - loc: /about
    changefreq: weekley
  - urls:
      de: https://www.example.com/de/
      en_XX: https://www.example.com/en/
  - loc: /a b
  - loc: https://www.example.com/elsewhere
sources:
  - pages.csv
"""
CSV = "loc,priority\n/p1,1.5\n/p2,0.3\n"
# What the description says wrong, at its lines, whatever the base turns out to be.
EXPECTED = [
    ("C102", "site.yaml", 3),  # pagez
    ("D104", "site.yaml", 6),  # weekley
    ("L101", "site.yaml", 9),  # en_XX
    ("D105", "pages.csv", 2),  # 1.5
]


def _findings(verb: str, site: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    args = [verb, str(site), "--format", "json"] + (["-o", "out"] if verb == "build" else [])
    assert main(args) == 1
    found: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["diagnostics"]
    return found


@pytest.mark.parametrize("verb", ["check", "build"])
def test_a_missing_base_url_hides_nothing_else(verb: str, make_site: Callable[..., Path], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(NO_BASE, **{"pages.csv": CSV})
    found = _findings(verb, site, capsys)
    codes = [(d["code"], d["file"], d["line"]) for d in found]
    assert ("C104", "site.yaml", 1) in codes
    for expected in EXPECTED:
        assert expected in codes, (expected, codes)
    # Nothing that needs the base is invented: no stand-in URL, no "not on the site"
    # for the absolute URLs, no finding on the relative URL's resolution.
    assert not any("invalid" in json.dumps(d) for d in found), found
    assert {d["code"] for d in found} == {"C104"} | {code for code, _, _ in EXPECTED}
    assert not (tmp_path / "out").exists()


def test_an_invalid_base_url_hides_nothing_else(make_site: Callable[..., Path],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(NO_BASE.replace("  now:", "  base_url: ftp://www.example.com/\n  now:"),
                     **{"pages.csv": CSV})
    found = _findings("check", site, capsys)
    codes = [(d["code"], d["file"], d["line"]) for d in found]
    assert ("U102", "site.yaml", 2) in codes and "C104" not in {code for code, _, _ in codes}
    for code, file, line in EXPECTED:
        assert (code, file, line + (file == "site.yaml")) in codes, codes
    assert not any("invalid" in json.dumps(d) for d in found), found


def test_with_the_base_the_same_description_says_the_rest(make_site: Callable[..., Path],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The control: given the base, the description's findings are those above, and
    those that needed the base (the relative URL's space), and no C104."""
    site = make_site(NO_BASE.replace("  now:", "  base_url: https://www.example.com/\n  now:"),
                     **{"pages.csv": CSV})
    found = _findings("check", site, capsys)
    codes = {d["code"] for d in found}
    assert "C104" not in codes and {"C102", "D104", "L101", "D105", "U105"} <= codes


def test_a_base_free_description_keeps_findings_on_absolute_urls(make_site: Callable[..., Path],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site("pages:\n  - loc: https://www.example.com/a b\n    lastmod: 2026-02-30\n")
    found = _findings("check", site, capsys)
    assert [(d["code"], d["line"]) for d in found] == [("C104", 1), ("U105", 2), ("D101", 3)]
    assert found[1]["url"] == "https://www.example.com/a%20b"


# --- a CSV's separator ---------------------------------------------------------------

SITE = "site:\n  base_url: https://www.example.com/\n  now: 2026-06-01\nsources:\n  - pages.csv\n"


@pytest.mark.parametrize(("text", "expected"), [
    ("loc;lastmod\n/a;2026-01-01\n/b;2026-01-02\n", ["/a", "/b"]),
    ("loc\tlastmod\n/a\t2026-01-01\n/b\t2026-01-02\n", ["/a", "/b"]),
    ("loc,lastmod\n/a;b,2026-01-01\n\"/c,d\",2026-01-02\n", ["/a;b", "/c,d"]),
    ("loc\n/a;b\n/c,d\n", None),  # one column: ',' -- the second row has two fields (S102)
    ("\ufeffloc;priority;\"note; with a ;\"\n/a;0.5;x\n", ["/a"]),
])
def test_csv_separator_is_told_from_the_header(text: str, expected: list[str] | None,
                                               make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(SITE)
    (tmp_path / "pages.csv").write_text(text, encoding="utf-8")
    result = build(str(site), str(tmp_path / "out"))
    codes = [d.code for d in result.collector]
    if expected is None:
        assert codes == ["S102"]
        return
    assert [c for c in codes if c != "S104"] == [], codes
    assert locs(tmp_path / "out" / "sitemap.xml") == ["https://www.example.com" + path.replace(" ", "%20")
                                                      for path in expected]


def test_delimiter_of_a_header() -> None:
    assert delimiter_of("loc,lastmod\n") == ","
    assert delimiter_of("loc;lastmod;priority\n") == ";"
    assert delimiter_of("loc\tlastmod\n") == "\t"
    assert delimiter_of("loc\n") == ","
    assert delimiter_of('"a;b;c",loc\n') == ","  # a quoted name's marks do not count
    assert delimiter_of("loc;lastmod,priority\n") == ","  # a tie: ','


def test_a_semicolon_csv_split_between_processes_reads_alike(make_site: Callable[..., Path], tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A later part of a split source reads the header of line 1, and so its separator."""
    rows = "".join(f"/page-{i};2026-01-{1 + i % 28:02d};0.5\n" for i in range(6000))  # (one date on all: D103)
    site = make_site(SITE, **{"pages.csv": "loc;lastmod;priority\n" + rows})
    monkeypatch.setattr(parallel, "MIN_BYTES", 1024)
    monkeypatch.setattr(parallel, "PIECE_BYTES", 16 << 10)
    monkeypatch.setattr(parallel, "spare_cores", lambda *_: 8)  # (whatever else this machine runs)
    result = build(str(site), str(tmp_path / "out"), jobs=2)
    assert list(result.collector) == []
    assert result.urls == 6000
    found = locs(tmp_path / "out" / "sitemap.xml")
    assert found[0] == "https://www.example.com/page-0" and found[-1] == "https://www.example.com/page-5999"


# --- "no base" is said by the scope, not read from the findings' words ----------------

NAMES_THE_HOST = """\
pages:
  - loc: https://base-url.invalid/a b
  - loc: /about
    base-url.invalid: 1
    lastmod: base-url.invalid
  - loc: /shop
    images:
      - https://cdn.example.net/a.png
"""


def test_a_finding_that_names_the_old_stand_in_host_is_kept(make_site: Callable[..., Path],
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Findings that mention base-url.invalid by the user's own words (an absolute URL on
    that host, a key or a value written so) are the description's own: kept, with their
    URL. Those that need the base are not made: no I104 for an image beside a page whose
    URL is relative, no C113 for the absolute URL."""
    site = make_site(NAMES_THE_HOST)
    found = _findings("check", site, capsys)
    assert [(d["code"], d["line"], d["url"]) for d in found] == [
        ("C104", 1, None),
        ("U105", 2, "https://base-url.invalid/a%20b"),
        ("C102", 4, None),
        ("D101", 5, None),
    ]
    assert "base-url.invalid" in found[2]["message"] and "base-url.invalid" in found[3]["message"]


def test_the_stand_in_is_drawn_anew_and_says_it_is_no_base() -> None:
    from sitemap_ext.write.site_yaml import stand_in

    first, second = stand_in(), stand_in()
    assert first != second and first.endswith(".invalid/") and second.startswith("https://base-url-")
