"""One count of what a check read, said alike by every format (issue 28, point 4):
URL entries (index entries counted apart, as sitemaps listed), distinct URLs, built
pages and alternates, computed once (``CheckResult.counts``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_ext import check
from sitemap_ext.checker.check import Counts

NOW = "2026-11-21T12:00:00Z"
HOST = "https://ex.example/"
_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"'
_LINKS = (f'<xhtml:link rel="alternate" hreflang="en" href="{HOST}en/"/>'
          f'<xhtml:link rel="alternate" hreflang="fr" href="{HOST}fr/"/>')
_HEAD = (f'<link rel="alternate" hreflang="en" href="{HOST}en/">'
         f'<link rel="alternate" hreflang="fr" href="{HOST}fr/">')


def _site(root: Path) -> Path:
    """An index of two sitemaps (one URL in both, spelt differently), a feed with one of
    their URLs and one of its own, and two built pages, each naming two alternates."""
    root.mkdir()
    (root / "sitemap_index.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{HOST}sitemap-a.xml</loc></sitemap><sitemap><loc>{HOST}sitemap-b.xml</loc></sitemap>"
        "</sitemapindex>\n", encoding="utf-8")
    (root / "sitemap-a.xml").write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {_NS}>'
        f"<url><loc>{HOST}en/</loc>{_LINKS}</url><url><loc>{HOST}fr/</loc>{_LINKS}</url></urlset>\n",
        encoding="utf-8")
    (root / "sitemap-b.xml").write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {_NS}>'
        f"<url><loc>{HOST}about/</loc></url><url><loc>https://EX.example/en/</loc></url></urlset>\n",
        encoding="utf-8")
    (root / "feed.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>News</title>'
        f"<link>{HOST}</link><description>News</description>"
        f"<item><title>About</title><link>{HOST}about/</link></item>"
        f"<item><title>One</title><link>{HOST}news/1/</link></item></channel></rss>\n", encoding="utf-8")
    for lang in ("en", "fr"):
        (root / lang).mkdir()
        (root / lang / "index.html").write_text(
            f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{lang}</title>'
            f'<link rel="canonical" href="{HOST}{lang}/">{_HEAD}</head><body>{lang}</body></html>\n',
            encoding="utf-8")
    return root


EXPECTED = Counts(files=6, entries=6, distinct_urls=4, sitemaps_listed=2, pages=2, alternates=8)
LINE = "6 files: 6 URL entries (4 distinct URLs), 2 sitemaps listed, 2 pages, 8 alternates"


def test_the_counts_are_what_the_site_holds(tmp_path: Path) -> None:
    site = _site(tmp_path / "site")
    result = check([str(site)], base_urls=[f"{HOST}={site}"], now=NOW)
    assert result.counts == EXPECTED
    assert any(d.code == "U104" for d in result.collector.diagnostics)  # the URL listed twice, as such


def _cli(site: Path, fmt: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sitemap_ext", "check", str(site), "--base-url", f"{HOST}={site}",
                           "--now", NOW, "--format", fmt], capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_every_format_says_the_same_counts(tmp_path: Path, fmt: str) -> None:
    site = _site(tmp_path / "site")
    summary = tmp_path / "summary.md"
    done = _cli(site, fmt, {"GITHUB_STEP_SUMMARY": str(summary)})
    assert done.returncode in (0, 1), done.stderr
    if fmt != "json":  # (JSON writes no summary line: its summary is the document's)
        assert f"checked {LINE}; " in done.stderr
    assert f"checked {LINE}: " in summary.read_text(encoding="utf-8")  # the GitHub step summary
    if fmt == "json":
        totals = json.loads(done.stdout)["summary"]
        assert {key: totals[key] for key in EXPECTED.as_dict()} == EXPECTED.as_dict()
        assert totals["files_checked"] == len(totals["files"])
    elif fmt == "html":
        found = re.search(r'<p class="muted" id="read">([^<;]*)', done.stdout)
        assert found is not None and found.group(1) == LINE


def test_the_schema_names_the_new_fields() -> None:
    schema = json.loads((Path(__file__).parent.parent / "specs" / "report.schema.json").read_text(encoding="utf-8"))
    assert set(EXPECTED.as_dict()) <= set(schema["properties"]["summary"]["properties"])
