"""--format html: one self-contained report with the findings by code and the hreflang
coverage picture, on a built site with planted defects."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from lxml import html

from sitemap_ext import build, check
from sitemap_ext.rules.clusters import ABSENT, DIFFERS, WHOLE

from .test_htmlview import _copy_example

NOW = "2026-11-21T12:00:00Z"
HOST = "https://www.alpine-outfitters.example/"


def _defective(tmp_path: Path) -> tuple[Path, str]:
    """The international example built, then two defects planted in one sitemap: a
    page that drops its fr-FR alternate, and a page naming a German URL that no sitemap
    lists."""
    site = _copy_example("international", tmp_path, "  max_urls: 10\n")
    out = tmp_path / "out"
    assert build(site, out, now=NOW).ok
    target = out / "sitemap-2.xml"
    text = target.read_text(encoding="utf-8")
    first = text.index("<url>")
    end = text.index("</url>", first)
    entry = re.sub(r'<xhtml:link rel="alternate" hreflang="fr-FR" href="[^"]*"/>', "", text[first:end], count=1)
    dropped = re.search(r"<loc>([^<]*)</loc>", entry).group(1)  # type: ignore[union-attr]
    text = text[:first] + entry + text[end:]
    text = text.replace(f'{HOST}de/about"/>', f'{HOST}de/ueber-uns"/>', 1)
    target.write_text(text, encoding="utf-8")
    return out, dropped


def test_the_coverage_picture_marks_each_defect(tmp_path: Path) -> None:
    out, dropped = _defective(tmp_path)
    result = check([str(out)], base_urls=[f"{HOST}={out}"], now=NOW, coverage=100)
    coverage = result.coverage
    assert coverage is not None and coverage.codes[-1] == "x-default"
    assert coverage.clusters == len(coverage.rows) and 0 < coverage.whole < coverage.clusters
    states = [{state for _, state in row.values()} for row in coverage.rows]
    broken = coverage.clusters - coverage.whole
    assert all(s != {WHOLE} for s in states[:broken]) and all(s == {WHOLE} for s in states[broken:])
    cells = {cell for row in coverage.rows for cell in row.values()}
    assert (f"{HOST}de/ueber-uns", ABSENT) in cells  # named, listed nowhere
    assert (dropped, DIFFERS) in cells  # listed, but its own list lacks fr-FR: not the cluster's


def test_a_clean_site_is_all_whole_and_the_picture_is_capped(tmp_path: Path) -> None:
    site = _copy_example("international", tmp_path, "")
    out = tmp_path / "out"
    assert build(site, out, now=NOW).ok
    whole = check([str(out)], base_urls=[f"{HOST}={out}"], now=NOW, coverage=100).coverage
    assert whole is not None and whole.clusters == whole.whole > 3
    assert all(state == WHOLE for row in whole.rows for _, state in row.values())
    capped = check([str(out)], base_urls=[f"{HOST}={out}"], now=NOW, coverage=3).coverage
    assert capped is not None and len(capped.rows) == 3 and capped.clusters == whole.clusters


def test_the_report_names_every_finding_and_draws_the_picture(tmp_path: Path) -> None:
    out, _ = _defective(tmp_path)
    report = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "sitemap_ext", "check", str(out), "--base-url", f"{HOST}={out}",
                           "--now", NOW, "--format", "html", "-o", str(report)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""  # the report went to the file
    text = report.read_text(encoding="utf-8")
    assert "<script" not in text and not re.search(r"<(link|img|iframe)\b|\bsrc=", text)  # no network
    page = html.fromstring(text)
    expected = check([str(out)], base_urls=[f"{HOST}={out}"], now=NOW).collector.sorted()
    groups = {d.get("id"): d for d in page.iter("details")}
    assert set(groups) == {d.code for d in expected}
    for diag in expected:
        rows = [" | ".join(td.text_content() for td in tr.findall("td"))
                for tr in groups[diag.code].findall(".//tbody/tr")]
        assert any(f"{diag.file}:{diag.line}" in row and (diag.url or "") in row and diag.message in row
                   for row in rows), (diag.code, rows)
    picture = page.find(".//table[@class='coverage']")
    assert picture is not None
    marks = [td.get("class") for td in picture.iter("td") if "cell" in (td.get("class") or "")]
    assert "cell absent" in marks and "cell differs" in marks and "cell whole" in marks
    # Readable without hovering: each row names its page, each cell shows its URL's path,
    # long paths may wrap at separators, and the table scrolls sideways on a phone.
    rows = picture.findall(".//tbody/tr")
    assert all(row[0].tag == "th" and row[0].text_content().startswith("/") for row in rows)
    cells = [td for td in picture.iter("td") if "cell" in (td.get("class") or "") and "none" not in td.get("class")]
    assert all(td.find(".//span[@class='path']") is not None and "/" in td.text_content() for td in cells)
    assert "<wbr>" in text and picture.getparent().get("class") == "scroll"


def test_a_report_that_cannot_be_written_is_an_io_failure(tmp_path: Path) -> None:
    out, _ = _defective(tmp_path)
    done = subprocess.run([sys.executable, "-m", "sitemap_ext", "check", str(out), "--format", "html",
                           "-o", str(tmp_path / "missing" / "report.html")], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 3 and "cannot write" in done.stderr and "Traceback" not in done.stderr


def test_build_writes_an_html_report_too(tmp_path: Path) -> None:
    site = _copy_example("international", tmp_path, "")
    done = subprocess.run([sys.executable, "-m", "sitemap_ext", "build", str(site), "-o", str(tmp_path / "out"),
                           "--now", NOW, "--format", "html"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    page = html.fromstring(done.stdout)
    assert page.findtext(".//h1").startswith("sitemap-ext build") and page.find(".//main") is not None
