"""Checking existing sitemaps: the canonical-shape path reports what libxml2's path reports.

Urlsets are generated in the one-entry-per-line shape (the shape the canonical path
reads), with defects of every kind in the values: duplicate and foreign URLs, bad
dates, bad language tags, missing return links, entities, images on other hosts.
Each is checked with the canonical path on and off; the findings must be the same.
"""

from __future__ import annotations

import gzip
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sitemap_ext.checker.canonical as canonical
from sitemap_ext import check
from sitemap_ext.xmlesc import escape

URLS = ["https://e.com/a", "https://e.com/b", "https://e.com/de/a", "https://e.com/c?x=1&y=2", " https://e.com/d",
        "https://E.com/e", "https://other.org/f", "relative", "", "https://e.com/caf\u00e9", "https://e.com/a&amp;b"]
CODES = ["en", "de", "fr-CH", "en_GB", "se", "x-default", "EN", "zz", "", "iw"]
IMAGES = ["https://e.com/i.jpg", "https://cdn.example.com/i.jpg", "/relative.jpg", "ftp://x/y.jpg", ""]
CLUSTER = [("en", "https://e.com/a"), ("de", "https://e.com/de/a"), ("x-default", "https://e.com/a")]


@st.composite
def entry(draw: Any) -> str:
    loc = draw(st.sampled_from(URLS))
    out = f"<url><loc>{escape(loc)}</loc>"
    if draw(st.booleans()):
        out += f"<lastmod>{draw(st.sampled_from(['2026-01-02', '2026-02-30', '', '2030-01-01', '2026']))}</lastmod>"
    if draw(st.booleans()):
        out += f"<changefreq>{draw(st.sampled_from(['daily', 'Daily', '']))}</changefreq>"
    if draw(st.booleans()):
        out += f"<priority>{draw(st.sampled_from(['0.5', '2', '']))}</priority>"
    if draw(st.booleans()):  # a healthy cluster's links (often the same as the entry before)
        links = list(CLUSTER)
    else:
        links = draw(st.lists(st.tuples(st.sampled_from(CODES), st.sampled_from(URLS)), max_size=4))
    for code, href in links:
        rel = "alternate" if draw(st.integers(0, 9)) else "next"
        out += f'<xhtml:link rel="{rel}" hreflang="{escape(code)}" href="{escape(href)}"/>'
    for image in draw(st.lists(st.sampled_from(IMAGES), max_size=2)):
        out += f"<image:image><image:loc>{escape(image)}</image:loc></image:image>"
    return out + "</url>\n"


HEAD = ("<?xml version='1.0' encoding='UTF-8'?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
        "xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n")


def findings(paths: list[str], served: bool = True) -> list[tuple[Any, ...]]:
    """What check() reports; ``served``: the files' URL is known (host and folder rules)."""
    base_urls = ["https://e.com/=" + str(Path(paths[0]).parent)] if served else []
    result = check(paths, now="2026-06-01T00:00:00Z", base_urls=base_urls)
    return [(d.code, Path(d.file or "").name, d.line, d.column, d.url, d.hreflang, d.message, d.suggestion)
            for d in result.collector.sorted()]


@settings(max_examples=150, deadline=None)
@given(files=st.lists(st.lists(entry(), min_size=1, max_size=12), min_size=1, max_size=2),
       sabotage=st.sampled_from([None, "comment", "newline", "tail"]))
