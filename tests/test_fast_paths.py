"""The fast paths write exactly what the plain paths write.

* Layouts: pages expanded from a path over every locale are rendered from a
  per-layout template and kept as one key; with layouts off (every URL judged and
  rendered one by one) a build writes the same bytes and reports the same
  diagnostics (generated sources, awkward rows included).
* One normaliser: the same pages written as YAML entries and as source rows give
  the same files and the same findings.
* Two processes: a build split across workers writes what one process writes.
* The one writer and the lxml reference (tests/reference_xml.py) give the same
  canonical XML for every feature (generated pages with alternates, images, videos, news).
"""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import sitemap_ext.write.build as builder
import sitemap_ext.write.parallel as parallel
from sitemap_ext import build
from sitemap_ext.write.page_normaliser import PageNormaliser
from sitemap_ext.write.xml import Renderer

from .conftest import canonical
from .reference_xml import reference_build

LOCALES = {"en": "/en/", "de": "/de/", "fr-CH": "/ch/"}


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def diagnostics(result: Any) -> list[tuple[Any, ...]]:
    """Findings as compared across builds: an output file (the engine's file rules
    name it) by its name in its folder, the folders differing."""
    return [(d.code, os.path.basename(d.file) if d.file and os.path.isabs(d.file) else d.file, d.line, d.column,
             d.url, d.message) for d in result.collector.sorted()]


