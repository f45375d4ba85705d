"""Safety and right verdicts for the checker (and the clock both verbs use): an index
cannot point the check outside the folders given, reads are bounded and linear,
hostile files give verdicts, not tracebacks or floods."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Callable

import pytest

from sitemap_ext import build, check
from sitemap_ext.cli import main

from .conftest import hang_guard

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n'


def found(result: object) -> list[tuple[str, str | None, int | None]]:
    return [(d.code, d.file, d.line) for d in result.collector.sorted()]  # type: ignore[attr-defined]


def index(entries: list[str]) -> str:
    body = "".join(f"<sitemap><loc>{loc}</loc></sitemap>\n" for loc in entries)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex {NS}>\n{body}</sitemapindex>\n'


@pytest.mark.parametrize("loc", ["https://e.com/../secret/s.xml", "https://e.com/%2e%2e/secret/s.xml",
                                 "https://e.com/link/s.xml"])
def test_an_index_cannot_point_the_check_outside_the_folders_given(tmp_path: Path, loc: str,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "s.xml").write_text(HEAD + "<url><loc>not a url TOP-SECRET</loc></url>\n</urlset>\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "link").symlink_to(secret, target_is_directory=True)
    (site / "index.xml").write_text(index([loc]))
    assert main(["check", str(site / "index.xml"), "--base-url", f"https://e.com/={site}"]) == 0
    printed = capsys.readouterr()
    assert "X111" in printed.out and "TOP-SECRET" not in printed.out + printed.err


def test_an_index_that_lists_itself_is_reported(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_text(index(["https://e.com/sitemap.xml", "https://e.com/a.xml"]))
    (tmp_path / "a.xml").write_text(HEAD + "<url><loc>https://e.com/a</loc></url>\n</urlset>\n")
    result = check([str(tmp_path / "sitemap.xml")], base_urls=[f"https://e.com/={tmp_path}"])
    assert [(c, line) for c, _, line in found(result)] == [("X118", 3)]


def test_a_doctype_after_a_long_prolog_is_refused(tmp_path: Path) -> None:
    comment = "<!--" + "x" * (2 << 20) + "-->\n"
    body = f'<!DOCTYPE urlset [<!ENTITY a "aaaa">]>\n<urlset {NS}><url><loc>https://e.com/&a;</loc></url></urlset>\n'
    (tmp_path / "s.xml").write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + comment + body)
    assert found(check([str(tmp_path / "s.xml")])) == [("X102", "s.xml", 3)]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-16", "utf-32"])
def test_wide_encodings_are_refused_with_or_without_a_byte_order_mark(tmp_path: Path, encoding: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    text = HEAD.replace("UTF-8", "UTF-16") + "<url><loc>https://e.com/a</loc></url>\n</urlset>\n"
    (tmp_path / "s.xml").write_bytes(text.encode(encoding))
    assert found(check([str(tmp_path / "s.xml")])) == [("X103", "s.xml", 1)]
    assert main(["check", str(tmp_path / "s.xml")]) == 1
    assert "\x00" not in capsys.readouterr().out  # no NUL bytes echoed to a terminal


def test_a_52_mb_loc_costs_little(tmp_path: Path) -> None:
    with gzip.open(tmp_path / "s.xml.gz", "wb") as handle:
        handle.write(HEAD.encode() + b"<url><loc>https://e.com/" + b"a" * 52_000_000 + b"</loc></url></urlset>")
    with hang_guard():  # a hang or a super-linear cost, not a measurement
        result = check([str(tmp_path / "s.xml.gz")])
    # (well-formed, under the size limit: read whole, a URL far too long; libxml2 stopped
    # at its 10 MB text limit with X101, expat has none)
    assert [code for code, _, _ in found(result)] == ["U103"]
    assert all(len(d.message) < 2_200 for d in result.collector.diagnostics)


def test_text_sitemaps_are_read_in_linear_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with gzip.open(tmp_path / "blank.txt.gz", "wb") as handle:
        handle.write(b"https://e.com/a\n" + b"\n" * (40 << 20) + b"https://e.com/b\n")
    with gzip.open(tmp_path / "long.txt.gz", "wb") as handle:
        handle.write(b"https://e.com/a\n" + b"x" * (40 << 20) + b"\nhttps://e.com/b\n")
    with hang_guard():  # a hang or a super-linear cost, not a measurement
        blank = check([str(tmp_path / "blank.txt.gz")], jobs=1)
        long = check([str(tmp_path / "long.txt.gz")], jobs=1)
    assert found(blank) == [] and blank.files[0]["urls"] == 2
    assert found(long) == [("X113", "long.txt.gz", 2)] and long.files[0]["urls"] == 2
    assert main(["check", str(tmp_path / "long.txt.gz")]) == 1
    assert len(capsys.readouterr().out) < 1_000


def test_a_long_invalid_url_is_shown_shortened(tmp_path: Path) -> None:
    (tmp_path / "s.txt").write_text("https://e.com/" + "a" * 10_000 + "\n")
    result = check([str(tmp_path / "s.txt")])
    assert [code for code, _, _ in found(result)] == ["U103"]
    diag = result.collector.diagnostics[0]
    assert len(diag.message) <= 2_100 and diag.url is not None and len(diag.url) <= 2_100
    assert "characters in all" in diag.url


def test_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "s.xml")
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "folder" / "t.xml")
    with hang_guard():  # a hang or a super-linear cost, not a measurement
        given = check([str(tmp_path / "s.xml")])
        walked = check([str(tmp_path / "folder")])
    assert [code for code, _, _ in found(given)] == ["F101"]
    assert "FIFO" in given.collector.diagnostics[0].message
    assert [code for code, _, _ in found(walked)] == ["F104"]  # the FIFO is skipped: nothing left to check


def test_a_link_out_of_a_checked_folder_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "outside.xml").write_text(HEAD + "<url><loc>https://e.com/a</loc></url>\n</urlset>\n")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "s.xml").symlink_to(tmp_path / "outside.xml")
    result = check([str(tmp_path / "site")])
    assert result.files == [] and result.skipped == [os.path.join("site", "s.xml")]


# --- the clock ---------------------------------------------------------------------------

NEWS_SITE = """\
site:
  base_url: https://e.com/
