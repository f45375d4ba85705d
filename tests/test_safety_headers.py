"""A built folder's header files (``_headers``, ``vercel.json``) written by someone we do
not trust: every pattern bounded by one gate, every rule read once, every problem said
once at its place, and any text gives findings, never a traceback."""

from __future__ import annotations

import json
import re
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_ext import check
from sitemap_ext.limits import MAX_LINKS_PER_URL, MAX_PATTERN_QUANTIFIERS
from sitemap_ext.read.header_patterns import Run, Token, TokenMatcher
from sitemap_ext.read.link_header import gather, read_links
from sitemap_ext.read.static_headers import (
    HeadersFile,
    bounded_matcher,
    host_matcher,
    netlify_matcher,
    read_headers_file,
    repetitions,
    vercel_matcher,
)

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


# --- generated header files: findings or records, never a traceback ------------------------

_PIECES = ["/", "*", ":x", ":lang", ".", "a", "-", "\\", "(", ")", "[", "]", "?", "+", "{1,2}", "https://",
           ":p.pages.dev", "#", "!", " ", "\t", "\r", "Link", ":", "<", ">", ";", ",", "=", '"', "'", "é", "\ufeff",
           "rel=alternate", "hreflang=en", "\x00", "%2F", "\n"]


def pieces(size: int = 60) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(_PIECES) | st.text(max_size=3), max_size=size).map("".join)


def _headers_lines() -> st.SearchStrategy[str]:
    line = st.one_of(pieces(), pieces().map(lambda text: "/" + text), pieces().map(lambda text: "  Link: " + text),
                     st.builds(lambda stars, tail: "/" + "*a" * stars + tail, st.integers(0, 40), pieces(10)),
                     st.builds(lambda names: "/" + "/".join(f":p{n}" for n in range(names)), st.integers(0, 40)))
    return st.lists(line, max_size=30).map("\n".join)


def assert_read(found: HeadersFile) -> None:
    """What a reader gives: problems with a code and a place; rules with bounded patterns."""
    for code, message, line, column in found.problems:
        assert code in ("H118", "H119", "H121") and message and line >= 1 and column >= 1
    for rule in found.rules:
        assert repetitions(rule.matcher.pattern) <= MAX_PATTERN_QUANTIFIERS
    for path in ("/", "/" + "a" * 200, "/" + "a/" * 100, "/en/guide.pdf", "/:x/*"):
        gather(found.links_for((path,)), BASE + path.lstrip("/"))


@settings(max_examples=300, deadline=2_000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_headers_lines(), host=st.sampled_from([None, "e.com", "p.pages.dev"]))
def test_any_headers_text_gives_findings_or_rules(tmp_path: Path, text: str, host: str | None) -> None:
    path = tmp_path / "_headers"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    assert_read(read_headers_file(str(path), "_headers", "_headers", host))


_KEYS = ["headers", "source", "key", "value", "has", "missing", "Link", "link"]
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | pieces(20)
                     | st.sampled_from(_KEYS),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(_KEYS) | pieces(5),
                                                                                 inner, max_size=4), max_leaves=30)


def _rules() -> st.SearchStrategy[object]:
    header = st.fixed_dictionaries({"key": st.sampled_from(["Link", "link", "X"]) | pieces(5),
                                    "value": pieces() | st.just(link("/x", "en")) | _JSON})
    rule = st.fixed_dictionaries({"source": pieces(30) | pieces(30).map(lambda text: "/" + text),
                                  "headers": st.lists(header, max_size=3) | _JSON})
    return st.fixed_dictionaries({"headers": st.lists(rule | _JSON, max_size=6)}) | _JSON


@settings(max_examples=300, deadline=2_000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=_rules(), indent=st.sampled_from([None, 1, 2]), escape=st.booleans(), cut=st.integers(0, 400))
def test_any_vercel_json_gives_findings_or_rules(tmp_path: Path, document: object, indent: int | None,
                                                 escape: bool, cut: int) -> None:
    text = json.dumps(document, indent=indent, ensure_ascii=escape)
    path = tmp_path / "vercel.json"
    for version in (text, text[:cut]):  # (whole, and cut short anywhere)
        path.write_bytes(version.encode("utf-8", "surrogatepass"))
        assert_read(read_headers_file(str(path), "vercel.json", "vercel.json", "e.com"))


@settings(max_examples=500, deadline=2_000)
@given(values=st.lists(st.tuples(pieces(80), st.integers(0, 5), st.integers(1, 9) | st.lists(
    st.integers(1, 99), max_size=5).map(tuple)), max_size=4))