class _NoLayout(PageNormaliser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.resolver.layout = None


def _both(folder: Path, monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> tuple[Any, Any]:
    fast = build(str(folder / "site.yaml"), str(folder / "fast"), jobs=1, **kwargs)
    with monkeypatch.context() as patch:
        patch.setattr(builder, "PageNormaliser", _NoLayout)
        plain = build(str(folder / "site.yaml"), str(folder / "plain"), jobs=1, **kwargs)
    return fast, plain


PATH = st.one_of(
    st.text(alphabet="abcxyz-/", min_size=1, max_size=12).map(lambda s: "/" + s),
    st.sampled_from(["/café", "/a b", "/a?x=1&y=2", "/it's", "", "relative", "/a#frag", "/dup", "/dup"]),
)
LASTMOD = st.sampled_from(["", "2026-01-05", "2026-02-30", "2026", "2026-03-01T10:00:00Z", "2027-01-01",
                           "2026-03-01T10:00", "yesterday"])
IMAGE = st.sampled_from(["", "https://cdn.example.com/i.jpg", "https://e.com/own.jpg", "/relative.jpg",
                         "https://other.example.org/x.jpg", "ftp://x/y.jpg", "https://cdn.example.com/caf\u00e9.jpg"])
PRIORITY = st.sampled_from(["", "0.5", "1", "0.25", "2", "x", "nan"])
CHANGEFREQ = st.sampled_from(["", "daily", "Weekly", "sometimes"])


ROOT_LOCALES = {"en": "/", "de": "/de/"}  # one base is a prefix of another: URLs kept one by one
JSON_VALUE = st.one_of(st.none(), st.integers(0, 3), st.just(["/x.jpg"]), st.just({"loc": "/x.jpg"}))


@st.composite
def sources(draw: Any) -> tuple[str, str, str]:
    """(site.yaml, source text, source file name): CSV or JSON Lines rows, some awkward."""
    clustered = draw(st.booleans())
    columns = ["path" if clustered else "loc", "lastmod", "image"] + draw(
        st.sampled_from([[], ["priority"], ["changefreq", "priority"], ["sku"], ["sku", "priority"]]))
    rows = draw(st.lists(st.fixed_dictionaries({
        "path": PATH, "loc": PATH, "lastmod": LASTMOD, "image": IMAGE, "priority": PRIORITY,
        "changefreq": CHANGEFREQ, "sku": st.sampled_from(["", "A-1"])}), min_size=1, max_size=30))
    jsonl = draw(st.booleans())
    if jsonl:
        lines = []
        for row in rows:
            obj: dict[str, Any] = {c: row[c] for c in columns if row[c] != "" or draw(st.booleans())}
            if draw(st.integers(0, 5)) == 0:  # a value that is not text, for any field
                obj[draw(st.sampled_from(columns))] = draw(JSON_VALUE)
            lines.append(json.dumps(obj) + "\n")
        text, name = "".join(lines), "rows.jsonl"
    else:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([row[c] for c in columns])
        text, name = out.getvalue(), "rows.csv"
    site: dict[str, Any] = {"site": {"base_url": "https://e.com/", "now": "2026-06-01T00:00:00Z"},
                            "sources": [{"file": name}], "output": {"max_urls": draw(st.integers(2, 40))}}
    if clustered:
        site["locales"] = draw(st.sampled_from([LOCALES, ROOT_LOCALES]))
        site["x_default"] = draw(st.sampled_from(["en", "none", "de"]))
    if draw(st.booleans()):  # pages before the rows: the rows' URLs are judged against them too
        site["pages"] = [{"path": "/dup"} if clustered else {"loc": "/dup"},
                         {"loc": "https://e.com/de/dup"}]
    if draw(st.booleans()):
        site["defaults"] = {"changefreq": "weekly", "priority": 0.4, "lastmod": "2026-01-01"}
    return yaml.safe_dump(site), text, name


@settings(max_examples=80, deadline=None)
@given(sources())
def test_layouts_write_what_url_by_url_writes(case: tuple[str, str, str]) -> None:
    site, rows, name = case
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as monkeypatch:
        folder = Path(tmp)
        monkeypatch.chdir(folder)
        (folder / "site.yaml").write_text(site)
        (folder / name).write_text(rows)
        fast, plain = _both(folder, monkeypatch)
        assert diagnostics(fast) == diagnostics(plain)
        assert fast.ok == plain.ok
        if fast.ok:
            assert files_of(folder / "fast") == files_of(folder / "plain")


def _small_pieces(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """Any source is cut, into pieces of ``size`` bytes, and handed to workers (which
    read every piece handed to them: this process takes none of theirs, see
    tests/test_build_parallel.py)."""
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "PIECE_BYTES", size)
    monkeypatch.setattr(parallel, "MAX_EXPANSION", float("inf"))
    monkeypatch.setattr(parallel, "_steal", lambda *_: False)
    monkeypatch.setattr(parallel, "spare_cores", lambda *_: 8)  # (whatever else this machine runs)


def test_two_processes_write_what_one_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform: builds run in one process")
    _small_pieces(monkeypatch, 700)
    rows = "path,lastmod,image\n" + "".join(
        f"/p{i},2026-0{1 + i % 9}-0{1 + i % 9},{'https://cdn.e.com/' + str(i) + '.jpg' if i % 3 else ''}\n"
        for i in range(400))
    rows += "/bad path,2026-02-30,/x.jpg\n"  # findings from a worker's chunk
    (tmp_path / "site.yaml").write_text(yaml.safe_dump({
        "site": {"base_url": "https://e.com/"}, "locales": LOCALES, "x_default": "en",
        "sources": [{"file": "rows.csv"}], "output": {"max_urls": 97, "text": True}}))
    (tmp_path / "rows.csv").write_text(rows)
    one = build(str(tmp_path / "site.yaml"), str(tmp_path / "one"), jobs=1)
    two = build(str(tmp_path / "site.yaml"), str(tmp_path / "two"), jobs=2)
    assert diagnostics(one) == diagnostics(two)
    (tmp_path / "rows.csv").write_text(rows.replace("/bad path,2026-02-30,/x.jpg\n", ""))
    one = build(str(tmp_path / "site.yaml"), str(tmp_path / "one"), jobs=1)
    two = build(str(tmp_path / "site.yaml"), str(tmp_path / "two"), jobs=2)
    assert one.ok and two.ok and diagnostics(one) == diagnostics(two)
    assert files_of(tmp_path / "one") == files_of(tmp_path / "two")


def test_a_duplicate_across_chunks_falls_back_to_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform: builds run in one process")
    _small_pieces(monkeypatch, 25)
    rows = "path\n" + "".join(f"/p{i}\n" for i in range(30)) + "/p2\n"
    (tmp_path / "site.yaml").write_text(yaml.safe_dump({
        "site": {"base_url": "https://e.com/"}, "locales": LOCALES, "x_default": "en",
        "sources": [{"file": "rows.csv"}]}))
    (tmp_path / "rows.csv").write_text(rows)
    one = build(str(tmp_path / "site.yaml"), str(tmp_path / "one"), jobs=1)
    two = build(str(tmp_path / "site.yaml"), str(tmp_path / "two"), jobs=2)
    assert [d.code for d in two.collector.diagnostics] == ["U104"] * 3
    assert diagnostics(one) == diagnostics(two)
    assert files_of(tmp_path / "one") == files_of(tmp_path / "two")


@pytest.mark.parametrize("written_before", ["https://e.com/de/p20", "https://e.com/ch/p3"])
def test_a_worker_page_repeating_an_earlier_url_under_a_base_is_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written_before: str) -> None:
    """A URL under a base kept one by one (a YAML page), then a layout page with that
    URL among its own in a worker's part: found as in one process."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform: builds run in one process")
    _small_pieces(monkeypatch, 25)
    (tmp_path / "site.yaml").write_text(yaml.safe_dump({
        "site": {"base_url": "https://e.com/"}, "locales": LOCALES, "x_default": "en",
        "pages": [{"loc": written_before}],
        "sources": [{"file": "rows.csv"}]}))
    (tmp_path / "rows.csv").write_text("path\n" + "".join(f"/p{i}\n" for i in range(30)))
    one = build(str(tmp_path / "site.yaml"), str(tmp_path / "one"), jobs=1)
    two = build(str(tmp_path / "site.yaml"), str(tmp_path / "two"), jobs=2)
    assert [(d.code, d.url) for d in one.collector.diagnostics] == [("U104", written_before)]
    assert diagnostics(one) == diagnostics(two)
    assert files_of(tmp_path / "one") == files_of(tmp_path / "two")


def test_a_path_over_every_locale_is_rendered_from_its_layout(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[bool] = []
    render = Renderer.render

    def spy(self: Any, page: Any) -> Any:
        taken.append(page.layout is not None)
        return render(self, page)
    monkeypatch.setattr(Renderer, "render", spy)
    (tmp_path / "site.yaml").write_text(yaml.safe_dump({
        "site": {"base_url": "https://e.com/"}, "locales": LOCALES, "x_default": "en",
        "sources": [{"file": "rows.csv"}]}))
    (tmp_path / "rows.csv").write_text("path,lastmod,sku,locales\n/a,2026-01-02,A1,\n/gr\u00f6\u00dfe,2026-01-02,B2,\n"
                                       "/a,,A1,\n/b,,B3,en de\n", encoding="utf-8")
    result = build(str(tmp_path / "site.yaml"), str(tmp_path / "out"))
    assert [d.code for d in result.collector.diagnostics] == ["S104"] + ["U104"] * 3  # (sku: not a page field)
    # the repeated /a keeps nothing; /b names a subset of the locales: URL by URL
    assert taken == [True, True, False]


VALUE = st.sampled_from(["", "2026-01-05", "2026-02-30", "2026-03-01T10:00", "2027-01-01"])


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(st.tuples(PATH, VALUE, PRIORITY, CHANGEFREQ), min_size=1, max_size=25),
       clustered=st.booleans(), jsonl=st.booleans())
def test_yaml_pages_and_source_rows_give_the_same_files_and_findings(
        rows: list[tuple[str, str, str, str]], clustered: bool, jsonl: bool) -> None:
    key = "path" if clustered else "loc"
    fields = [(key, "lastmod", "priority", "changefreq")]
    entries = [{name: value for name, value in zip(fields[0], row, strict=True) if value != ""} for row in rows]
    base: dict[str, Any] = {"site": {"base_url": "https://e.com/", "now": "2026-06-01T00:00:00Z"},
                            "output": {"max_urls": 7}}
    if clustered:
        base.update(locales=LOCALES, x_default="en")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "pages.yaml").write_text(yaml.safe_dump({**base, "pages": entries}, allow_unicode=True),
                                           encoding="utf-8")
        if jsonl:
            (folder / "rows.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
        else:
            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerows(fields + rows)
            (folder / "rows.csv").write_text(out.getvalue(), encoding="utf-8")
        (folder / "rows.yaml").write_text(yaml.safe_dump({**base, "sources": [
            {"file": "rows.jsonl" if jsonl else "rows.csv"}]}))
        pages = build(str(folder / "pages.yaml"), str(folder / "a"), jobs=1)
        sourced = build(str(folder / "rows.yaml"), str(folder / "b"), jobs=1)

        def findings(result: Any) -> list[tuple[Any, ...]]:
            return sorted((d.code, d.url, d.message) for d in result.collector.diagnostics if d.code != "O102")
        assert findings(pages) == findings(sourced)
        assert pages.ok == sourced.ok
        if pages.ok:  # (the manifests name their descriptions)
            assert {k: v for k, v in files_of(folder / "a").items() if "manifest" not in k} == \
                {k: v for k, v in files_of(folder / "b").items() if "manifest" not in k}


def _dies(piece: Any) -> Any:
    import os

    os._exit(3)  # killed, out of memory, ...


def _full_disk(piece: Any) -> Any:
    raise OSError(28, "No space left on device")


def test_a_dead_worker_leaves_the_build_to_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform: builds run in one process")
    (tmp_path / "site.yaml").write_text(yaml.safe_dump({
        "site": {"base_url": "https://e.com/"}, "locales": LOCALES, "sources": [{"file": "rows.csv"}]}))
    (tmp_path / "rows.csv").write_text("path\n" + "".join(f"/p{i}\n" for i in range(60)))
    one = build(str(tmp_path / "site.yaml"), str(tmp_path / "one"), jobs=1)
    _small_pieces(monkeypatch, 100)
    monkeypatch.setattr(parallel, "_render", _dies)
    two = build(str(tmp_path / "site.yaml"), str(tmp_path / "two"), jobs=2)
    assert one.ok and two.ok and files_of(tmp_path / "one") == files_of(tmp_path / "two")


def test_a_worker_s_error_is_reported_as_one_process_reports_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """No error of a worker is swallowed: a full disk there is F102, as here."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform: builds run in one process")
    (tmp_path / "site.yaml").write_text(yaml.safe_dump({
        "site": {"base_url": "https://e.com/"}, "locales": LOCALES, "sources": [{"file": "rows.csv"}]}))
    (tmp_path / "rows.csv").write_text("path\n" + "".join(f"/p{i}\n" for i in range(60)))
    _small_pieces(monkeypatch, 100)
    monkeypatch.setattr(parallel, "_render", _full_disk)
    result = build(str(tmp_path / "site.yaml"), str(tmp_path / "out"), jobs=2)
    assert [d.code for d in result.collector.diagnostics] == ["F102"]
    assert "No space left on device" in result.collector.diagnostics[0].message
    assert not list((tmp_path / "out").glob("*.xml"))  # nothing committed


