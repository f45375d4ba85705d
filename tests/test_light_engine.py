"""The engine's shortcuts keep its verdicts: a packed list as it was packed, a URL's key
whatever shortcut gave it, a loc judged alike on the common and the long way."""

from __future__ import annotations

from sitemap_ext.rules.cluster_log import X_DEFAULT, ClusterLog, list_digest
from sitemap_ext.rules.hreflang import Judged, judge_links
from sitemap_ext.urls import url_key


def _verdict(hrefs: dict[str, str]) -> Judged:
    return judge_links(tuple(("alternate", code, href, None) for code, href in hrefs.items()))


def test_a_list_is_packed_with_its_hrefs_utf8_lengths_and_its_codes_numbered_as_they_come() -> None:
    first = _verdict({"de": "https://e.com/über", "en": "https://e.com/over", X_DEFAULT: "https://e.com/over"})
    second = _verdict({"fr": "https://e.com/été", "de": "https://e.com/über"})
    log = ClusterLog()
    log.add_entries(["https://e.com/über", "https://e.com/été"], [url_key("https://e.com/über"),
                    url_key("https://e.com/été")], [3, 9], [0, 0], [first.cluster, second.cluster],
                    [first.cluster_keys, second.cluster_keys], [first.named, second.named])
    assert log.codes == ["de", "en", X_DEFAULT, "fr"]
    assert list(log.item_codes) == [0, 1, 2, 0, 3]  # (each list sorted: de, en, x-default; de, fr)
    hrefs = [href for _, href in first.cluster + second.cluster]
    assert list(log.href_lengths) == [len(href.encode()) for href in hrefs]
    assert bytes(log.href_bytes) == "".join(hrefs).encode()
    assert list(log.named) == [2, 2]  # (URLs under a language: x-default's is en's)
    assert list(log.digests) == [list_digest(first.cluster), list_digest(second.cluster)]
    assert list(log.members) == [1, 1] and list(log.lists) == [0, 1]


def test_judged_verdicts_compare_by_value() -> None:
    one = _verdict({"de": "https://e.com/de", "en": "https://e.com/en"})
    judge_links.__globals__["_judge"].cache_clear()
    again = _verdict({"de": "https://e.com/de", "en": "https://e.com/en"})
    assert one is not again and one == again and hash(one) == hash(again)
    assert not hasattr(one, "__dict__")
