"""What a media URL names, judged where its extension says it (issue 38): an image:loc or
video:thumbnail_loc naming a video, a PDF or a page; a video:content_loc naming a page,
Flash or an image. Extension-less and unknown names say nothing (CDNs serve images so)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitemap_ext import build, check
from sitemap_ext.urls import named_kind

NOW = "2026-11-21T12:00:00Z"
HEAD = "site:\n  base_url: https://e.com/\npages:\n  - loc: /p\n"
URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
          'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" '
          'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n<url><loc>https://e.com/p</loc>\n{}\n'
          '</url>\n</urlset>\n')


def video(thumbnail: str = "https://e.com/t.jpg", content: str = "https://e.com/v.mp4",
          player: str | None = None) -> str:
    player_loc = f"<video:player_loc>{player}</video:player_loc>" if player else ""
    return (f"<video:video><video:thumbnail_loc>{thumbnail}</video:thumbnail_loc><video:title>T</video:title>"
            f"<video:description>D</video:description><video:content_loc>{content}</video:content_loc>"
            f"{player_loc}</video:video>")


def checked(tmp_path: Path, body: str) -> list[tuple[str, int | None]]:
    path = tmp_path / "sitemap.xml"
    path.write_text(URLSET.format(body), encoding="utf-8")
    result = check([str(path)], base_urls=[f"https://e.com/={tmp_path}"], now=NOW)
    return [(d.code, d.line) for d in result.collector.sorted() if d.severity.value != "info"]


@pytest.mark.parametrize("url,kind", [
    ("https://e.com/hero-video.mp4", "video"), ("https://e.com/a/brochure.PDF?v=2", "document"),
    ("https://e.com/a.jpg", "image"), ("https://cdn.e.com/img/1234", None), ("https://e.com/img.php?id=3", None),
    ("https://e.com/x.weird", None), ("https://e.com/", None), ("https://e.mp4", None), ("https://e.com/about.html",
                                                                                          "page")])
def test_named_kind_says_only_what_the_extension_says(url: str, kind: str | None) -> None:
    assert named_kind(url) == kind


@pytest.mark.parametrize("body,expected", [
    ("<image:image><image:loc>https://e.com/hero-video.mp4</image:loc></image:image>", [("I105", 4)]),
    ("<image:image><image:loc>https://e.com/brochure.pdf</image:loc></image:image>", [("I105", 4)]),
    ("<image:image><image:loc>https://e.com/img/1234</image:loc></image:image>", []),
    ("<image:image><image:loc>https://e.com/a.webp</image:loc></image:image>", []),
    (video(thumbnail="https://e.com/hero-video.mp4"), [("V118", 4)]),
    (video(thumbnail="https://e.com/media/77", content="https://e.com/media/77"), [("V118", 4)]),
    (video(thumbnail="https://e.com/thumb/77"), []),
    (video(content="https://e.com/watch.html"), [("V118", 4)]),
    (video(content="https://e.com/player.swf"), [("V118", 4)]),
    (video(content="https://e.com/still.png", player="https://e.com/player?v=1"), [("V118", 4)]),
    (video(content="https://e.com/stream/77"), []),
    (video(content="https://e.com/v.m3u8", player="https://e.com/v.mp4"), []),  # (player_loc: any form)
])
def test_a_media_url_naming_another_kind_of_file(tmp_path: Path, body: str, expected: list[tuple[str, int]]) -> None:
    assert checked(tmp_path, body) == expected


def test_the_build_says_it_at_the_key_and_writes_nothing(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(HEAD + "    images: [/hero-video.mp4]\n    videos:\n      - thumbnail_loc: /deck.pdf\n"
                     "        title: T\n        description: D\n        content_loc: /v.mp4\n")
    result = build(str(site), str(tmp_path / "out"), now=NOW)
    assert [(d.code, d.line, d.column) for d in result.collector.sorted()] == [("I105", 5, 14), ("V118", 7, 9)]
    assert not result.ok and not (tmp_path / "out" / "sitemap.xml").exists()


@pytest.mark.parametrize("body,code,start", [
    ("<image:image><image:loc>/a.jpg</image:loc></image:image>", "U101", "image:loc: "),
    ("<image:image><image:loc>https://e.com/a b.jpg</image:loc></image:image>", "U105", "image:loc: "),
    (video(thumbnail="/t.jpg"), "U101", "video:thumbnail_loc: "),
    (video(content="ftp://e.com/v.mp4"), "U102", "video:content_loc: "),
    (video(player="https://e.com/p?a=1&amp;amp;b=2"), "U106", "video:player_loc "),
])
def test_a_media_url_s_message_names_its_element(tmp_path: Path, body: str, code: str, start: str) -> None:
    """Messages about a media URL name the element (image:loc), not a bare 'loc:' that
    reads as the page's <loc>."""
    path = tmp_path / "sitemap.xml"
    path.write_text(URLSET.format(body), encoding="utf-8")
    result = check([str(path)], base_urls=[f"https://e.com/={tmp_path}"], now=NOW)
    messages = [d.message for d in result.collector.diagnostics if d.code == code]
    assert messages and all(m.startswith(start) for m in messages), messages