def test_the_canonical_path_reports_what_the_element_path_reports(files: list[list[str]], sabotage: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as monkeypatch:
        paths = []
        for number, entries in enumerate(files):
            body = "".join(entries)
            if sabotage == "comment":  # another shape: the element path for this file
                body = "<!-- x -->\n" + body
            elif sabotage == "newline":
                body = body.replace("</loc>", "</loc>\n", 1)
            text = HEAD + body + ("</urlset>\n" if sabotage != "tail" else "</urlset>\n<!-- end -->\n")
            path = Path(tmp) / f"s{number}.xml"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        used: list[bool] = []
        original = canonical.check

        def spy(path: str, state: Any, probed: Any = False) -> bool:
            used.append(original(path, state, probed))
            return used[-1]
        monkeypatch.setattr(canonical, "check", spy)
        fast = findings(paths)
        assert all(used) == (sabotage is None)  # the path taken is the one meant
        monkeypatch.setattr(canonical, "check", lambda *args: False)
        assert fast == findings(paths)


def test_a_gzipped_canonical_file_and_one_over_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    body = "".join(f"<url><loc>https://e.com/p{i}</loc></url>\n" for i in range(30))
    (tmp_path / "a.xml.gz").write_bytes(gzip.compress((HEAD + body + "</urlset>\n").encode(), mtime=0))
    assert canonical._read(str(tmp_path / "a.xml.gz")) == (HEAD + body + "</urlset>\n").encode()
    monkeypatch.setattr(canonical, "MAX_BYTES_PER_FILE", 100)
    assert canonical._read(str(tmp_path / "a.xml.gz")) is None  # the element path reports X109


def test_a_file_in_another_shape_is_not_read_whole_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def whole(path: str) -> bytes:
        raise AssertionError(f"{path} read whole by the canonical path")
    monkeypatch.setattr(canonical, "_read", whole)
    monkeypatch.setattr(canonical, "_decoded", whole)
    pretty = HEAD + "<url>\n  <loc>https://e.com/a</loc>\n</url>\n</urlset>\n"
    (tmp_path / "s.xml").write_text(pretty, encoding="utf-8")
    assert findings([str(tmp_path / "s.xml")]) == []


# --- clean files in runs: the bulk path ------------------------------------------------

LOCALES = ["en", "de", "fr", "ja", "pt-BR"]
DEFECTS = [None, "unsorted", "not-self", "two-codes", "selector", "two-codes-selector", "listed-twice", "future",
           "bad-code", "some-lastmods", "query", "priority", "changefreq", "other-host", "wrong-list", "no-return",
           "empty-lastmod",
           # the shape itself (rows still one per line): the bulk path must see these too
           "lastmod-after-links", "extra-attribute", "attributes-swapped", "href-space", "between-links",
           "nul", "tab-in-code", "misspelled-href", "cut-short"]


def _link(code: str, href: str) -> str:
    return f'<xhtml:link rel="alternate" hreflang="{code}" href="{escape(href)}"/>'


@st.composite
def clean_site(draw: Any) -> tuple[list[str], str | None]:
    """Entries a generator would write (clusters in runs, sorted links), and perhaps
    one defect, anywhere: the bulk path must refuse the file or agree on what it says."""
    defect = draw(st.sampled_from(DEFECTS))
    # What each defect needs to be there at all (links, an x-default, a lastmod...).
    needs_links = defect in ("unsorted", "not-self", "two-codes", "selector", "two-codes-selector", "bad-code",
                             "wrong-list", "no-return", "lastmod-after-links", "extra-attribute", "attributes-swapped",
                             "href-space", "between-links", "nul", "tab-in-code",
                             "misspelled-href")
    locales = draw(st.lists(st.sampled_from(LOCALES), min_size=2 if needs_links else 0, max_size=4, unique=True))
    x_default = draw(st.booleans()) or "selector" in (defect or "")
    lastmod = None if defect == "some-lastmods" else draw(st.sampled_from(
        ["2026-01-02", "per-page"] if defect in ("future", "empty-lastmod", "lastmod-after-links")
        else [None, "2026-01-02", "per-page"]))
    image_host = draw(st.sampled_from([None, "https://e.com", "https://cdn.example.com"]))
    extras = {"priority": "<priority>0.5</priority>", "changefreq": "<changefreq>daily</changefreq>"}.get(
        defect or "", draw(st.sampled_from(["", "<changefreq>daily</changefreq>", "<priority>0.5</priority>"])))
    lines = []
    for page in range(draw(st.integers(1, 6))):
        urls = {code: f"https://e.com/{code.lower()}/p{page}" for code in locales} or {"": f"https://e.com/p{page}"}
        links = [(code, url) for code, url in urls.items() if code]
        if x_default and locales:
            links.append(("x-default", urls[locales[0]]))
        links.sort()
        date = f"2026-01-{1 + page % 28:02d}" if lastmod == "per-page" else lastmod
        for url in urls.values():
            line = f"<url><loc>{escape(url)}</loc>" + (f"<lastmod>{date}</lastmod>" if date else "") + extras
            line += "".join(_link(code, href) for code, href in links)
            if image_host:
                line += f"<image:image><image:loc>{image_host}/img/{page}.jpg</image:loc></image:image>"
            lines.append(line + "</url>\n")
    at = draw(st.integers(0, len(lines) - 1))
    line = lines[at]
    loc = line[len("<url><loc>"):line.index("</loc>")]
    if defect == "unsorted" and line.count("<xhtml:link") > 1:  # fine, but not in order
        first = line.index("<xhtml:link")
        second = line.index("<xhtml:link", first + 1)
        third = line.index("/>", second) + 2
        line = line[:first] + line[second:third] + line[first:second] + line[third:]
    elif defect == "not-self" and "<xhtml:link" in line:
        line = line.replace(f'href="{loc}"/>', 'href="https://e.com/elsewhere"/>')
    elif defect in ("two-codes", "selector", "two-codes-selector"):
        if defect != "selector":  # one URL under two codes
            line = line.replace("</url>", _link("zh", loc) + "</url>")
        if defect != "two-codes":  # x-default: a URL no code names
            start = line.index('hreflang="x-default" href="') + len('hreflang="x-default" href="')
            line = line[:start] + "https://e.com/choose" + line[line.index('"', start):]
    elif defect == "listed-twice":
        lines.append(line)
    elif defect == "future" and "<lastmod>" in line:
        line = line.replace("<lastmod>2026", "<lastmod>2031")
    elif defect == "bad-code" and "<xhtml:link" in line:
        line = line.replace('hreflang="', 'hreflang="EN-', 1)
    elif defect == "some-lastmods" and "<lastmod>" not in line:
        line = line.replace("</loc>", "</loc><lastmod>2026-01-05</lastmod>", 1)
    elif defect == "empty-lastmod" and "<lastmod>" in line:
        line = line[:line.index("<lastmod>") + 9] + line[line.index("</lastmod>"):]
    elif defect == "query":
        line = line.replace(f"<loc>{loc}</loc>", f"<loc>{loc}?a=1&amp;b=2</loc>")
    elif defect == "priority":
        line = line.replace("<priority>0.5</priority>", "<priority>1.5</priority>")
    elif defect == "changefreq":
        line = line.replace("<changefreq>daily</changefreq>", "<changefreq>Daily</changefreq>")
    elif defect == "other-host":  # the entry and its links
        line = line.replace("https://e.com/", "https://other.org/")
    elif defect == "wrong-list" and "<xhtml:link" in line:  # a member listing one version fewer
        first = line.index("<xhtml:link")
        end = line.index("/>", first) + 2
        if f'href="{loc}"' not in line[first:end]:
            line = line[:first] + line[end:]
    elif defect == "no-return" and "<xhtml:link" in line:
        first = line.index("<xhtml:link")  # Afrikaans sorts first: still in order
        line = line[:first] + _link("af", "https://e.com/af/lost?a=1&b=2") + line[first:]
    elif defect == "lastmod-after-links":  # out of schema order
        lastmod_element = line[line.index("<lastmod>"):line.index("</lastmod>") + len("</lastmod>")]
        line = line.replace(lastmod_element, "").replace("</url>", lastmod_element + "</url>")
    elif defect == "extra-attribute":
        line = line.replace('"/>', '" title="x"/>', 1)
    elif defect == "attributes-swapped":
        first = line.index("<xhtml:link")
        end = line.index("/>", first) + 2
        rel, code, href = line[first:end].split('"')[1:6:2]
        line = line[:first] + f'<xhtml:link rel="{rel}" href="{href}" hreflang="{code}"/>' + line[end:]
    elif defect == "href-space":
        line = line.replace('"/>', ' "/>', 1)
    elif defect == "between-links" and line.count("<xhtml:link") > 1:  # out of schema order
        line = line.replace("/><xhtml:link", "/><priority>0.5</priority><xhtml:link", 1)
    elif defect == "misspelled-href":
        line = line.replace(' href="', ' hre="', 1)
    elif defect == "nul":
        line = line.replace('"/>', '\x00"/>', 1)
    elif defect == "tab-in-code":
        line = line.replace('hreflang="', 'hreflang="\t', 1)
    lines[at] = line
    return lines, defect


@settings(max_examples=300, deadline=None)
@given(site=clean_site(), cut=st.floats(0, 1), served=st.booleans(), gz=st.booleans())
def test_the_bulk_path_reports_what_the_entry_by_entry_path_reports(site: tuple[list[str], str | None],
                                                                    cut: float, served: bool, gz: bool) -> None:
    lines, defect = site
    split = int(len(lines) * cut)
    parts = [part for part in (lines[:split], lines[split:]) if part]
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as monkeypatch:
        paths = []
        for number, part in enumerate(parts):
            path = Path(tmp) / (f"s{number}.xml.gz" if gz else f"s{number}.xml")
            # A download cut short after a row: as many bytes as the closing tag, but not it.
            ending = "<url><loc" if defect == "cut-short" and number == len(parts) - 1 else "</urlset>\n"
            data = (HEAD + "".join(part) + ending).encode()
            path.write_bytes(gzip.compress(data, mtime=0) if gz else data)
            paths.append(str(path))
        taken: list[bool] = []
        original = canonical.probe

        def spy(*args: Any) -> Any:
            result = original(*args)
            taken.append(result is not None)
            return result
        monkeypatch.setattr(canonical, "probe", spy)
        fast = findings(paths, served)
        if defect is None:
            assert taken == [True] * len(parts)  # clean files take the bulk path
        monkeypatch.setattr(canonical, "probe", lambda *args: None)
        assert fast == findings(paths, served)  # entry by entry
        monkeypatch.setattr(canonical, "check", lambda *args: False)
        assert fast == findings(paths, served)  # through libxml2


def test_the_cluster_map_past_its_dict_size_finds_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sitemap_ext.checker.clusters import ClusterIndex

    lines = [f"<url><loc>https://e.com/{code}/p</loc>" + _link("de", "https://e.com/de/p")
             + _link("en", "https://e.com/en/p") + "</url>\n" for code in ("de", "en")]
    lines.append("<url><loc>https://e.com/fr/p</loc>" + _link("de", "https://e.com/de/p")
                 + _link("en", "https://e.com/en/p") + _link("fr", "https://e.com/fr/p")
                 + "</url>\n")  # lists de and en, which do not list it back
    (tmp_path / "s.xml").write_text(HEAD + "".join(lines) + "</urlset>\n", encoding="utf-8")
    small = findings([str(tmp_path / "s.xml")])
    assert [(code, line) for code, _, line, *_ in small if code == "H104"] == [("H104", 5), ("H104", 5)]
    monkeypatch.setattr(ClusterIndex, "DICT_ENTRIES", 0)  # the compact table instead of a dict
    assert findings([str(tmp_path / "s.xml")]) == small
