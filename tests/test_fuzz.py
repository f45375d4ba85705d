"""Fuzzing: real sitemaps and site descriptions, mutated, never give a traceback.

Seeds are this repository's planted sitemaps, the examples' site descriptions and
what a build of them writes, in the layouts other generators use. Mutations
flip, drop and insert bytes and splice in the tokens that broke readers before
(DOCTYPEs, character references to surrogates, huge numbers, deep nesting,
undeclared prefixes, control characters, path escapes). Every run must end in
diagnostics with registered codes, exit codes 0, 1 or 3, and nothing written
outside the output folder. The example budget keeps this to about a minute.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_ext import build, check
from sitemap_ext.cli import main
from sitemap_ext.codes import REGISTRY

from .conftest import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*/site.yaml"))
PLANTED = sorted((ROOT / "tests" / "data" / "planted").glob("*.xml"))

TOKENS = [
    b"<!DOCTYPE urlset [<!ENTITY a 'aaaa'>]>", b"&#xD800;", b"&#0;", b"&a;", b"\x00", b"\x01", b"\xff\xfe",
    b"\xed\xa0\x80", b"<a:b:/>", b"<!--", b"]]>", b"<![CDATA[", b"9" * 400, b"1e400", b"-0", b"NaN",
    b"[" * 200, b"{" * 200, b"../", b"%2e%2e/", b"https://[x]/", b"https://../", b"${HOME}", b"${X:-y}",
    b"*a", b"&b [*b]", b"\t", b"\r", b"\n" * 50, b"\xe2\x80\xa8", b"http://", b"x" * 5000,
    b'xmlns:q="http://www.google.com/schemas/sitemap-image/1.1"', b"hreflang=\"en-UK\"", b"<url>", b"</url>",
    b"<urlset>", b"</loc>", b"<loc>", b"<sitemapindex>", b"include: [site.yaml]", b"include: [/etc/passwd]",
    b"sources: [/dev/zero]", b"  - loc: /x\n", b"pattern: ../x-{n}.xml", b"robots: sitemap.xml",
]


# An element's text, an attribute's value, a YAML scalar: the spans "value" mutations replace.
_VALUE = re.compile(rb'>([^<>]{1,200})<|="([^"]{0,200})"|: ([^\n]{1,200})')


def _seeds() -> list[bytes]:
    seeds = [path.read_bytes() for path in PLANTED]
    with tempfile.TemporaryDirectory() as folder:
        for site in EXAMPLES[:3]:
            out = Path(folder) / site.parent.name
            build(str(site), str(out), now="2026-11-21T12:00:00Z")
            seeds += [p.read_bytes() for p in sorted(out.rglob("*.xml"))][:3]
    return seeds


SITEMAP_SEEDS = _seeds()


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 6))):
        if not data:
            data += draw(st.sampled_from(TOKENS))
            continue
        at = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["value", "value", "token", "flip", "drop", "cut"]))
        values = [m.span(m.lastindex or 0) for m in _VALUE.finditer(data)] if kind == "value" else []
        if values:  # a value replaced: where a reader hands text to the rules
            start, end = draw(st.sampled_from(values))
            data[start:end] = draw(st.sampled_from(TOKENS + [b"https://www.example.com/" + t for t in TOKENS]))
        elif kind in ("token", "value"):
            data[at:at] = draw(st.sampled_from(TOKENS))
        elif kind == "flip":
            data[at] = draw(st.integers(0, 255))
        elif kind == "drop":
            del data[at:at + draw(st.integers(1, 64))]
        else:
            del data[at:]
    return bytes(data)


def _assert_coded(result: object) -> None:
    for diag in result.collector.diagnostics:  # type: ignore[attr-defined]
        assert diag.code in REGISTRY


@settings(max_examples=2500, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=mutated(SITEMAP_SEEDS), gz=st.booleans(), name=st.sampled_from(["s.xml", "s.txt", "s.xml.gz"]))
def test_mutated_sitemaps_never_raise(data: bytes, gz: bool, name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(gzip.compress(data, mtime=0) if gz else data)
        result = check([str(path)], jobs=1, base_urls=[f"https://www.example.com/={folder}"])
        _assert_coded(result)
        index = Path(folder) / "index.xml"
        index.write_bytes(b'<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                          b"<sitemap><loc>https://www.example.com/" + name.encode() + b"</loc></sitemap>"
                          b"</sitemapindex>")
        _assert_coded(check([str(index)], jobs=1, base_urls=[f"https://www.example.com/={folder}"]))


def _site_seeds() -> list[bytes]:
    return [site.read_bytes() for site in EXAMPLES]


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(text=mutated(_site_seeds()), example=st.sampled_from(EXAMPLES))
def test_mutated_site_descriptions_never_raise_nor_write_outside(text: bytes, example: Path) -> None:
    with tempfile.TemporaryDirectory() as top:
        project = Path(top) / "project"
        shutil.copytree(example.parent, project)
        (project / "site.yaml").write_bytes(text)
        before = sorted(os.listdir(top))
        result = build(str(project / "site.yaml"), str(project / "out"), now="2026-11-21T12:00:00Z")
        _assert_coded(result)
        assert sorted(os.listdir(top)) == before  # nothing beside the project
        code = main(["build", str(project / "site.yaml"), "-o", str(project / "out"), "--quiet",
                     "--now", "2026-11-21T12:00:00Z"])
        assert code in (0, 1, 3)


@settings(max_examples=800, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(rows=st.lists(st.sampled_from(TOKENS + [b'{"loc": "/a"}', b"loc,lastmod", b"/a,2026-11-01",
                                               b'{"loc": "/b", "images": [{"loc": 1}]}', b'"', b","]),
                     min_size=1, max_size=20),
       fmt=st.sampled_from(["rows.csv", "rows.jsonl"]))
def test_mutated_sources_never_raise(rows: list[bytes], fmt: str) -> None:
    with tempfile.TemporaryDirectory() as top:
        project = Path(top)
        header = b"loc,lastmod\n" if fmt.endswith(".csv") else b""
        (project / fmt).write_bytes(header + b"\n".join(rows) + b"\n")
        (project / "site.yaml").write_text(f"site:\n  base_url: https://e.com/\nsources: [{fmt}]\n")
        result = build(str(project / "site.yaml"), str(project / "out"), now="2026-11-21T12:00:00Z")
        _assert_coded(result)
