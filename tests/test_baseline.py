"""Baselines (issue "Adopted in a day"): a site with known findings gates only new ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitemap_ext import check
from sitemap_ext.report import baseline

URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
          "{entries}</urlset>\n")


def sitemap(folder: Path, *entries: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitemap.xml").write_text(URLSET.format(entries="".join(entries)), encoding="utf-8")
    return folder / "sitemap.xml"


def entry(loc: str, lastmod: str = "2026-01-01") -> str:
    return f"<url><loc>{loc}</loc><lastmod>{lastmod}</lastmod></url>\n"


def test_old_findings_are_known_new_ones_are_new_and_fixed_ones_are_counted(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = sitemap(Path("site"), entry("https://e.com/a", "2026-13-01"), entry("https://e.com/a"),
                   entry("https://e.com/b", "2026-02-30"))
    first = check([str(path)], now="2026-11-25T00:00:00Z").collector.sorted()
    assert sorted(d.code for d in first) == ["D101", "D101", "U104"]
    assert baseline.write("baseline.json", first, str(tmp_path)) == 3
    known = baseline.read("baseline.json")
    # Lines move (an entry added above) and nothing new: nothing is new.
    sitemap(Path("site"), entry("https://e.com/new"), entry("https://e.com/a", "2026-13-01"), entry("https://e.com/a"),
            entry("https://e.com/b", "2026-02-30"))
    moved = baseline.split(check([str(path)], now="2026-11-25T00:00:00Z").collector.sorted(), known, str(tmp_path))
    assert moved.new == [] and moved.known == 3 and not moved.fixed
    # A planted defect is new; a fixed one is counted as fixed.
    sitemap(Path("site"), entry("https://e.com/a", "2026-13-01"), entry("https://e.com/a"),
            entry("https://e.com/b"), entry("https://e.com/c", "yesterday"))
    result = baseline.split(check([str(path)], now="2026-11-25T00:00:00Z").collector.sorted(), known, str(tmp_path))
    assert [(d.code, d.url) for d in result.new] == [("D101", "https://e.com/c")]
    assert result.known == 2 and sum(result.fixed.values()) == 1


def test_a_finding_that_stands_more_often_than_recorded_is_new(tmp_path: Path) -> None:
    path = sitemap(tmp_path, entry("https://e.com/a"), entry("https://e.com/a"))
    twice = check([str(path)]).collector.sorted()
    baseline.write(str(tmp_path / "b.json"), twice, str(tmp_path))
    sitemap(tmp_path, entry("https://e.com/a"), entry("https://e.com/a"), entry("https://e.com/a"))
    split = baseline.split(check([str(path)]).collector.sorted(), baseline.read(str(tmp_path / "b.json")),
                           str(tmp_path))
    assert [d.code for d in split.new] == ["U104"] and split.known == 1


def test_the_file_is_stable_sorted_json(tmp_path: Path) -> None:
    path = sitemap(tmp_path, entry("https://e.com/b", "x"), entry("https://e.com/a", "y"))
    found = check([str(path)]).collector.sorted()
    baseline.write(str(tmp_path / "one.json"), found, str(tmp_path))
    baseline.write(str(tmp_path / "two.json"), list(reversed(found)), str(tmp_path))
    text = (tmp_path / "one.json").read_text()
    assert text == (tmp_path / "two.json").read_text()
    document = json.loads(text)
    assert document["tool"] == "sitemap-ext" and len(document["findings"]) == 2
    assert "line" not in text


@pytest.mark.parametrize("content, says", [("not json", "not JSON"), ('{"tool": "other"}', "no sitemap-ext"),
                                           ('{"tool": "sitemap-ext", "format": 9, "findings": []}', "format 9"),
                                           ('{"tool": "sitemap-ext", "format": 1, "findings": [5]}', "not one")])
def test_a_file_that_is_no_baseline_is_refused_with_a_reason(tmp_path: Path, content: str, says: str) -> None:
    (tmp_path / "b.json").write_text(content)
    with pytest.raises(baseline.BaselineError, match=says):
        baseline.read(str(tmp_path / "b.json"))