def test_any_link_value_gives_links_or_findings(values: list[tuple[str, int, int | tuple[int, ...]]]) -> None:
    found = read_links(values, BASE)
    assert all(code in ("H118", "H119") and column >= 1 for code, _, _, column in found.problems)
    assert len(found.links) == len(found.lines) == len(found.columns) <= MAX_LINKS_PER_URL


def test_hostile_link_values_are_read_bounded() -> None:
    """Nested and unbalanced quotes, a huge list of parameters, thousands of links."""
    quotes = '<https://e.com/a>; rel="alternate"; hreflang="en"; title="' + '\\"' * 5_000 + '"'
    params = "<https://e.com/a>; " + "; ".join(f"p{n}={n}" for n in range(1_200)) + "; rel=alternate; hreflang=de"
    many = ", ".join(link(f"https://e.com/{n}", "en") for n in range(1_500))
    unbalanced = '<a>; rel="' * 1_001
    found = read_links([(quotes, 1, 1), (params, 2, 1), (unbalanced, 3, 1), (many, 4, 1)], BASE)
    assert [(link[1], link[2]) for link in found.links[:2]] == [("en", "https://e.com/a"), ("de", "https://e.com/a")]
    assert [(code, line) for code, _, line, _ in found.problems] == [("H118", 3), ("H119", 4)]


def test_a_url_pattern_whose_host_never_closes_is_h121(here: Path) -> None:
    """'https://[' (an IPv6 address never closed): urlsplit raised ValueError, a traceback."""
    public = public_site(here)
    (public / "_headers").write_text(f"https://[\n  Link: {link('/x', 'en')}\n/*\n  X: y\n", encoding="utf-8")
    (public / "vercel.json").write_text(vercel_rule("https://[::1/*").join(['{"headers": [', "]}"]), encoding="utf-8")
    result = check(["public"], base_urls=[f"{BASE}=public"], now=NOW)
    assert placed(result, "H121") == [("public/_headers", 1, 1), ("public/vercel.json", 1, 25)]


def test_a_vercel_link_value_of_megabytes_is_read_to_its_limit_at_once(here: Path) -> None:
    """Its place was found by a regular expression made of the whole value (a minute, and
    287 MB, for 3 MB); and each of its characters got a column, though 16 KiB are read."""
    value = ", ".join([link(f"{BASE}a", "en")] * 60_000)
    text = json.dumps({"headers": [{"source": "/*", "headers": [{"key": "X", "value": "y"},
                                                              {"key": "Link", "value": value}]}]})
    (here / "vercel.json").write_text(text, encoding="utf-8")
    tracemalloc.start()
    try:
        found = read_headers_file(str(here / "vercel.json"), "vercel.json", "vercel.json", "e.com")
        assert tracemalloc.get_traced_memory()[1] < 100 << 20  # (287 MB before, 40 MB now)
    finally:
        tracemalloc.stop()
    first = text.index('"<') + 2  # (the column of the value's first character)
    assert [(code, line, column) for code, _, line, column in found.problems] == [("H119", 1, first)]
    read = found.rules[0].read
    assert read is not None and len(read.links) == 16_384 // len(link(f"{BASE}a", "en") + ", ")
    assert read.links[1][1:] == (1, first + len(json.dumps(link(f"{BASE}a", "en") + ", ")) - 2)  # (as JSON spells it)


# --- patterns matched without backtracking --------------------------------------------------


def regex_of(tokens: list[Token]) -> str:
    """The regular expression a token list stands for, as the pattern makers write it."""
    return "".join(re.escape(token) if isinstance(token, str) else
                   ("." if token.stop == "\n" else f"[^{re.escape(token.stop)}]") + "*+"[token.least]
                   for token in tokens)


_TEXT_CHARS = "ab/.\n:é"
_TOKENS = st.lists(st.text(_TEXT_CHARS, min_size=1, max_size=3)
                   | st.builds(Run, st.sampled_from("\n/."), st.integers(0, 1)), max_size=7)


@settings(max_examples=1_500, deadline=None)
@given(tokens=_TOKENS, texts=st.lists(st.text(_TEXT_CHARS, max_size=10), min_size=1, max_size=8))
def test_the_token_matcher_agrees_with_re_on_any_tokens(tokens: list[Token], texts: list[str]) -> None:
    """Any number of runs (past the gate's three too), any of them next to another or to
    text they could cross, on short texts (re backtracks on longer ones)."""
    regex = regex_of(tokens)
    matcher = TokenMatcher(regex, tuple(tokens))
    for text in texts + [text.replace("\n", "") for text in texts]:
        assert bool(matcher.fullmatch(text)) is bool(re.fullmatch(regex, text)), (regex, text)


_PATTERN_PIECES = st.lists(st.sampled_from(["a", "b", "/", ".", "*", ":n", ":", "é", "ab", "\n", "(a|b)", ":m+",
                                            ":m*", ":m?", "\\*"]), max_size=8).map("".join)


