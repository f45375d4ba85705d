"""U118: a URL holding a template's variable left unfilled (issue 38: Escenic wrote six
video:player_loc ending 'videoID=$VIDEO_ID', one player for six videos)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitemap_ext import build, check
from sitemap_ext.urls import template_token

NOW = "2026-11-21T12:00:00Z"
URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
          'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" '
          'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n{}\n</urlset>\n')
VIDEO = ("<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>T</video:title>"
         "<video:description>D</video:description><video:player_loc>{}</video:player_loc></video:video>")


@pytest.mark.parametrize("url,token", [
    ("http://c.brightcove.com/viewer?isUI=true&videoID=$VIDEO_ID", "$VIDEO_ID"),
    ("https://e.com/p/${slug}/", "${slug}"), ("https://e.com/p/$%7Bslug%7D/", "$%7Bslug%7D"),
    ("https://e.com/{{ page.url }}", "{{ page.url }}"),
    ("https://e.com/p/%7B%7B%20slug%20%7D%7D", "%7B%7B%20slug%20%7D%7D"),
    ("https://e.com/a?id=%VIDEO_ID%", "%VIDEO_ID%"), ("https://e.com/x/%25ITEM%25/", "%25ITEM%25"),
    # real URL content: OData's lower-case $ options, escapes, a $ inside a word, a hex %XX
    ("https://e.com/odata/$metadata", None), ("https://e.com/a?$filter=x", None), ("https://e.com/price$USD", None),
    ("https://e.com/a?id=%DE%AD", None), ("https://e.com/a%20b", None), ("https://e.com/50%25OFF%25", None),
    ("https://e.com/a/[NAME]", None),
])
def test_template_token_takes_only_what_no_real_url_holds(url: str, token: str | None) -> None:
    assert template_token(url) == token


def checked(tmp_path: Path, body: str) -> list[tuple[str, int | None]]:
    path = tmp_path / "sitemap.xml"
    path.write_text(URLSET.format(body), encoding="utf-8")
    result = check([str(path)], base_urls=[f"https://e.com/={tmp_path}"], now=NOW)
    return [(d.code, d.line) for d in result.collector.sorted() if d.code.startswith("U")]


@pytest.mark.parametrize("body,expected", [
    ("<url><loc>https://e.com/videos/$VIDEO_ID</loc></url>", [("U118", 3)]),
    ("<url><loc>https://e.com/p/{{slug}}</loc></url>", [("U111", 3), ("U118", 3)]),
    ("<url><loc>https://e.com/p</loc><image:image><image:loc>https://e.com/i/%25IMAGE%25.jpg</image:loc>"
     "</image:image></url>", [("U118", 3)]),
    ("<url><loc>https://e.com/p</loc>" + VIDEO.format("https://e.com/player?videoID=$VIDEO_ID") + "</url>",
     [("U118", 3)]),
    ("<url><loc>https://e.com/p</loc>" + VIDEO.format("https://e.com/player?videoID=6043") + "</url>", []),
])
def test_a_checked_url_holding_a_token(tmp_path: Path, body: str, expected: list[tuple[str, int]]) -> None:
    assert checked(tmp_path, body) == expected


def test_a_player_loc_s_token_names_its_element(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(URLSET.format("<url><loc>https://e.com/p</loc>" + VIDEO.format("https://e.com/pl?v=$VIDEO_ID")
                                  + "</url>"), encoding="utf-8")
    result = check([str(path)], base_urls=[f"https://e.com/={tmp_path}"], now=NOW)
    [found] = [d for d in result.collector.diagnostics if d.code == "U118"]
    assert found.severity.value == "warning" and found.message.startswith("video:player_loc holds $VIDEO_ID")
    assert found.url == "https://e.com/p"


def test_the_build_says_it_of_what_it_writes(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site("site:\n  base_url: https://e.com/\npages:\n  - loc: /v/$VIDEO_ID\n  - loc: /p\n"
                     "    images: ['https://e.com/i/{{ image }}.jpg']\n")
    result = build(str(site), str(tmp_path / "out"), now=NOW)
    assert [(d.code, d.line) for d in result.collector.sorted() if d.code == "U118"] == [("U118", 4), ("U118", 5)]
    assert result.ok  # a warning: the files are written
