"""A finding in a sitemap of one line (minified) stands at its element: line, column, and
the element quoted under it (checker/placing.py, report/formats.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext import check
from sitemap_ext.cli import main

HEAD = ('<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">')


def _url(i: int, lastmod: str = "2026-01-0{d}", hreflang: str = "de") -> str:
    return (f'<url><loc>https://example.com/p{i}</loc><lastmod>{lastmod.format(d=1 + i % 9)}</lastmod>'
            f'<xhtml:link rel="alternate" hreflang="en" href="https://example.com/p{i}"/>'
            f'<xhtml:link rel="alternate" hreflang="{hreflang}" href="https://example.com/de/p{i}"/></url>')


def _minified(count: int, bad_lastmod: int, bad_link: int, newline_after_declaration: bool = False) -> str:
    body = "".join(_url(i, "2026-13-01" if i == bad_lastmod else "2026-01-0{d}",
                        "de_DE" if i == bad_link else "de") for i in range(count))
    head = HEAD.replace("?>", "?>\n") if newline_after_declaration else HEAD
    return head + body + "</urlset>"


def _placed(path: Path, code: str) -> tuple[int | None, int | None]:
    found = [d for d in check([str(path)]).collector.sorted() if d.code == code]
    assert len(found) == 1, found
    return found[0].line, found[0].column


def _at(text: str, needle: str) -> tuple[int, int]:
    """The line and column (1-based, in characters) of ``needle`` in ``text``."""
    offset = text.index(needle)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def test_a_finding_deep_in_a_minified_sitemap_is_at_its_element(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    text = _minified(300, bad_lastmod=250, bad_link=270)
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    lastmod = _at(text, "<lastmod>2026-13-01")
    link = _at(text, '<xhtml:link rel="alternate" hreflang="de_DE"')
    assert lastmod[1] > 50_000 and link[1] > lastmod[1]  # deep in the one line
    assert _placed(path, "D101") == lastmod
    assert _placed(path, "L101") == link
    assert main(["check", str(path), "--select", "D101", "--quiet"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"sitemap.xml:1:{lastmod[1]}: error D101 " in out[0]
    assert out[1] == "    ..." + text[lastmod[1] - 1: lastmod[1] - 1 + 160] + "..."  # the element, not the file's start
    assert out[2] == "       ^"


def test_a_long_second_line_is_not_moved_to_the_declarations(tmp_path: Path) -> None:
    """The line of the entries, past 64 KiB, starts with a tag: the finding stays on it."""
    text = _minified(300, bad_lastmod=280, bad_link=-1, newline_after_declaration=True)
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    assert _placed(path, "D101") == _at(text, "<lastmod>2026-13-01")


def test_a_sitemap_of_one_entry_a_line_keeps_its_findings_unplaced(tmp_path: Path) -> None:
    """A line that holds one entry places its findings already: no column is added."""
    body = "\n".join(_url(i, "2026-13-01" if i == 3 else "2026-01-0{d}") for i in range(5))
    text = HEAD + "\n" + body + "\n</urlset>"
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    assert _placed(path, "D101") == (5, None)


@settings(max_examples=15, deadline=None)
@given(count=st.integers(2, 40), data=st.data())
def test_any_entry_of_a_minified_sitemap_is_placed(tmp_path_factory: pytest.TempPathFactory, count: int,
                                                   data: st.DataObject) -> None:
    bad = data.draw(st.integers(0, count - 1))
    text = _minified(count, bad_lastmod=bad, bad_link=-1)
    path = tmp_path_factory.mktemp("placed") / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    assert _placed(path, "D101") == _at(text, "<lastmod>2026-13-01")


def test_a_finding_across_files_in_a_minified_sitemap_is_at_its_element(tmp_path: Path) -> None:
    """H111 (an alternate in no sitemap checked) is judged once every file is read: it
    stands at the link it is about, H112 (no x-default) at its entry."""
    text = _minified(300, bad_lastmod=-1, bad_link=-1)
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    found = {(d.code, d.url): (d.line, d.column) for d in check([str(path)]).collector.sorted()}
    url = "https://example.com/p260"
    assert found[("H111", url)] == _at(text, '<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/p260"')
    assert found[("H112", url)] == _at(text, f"<url><loc>{url}</loc>")