@settings(max_examples=1_000, deadline=None)
@given(pattern=_PATTERN_PIECES, kind=st.sampled_from(["_headers", "host", "vercel.json"]),
       texts=st.lists(st.text(_TEXT_CHARS, max_size=10), min_size=1, max_size=6))
def test_every_pattern_maker_matches_as_its_regular_expression(pattern: str, kind: str, texts: list[str]) -> None:
    """A _headers path, a host and a vercel.json source each match exactly as the regular
    expression they stand for (``.pattern``) does under re.fullmatch."""
    make = {"_headers": netlify_matcher, "host": host_matcher, "vercel.json": vercel_matcher}[kind]
    matcher = make(pattern if kind == "host" else "/" + pattern)
    if matcher is None:
        return
    for text in texts + ["/" + text for text in texts]:
        assert bool(matcher.fullmatch(text)) is bool(re.fullmatch(matcher.pattern, text)), (matcher.pattern, text)


_LONG = [2_047, 4_000]  # (a built site's longest URL, and twice it)


@pytest.mark.parametrize("size", _LONG)
@pytest.mark.parametrize(("pattern", "ending", "matches"), [
    ("/*a*a*ab", "a" * 3 + "ab", True), ("/*a*a*ab", "a" * 3 + "ac", False), ("/*a*a*ab", "b" * 3 + "ab", None),
    ("/:x*a*ab", "a" * 3 + "ab", True), ("/*/*/*.html", "/a/b.html", True), ("/*/*/*.html", "/a/b.htm", False),
    ("/:a/:b/*x", "/y/zx", True), ("/:a/:b/*x", "/y/z/x", True),
])
def test_three_repetitions_on_the_longest_paths_give_the_answer(size: int, pattern: str, ending: str,
                                                               matches: bool | None) -> None:
    """'/*a*a*ab' backtracked over every split of the path in three: 10 s on 2,047
    characters, over a minute on 4,000 (re's cost grew with the cube of the length)."""
    matcher = netlify_matcher(pattern)
    assert matcher is not None and repetitions(matcher.pattern) == MAX_PATTERN_QUANTIFIERS
    fill = "a" if matches is not None else "b"  # (None: too few 'a's anywhere)
    path = "/" + (fill + "/") * ((size - len(ending)) // 4) + fill * ((size - len(ending)) // 2)
    path = (path + fill * size)[:size - len(ending)] + ending
    assert len(path) == size
    assert bool(matcher.fullmatch(path)) is bool(matches)


@pytest.mark.parametrize("size", _LONG)
def test_three_repetitions_in_a_host_and_a_vercel_source_give_the_answer(size: int) -> None:
    host = host_matcher("*a*a*a.pages.dev")
    source = vercel_matcher("/:x*a:rest*")
    assert host is not None and source is not None
    assert host.fullmatch("a" * (size - 10) + ".pages.dev") and not host.fullmatch("a" * (size - 10) + ".pages.de")
    assert not host.fullmatch("b" * (size - 10) + ".pages.dev")
    assert source.fullmatch("/" + "a" * (size - 1)) and not source.fullmatch("/" + "b" * (size - 1))


def test_a_hundred_hostile_rules_against_a_long_path_are_read(tmp_path: Path) -> None:
    """The call a check makes for every file: each of 100 rules of three repetitions
    matched to a path of 2,047 characters (before: 10 s a rule)."""
    rules = ["/*a*a*ab", "/*a*a*ac", "/:x*a*ab", "/*/*/*b"] * 25
    text = "".join(f"{rule}\n  Link: {link(f'/{number}', 'en')}\n" for number, rule in enumerate(rules))
    (tmp_path / "_headers").write_text(text, encoding="utf-8")
    found = read_headers_file(str(tmp_path / "_headers"), "_headers", "_headers", "e.com")
    assert found.problems == [] and len(found.patterns) == 100
    path = "/" + "a" * 2_044 + "ab"
    reads = found.links_for((path,))
    assert [rule.number % 4 for rule in found.rules if rule.used] == [0, 2] * 25 and len(reads) == 50


@pytest.mark.parametrize(("pattern", "kind"), [("/*", re.Pattern), ("/docs/*", re.Pattern), ("/:lang", re.Pattern),
                                               ("/:lang/*", TokenMatcher), ("/*/*/*", TokenMatcher)])
def test_a_pattern_of_one_repetition_stays_with_re(pattern: str, kind: type) -> None:
    """One run cannot backtrack more than once over the path (each of its lengths is tried
    once), and re is several times quicker for the common '/docs/*'; two or more can."""
    assert isinstance(netlify_matcher(pattern), kind)
