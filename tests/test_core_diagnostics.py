"""Every core diagnostic, with the exact code and location it is reported at."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from sitemap_ext import build
from sitemap_ext.diagnostics import Severity

HEAD = "site:\n  base_url: https://e.com/\n"


def found(result: Any) -> list[tuple[str, str | None, int | None, int | None]]:
    return [(d.code, d.file, d.line, d.column) for d in result.collector.sorted()]


def run(make_site: Callable[..., Path], text: str, now: str | None = None, **files: str | bytes) -> Any:
    return build(str(make_site(text, **files)), dry_run=True, now=now)


CASES: list[tuple[str, str, dict[str, str | bytes], list[tuple[str, str, int | None, int | None]]]] = [
    ("malformed YAML", HEAD + "pages:\n  - loc: /a\n   lastmod: 2026-01-01\n", {},
     [("C101", "site.yaml", 5, 4)]),
    ("unknown key, with did-you-mean", HEAD + "pages:\n  - loc: /a\n    lastmodd: 2026-01-01\n", {},
     [("C102", "site.yaml", 5, 5)]),
    ("unknown top-level key", HEAD + "page:\n  - loc: /a\n", {},
     [("C102", "site.yaml", 3, 1)]),
    ("pages not a list", HEAD + "pages:\n  loc: /a\n", {},
     [("C103", "site.yaml", 4, 3)]),
    ("missing base_url", "site:\n  now: 2026-01-01\npages:\n  - loc: /a\n", {},
     [("C104", "site.yaml", 1, 1)]),
    ("page without loc", HEAD + "pages:\n  - lastmod: 2026-01-01\n", {},
     [("C104", "site.yaml", 4, 5)]),
    ("undefined variable", "site:\n  base_url: ${SITEMAP_TEST_UNSET}\npages:\n  - loc: /a\n", {},
     [("C105", "site.yaml", 2, 13), ("U101", "site.yaml", 2, 13)]),
    ("missing include", HEAD + "pages:\n  - loc: /a\ninclude:\n  - nope.yaml\n", {},
     [("C106", "site.yaml", 6, 5)]),  # where the include is named (until 0.3: the missing file)
    ("include cycle", HEAD + "pages:\n  - loc: /a\ninclude: [a.yaml]\n",
     {"a.yaml": "include: [b.yaml]\n", "b.yaml": "include: [a.yaml]\n"},
     [("C106", "b.yaml", 1, 11)]),
    ("duplicate key", HEAD + "pages:\n  - loc: /a\n    loc: /b\n", {},
     [("C107", "site.yaml", 5, 5)]),
    ("pattern escaping the output folder", HEAD + "pages:\n  - loc: /a\noutput:\n  pattern: ../x-{n}.xml\n", {},
     [("C108", "site.yaml", 6, 12)]),
    ("pattern without {n}", HEAD + "pages:\n  - loc: /a\noutput:\n  pattern: x.xml\n", {},
     [("C108", "site.yaml", 6, 12)]),
    ("max_urls over the protocol's limit", HEAD + "pages:\n  - loc: /a\noutput:\n  max_urls: 60000\n", {},
     [("C109", "site.yaml", 6, 13)]),
    ("source missing", HEAD + "sources:\n  - file: nope.csv\n", {},
     [("S101", "site.yaml", 4, 11)]),
    ("CSV row with too many fields", HEAD + "sources:\n  - file: p.csv\n",
     {"p.csv": "loc,lastmod\n/a,2026-01-01\n/b,2026-01-01,extra\n/c,\n"},
     [("S102", "p.csv", 3, None)]),
    ("bad JSON line", HEAD + "sources:\n  - file: p.jsonl\n",
     {"p.jsonl": '{"loc": "/a"}\n{"loc": "/b"\n[1]\n'},
     [("S103", "p.jsonl", 2, 13), ("S103", "p.jsonl", 3, None)]),
    ("unknown source column", HEAD + "sources:\n  - file: p.csv\n",
     {"p.csv": "loc,colour\n/a,red\n"},
     [("S104", "p.csv", 1, None)]),
    ("source without a URL column", HEAD + "sources:\n  - file: p.csv\n",
     {"p.csv": "url,lastmod\n/a,2026-01-01\n"},
     [("S104", "p.csv", 1, None), ("S105", "p.csv", 1, None)]),
    ("source not UTF-8", HEAD + "sources:\n  - file: p.csv\n",
     {"p.csv": b"loc\n/a\n/caf\xe9\n"},
     [("S106", "p.csv", 3, None)]),
    ("source format unknown", HEAD + "sources:\n  - file: p.txt\n", {"p.txt": "loc\n/a\n"},
     [("S107", "site.yaml", 4, 11)]),
    ("relative base_url", "site:\n  base_url: /shop/\npages:\n  - loc: /a\n", {},
     [("U101", "site.yaml", 2, 13)]),
    ("non-http scheme", HEAD + "pages:\n  - loc: ftp://e.com/a\n", {},
     [("U102", "site.yaml", 4, 10)]),
    ("URL of 2,048 characters", HEAD + "pages:\n  - loc: /" + "a" * 2034 + "\n", {},
     [("U103", "site.yaml", 4, 10)]),
    ("duplicate URL across YAML and a source", HEAD + "pages:\n  - loc: /a\nsources:\n  - p.csv\n",
     {"p.csv": "loc\n/b\nhttps://e.com/a\n"},
     [("U104", "p.csv", 3, None)]),
    ("whitespace in a URL", HEAD + "pages:\n  - loc: /a b\n", {},
     [("U105", "site.yaml", 4, 10)]),
    ("URL escaped already", HEAD + "pages:\n  - loc: /a?x=1&amp;y=2\n", {},
     [("U106", "site.yaml", 4, 10)]),
    ("URL on another host", HEAD + "pages:\n  - loc: https://other.com/a\n  - loc: http://e.com/b\n", {},
     [("C113", "site.yaml", 4, 10), ("C113", "site.yaml", 5, 10)]),
    ("URL outside the sitemaps' folder", HEAD + "pages:\n  - loc: /a\n  - loc: /maps/b\noutput:\n"
     "  public_url: https://e.com/maps/\n", {},
     [("U108", "site.yaml", 4, 10)]),
    ("port out of range", HEAD + "pages:\n  - loc: https://e.com:99999/a\n", {},
     [("U109", "site.yaml", 4, 10)]),
    ("fragment", HEAD + "pages:\n  - loc: /a#top\n", {},
     [("U110", "site.yaml", 4, 10)]),
    ("impossible date", HEAD + "pages:\n  - loc: /a\n    lastmod: 2026-02-30\n", {},
     [("D101", "site.yaml", 5, 14)]),
    ("not a date at all (CSV)", HEAD + "sources:\n  - p.csv\n", {"p.csv": "loc,lastmod\n/a,yesterday\n"},
     [("D101", "p.csv", 2, None)]),
    ("changefreq in capitals", HEAD + "pages:\n  - loc: /a\n    changefreq: Weekly\n", {},
     [("D104", "site.yaml", 5, 17)]),
    ("changefreq not one of seven", HEAD + "defaults:\n  changefreq: fortnightly\npages:\n  - loc: /a\n", {},
     [("D104", "site.yaml", 4, 15)]),
    ("priority out of range", HEAD + "pages:\n  - loc: /a\n    priority: 1.5\n", {},
     [("D105", "site.yaml", 5, 15)]),
    ("priority not a number (CSV)", HEAD + "sources:\n  - p.csv\n", {"p.csv": "loc,priority\n/a,high\n"},
     [("D105", "p.csv", 2, None)]),
    ("year-month lastmod rewritten", HEAD + "pages:\n  - loc: /a\n    lastmod: 2026-03\n", {},
     [("D106", "site.yaml", 5, 14)]),
    ("lastmod without zone", HEAD + "pages:\n  - loc: /a\n    lastmod: 2026-03-01T10:00:00\n", {},
     [("D107", "site.yaml", 5, 14)]),
    ("no pages at all", HEAD, {}, [("O102", "site.yaml", 1, 1)]),
]


@pytest.mark.parametrize("text,files,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_diagnostic_code_and_location(
    make_site: Callable[..., Path], text: str, files: dict[str, str | bytes],
    expected: list[tuple[str, str, int | None, int | None]],
) -> None:
    result = run(make_site, text, **files)
    assert found(result) == sorted(expected, key=lambda e: (e[1], e[2] or 0, e[3] or 0, "", e[0]))


def test_no_urls_is_reported_only_without_other_errors(make_site: Callable[..., Path]) -> None:
    # O102 would only repeat what the first error already says.
    assert found(run(make_site, HEAD + "pages:\n  - loc: ftp://e.com/\n")) == [("U102", "site.yaml", 4, 10)]
    assert found(run(make_site, HEAD + "pages: []\n")) == [("O102", "site.yaml", 1, 1)]


def test_url_of_2047_characters_is_accepted(make_site: Callable[..., Path]) -> None:
    result = run(make_site, HEAD + "pages:\n  - loc: /" + "a" * 2033 + "\n")
    assert found(result) == [] and result.urls == 1


def test_future_lastmod_is_judged_by_the_clock(make_site: Callable[..., Path],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    text = HEAD + "pages:\n  - loc: /a\n    lastmod: 2026-12-01\n"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")  # 2027-01-01: the lastmod is past
    assert found(run(make_site, text)) == []
    result = run(make_site, text, now="2026-11-21T00:00:00Z")
    assert found(result) == [("D102", "site.yaml", 4, 5)]
    assert result.collector.diagnostics[0].url == "https://e.com/a"


def test_alias_bomb_is_refused(make_site: Callable[..., Path]) -> None:
    levels = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 8):
        levels.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    result = run(make_site, "\n".join(levels) + "\n")
    assert found(result) == [("C110", "site.yaml", 1, 1)]


def test_unknown_key_suggests_the_fix(make_site: Callable[..., Path]) -> None:
    result = run(make_site, HEAD + "pages:\n  - loc: /a\n    chagnefreq: daily\n")
    (diag,) = result.collector.diagnostics
    assert diag.suggestion == "changefreq" and "did you mean 'changefreq'" in diag.message


def test_changefreq_suggestion_is_lower_case(make_site: Callable[..., Path]) -> None:
    result = run(make_site, HEAD + "pages:\n  - loc: /a\n    changefreq: DAILY\n")
    assert [d.suggestion for d in result.collector.diagnostics] == ["daily"]


def test_severities_come_from_the_registry(make_site: Callable[..., Path]) -> None:
    result = run(make_site, HEAD + "pages:\n  - loc: /a b\n    lastmod: 2026\n    priority: 7\n")
    assert {d.code: d.severity for d in result.collector.diagnostics} == {
        "U105": Severity.WARNING, "D106": Severity.INFO, "D105": Severity.ERROR,
    }


def test_missing_site_file_is_an_io_failure() -> None:
    result = build("nope.yaml", dry_run=True)
    assert found(result) == [("F101", "nope.yaml", None, None)]
    assert result.collector.has_io_failure()


def test_unwritable_output_folder(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(HEAD + "pages:\n  - loc: /a\n")
    (tmp_path / "blocker").write_text("a file where the folder should be")
    result = build(str(site), str(tmp_path / "blocker" / "out"))
    assert [d.code for d in result.collector.diagnostics] == ["F102"]
    assert result.collector.has_io_failure() and result.files == []


def test_too_many_sitemaps_for_one_index(
    make_site: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sitemap_ext.write.files as files_module

    monkeypatch.setattr(files_module, "MAX_SITEMAPS_PER_INDEX", 2)
    site = make_site(HEAD + "pages:\n  - loc: /a\n  - loc: /b\n  - loc: /c\noutput:\n  max_urls: 1\n")
    result = build(str(site), str(tmp_path / "out"))
    assert found(result) == [("O101", "site.yaml", None, None)]
    assert not (tmp_path / "out" / "sitemap.xml").exists()


def test_many_bad_rows_keep_memory_bounded(make_site: Callable[..., Path]) -> None:
    rows = "".join(f"/p{i},not-a-date\n" for i in range(1_500))
    result = run(make_site, HEAD + "sources:\n  - p.csv\n", **{"p.csv": "loc,lastmod\n" + rows})
    assert result.collector.counts["D101"] == 1_500
    assert len(result.collector.diagnostics) == 1_000
    assert result.collector.suppressed["D101"] == 500


def test_a_finding_only_counted_is_counted_as_report_counts_it() -> None:
    """``keeps`` says whether a finding would be kept; ``tally`` counts one that would
    not, as ``report`` does (beyond the limit per code: not shown; ignored by the
    policy for its file: ignored), so a rule with a million findings of one code reads
    back the URLs of the thousand it keeps only."""
    from sitemap_ext.codes import REGISTRY
    from sitemap_ext.diagnostics import Collector, Where
    from sitemap_ext.rules.config import make_policy

    policy = make_policy((), (), {}, per_path={"skipped/*": ["U104"]})
    counted, reported = (Collector(REGISTRY, policy=policy, limit=2) for _ in range(2))
    for n, file in enumerate(["a.xml", "skipped/b.xml", "a.xml", "a.xml", "skipped/b.xml", "c.xml"]):
        reported.report("U104", f"m{n}", Where(file, n))
        if counted.keeps("U104", file):
            counted.report("U104", f"m{n}", Where(file, n))
        else:
            counted.tally("U104", file)
    assert [d.message for d in counted.diagnostics] == [d.message for d in reported.diagnostics] == ["m0", "m2"]
    assert (counted.counts, counted.suppressed, counted.ignored) == \
        (reported.counts, reported.suppressed, reported.ignored)
    assert (reported.suppressed["U104"], reported.ignored["U104"]) == (2, 2)
