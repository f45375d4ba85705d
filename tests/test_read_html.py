"""The HTML reader (a first part of "The built site"): a page's head, every value with
its line and column, read bounded whatever the page."""

from __future__ import annotations

from typing import Iterator

import pytest

from sitemap_ext.read.html import HEAD_LIMIT, Placed, page_url, read_head
from sitemap_ext.rules.hreflang import judge_links

PAGE = b"""<!DOCTYPE html>
<html lang="de-DE">
<head><meta charset="utf-8"><link rel="stylesheet" href="/a.css"><link rel="alternate" hreflang="en" href="https://e.com/en/">
  <link rel="alternate" hreflang="de-DE" href="https://e.com/de/"><link rel="canonical" href="https://e.com/de/">
  <meta name="description" content="x"><meta name="robots" content="index, follow">
  <link rel="alternate" type="application/rss+xml" href="/feed.xml">
  <link rel="alternate" media="only screen and (max-width: 640px)" href="https://m.e.com/de/">
</head>
<body><link rel="alternate" hreflang="fr" href="https://e.com/fr/"></body></html>
"""


def chunks(data: bytes, size: int = 7) -> Iterator[bytes]:
    return (data[i:i + size] for i in range(0, len(data), size))


def test_every_value_with_its_line_and_column() -> None:
    head = read_head(chunks(PAGE))  # in pieces of 7 bytes: the end of the head is found across them
    assert head.complete
    assert head.lang == Placed("de-DE", 2, 1)
    # A rel="alternate" without hreflang (a feed, a mobile URL) is another annotation: not read.
    assert head.alternate_places == (Placed("https://e.com/en/", 3, 66), Placed("https://e.com/de/", 4, 3))
    assert head.alternates[:2] == (("alternate", "en", "https://e.com/en/", None),
                                   ("alternate", "de-DE", "https://e.com/de/", None))
    assert head.canonicals == (Placed("https://e.com/de/", 4, 67),)
    assert head.robots == (Placed("index, follow", 5, 40),) and not head.noindex
    # The body's link is not read (the head ends first); feeds and mobile URLs are no hreflang.
    judged = judge_links(head.alternates)
    assert sorted(code for code, _ in judged.cluster) == ["de-DE", "en"]


def test_noindex_and_none_keep_a_page_out() -> None:
    for content in ("noindex", "NOINDEX, nofollow", "none", "follow,noindex"):
        page = f'<html><head><meta name="googlebot" content="{content}"></head></html>'.encode()
        assert read_head(iter([page])).noindex, content
    assert not read_head(iter([b'<html><head><meta name="robots" content="noarchive"></head>'])).noindex


def test_the_encoding_the_page_declares_is_used() -> None:
    page = '<html><head><meta charset="iso-8859-1"><link rel="alternate" hreflang="de" ' \
           'href="https://e.com/größe"></head></html>'.encode("latin-1")
    assert read_head(iter([page])).alternate_places[0].text == "https://e.com/größe"


def test_reading_stops_at_the_end_of_the_head() -> None:
    taken = []

    def huge() -> Iterator[bytes]:  # a 1 GB page, made only as far as it is read
        yield b"<html><head><link rel=canonical href=/a></head><body>"
        for _ in range(1 << 14):
            taken.append(1)
            yield b"x" * (1 << 16)
    head = read_head(huge())
    assert head.canonicals[0].text == "/a" and len(taken) <= 1


def test_a_head_that_never_ends_is_read_only_to_the_limit() -> None:
    taken = []

    def endless() -> Iterator[bytes]:
        yield b"<html><head>"
        while True:
            taken.append(1)
            yield b"<meta name=x content=y>" * 4096
    head = read_head(endless())
    assert not head.complete and head.alternates == ()
    assert len(taken) * 4096 * 23 <= HEAD_LIMIT + 4096 * 23


def test_deep_nesting_and_broken_markup_are_recovered() -> None:
    page = b"<html><head>" + b"<div>" * 50_000 + b'<link rel="alternate" hreflang="en" href="/x">' + b"</head>"
    head = read_head(iter([page]))
    assert head.complete  # libxml2 limits the depth it builds; nothing raised
    broken = read_head(iter([b'<html><head><link rel="alternate" hreflang="en" href="/y"<meta></head>']))
    assert broken.complete
    assert read_head(iter([b""])).alternates == () and read_head(iter([b"\xff\xfe\x00"])).complete


def test_a_file_maps_to_the_url_it_is_served_at() -> None:
    base = "https://e.com/"
    assert page_url("index.html", base) == base
    assert page_url("de/index.html", base) == base + "de/"
    assert page_url("de/about.html", base) == base + "de/about.html"
    assert page_url("de/about.html", base, drop_html=True) == base + "de/about"
    assert page_url("de/größe/index.html", base) == base + "de/gr%C3%B6%C3%9Fe/"
    assert page_url("de/../en/a b.html", base) == base + "en/a%20b.html"
    with pytest.raises(ValueError):
        page_url("../../etc/passwd", base)


@pytest.mark.parametrize(("path", "canonical", "elsewhere"), [
    ("c++/", "c%2B%2B/", False), ("q&a/", "q%26a/", False), ("what's-new/", "what%27s-new/", False),
    ("a(b)/", "a%28b%29/", False), ("x,y;z/", "x%2cy%3bz/", False), ("c++/", "c%2B%2B", False),
    ("a/b/", "a%2Fb/", True), ("c++/", "c%2B/", True), ("c++/", "c++/?q=%2B", True),
])
def test_a_canonical_is_compared_with_the_page_by_identity_not_spelling(path: str, canonical: str,
                                                                         elsewhere: bool) -> None:
    url = page_url(path + "index.html", "https://e.com/")
    head = read_head(iter([f'<html><head><link rel="canonical" href="https://e.com/{canonical}"></head>'.encode()]))
    served = head.served_as(url)  # the page's URL as its canonical spells it, where that is the page
    assert served == (url if elsewhere else f"https://e.com/{canonical}")
    assert (head.canonical_elsewhere(served) is not None) is elsewhere