# --- byte parts ----------------------------------------------------------------------

LINE = st.one_of(
    st.lists(st.sampled_from(["/p", "/q1", "2026-01-02", "", "x y", "/caf\u00e9"]), min_size=1, max_size=4)
    .map(lambda fields: ",".join(fields).encode()),
    st.just(b""), st.just(b"/bad\xff,2026-01-01"), st.just(b'{"loc": "/j"}'), st.just(b"{not json"))


@settings(max_examples=120, deadline=None)
@given(lines=st.lists(LINE, min_size=1, max_size=40), jobs=st.integers(2, 4), bom=st.booleans(),
       final_newline=st.booleans(), fmt=st.sampled_from(["csv", "jsonl"]), block=st.integers(1, 80),
       good_header=st.integers(0, 5).map(bool))
def test_reading_parts_gives_what_reading_the_whole_gives(lines: list[bytes], jobs: int, bom: bool,
                                                          final_newline: bool, fmt: str, block: int,
                                                          good_header: bool) -> None:
    """Cut anywhere, read in blocks of any size: the same rows, lines and findings."""
    import sitemap_ext.read.sources as sources
    from sitemap_ext.codes import REGISTRY
    from sitemap_ext.diagnostics import Collector, Where
    from sitemap_ext.read.normalised import Defaults, Source
    from sitemap_ext.write.page_normaliser import source_column
    from sitemap_ext.read.sources import SourceReader

    header = [b"path,lastmod,sku" if good_header else b"path\xff,lastmod"] if fmt == "csv" else []
    data = (b"\xef\xbb\xbf" if bom else b"") + b"\n".join(header + lines) + (b"\n" if final_newline else b"")
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(parallel, "MIN_BYTES", 0)
        path = str(Path(tmp) / f"rows.{fmt}")
        Path(path).write_bytes(data)

        def read(part: Any) -> tuple[list[Any], list[Any]]:
            collector = Collector(REGISTRY)
            rows = list(SourceReader(path, "rows", fmt, collector, source_column, part=part))
            return rows, [(d.code, d.line, d.message) for d in collector.diagnostics]

        whole_rows, whole_findings = read(None)  # in one block
        monkeypatch.setattr(sources, "BLOCK", block)
        rows_in_blocks, findings_in_blocks = read(None)
        assert rows_in_blocks == whole_rows and sorted(findings_in_blocks) == sorted(whole_findings)
        parts = parallel.split(Source(path, "rows", fmt, Defaults(), Where("site.yaml")), jobs)
        if parts is None:  # too little to cut
            return
        assert parts[0].start == 0 and [p.start for p in parts] == sorted({p.start for p in parts})
        rows: list[Any] = []
        findings: list[Any] = []
        for part in parts:
            part_rows, part_findings = read(part)
            rows += part_rows
            findings += part_findings
        assert rows == whole_rows
        assert sorted(findings) == sorted(whole_findings)  # (reports are shown sorted by line)


