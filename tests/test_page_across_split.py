"""A page whose language versions do not all fit the file being filled goes on in the
next file, and the build judges each entry as the file it went to holds it: the file
rules (D103's count, X108 at 50,000 URLs) see what `check` of the output sees. Before,
every entry of such a page was judged as the later file's, so a multilingual site of
more than 50,000 URLs whose split fell inside a page failed its build with a false X108
(40,000 rows in three locales: "more than 50,000 URLs in one sitemap", nothing written)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_ext import build, check

NOW = "2026-02-01T00:00:00Z"


def _site(folder: Path, rows: int, max_urls: int, hosts: bool = False) -> Path:
    (folder / "rows.csv").write_text("path,lastmod\n" + "".join(f"/p/{i},2026-01-01\n" for i in range(rows)),
                                     encoding="utf-8")
    locales = ("  en: /en/\n  de: {host: https://e.de}\n  fr: /fr/\n" if hosts
               else "  en: /en/\n  de: /de/\n  fr: /fr/\n")
    site = folder / "site.yaml"
    site.write_text(f"site:\n  base_url: https://e.com/\nlocales:\n{locales}x_default: en\nsources:\n  - rows.csv\n"
                    f"output:\n  html: false\n  max_urls: {max_urls}\n", encoding="utf-8")
    return site


def _said(diagnostics: list) -> list[tuple[str, str, str]]:  # type: ignore[type-arg]
    return sorted((d.code, Path(d.file or "").name, d.message) for d in diagnostics if d.code in ("D103", "X108"))


@pytest.mark.parametrize("hosts", [False, True])
def test_a_page_across_a_split_is_judged_in_the_files_it_went_to(tmp_path: Path, hosts: bool) -> None:
    out = tmp_path / "out"
    built = build(str(_site(tmp_path, 20, 50, hosts)), str(out), now=NOW)  # page 17 of 3 URLs: 2 + 1
    assert built.ok, built.collector.sorted()
    checked = check([str(out)], now=NOW)
    assert _said(built.collector.sorted()) == _said(checked.collector.sorted())
    if not hosts:
        assert [m for _, _, m in _said(built.collector.sorted())][0].startswith("all 50 lastmods")


def test_a_multilingual_site_past_50000_urls_builds(tmp_path: Path) -> None:
    # 100,002 URLs: the second file's split falls inside a page as the first's does
    built = build(str(_site(tmp_path, 33_334, 50_000)), str(tmp_path / "out"), now=NOW)
    assert built.ok and built.urls == 100_002, [d for d in built.collector.sorted() if d.code != "H112"][:3]
    assert "X108" not in {d.code for d in built.collector.sorted()}
