"""The XML reader (``read/xml.read_xml``, on expat) reads any layout into the same records.

Generated urlsets (locs, lastmods, alternates, images with attributes and nested
elements, unknown elements, values with the characters XML escapes and text outside
ASCII) are written in several layouts: one element per line, minified to one line,
start tags over several lines with attributes in another order, prefixes of any name
declared on the elements that use them, CDATA, character references. Each is read in
chunks of any size, and every layout gives the same records field by field, lines
aside, with the values as generated. Then: where a record's line is, and what the
reader refuses (a DTD, entities) or reports (a bare '&'), with its code and line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext.read.record import FileFacts, IndexEntry, Media, Stray, UrlEntry, Value
from sitemap_ext.read.xml import read_xml

SM = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML = "http://www.w3.org/1999/xhtml"
IMG = "http://www.google.com/schemas/sitemap-image/1.1"
TEXT = st.text(alphabet="ab &<>\"']]\u00e9\u4e2d", min_size=1, max_size=8)
NAME = st.sampled_from(["a", "sm", "x1", "n.s", "p-q"])

Record = UrlEntry | IndexEntry | Stray


@dataclasses.dataclass
class Url:
    loc: str
    lastmod: str | None
    links: list[tuple[str, str]]  # (hreflang, href)
    images: list[tuple[str, str | None]]  # (loc, caption with an attribute)
    unknown: str | None  # the text of an element no schema defines


URL = st.builds(Url, TEXT, st.none() | TEXT, st.lists(st.tuples(TEXT, TEXT), max_size=3),
                st.lists(st.tuples(TEXT, st.none() | TEXT), max_size=2), st.none() | TEXT)


def escape(text: str, quote: bool = False) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if quote else text


def references(text: str, quote: bool = False) -> str:
    """Every character but letters as a character reference (decimal and hex in turn)."""
    return "".join(c if c.isascii() and c.isalnum() else (f"&#{ord(c)};" if i % 2 else f"&#x{ord(c):x};")
                   for i, c in enumerate(text))


def cdata(text: str, quote: bool = False) -> str:
    if quote:
        return escape(text, True)
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


class Layout:
    """How one file is written: its separators, prefixes and how a value is spelt."""

    def __init__(self, value: Callable[..., str] = escape, sep: str = "", inner: str = "", prefix: str = "",
                 local_ns: bool = False, scattered: bool = False) -> None:
        self.value, self.sep, self.inner, self.prefix = value, sep, inner, prefix
        self.local_ns, self.scattered = local_ns, scattered

    def tag(self, name: str) -> str:
        return f"{self.prefix}:{name}" if self.prefix else name

    def link(self, code: str, href: str, p: str) -> str:
        attrs = [("rel", "alternate"), ("hreflang", code), ("href", href)]
        if self.scattered:
            return f"<{p}:link\n   " + "\n   ".join(f'{k}="{self.value(v, True)}"' for k, v in reversed(attrs)) + "\n/>"
        return f"<{p}:link " + " ".join(f'{k}="{self.value(v, True)}"' for k, v in attrs) + "/>"

    def url(self, url: Url) -> str:
        v, sep, t = self.value, self.inner, self.tag
        xp, ip = ("x", "i") if not self.local_ns else ("h", "img")
        decl = f' xmlns:{xp}="{XHTML}" xmlns:{ip}="{IMG}"' if self.local_ns else ""
        parts = [f"<{t('url')}{decl}>", f"<{t('loc')}>{v(url.loc)}</{t('loc')}>"]
        if url.lastmod is not None:
            parts.append(f"<{t('lastmod')}>{v(url.lastmod)}</{t('lastmod')}>")
        parts += [self.link(code, href, xp) for code, href in url.links]
        for loc, caption in url.images:
            inside = [f"<{ip}:loc>{v(loc)}</{ip}:loc>"]
            if caption is not None:
                inside.append(f'<{ip}:caption lang="{v("en", True)}">{v(caption)}</{ip}:caption>')
            parts.append(f"<{ip}:image>" + sep.join(inside) + f"</{ip}:image>")
        if url.unknown is not None:
            parts.append(f"<{t('extra')}>{v(url.unknown)}<{t('deep')}>no</{t('deep')}>tail</{t('extra')}>")
        return sep.join(parts) + f"</{t('url')}>"

    def file(self, urls: list[Url]) -> bytes:
        root = self.tag("urlset")
        own = f"xmlns:{self.prefix}" if self.prefix else "xmlns"
        decls = "" if self.local_ns else f' xmlns:x="{XHTML}" xmlns:i="{IMG}"'
        head = f'<?xml version="1.0" encoding="UTF-8"?>{self.sep}<{root} {own}="{SM}"{decls}>'
        return (head + self.sep + self.sep.join(self.url(url) for url in urls) + f"{self.sep}</{root}>\n").encode()


LAYOUTS = {
    "ours": Layout(sep="\n"),
    "indented": Layout(sep="\n", inner="\n    "),
    "minified": Layout(),
    "scattered": Layout(sep="\n", inner="\n  ", scattered=True),
    "prefixed": Layout(sep="\n", prefix="sm", local_ns=True),
    "cdata": Layout(cdata, sep="\n"),
    "references": Layout(references, sep="\r\n", inner="\t"),
}


def read(data: bytes, size: int = 1 << 16) -> tuple[list[Record], list[tuple[Any, ...]], FileFacts]:
    found: list[tuple[Any, ...]] = []
    facts = FileFacts("s.xml")
    chunks = iter([data[i:i + size] for i in range(0, len(data), size)])
    records = list(read_xml(chunks, facts, lambda code, message, line, **_: found.append((code, line, message))))
    return records, found, facts


def no_lines(record: Record) -> Record:
    """The record with every line set to 0."""
    if isinstance(record, Stray):
        return Stray(record.name, 0)
    if isinstance(record, IndexEntry):
        return IndexEntry(0, tuple(Value(v.text, 0) for v in record.locs),
                          record.lastmod and Value(record.lastmod.text, 0), tuple((n, 0) for n, _ in record.unknown))
    return dataclasses.replace(
        record, line=0, locs=tuple(Value(v.text, 0) for v in record.locs),
        lastmod=record.lastmod and Value(record.lastmod.text, 0), link_lines=(0,) * len(record.link_lines),
        media=tuple(Media(m.kind, m.fields, dict.fromkeys(m.lines, 0), 0, m.order) for m in record.media),
        unknown=tuple((name, 0) for name, _ in record.unknown))


@settings(max_examples=60, deadline=None)
@given(urls=st.lists(URL, max_size=4), size=st.integers(1, 200))
def test_every_layout_reads_into_the_same_records(urls: list[Url], size: int) -> None:
    expected = None
    for name, layout in LAYOUTS.items():
        records, found, facts = read(layout.file(urls), size)
        assert found == [] and facts.kind == "urlset" and facts.complete, (name, found)
        got = [no_lines(record) for record in records]
        expected = got if expected is None else expected
        assert got == expected, name
    assert expected is not None and len(expected) == len(urls)
    for record, url in zip(expected, urls, strict=True):
        assert isinstance(record, UrlEntry)
        assert record.locs == (Value(url.loc, 0),)
        assert record.lastmod == (None if url.lastmod is None else Value(url.lastmod, 0))
        assert record.links == tuple(("alternate", code, href, None) for code, href in url.links)
        assert [m.fields for m in record.media] == [
            {"loc": loc} if caption is None else {"loc": loc, "caption": {"value": caption, "lang": "en"}}
            for loc, caption in url.images]
        assert record.unknown == ((("extra", 0),) if url.unknown is not None else ())


def test_a_records_line_is_its_start_tags_first_line() -> None:
    data = (f'<urlset xmlns="{SM}"\n   xmlns:xhtml="{XHTML}">\n<url\n  ><loc\n>https://e.com/a</loc><xhtml:link\n'
            ' rel="alternate"\n hreflang="de"\n href="https://e.com/de"/>\n<ignored\n/></url></urlset>\n')
    records, found, _ = read(data.encode())
    (url,) = records
    assert isinstance(url, UrlEntry) and found == []
    assert (url.line, url.locs[0].line, url.link_lines, url.unknown) == (3, 4, (5,), (("ignored", 9),))


def test_two_entries_on_one_line_make_the_file_crowded() -> None:
    data = f'<urlset xmlns="{SM}">\n<url><loc>https://e.com/a</loc></url><url><loc>https://e.com/b</loc></url>\n</urlset>'
    records, _, facts = read(data.encode())
    assert [r.line for r in records] == [2, 2] and facts.crowded


def test_a_doctype_is_refused_before_the_parser_sees_it() -> None:
    data = f'<?xml version="1.0"?>\n\n<!DOCTYPE u [<!ENTITY a "aaaa">]>\n<urlset xmlns="{SM}"/>'
    records, found, facts = read(data.encode())
    assert records == [] and [(code, line) for code, line, _ in found] == [("X102", 3)] and not facts.complete


def test_a_doctype_after_a_megabyte_of_comments_is_refused_by_the_parser_at_its_line() -> None:
    comments = "".join(f"<!-- {'x' * 1000} -->\n" for _ in range(1100))  # (more than the prolog scan reads)
    data = (f'<?xml version="1.0"?>\n{comments}<!DOCTYPE urlset [\n<!ENTITY a "{"b" * 10}">\n]>\n\n'
            f'<urlset xmlns="{SM}"><url><loc>https://e.com/&a;</loc></url></urlset>\n')
    for size in (1 << 16, 4096):
        records, found, facts = read(data.encode(), size)
        assert records == [] and [(code, line) for code, line, _ in found] == [("X102", 1102)]
        assert not facts.complete and facts.kind is None


def test_an_entity_is_never_expanded_nor_fetched(tmp_path: Any) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    comments = "<!--" + "x" * (1 << 20) + "-->\n"
    data = (f'{comments}<!DOCTYPE u [<!ENTITY x SYSTEM "file://{secret}">]>\n'
            f'<urlset xmlns="{SM}"><url><loc>&x;</loc></url></urlset>\n')
    records, found, _ = read(data.encode())
    assert records == [] and [(code, line) for code, line, _ in found] == [("X102", 2)]
    assert "SECRET" not in str(found)


def test_a_bare_ampersand_is_named_with_its_line_and_column() -> None:
    data = f'<urlset xmlns="{SM}">\n<url><loc>https://e.com/a</loc></url>\n<url><loc>https://e.com/?a=1&b=2</loc></url>'
    records, found, facts = read(data.encode())
    assert [r.locs[0].text for r in records if isinstance(r, UrlEntry)] == ["https://e.com/a"]
    ((code, line, message),) = found
    assert (code, line, facts.complete) == ("X101", 3, False)
    assert "column 31" in message and "'&amp;'" in message


def test_other_errors_have_no_ampersand_hint() -> None:
    _, found, _ = read(f'<urlset xmlns="{SM}">\n<url><loc>https://e.com/a</lo></url></urlset>'.encode())
    ((code, line, message),) = found
    assert (code, line) == ("X101", 2) and "mismatched tag" in message and "&amp;" not in message


def test_bytes_that_are_no_utf8_are_x103_at_their_line() -> None:
    _, found, _ = read(f'<urlset xmlns="{SM}">\n\n<url><loc>https://e.com/\xff</loc></url></urlset>'.encode("latin-1"))
    assert [(code, line) for code, line, _ in found] == [("X103", 3)]


def test_a_declared_encoding_python_knows_is_reported_and_read() -> None:
    data = f'<?xml version="1.0" encoding="Shift_JIS"?>\n<urlset xmlns="{SM}"><url><loc>https://e.com/\u3042</loc>' \
        '</url></urlset>'
    records, found, facts = read(data.encode("shift_jis"), 7)
    assert [(code, line) for code, line, _ in found] == [("X103", 1)] and facts.complete
    assert [r.locs for r in records if isinstance(r, UrlEntry)] == [(Value("https://e.com/\u3042", 2),)]


def test_nesting_past_the_limit_is_x101_and_stops() -> None:
    _, found, facts = read((f'<urlset xmlns="{SM}"><url>' + "<a>" * 400).encode())
    assert [code for code, _, _ in found] == ["X101"] and "nest" in found[0][2] and not facts.complete


def test_a_long_prolog_in_one_chunk_is_read_whole() -> None:
    comments = "<!--" + "x" * (2 << 20) + "-->\n"
    data = f'<?xml version="1.0"?>\n{comments}<urlset xmlns="{SM}"><url><loc>https://e.com/a</loc></url></urlset>\n'
    for size in (len(data), 4096, 1 << 16):
        records, found, facts = read(data.encode(), size)
        assert found == [] and facts.complete
        assert [(r.line, r.locs) for r in records if isinstance(r, UrlEntry)] == [(3, (Value("https://e.com/a", 3),))]


def test_a_root_that_is_no_sitemap_is_x104_once_read_and_x101_alone_when_broken() -> None:
    records, found, facts = read(b'<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><url/></html>')
    assert records == [] and [(code, line) for code, line, _ in found] == [("X104", 2)] and not facts.complete
    records, found, facts = read(b"<urlset>broken")
    assert records == [] and [(code, line) for code, line, _ in found] == [("X101", 1)] and not facts.complete
