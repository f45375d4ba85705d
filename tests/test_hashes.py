"""The compact hash structures behave like Python's set and dict, spill included."""

from __future__ import annotations

from array import array

from pathlib import Path
from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext import build
from sitemap_ext.write.hashes import HashSet, HashTable, UrlSeen

KEYS = st.lists(st.one_of(st.integers(-(2 ** 63), 2 ** 63 - 1), st.sampled_from([0, 1, -1, 2 ** 20])), max_size=300)


@settings(max_examples=100, deadline=None)
@given(KEYS)
def test_hash_set_is_a_set(keys: list[int]) -> None:
    table, reference = HashSet(bits=2), set()
    for key in keys:
        stored = key or 1  # 0 marks an empty slot: it is stored as 1
        assert table.add(key) == (stored not in reference)
        reference.add(stored)
    assert table.size == len(reference)
    assert all(key in table for key in keys)
    assert not any(key in table for key in (12345678987, -98765) if key not in reference)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(-50, 50), min_size=1, max_size=6, unique=True), max_size=60))
def test_hash_set_adds_pages_all_or_nothing(pages: list[list[int]]) -> None:
    table, reference = HashSet(bits=1), set()
    for keys in pages:
        stored = {key or 1 for key in keys}
        if len(stored) < len(keys):
            continue  # 0 and 1 are one key here; pages hold distinct keys
        new = reference.isdisjoint(stored)
        assert table.add_if_new(keys) == new
        if new:
            reference |= stored
        assert table.size == len(reference) and all(key in table for key in reference)


@settings(max_examples=100, deadline=None)
@given(KEYS)
def test_hash_table_keeps_the_first_value(keys: list[int]) -> None:
    table, reference = HashTable(bits=2), {}
    for value, key in enumerate(keys):
        stored = key or 1
        assert table.put_new(key, value) == reference.get(stored, -1)
        reference.setdefault(stored, value)
    assert all(table.get(key) == reference[key or 1] for key in keys)
    assert table.get(424242424242) == (reference.get(424242424242, -1))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.lists(st.integers(1, 500), min_size=1, max_size=5, unique=True), max_size=80))
def test_url_seen_spills_without_changing_answers(pages: list[list[int]]) -> None:
    small, large = UrlSeen(), UrlSeen()
    small.SPILL = 16  # type: ignore[misc]
    for keys in pages:
        assert small.add_if_new(keys) == large.add_if_new(keys)
    assert len(small) == len(large)
    assert all((key in small) == (key in large) for key in range(1, 600))  # 0 is stored as 1


def test_a_build_that_spills_writes_what_one_that_does_not_writes(
    make_site: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = "path\n" + "".join(f"/p{i}\n" for i in range(300)) + "/p7\n/p250\n"
    site = make_site("site:\n  base_url: https://e.com/\nlocales: {en: /en/, de: /de/}\nsources:\n  - p.csv\n"
                     "pages:\n  - loc: /en/p299\n", **{"p.csv": rows})
    plain = build(str(site), str(tmp_path / "plain"))
    monkeypatch.setattr(UrlSeen, "SPILL", 50)
    spilled = build(str(site), str(tmp_path / "spilled"))
    # Row 301 repeats the YAML page's English URL; rows 302 and 303 repeat both of theirs.
    assert [(d.code, d.line) for d in spilled.collector.sorted()] == \
        [(d.code, d.line) for d in plain.collector.sorted()] == \
        [("U104", 301), ("U104", 302), ("U104", 302), ("U104", 303), ("U104", 303)]
    for name in ("sitemap.xml",):
        assert (tmp_path / "plain" / name).read_bytes() == (tmp_path / "spilled" / name).read_bytes()


@settings(max_examples=100, deadline=None)
@given(KEYS)
def test_hash_set_update_is_set_update(keys: list[int]) -> None:
    table = HashSet(bits=1)
    table.update(keys)
    reference = {key or 1 for key in keys}
    assert table.size == len(reference) and all(key in table for key in reference)
    assert 2 * table.size <= table.mask + 1  # never more than half full


@settings(max_examples=100, deadline=None)
@given(groups=st.lists(st.lists(st.text(max_size=9), max_size=4), max_size=30), block=st.integers(1, 40))
def test_packed_text_reads_back_every_string(groups: list[list[str]], block: int) -> None:
    from sitemap_ext.rules.clusters import PackedText

    text = PackedText()
    text.BLOCK = block  # type: ignore[misc]
    for group in groups:  # strings added a file at a time, packed, as the cluster index adds them
        encoded = [piece.encode("utf-8", "surrogatepass") for piece in group]
        text.extend_packed(b"".join(encoded), array("I", map(len, encoded)))
    strings = [piece for group in groups for piece in group]
    assert len(text) == len(strings)
    for number in reversed(range(len(strings))):  # any order: blocks inflated again as needed
        assert text[number] == strings[number]


@settings(max_examples=200, deadline=None)
@given(keys=st.lists(st.integers(-(2 ** 63), 2 ** 63 - 1) | st.sampled_from([0, -1, 1, 2 ** 63 - 1, -(2 ** 63)]),
                     max_size=300))
def test_keys_sorted_in_buckets_are_sorted_stably(keys: list[int]) -> None:
    from sitemap_ext.rules.clusters import sorted_by_key

    order, ordered = sorted_by_key(array("q", keys))
    expected = sorted(range(len(keys)), key=keys.__getitem__)
    assert list(order) == expected and list(ordered) == [keys[i] for i in expected]
