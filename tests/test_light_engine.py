"""The engine's shortcuts keep its verdicts: a packed list as it was packed, a URL's key
whatever shortcut gave it, a loc judged alike on the common and the long way."""

from __future__ import annotations

from collections.abc import Callable
from hashlib import blake2b
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext.read.record import FileFacts, UrlEntry, Value
from sitemap_ext.rules import locs
from sitemap_ext.rules.cluster_log import X_DEFAULT, ClusterLog, list_digest
from sitemap_ext.rules.context import Context
from sitemap_ext.rules.hreflang import Judged, judge_links
from sitemap_ext.rules.locs import judge_loc, loc
from sitemap_ext.urls import _identity_parsed, identity, url_key


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


# --- the loc rule's common case, decided at once, says what the whole rule says ---------

_HOSTS = ["e.com", "E.com", "www.e.com", "e.com:8080", "e.com:443", "xn--bcher-kva.example", "bücher.example",
          "a_b.e.com", "user@e.com", "[::1]", "localhost", "10.0.0.1", "e.com.", "other.org"]
_PATHS = ["", "/", "/a", "/a/b", "/shop/x", "/shop/", "/Shop/x", "/a b", "/%7Euser", "/%zz", "/ü", "/a?x=1&amp;y=2",
          "/a?x=1&y=2", "/a#top", "/v/$VIDEO_ID", "/v/{{ slug }}", "/a%20b", "/" + "x" * 2100, "/a/../b", "/é?q=ü"]


@st.composite
def _urls(draw: st.DrawFn) -> str:
    """A URL in every kind of spelling, mostly near the common case (https://e.com/...)."""
    usual = draw(st.booleans())
    scheme = "https://" if usual else draw(st.sampled_from(["https://", "http://", "HTTPS://", "ftp://", "", "//"]))
    host = "e.com" if usual else draw(st.sampled_from(_HOSTS))
    url = scheme + host + draw(st.sampled_from(_PATHS)) + draw(st.sampled_from(["", "/x", "?q=1", "/$ID", "&amp;"]))
    return url if usual else draw(st.sampled_from([url, f" {url} ", url.upper()]))


def _findings(judge: Callable[[UrlEntry, Context], object], texts: list[str],
              facts: FileFacts) -> list[tuple[Any, ...]]:
    said: list[tuple[Any, ...]] = []
    ctx = Context(facts, lambda *args, **kwargs: said.append((*args, sorted(kwargs.items()))))
    for line, text in enumerate(texts, 1):
        judge(UrlEntry(line, (Value(text, line),)), ctx)
    return said


def _the_long_way(entry: UrlEntry, ctx: Context) -> None:
    judge_loc(entry.locs[0], ctx)


@settings(max_examples=400, deadline=None)
@given(st.lists(_urls(), min_size=1, max_size=8),
       st.sampled_from([None, "https://e.com/sitemap.xml", "https://e.com/shop/sitemap.xml", "https://e.com:8080/s.xml",
                        "https://e.com/a%20b/s.xml", "http://localhost/s.xml", "https://e.com:443/s.xml",
                        "https://user@e.com/s.xml"]),
       st.booleans())
def test_the_loc_rule_says_what_judge_loc_says(texts: list[str], url: str | None, submitted: bool) -> None:
    facts = FileFacts("sitemap.xml", kind="urlset", url=url, submitted=submitted)
    assert _findings(loc, texts, facts) == _findings(_the_long_way, texts, facts)


def test_a_clean_loc_in_the_files_folder_is_decided_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(locs, "judge_loc", lambda value, ctx, what="loc": calls.append(value.text))
    texts = ["https://e.com/shop/a", "https://e.com/shop/b?x=1", "https://e.com/other", "https://e.com/shop/$ID",
             "https://e.com/shop/a&amp;b", "HTTPS://e.com/shop/c"]
    _findings(loc, texts, FileFacts("sitemap.xml", kind="urlset", url="https://e.com/shop/sitemap.xml"))
    assert calls == ["https://e.com/other", "https://e.com/shop/$ID", "https://e.com/shop/a&amp;b",
                     "HTTPS://e.com/shop/c"]


# --- a URL's key, whatever shortcut gave it ---------------------------------------------

_URL_PARTS = st.tuples(
    st.sampled_from(["https://", "http://", "HTTPS://", "Http://", "ftp://", "", "//", " https://"]),
    st.sampled_from(["", "user@", "u:p@"]),
    st.sampled_from(["e.com", "E.COM", "www.e.com", "e.com.", "a_b.e.com", "xn--bcher-kva.example", "xn--zzz.com",
                     "bücher.example", "BÜCHER.example", "straße.de", "[::1]", "[2001:DB8::1]", "127.0.0.1",
                     "-bad-.com", "e..com", "xn--ls8h.la"]),
    st.sampled_from(["", ":80", ":443", ":8080", ":0", ":99999", ":"]),
    st.lists(st.sampled_from(["/", "a", "B", "é", " ", "%41", "%7e", "%7E", "%2F", "%zz", "%", "~", "-", ".", "..",
                              "?", "&", "=", "#", "!", "$", "'", "(", "*", "+", ",", ";", ":", "@", "[", "\t", "\u00a0",
                              "&amp;"]), max_size=10).map("".join),
)


@settings(max_examples=600, deadline=None)
@given(_URL_PARTS)
def test_a_urls_key_is_its_identity_the_long_way(parts: tuple[str, str, str, str, str]) -> None:
    scheme, userinfo, host, port, rest = parts
    url = scheme + userinfo + host + port + rest
    assert identity(url) == _identity_parsed(url)
    assert url_key(url) == int.from_bytes(blake2b(_identity_parsed(url).encode("utf-8", "surrogatepass"),
                                                  digest_size=8).digest(), "little", signed=True)


def test_a_url_in_its_one_form_is_its_own_identity() -> None:
    for url in ("https://e.com/", "http://www.e.com/a/b?x=1&y=2", "https://xn--bcher-kva.example/~a/(b);c=d:e@f"):
        assert identity(url) == _identity_parsed(url) == url
