"""Issue 28, point 5 ("The views"): the HTML report's coverage picture and a build's HTML
view of its sitemaps, rendered by a real browser at a desktop's and a phone's width.

Each view is served on 127.0.0.1 and opened in headless Chromium: a screenshot of each
(PNG, kept in the test's folder or in the folder SITEMAP_EXT_SCREENSHOTS names, to
look at), the rendered DOM (the rows named by their
pages, the URLs shown), and, measured by a page of the test's own that holds the view
in a frame 390 pixels wide, no scrolling sideways on a phone: long URLs wrap, and the
coverage picture scrolls inside its own box. Chromium is no part of CI; where it is not
installed these tests are skipped and say why (Debian: apt-get install chromium).
"""

from __future__ import annotations

import functools
import http.server
import os
import struct
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from lxml import html

from sitemap_ext import build
from sitemap_ext.cli import main

from .browser import CHROMIUM, MISSING, chromium
from .test_html_report import HOST, NOW, _defective

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=f"{MISSING}; the views are tested without a browser in "
                                "test_htmlview.py and test_html_report.py")

DESKTOP, PHONE = (1280, 900), (390, 844)

# A page of the test's own: the view in a frame of a phone's width, and what the frame's
# document measures written into this page's DOM once it has loaded.
MEASURE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="view" style="width:390px;height:844px;border:0"></iframe>
<script>
const view = document.getElementById("view");
view.onload = () => {
  const root = view.contentDocument.documentElement;
  document.body.dataset.scrollWidth = root.scrollWidth;
  document.body.dataset.clientWidth = root.clientWidth;
};
view.src = new URLSearchParams(location.search).get("page");
</script></body></html>
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # (the base class names it format)
        pass


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The international example built (with its HTML views), two defects planted, the
    check's HTML report beside it, and a site whose URLs are long; all served."""
    out, _ = _defective(tmp_path)
    assert main(["check", str(out), "--base-url", f"{HOST}={out}", "--now", NOW, "--format", "html",
                 "-o", str(out / "report.html")]) == 1
    long_site = tmp_path / "long.yaml"
    segment = "a-rather-long-product-name-with-many-words"
    long_site.write_text("site:\n  base_url: https://www.example.com/\n  now: 2026-01-01\npages:\n"
                         + "".join(f"  - loc: /shop/{segment}-{n}/{segment}/{'x' * 90}?colour=dark-blue&size={n}\n"
                                   for n in range(3)), encoding="utf-8")
    assert build(str(long_site), str(out / "long")).ok
    (out / "measure.html").write_text(MEASURE, encoding="utf-8")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", tmp_path
    finally:
        server.shutdown()
        server.server_close()


def _screenshot(folder: Path, url: str, size: tuple[int, int], name: str) -> Path:
    """A PNG of ``url`` at ``size``: in the test's folder, or in SITEMAP_EXT_SCREENSHOTS
    when that names a folder (to look at them after the run)."""
    kept = os.environ.get("SITEMAP_EXT_SCREENSHOTS")
    path = (Path(kept) if kept else folder / "screenshots") / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    chromium(folder, f"--screenshot={path}", f"--window-size={size[0]},{size[1]}", url)
    assert path.is_file(), f"Chromium took no screenshot of {url}"
    return path


def _png(path: Path) -> tuple[int, int, bytes]:
    """A PNG's width, height and its pixel rows as stored (filter bytes and all)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    chunks, at = [], 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            chunks.append(data[at + 8:at + 8 + length])
        at += 12 + length
    return width, height, zlib.decompress(b"".join(chunks))


def _drawn(path: Path, size: tuple[int, int]) -> None:
    """The screenshot has the window's size and something drawn on it: a blank page's
    rows, filtered, hold a handful of byte values; text and tables, hundreds."""
    width, height, rows = _png(path)
    assert (width, height) == size
    assert len(set(rows)) > 64, f"{path.name} looks blank"


def _dom(folder: Path, url: str, size: tuple[int, int]) -> html.HtmlElement:
    out = chromium(folder, "--dump-dom", "--virtual-time-budget=5000", f"--window-size={size[0]},{size[1]}", url)
    return html.fromstring(out)


def _overflow(folder: Path, base: str, page: str) -> int:
    """How far the view at ``page`` scrolls sideways in a frame 390 pixels wide."""
    body = _dom(folder, f"{base}measure.html?page={page}", DESKTOP).body
    scroll, client = body.get("data-scroll-width"), body.get("data-client-width")
    assert scroll is not None and client is not None, f"{page} did not load in the frame"
    return int(scroll) - int(client)


def test_the_reports_coverage_picture_names_its_rows_at_both_widths(served: tuple[str, Path]) -> None:
    base, folder = served
    for size, name in ((DESKTOP, "report-desktop.png"), (PHONE, "report-phone.png")):
        _drawn(_screenshot(folder, base + "report.html", size, name), size)
        page = _dom(folder, base + "report.html", size)
        table = page.find_class("coverage")[0]
        rows = table.findall("./tbody/tr")
        names = [row.find("th").text_content() for row in rows]
        assert names and all(name.startswith("/") for name in names)  # each row named by its page's path
        assert "/de/ueber-uns" in table.text_content()  # the URL named and listed nowhere, readable
        assert [th.text_content() for th in table.findall("./thead/tr/th")][-1] == "x-default"
    assert _overflow(folder, base, "report.html") == 0  # the picture scrolls in its box, not the page


def test_the_sitemap_views_show_every_url_and_fit_a_phone(served: tuple[str, Path]) -> None:
    base, folder = served
    for page, expected in (("sitemap-2.html", f"{HOST}"), ("long/sitemap.html", "https://www.example.com/shop/")):
        stem = page.replace("/", "-").removesuffix(".html")
        for size, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
            _drawn(_screenshot(folder, base + page, size, f"{stem}-{suffix}.png"), size)
            shown = _dom(folder, base + page, size)
            urls = [a.get("href") for a in shown.find_class("entry")]  # (each <url> once, as a link)
            assert urls and all(url.startswith(expected) for url in urls)
            if page == "sitemap-2.html":  # alternates: a row a page, a column a language, cells by path
                heads = [th.text_content() for th in shown.xpath("//thead/tr/th")]
                assert heads[:2] == ["#", "page"] and heads[-2:] == ["x-default", "media"]
                assert all(a.text_content().startswith("/") for a in shown.xpath("//tbody/tr/td/a[@class='entry']"))
        assert _overflow(folder, base, page) == 0
    listing = _dom(folder, base + "sitemaps.html", PHONE)
    assert [a.text_content() for a in listing.xpath("//tbody/tr/td[1]/a")][:2] == ["sitemap-1.xml", "sitemap-2.xml"]
    _drawn(_screenshot(folder, base + "sitemaps.html", PHONE, "sitemaps-phone.png"), PHONE)