def test_a_csv_with_a_quote_is_not_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sitemap_ext.diagnostics import Where
    from sitemap_ext.read.normalised import Defaults, Source

    def source(name: str) -> Source:
        return Source(str(tmp_path / name), name, "csv", Defaults(), Where("site.yaml"))
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    (tmp_path / "a.csv").write_text("path,lastmod\n" + "/a,2026-01-01\n" * 50)
    (tmp_path / "b.csv").write_text("path,lastmod\n" + "/a,2026-01-01\n" * 50 + '"/b\n/c",2026-01-01\n')
    assert parallel.split(source("a.csv"), 2) is not None
    assert parallel.split(source("b.csv"), 2) is None  # a quoted field may hold a line end
    assert parallel.split(source("a.csv"), 1) is None


# --- renderers ----------------------------------------------------------------------

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20)
IMAGES = st.lists(st.one_of(st.just("https://cdn.e.com/a.jpg"),
                            st.fixed_dictionaries({"loc": st.just("/b&c.jpg")}, optional={"caption": TEXT})),
                  max_size=3)
VIDEO = st.fixed_dictionaries(
    {"thumbnail_loc": st.just("https://e.com/t.jpg"), "title": TEXT, "description": TEXT,
     "content_loc": st.just("https://e.com/v.mp4?a=1&b='2'")},
    optional={"duration": st.integers(1, 28800), "rating": st.sampled_from([0, 2.5, 5]),
              "tag": st.lists(TEXT, max_size=3), "family_friendly": st.booleans(),
              "restriction": st.just({"relationship": "allow", "countries": "US CA"}),
              "uploader": st.fixed_dictionaries({"name": TEXT})})