news:
  publication: {name: P, language: en}
output:
  drop_old_news: true
pages:
  - loc: /old
    news: {title: Old, publication_date: 2026-11-18}
  - loc: /new
    news: {title: New, publication_date: 2026-11-21}
"""


def test_old_news_is_dropped_by_the_default_clock(make_site: Callable[..., Path], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(NEWS_SITE)
    # The test suite's SOURCE_DATE_EPOCH is 2026-11-21T12:00:00Z: the old article is left out.
    assert main(["build", str(site), "-o", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "dates judged at 2026-11-21T12:00:00Z (from SOURCE_DATE_EPOCH)" in err
    assert b"<news:title>Old</news:title>" not in b"".join(p.read_bytes() for p in (tmp_path / "out").iterdir()
                                                             if p.is_file())
    assert main(["build", str(site), "-o", str(tmp_path / "out"), "--now", "2026-11-19T00:00:00Z",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["now"] == {"instant": "2026-11-19T00:00:00Z", "from": "--now"}


def test_the_system_clock_is_the_last_resort(make_site: Callable[..., Path], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    (tmp_path / "s.txt").write_text("https://e.com/a\n")
    assert main(["check", str(tmp_path / "s.txt")]) == 0
    assert "(from the system clock)" in capsys.readouterr().err


def test_a_bad_source_date_epoch_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    (tmp_path / "s.txt").write_text("https://e.com/a\n")
    assert main(["check", str(tmp_path / "s.txt")]) == 2
    assert "SOURCE_DATE_EPOCH must be whole seconds" in capsys.readouterr().err


def test_an_undeclared_prefix_inside_a_url_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / "s.xml").write_text(HEAD + "<url><loc>https://e.com/a</loc><a:b:/></url>\n</urlset>\n")
    assert [code for code, _, _ in found(check([str(tmp_path / "s.xml")]))][0] == "X101"


def test_an_undeclared_prefix_inside_an_image_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / "s.xml").write_text(
        HEAD.replace("<urlset ", '<urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" ')
        + "<url><loc>https://e.com/a</loc><image:image><image:caption>x<a:b:/></image:caption></image:image>"
        "</url>\n</urlset>\n")
    assert [code for code, _, _ in found(check([str(tmp_path / "s.xml")]))][0] == "X101"
