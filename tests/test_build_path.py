"""The build's records of its entries where their values take the uncommon way.

``write/records.py`` reads a value back the short way when it holds nothing an XML
reader changes (a printable link, a loc without a carriage return, an image with a
loc only, a video child named once); these pages give values that take the long
way too (white space in URLs and hreflang codes, images with more fields, videos
with repeated tags), and the records must still be those read back from the bytes.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext.codes import REGISTRY
from sitemap_ext.dates import Lastmod
from sitemap_ext.diagnostics import Collector, Where
from sitemap_ext.ext import image, video
from sitemap_ext.read.normalised import Layout
from sitemap_ext.read.normalised import NormalisedPage as Page
from sitemap_ext.read.record import FileFacts, UrlEntry
from sitemap_ext.read.xml import read_xml
from sitemap_ext.write.page_flow import PageFlow
from sitemap_ext.write.xml import URLSET_TAIL, Renderer, urlset_head

# Characters an XML reader changes (line ends, tabs), and others str.isprintable()
# refuses (a no-break space, a line separator) that it keeps.
ODD = st.text(alphabet="ab/&\r\n\t\u00a0\u2028\u00e9", min_size=1, max_size=8)
CODE = st.text(alphabet="ab-\t\r\n", min_size=1, max_size=4)
IMAGE = st.builds(image.Image, ODD, st.none() | ODD, st.none() | ODD, st.none() | ODD, st.none() | ODD)
VIDEO = st.builds(video.Video, ODD, ODD, ODD, content_loc=ODD, tags=st.lists(ODD, max_size=3).map(tuple))


def _read_back(entry: UrlEntry) -> tuple[Any, ...]:
    return (tuple(one.text for one in entry.locs), entry.lastmod and entry.lastmod.text, entry.links,
            tuple((item.kind, item.fields, tuple(item.lines), item.order) for item in entry.media), entry.order)


@st.composite
def odd_pages(draw: Any) -> Page:
    rest = draw(ODD)
    codes = tuple(draw(st.lists(CODE, min_size=1, max_size=3, unique=True)))
    media = draw(st.sampled_from(["image", "video", None]))
    extensions: tuple[tuple[str, Any], ...] = ()
    if media == "image":
        extensions = (("image", tuple(draw(st.lists(IMAGE, min_size=1, max_size=2)))),)
    elif media == "video":
        extensions = (("video", (draw(VIDEO),)),)
    core: dict[str, Any] = {"lastmod": Lastmod("2026-01-05", 1.0), "extensions": extensions,
                            "where": Where("site.yaml", 3)}
    if draw(st.booleans()):
        return Page((f"https://e.com/{rest}",), **core)
    bases = tuple(f"https://e.com/{number}/" for number in range(len(codes)))
    return Page(tuple(base + rest for base in bases), codes, x_default=bases[0] + rest,
                layout=Layout(codes, bases, 0), rest=rest, **core)


@settings(max_examples=200, deadline=None)
@given(odd_pages())
def test_records_of_values_an_xml_reader_changes_are_those_read_back(page: Page) -> None:
    findings = Collector(REGISTRY)
    record = PageFlow(findings, None, Renderer())(page)
    assert record is not None
    data = urlset_head(record.prefixes) + bytes(record.blob) + URLSET_TAIL

    def report(*args: Any, **kwargs: Any) -> None:
        findings.report(*args, **kwargs)
    read = [entry for entry in read_xml(iter((data,)), FileFacts(""), report) if isinstance(entry, UrlEntry)]
    assert [_read_back(entry) for entry in record.entries] == [_read_back(entry) for entry in read]
