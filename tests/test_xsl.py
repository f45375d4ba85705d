"""output.xsl: a stylesheet beside the files, named by each of them, that shows an index
as a list and a urlset as a table; transformed here by libxslt (lxml) and, where
Chromium is installed, rendered by a real browser."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import Callable, Iterator

import pytest
from lxml import etree, html

from sitemap_ext import build, check
from sitemap_ext.write.xml import XSL_FILE

from .browser import CHROMIUM, MISSING, chromium
from .test_htmlview import _copy_example

NOW = "2026-11-21T12:00:00Z"
INSTRUCTION = b'<?xml version=\'1.0\' encoding=\'UTF-8\'?>\n<?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>\n'
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def _built(tmp_path: Path, example: str, extra: str, xsl: bool = True) -> tuple[Path, list[Path]]:
    site = _copy_example(example, tmp_path, f"  xsl: {str(xsl).lower()}\n" + extra)
    lines = site.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith("  xsl:"))  # ours: the example's goes
    site.write_text("".join(line for i, line in enumerate(lines) if i == first or not line.startswith("  xsl:")),
                    encoding="utf-8")
    out = tmp_path / "out"
    result = build(site, out, now=NOW)
    assert result.ok, result.collector.sorted()
    return out, [out / f.name for f in result.files if f.kind in ("urlset", "index")]


def test_every_file_names_the_stylesheet_beside_it(tmp_path: Path,
                                                   assert_valid: Callable[[Path], None]) -> None:
    out, files = _built(tmp_path, "international", "  max_urls: 10\n")
    assert len(files) > 2  # several urlsets and their index
    for path in files:
        assert path.read_bytes().startswith(INSTRUCTION), path
        assert (path.parent / XSL_FILE).is_file()
        assert_valid(path)  # the instruction changes nothing the schema sees
    # Search engines ignore it, and so does the check: no finding at all.
    report = check([str(out)], base_urls=[f"https://www.alpine-outfitters.example/={out}"], now=NOW)
    assert report.ok and report.collector.warnings == 0, report.collector.sorted()


def test_without_the_option_nothing_changes(tmp_path: Path) -> None:
    out, files = _built(tmp_path, "international", "", xsl=False)
    assert not (out / XSL_FILE).exists()
    assert all(b"xml-stylesheet" not in path.read_bytes() for path in files)


def test_each_host_folder_gets_the_stylesheet(tmp_path: Path) -> None:
    out, files = _built(tmp_path, "cctld", "")
    folders = {path.parent for path in files}
    assert len(folders) > 1 and all((folder / XSL_FILE).is_file() for folder in folders)


def test_a_name_the_stylesheet_needs_is_refused(tmp_path: Path) -> None:
    site = _copy_example("international", tmp_path, "  index_file: sitemap.xsl\n")  # (the example has xsl)
    result = build(site, tmp_path / "out", now=NOW)
    assert [d.code for d in result.collector.diagnostics] == ["C108"]
    assert not (tmp_path / "out" / XSL_FILE).exists()


def _rows(document: etree._Element, table: str) -> list[etree._Element]:
    return document.findall(f".//table[@id='{table}']/tbody/tr")


def test_the_stylesheet_shows_an_index_and_each_urlset(tmp_path: Path) -> None:
    out, files = _built(tmp_path, "international", "  max_urls: 10\n")
    transform = etree.XSLT(etree.parse(str(out / XSL_FILE)))
    index = next(path for path in files if path.name == "sitemap.xml")
    listed = etree.parse(str(index)).findall(f"{SM}sitemap")
    shown = _rows(html.fromstring(str(transform(etree.parse(str(index))))), "sitemaps")
    assert [row.find(".//a").get("href") for row in shown] == [s.findtext(f"{SM}loc") for s in listed]
    for path in files:
        if path == index:
            continue
        tree = etree.parse(str(path))
        page = html.fromstring(str(transform(tree)))
        rows = _rows(page, "urls")
        urls = tree.findall(f"{SM}url")
        assert [row.find("td[@class='loc']/a").text for row in rows] == [u.findtext(f"{SM}loc") for u in urls]
        links = [len(u.findall("{http://www.w3.org/1999/xhtml}link")) for u in urls]
        assert [len(row.findall("td[@class='alternates']//li")) for row in rows] == links


def test_media_and_news_show_in_the_table(tmp_path: Path) -> None:
    for example in ("media", "newsroom"):
        out, files = _built(tmp_path / example, example, "")
        transform = etree.XSLT(etree.parse(str(out / XSL_FILE)))
        shown = "".join(str(transform(etree.parse(str(path)))) for path in files)
        assert ("video: " in shown and "image: " in shown) if example == "media" else "news: " in shown


# --- in a real browser ------------------------------------------------------------------



@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    out, _ = _built(tmp_path, "international", "  max_urls: 10\n")
    handler = functools.partial(_QuietHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", out
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


@pytest.mark.skipif(CHROMIUM is None, reason=f"{MISSING}; the stylesheet is still tested through libxslt above")
def test_chromium_renders_the_table(served: tuple[str, Path], tmp_path: Path) -> None:
    base, out = served

    def rendered(name: str) -> etree._Element:
        return html.fromstring(chromium(tmp_path, "--dump-dom", base + name))

    index = rendered("sitemap.xml")
    if index.find(".//table") is None:  # a Chromium whose XSLT is switched off shows the XML tree
        pytest.skip("this Chromium does not run XSLT any more (see the README on browsers and XSLT)")
    sitemaps = _rows(index, "sitemaps")
    assert len(sitemaps) == len(etree.parse(str(out / "sitemap.xml")).findall(f"{SM}sitemap"))
    first = sitemaps[0].find(".//a").get("href").rsplit("/", 1)[1]
    table = _rows(rendered(first), "urls")
    urls = etree.parse(str(out / first)).findall(f"{SM}url")
    assert [row.find("td[@class='loc']/a").text for row in table] == [u.findtext(f"{SM}loc") for u in urls]
    assert any(row.findall("td[@class='alternates']//li") for row in table)
