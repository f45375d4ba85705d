"""The one bounded reader of JSON and TOML (sitemap_ext/structured.py): size, depth and
syntax are a ``Malformed`` with a place, never a RecursionError or a parser's own error."""

from __future__ import annotations

import json
import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext import structured
from sitemap_ext.safeio import Refused

from .conftest import hang_guard

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 100 + "1" + "}" * 100, "[" * 65 + "]" * 65])
def test_deep_json_is_malformed_with_a_place(text: str) -> None:
    with pytest.raises(structured.Malformed) as caught:
        structured.loads_json(text)
    assert caught.value.reason == "nests deeper than 64 levels"
    assert caught.value.line == 1


@pytest.mark.parametrize("text", ["a = " + "[" * 100_000, "a" + ".a" * 100_000 + " = 1", "[t" + ".t" * 100_000 + "]",
                                  "q = " + "{a = " * 70 + "1" + "}" * 70])
def test_deep_toml_is_malformed(text: str) -> None:
    with pytest.raises(structured.Malformed, match="nests deeper than 64 levels"):
        structured.loads_toml(text)


def test_brackets_in_strings_and_comments_do_not_count() -> None:
    assert structured.loads_json('{"a": "' + "[" * 500 + '"}') == {"a": "[" * 500}
    text = "# " + "[" * 500 + "\na = '" + "{" * 500 + "'\nb = \"\"\"" + "[" * 500 + "\"\"\"\nc = [1.5, 2.5, 3.5]\n"
    assert structured.loads_toml(text) == tomllib.loads(text)


def test_syntax_errors_keep_the_parsers_place() -> None:
    with pytest.raises(structured.Malformed) as caught:
        structured.loads_json('{\n  "a": 1,\n}')
    # The standard library's place: the brace after the comma; from 3.13 on, the comma.
    assert (caught.value.line, caught.value.column) == ((2, 9) if sys.version_info >= (3, 13) else (3, 1))
    with pytest.raises(structured.Malformed) as caught:
        structured.loads_toml("a = 1\nb = = 2\n")
    assert caught.value.line == 2
    with pytest.raises(structured.Malformed, match="not UTF-8"):
        structured.loads_json(b'{"a": "\xff"}')


def test_files_are_read_bounded(tmp_path: object) -> None:
    folder = str(tmp_path)
    big = os.path.join(folder, "big.json")
    with open(big, "w") as handle:
        handle.write("[" + "1," * 1000 + "1]")
    with pytest.raises(Refused, match="larger than 100 bytes"):
        structured.read_json(big, 100)
    fifo = os.path.join(folder, "fifo.toml")
    os.mkfifo(fifo)
    with pytest.raises(Refused, match="FIFO"):
        structured.read_toml(fifo)


def _nested(inner: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(), inner, max_size=3))


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(), _nested, max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_json_within_the_limit_reads_as_json_does(value: object) -> None:
    text = json.dumps(value)
    assert structured.loads_json(text) == json.loads(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='[]{}"\\,:ab1 \n', max_size=200))
def test_any_text_is_a_value_or_malformed(text: str) -> None:
    for load in (structured.loads_json, structured.loads_toml):
        try:
            load(text)
        except structured.Malformed:
            pass


@pytest.mark.parametrize("text, toml", [
    ('x = """' + '\\"' * 400_000, True),
    ('"' + '\\"' * 400_000, False),
    ('x = "' + '\\"' * 400_000, True),
    ("x = '''" + "''a" * 300_000, True),
])
def test_a_string_left_open_is_scanned_once(text: str, toml: bool) -> None:
    """A string that never closes, full of escaped quotes, was tried again from each
    quote inside it: 40,000 of them took 19 s, growing with their square. Now linear."""
    with hang_guard(60), pytest.raises(structured.Malformed):
        (structured.loads_toml if toml else structured.loads_json)(text)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet='[]{}"\\,:1a \n', max_size=300), st.integers(min_value=1, max_value=8))
def test_what_passes_the_depth_check_parses_within_the_limit(text: str, limit: int) -> None:
    """The depth counted at C speed (which lets most texts skip the scan) never lets
    through a document deeper than the limit: any text, any limit. (Where the text is
    no JSON it may differ from the scan past the first error, where the parser stops.)"""
    try:
        structured.check_depth(text, limit)
    except structured.Malformed:
        return
    try:
        value = json.loads(text)
    except ValueError:
        return
    assert _depth(value) <= limit


@settings(max_examples=300, deadline=None)
@given(json_values, st.integers(min_value=1, max_value=6))
def test_valid_json_is_refused_exactly_when_it_is_too_deep(value: object, limit: int) -> None:
    text = json.dumps(value)
    refused = False
    try:
        structured.check_depth(text, limit)
    except structured.Malformed:
        refused = True
    assert refused == (_depth(value) > limit)


def test_many_sibling_objects_take_the_fast_count() -> None:
    """A JSON Lines page with 80 images has more openers than the limit but nests three
    deep: it is read, and brackets and escaped quotes in its strings do not count."""
    row = json.dumps({"loc": "/p/1", "images": [{"loc": f"https://cdn.example.com/{n}.jpg", "title": 'x[y] "q" {'}
                                                for n in range(80)]})
    assert structured._json_depth(row, 64) == 3 and structured.loads_json(row)["images"][79]["title"] == 'x[y] "q" {'
