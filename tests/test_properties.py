"""Generated site descriptions: builds succeed, validate, and read back to what went in."""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path
from urllib.parse import unquote

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from sitemap_ext import build
from sitemap_ext.read.normalised import CHANGEFREQS

from .conftest import XSD, canonical
from .reference_xml import reference_build

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
# Path characters, IRIs included; no '%', '?', '#' or whitespace, so that decoding
# what was written gives back exactly the path that went in; no '$', which starts
# ${VAR} interpolation and its $${ escape (tested on their own).
SEGMENT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters="%?#\\/\x85$"),
    min_size=1, max_size=12,
).filter(lambda s: s not in (".", ".."))
PATHS = st.lists(SEGMENT, min_size=1, max_size=3).map(lambda parts: "/" + "/".join(parts))
DATES = st.one_of(
    st.dates(dt.date(1995, 1, 1), dt.date(2030, 12, 31)).map(str),
    st.datetimes(dt.datetime(1995, 1, 1), dt.datetime(2030, 12, 31)).map(
        lambda d: d.replace(microsecond=0).isoformat() + "Z"),
)
PAGES = st.lists(
    st.fixed_dictionaries({"loc": PATHS}, optional={
        "lastmod": DATES,
        "changefreq": st.sampled_from(CHANGEFREQS),
        "priority": st.integers(0, 10).map(lambda n: n / 10),
    }),
    min_size=1, max_size=25, unique_by=lambda p: p["loc"],
)


_SCHEMA = etree.XMLSchema(etree.parse(str(XSD))) if XSD.is_file() else None


def _build(pages: list[dict[str, object]], max_urls: int, folder: Path, reference: bool = False) -> list[bytes]:
    site = folder / "site.yaml"
    site.write_text(yaml.safe_dump({
        "site": {"base_url": "https://www.example.com/"},
        "pages": pages,
        "output": {"max_urls": max_urls},
    }, allow_unicode=True), encoding="utf-8")
    out = folder / ("out-lxml" if reference else "out")
    result = (reference_build if reference else build)(str(site), str(out))
    assert result.ok, result.collector.sorted()
    return [(out / f.name).read_bytes() for f in result.files if f.kind != "html"]  # (the XML: the views are HTML)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pages=PAGES, max_urls=st.integers(1, 30))
def test_generated_sites_round_trip(pages: list[dict[str, object]], max_urls: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        fast = _build(pages, max_urls, folder)
        reference = _build(pages, max_urls, folder, reference=True)
        assert [canonical(x) for x in fast] == [canonical(x) for x in reference]
        assert fast == _build(pages, max_urls, folder)  # deterministic
        schema = _SCHEMA
        written: list[str] = []
        for data in fast:
            root = etree.fromstring(data)
            if schema is not None:
                assert schema.validate(root), schema.error_log
            if root.tag == f"{SM}urlset":
                for url in root.iter(f"{SM}url"):
                    loc = url.findtext(f"{SM}loc") or ""
                    assert loc.isascii() and " " not in loc
                    written.append(unquote(loc))
        # A loc that arrives XML-escaped ('&amp;') is written unescaped once (U106).
        assert written == ["https://www.example.com" + str(p["loc"]).replace("&amp;", "&") for p in pages]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_any_text_as_lastmod_never_crashes(text: str) -> None:
    from sitemap_ext.dates import parse_w3c

    lastmod, problems = parse_w3c(text)
    assert (lastmod is None) == any(p.code == "D101" for p in problems)
    if lastmod is not None:
        again, _ = parse_w3c(lastmod.text)
        assert again == lastmod  # what we write reads back to itself


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60))
def test_any_text_as_url_never_crashes(text: str) -> None:
    from sitemap_ext.urls import normalise

    url, problems = normalise(text, "https://e.com/")
    if url is not None:
        assert url.startswith(("http://", "https://")) and url.isascii()
        assert not any(c.isspace() for c in url)
        assert normalise(url)[0] == url  # normalising is idempotent


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60), st.sampled_from(["", ":8080"]), st.sampled_from(["http", "https"]))
def test_origin_text_agrees_with_parsing(text: str, port: str, scheme: str) -> None:
    from sitemap_ext.urls import normalise, origin_of, origin_text

    url, _ = normalise(text, f"{scheme}://e.com{port}/")
    if url is not None:
        assert origin_text(url) == str(origin_of(url))
    assert origin_text(f"{scheme}://e.com{port}") == f"{scheme}://e.com{port}"  # no path at all
