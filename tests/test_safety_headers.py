"""A built folder's header files (``_headers``, ``vercel.json``) written by someone we do
not trust: every pattern bounded by one gate, every rule read once, every problem said
once at its place, and any text gives findings, never a traceback."""

from __future__ import annotations

import json
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


# --- each rule read once, each problem said once ------------------------------------------


def junk_rule(parts: int, per_line: int) -> str:
    """A '/*' rule whose Link lines hold ``parts`` parts that are no link (each H118)."""
    lines = ["/*"] + ["  Link: " + ", ".join(["junk"] * per_line) for _ in range(parts // per_line)]
    return "\n".join(lines) + "\n"


def test_a_rule_is_read_once_and_its_problems_said_once_whatever_it_applies_to(
        here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A '/*' rule of 3,000 parts that are no link over 60 pages was parsed again for
    each page (a 4 MiB one: 1.1 GB and 20 s a page). Now it is read once: each H118
    once, at its line and column, counted in full, stored up to the limit per code."""
    import sitemap_ext.read.link_header as link_header

    public = public_site(here, pages=60)
    (public / "_headers").write_text(junk_rule(3_000, 100), encoding="utf-8")
    parsed = []
    real = link_header._parse
    monkeypatch.setattr(link_header, "_parse", lambda value: parsed.append(1) or real(value))
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW, max_per_code=None)
    assert len(parsed) == 30  # (one per Link line, not one per line and page)
    h118 = placed(result, "H118")
    assert len(h118) == 3_000 and len(set(h118)) == 3_000
    assert h118[:2] == [("public/_headers", 2, 9), ("public/_headers", 2, 15)]
    bounded = check(["public"], base_urls=[f"{BASE}=public"], now=NOW, max_per_code=500)
    assert bounded.collector.counts["H118"] == 3_000 and len(placed(bounded, "H118")) == 500


def test_the_reader_stores_problems_up_to_its_limit_and_counts_the_rest(here: Path) -> None:
    from sitemap_ext.read.static_headers import read_headers_file

    (here / "_headers").write_text(junk_rule(5_000, 500) + "not a header\n" * 20, encoding="utf-8")
    found = read_headers_file(str(here / "_headers"), "_headers", "_headers", "e.com", keep=100)
    assert [code for code, *_ in found.problems].count("H118") == 100 and found.unstored["H118"] == 4_900
    assert [code for code, *_ in found.problems].count("H121") == 20 and "H121" not in found.unstored


def test_a_malformed_link_in_a_rule_that_matches_no_file_is_said_too(here: Path) -> None:
    """What a header file holds that no host could read is said whether or not the rule
    reaches a file (before, only a rule that matched a file was read)."""
    public = public_site(here)
    (public / "_headers").write_text(f"/nowhere/*\n  Link: junk, {link('/x', 'en')}\n", encoding="utf-8")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    assert placed(result, "H118") == [("public/_headers", 2, 9)]
    assert placed(result, "H120") == [("public/_headers", 1, 1)]


# --- vercel.json read bounded ---------------------------------------------------------------


def vercel_rule(source: str) -> str:
    return json.dumps({"source": source, "headers": [{"key": "Link", "value": link("/x", "en")}]})


@pytest.mark.parametrize(("text", "place"), [
    ("[" * 100_000, (1, 65)),  # (the 65th '[' passes the 64 levels)
    ('{"headers": [\n' + vercel_rule("/a") + ",\n" + "[" * 68 + "]" * 68 + "]}\n", (3, 63)),  # 70 deep in all
])
def test_a_vercel_json_nested_too_deep_is_h121_at_the_place(here: Path, text: str, place: tuple[int, int]) -> None:
    """json.loads recursed once a level: 100,000 '[' ended in RecursionError (a traceback)."""
    public = public_site(here)
    (public / "vercel.json").write_text(text, encoding="utf-8")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    assert placed(result, "H121") == [("public/vercel.json", *place)]
    assert "nests deeper than 64 levels" in next(d.message for d in result.collector.diagnostics if d.code == "H121")
