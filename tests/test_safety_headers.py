"""A built folder's header files (``_headers``, ``vercel.json``) written by someone we do
not trust: every pattern bounded by one gate, every rule read once, every problem said
once at its place, and any text gives findings, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_ext import check
from sitemap_ext.read.static_headers import bounded_matcher, host_matcher, netlify_matcher, repetitions, vercel_matcher

BASE = "https://e.com/"
NOW = "2026-11-21T12:00:00Z"


def link(href: str, code: str) -> str:
    return f'<{href}>; rel="alternate"; hreflang="{code}"'


def placed(result: object, code: str) -> list[tuple[str | None, int | None, int | None]]:
    return [(d.file, d.line, d.column) for d in result.collector.sorted() if d.code == code]  # type: ignore[attr-defined]


@pytest.fixture()
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def public_site(root: Path, pages: int = 1) -> Path:
    """A built folder of ``pages`` pages, each with a 40-character path."""
    public = root / "public"
    for number in range(pages):
        folder = public / "a" / f"{'a' * 30}{number:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_text("<!DOCTYPE html>\n<html lang=en><title>t</title></html>\n",
                                           encoding="utf-8")
    return public


# --- one gate for every pattern ------------------------------------------------------------


def test_twelve_splats_are_h121_at_their_line_and_the_check_ends(here: Path) -> None:
    """'/*a*a...*ab' (twelve splats) ran for minutes against a path of 40 characters: a
    _headers path had no limit, where a vercel.json source and a host had three."""
    public = public_site(here)
    pattern = "/" + "*a" * 12 + "b"
    (public / "_headers").write_text(f"# a hostile rule\n{pattern}\n  Link: {link('/x', 'en')}\n", encoding="utf-8")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    assert placed(result, "H121") == [("public/_headers", 2, 1)]
    assert "repeats more than 3 times" in next(d.message for d in result.collector.diagnostics if d.code == "H121")


@pytest.mark.parametrize("make", [netlify_matcher, host_matcher, vercel_matcher])
def test_every_kind_of_pattern_has_one_limit_splats_and_placeholders_together(make: object) -> None:
    """Three repetitions in all, of any kind, run; a fourth is not run, in any pattern."""
    text = {host_matcher: ("*.:b.:c", "*.:b.:c.:d"), netlify_matcher: ("/*/:b/:c", "/*/:b/:c/:d"),
            vercel_matcher: ("/*/:b/:c", "/*/:b/:c/:d")}[make]  # type: ignore[index]
    assert make(text[0]) is not None  # type: ignore[operator]
    assert make(text[1]) is None  # type: ignore[operator]


@pytest.mark.parametrize(("regex", "count"), [
    (r"/a\*b\+c\?", 0), ("/[*+?{]x", 0), ("/(?:a)(?P<n>b)", 0), ("/[]*]x", 0), ("/[^]*]x", 0),
    ("/a*?", 2), ("/(a?){2}", 2), ("/[^/]+.*", 2), ("/[unclosed*+", 0),
])
def test_repetitions_are_counted_outside_escapes_classes_and_group_flags(regex: str, count: int) -> None:
    assert repetitions(regex) == count


def test_a_regex_nested_too_deep_for_re_s_parser_is_not_run() -> None:
    assert bounded_matcher("/" + "(" * 100_000 + ")" * 100_000) is None
