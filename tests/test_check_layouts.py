"""A sitemap means the same however it is laid out: a generated site, written the
ways other generators write XML, gives the same findings in each layout."""

from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_ext import check

SM = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML = "http://www.w3.org/1999/xhtml"
CODES = ["en", "de", "fr-FR", "es-MX", "en-UK", "jp", "x-default", "de_AT"]

Entry = tuple[str, str | None, list[tuple[str, str]]]  # loc, lastmod, links (code, href)


@st.composite
def sites(draw: st.DrawFn) -> list[Entry]:
    count = draw(st.integers(1, 6))
    entries: list[Entry] = []
    for page in range(count):
        codes = draw(st.lists(st.sampled_from(CODES), min_size=0, max_size=4, unique=True))
        locs = [f"https://e.com/{code.lower()}/p{page}?q=1&r=2" for code in codes]
        links = list(zip(codes, locs))
        for loc in locs or [f"https://e.com/p{page}"]:
            mine = [pair for pair in links if draw(st.booleans()) or pair[1] == loc]  # some return links dropped
            lastmod = draw(st.sampled_from([None, "2026-11-01", "2026-02-30", "2026-11", "2026-11-01T10:00"]))
            entries.append((loc, lastmod, mine))
    if draw(st.booleans()) and entries:
        entries.append(entries[0])  # a duplicate
    return entries


def compact(entries: list[Entry]) -> str:
    """One <url> per line, the layout of our own writer and of many generators."""
    rows = []
    for loc, lastmod, links in entries:
        row = f"<url><loc>{escape(loc)}</loc>" + (f"<lastmod>{lastmod}</lastmod>" if lastmod else "")
        row += "".join(f'<xhtml:link rel="alternate" hreflang="{c}" href={quoteattr(h)}/>' for c, h in links)
        rows.append(row + "</url>\n")
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SM}" xmlns:xhtml="{XHTML}">\n'
            + "".join(rows) + "</urlset>\n")


def indented(entries: list[Entry]) -> str:
    """Pretty-printed, one element per line, lower-case utf-8 in the declaration."""
    rows = []
    for loc, lastmod, links in entries:
        rows.append("  <url>\n    <loc>" + escape(loc) + "</loc>\n")
        if lastmod:
            rows.append(f"    <lastmod>{lastmod}</lastmod>\n")
        rows += [f'    <xhtml:link rel="alternate" hreflang="{c}" href={quoteattr(h)} />\n' for c, h in links]
        rows.append("  </url>\n")
    return (f"<?xml version='1.0' encoding='utf-8'?>\n<urlset\n  xmlns=\"{SM}\"\n  xmlns:xhtml=\"{XHTML}\">\n"
            + "".join(rows) + "</urlset>\n")


def minified(entries: list[Entry]) -> str:
    """Everything on one line, prefixed sitemap namespace, locs in CDATA, character references."""
    rows = []
    for loc, lastmod, links in entries:
        row = f"<s:url><s:loc><![CDATA[{loc}]]></s:loc>" + (f"<s:lastmod>{lastmod}</s:lastmod>" if lastmod else "")
        row += "".join(f'<h:link href={quoteattr(h).replace("&amp;", "&#38;")} hreflang="{c}" rel="alternate"/>'
                       for c, h in links)
        rows.append(row + "</s:url>")
    return f'<?xml version="1.0"?><s:urlset xmlns:s="{SM}" xmlns:h="{XHTML}">' + "".join(rows) + "</s:urlset>"


def scattered(entries: list[Entry]) -> str:
    """Start tags over several lines, attributes in another order, declarations on each entry, comments."""
    rows = []
    for loc, lastmod, links in entries:
        rows.append(f'<url xmlns:x="{XHTML}">\n<!-- page -->\n<loc>\n{escape(loc)}\n</loc>'.replace("\n" + escape(loc) + "\n", escape(loc)))
        if lastmod:
            rows.append(f"<lastmod>{lastmod}</lastmod>")
        rows += [f'<x:link\n   hreflang="{c}"\n   href={quoteattr(h)}\n   rel="alternate"/>' for c, h in links]
        rows.append("</url>\n")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SM}">\n' + "".join(rows) + "</urlset>\n"


LAYOUTS = {"compact.xml": compact, "indented.xml": indented, "minified.xml": minified, "scattered.xml.gz": scattered}


def findings(path: Path) -> Counter[tuple[str, str | None, str | None]]:
    result = check([str(path)], jobs=1)
    return Counter((d.code, d.url, d.hreflang) for d in result.collector.diagnostics)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=sites())
def test_every_layout_gives_the_same_findings(tmp_path: Path, entries: list[Entry]) -> None:
    seen = {}
    for name, layout in LAYOUTS.items():
        data = layout(entries).encode()
        path = tmp_path / name
        path.write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
        seen[name] = findings(path)
    reference = seen["compact.xml"]
    for name, got in seen.items():
        assert got == reference, name


def _benchmark(name: str):  # type: ignore[no-untyped-def]
    import importlib.util
    import sys

    from .conftest import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _records(path: Path) -> list[object]:
    """Every record the XML reader gives for a file, with its lines left out."""
    from dataclasses import fields

    from sitemap_ext.read.record import FileFacts, Media, UrlEntry, Value
    from sitemap_ext.read.xml import read_xml

    def bare(value: object) -> object:
        if isinstance(value, Value):
            return value.text
        if isinstance(value, Media):
            return (value.kind, value.fields, value.order)
        if isinstance(value, tuple):
            return tuple(bare(item) for item in value)
        return value

    found = []
    for record in read_xml(iter([path.read_bytes()]), FileFacts(str(path)), lambda *args, **kw: None):
        assert isinstance(record, UrlEntry)
        found.append({f.name: bare(getattr(record, f.name)) for f in fields(record)
                      if f.name not in ("line", "link_lines")})
    return found


def test_the_benchmark_layouts_take_one_path(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """benchmarks/check_layouts.py's layouts (as written, indented, minified, attributes
    scattered over lines): each file is read by the one XML reader (read.xml.read_xml),
    its records are the same whatever the layout, and the check's findings are too.
    There is no path of its own for any layout."""
    from sitemap_ext import build
    from sitemap_ext.checker import judge_file
    from sitemap_ext.read import xml as xml_reader

    layouts = _benchmark("check_layouts")
    workload = _benchmark("workload")
    ours = tmp_path / "ours"
    build(workload.make(str(tmp_path / "site"), 40), str(ours))
    folders = {"ours": ours}
    for name in ("indented", "minified", "scattered"):
        folders[name] = tmp_path / name
        layouts.rewrite(str(ours), str(folders[name]), getattr(layouts, name))
    read: list[str] = []
    original = xml_reader.read_xml

    def counted(chunks, facts, report):  # type: ignore[no-untyped-def]
        read.append(facts.display)
        return original(chunks, facts, report)

    monkeypatch.setattr(judge_file, "read_xml", counted)
    reference = None
    for name, folder in folders.items():
        read.clear()
        sitemap = folder / "sitemap.xml"
        result = check([str(sitemap)], jobs=1)
        assert [Path(p).name for p in read] == ["sitemap.xml"], name
        found = [(d.code, d.severity.value, d.url) for d in result.collector.diagnostics]
        assert found == [("I104", "info", "https://shop.example.com/de/products/juniper-ember-0")], name
        records = _records(sitemap)
        assert len(records) == 200, name
        if reference is None:
            reference = records
        assert records == reference, name