NEWS = st.fixed_dictionaries({"title": TEXT, "publication_date": st.just("2026-11-21")})


@settings(max_examples=40, deadline=None)
@given(st.lists(st.fixed_dictionaries({}, optional={"images": IMAGES, "videos": st.lists(VIDEO, max_size=2),
                                                    "news": NEWS, "multilingual": st.booleans()}),
                min_size=1, max_size=6))
def test_the_writer_matches_lxml_for_every_feature(pages: list[dict[str, Any]]) -> None:
    entries = []
    for i, page in enumerate(pages):
        entry = {k: v for k, v in page.items() if k != "multilingual"}
        if page.get("multilingual"):
            entry["path"] = f"/p{i}"
        else:
            entry["loc"] = f"/p{i}?q='x'&r=<y>"
        entries.append(entry)
    site = {"site": {"base_url": "https://e.com/"}, "locales": LOCALES, "x_default": "en",
            "news": {"publication": {"name": "P & Q", "language": "en"}}, "pages": entries}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "site.yaml").write_text(yaml.safe_dump(site, allow_unicode=True), encoding="utf-8")
        fast = build(str(folder / "site.yaml"), str(folder / "fast"))
        reference = reference_build(str(folder / "site.yaml"), str(folder / "lxml"))
        assert fast.ok == reference.ok
        if fast.ok:
            a, b = files_of(folder / "fast"), files_of(folder / "lxml")
            assert a.keys() == b.keys()
            for name in a:
                if name.endswith(".xml"):
                    assert canonical(a[name]) == canonical(b[name]), name
