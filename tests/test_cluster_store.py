"""The cluster index's compact storage: URLs kept compressed and read back for findings."""

from __future__ import annotations

import zlib
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext.rules import cluster_log
from sitemap_ext.rules.cluster_log import HEADER, HTML, NEWS, WEB, ClusterLog, PackedText
from sitemap_ext.rules.cluster_store import ClusterStore
from sitemap_ext.urls import url_key


def _packed(count: int, block: int) -> tuple[PackedText, list[str]]:
    texts = [f"https://www.example.com/{'de' if i % 2 else 'en'}/page-{i}" for i in range(count)]
    packed = PackedText()
    packed.BLOCK = block  # (small blocks: many of them for a few strings)
    for text in texts:
        data = text.encode()
        packed.extend_packed(data, array("I", [len(data)]))
    return packed, texts


def test_every_string_reads_back_as_written() -> None:
    packed, texts = _packed(3000, 4096)
    assert len(packed) == len(texts) and len(packed.blocks) > 20
    assert [packed[i] for i in range(len(texts))] == texts
    assert [packed[i] for i in reversed(range(len(texts)))] == texts[::-1]


def test_findings_that_go_back_and_forth_between_two_places_inflate_each_block_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A URL listed in two sitemaps is read from its first listing and its second, in
    turn, once per duplicate: each block is inflated once, not once a finding."""
    packed, texts = _packed(3000, 4096)
    inflated: list[int] = []
    real = zlib.decompress

    def counted(data: bytes) -> bytes:
        inflated.append(len(data))
        return real(data)

    monkeypatch.setattr(cluster_log.zlib, "decompress", counted)
    half = len(texts) // 2
    for i in range(200):
        assert packed[i] == texts[i] and packed[half + i] == texts[half + i]
    blocks = {cluster_log.bisect_right(packed.starts, packed.ends[i - 1] if i else 0) - 1
              for j in range(200) for i in (j, half + j)}
    assert len(inflated) == len(blocks) < 20


@given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from((WEB, NEWS, HTML, HEADER)), st.integers(-1, 2)),
                max_size=120),
       st.integers(1, 4))
@settings(max_examples=60, deadline=None)
def test_the_counts_are_what_a_set_of_every_url_would_give(entries: list[tuple[int, int, int]], files: int) -> None:
    """Distinct URLs listed (a page's head and a Link header list none) and alternates
    given, counted without a Python object per URL, equal the plain count; in logs of
    one file or several."""
    lists = [(), (("en", "https://e.com/a"),), (("en", "https://e.com/a"), ("de", "https://e.com/b")),
             (("en", "https://e.com/c"), ("fr", "https://e.com/d"), ("x-default", "https://e.com/c"))]
    store = ClusterStore()
    for part in range(files):
        log = ClusterLog()
        for key, kind, chosen in entries[part::files]:
            pairs = lists[chosen + 1]
            keys = tuple(url_key(href) for _, href in pairs)
            log.add(f"https://e.com/{key}", key, 1, kind, pairs, keys, frozenset(keys))
        store.add(f"f{part}.xml", log)
    assert store.distinct_listed() == len({key for key, kind, _ in entries if kind not in (HTML, HEADER)})
    assert store.alternates == sum(len(lists[chosen + 1]) for _, _, chosen in entries)
