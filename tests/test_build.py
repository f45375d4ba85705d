"""What a build writes: golden files, schema validity, splits, determinism, atomicity."""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import Callable

import pytest
from lxml import etree

from sitemap_ext import build
from sitemap_ext.limits import MAX_BYTES_PER_FILE

from .conftest import ROOT, canonical, read_xml_bytes

GOLDEN = ROOT / "tests" / "golden" / "core"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def locs(path: Path) -> list[str]:
    root = etree.fromstring(read_xml_bytes(path))
    return [el.text or "" for el in root.iter(f"{SM}loc")]


def output_files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_golden_core(tmp_path: Path, assert_valid: Callable[[Path], None]) -> None:
    result = build(str(GOLDEN / "input" / "site.yaml"), str(tmp_path / "out"))
    assert result.ok, result.collector.sorted()
    expected = sorted(p.name for p in (GOLDEN / "expected").iterdir())
    written = sorted(f.name for f in result.files)
    assert written == expected
    for name in expected:
        got, want = (tmp_path / "out" / name).read_bytes(), (GOLDEN / "expected" / name).read_bytes()
        if name.endswith(".xml"):
            assert canonical(got) == canonical(want), name
            assert_valid(tmp_path / "out" / name)
        else:
            assert got == want, name


def _many(make_site: Callable[..., Path], count: int, **output: object) -> Path:
    rows = "loc\n" + "".join(f"/p/{i}\n" for i in range(count))
    settings = "".join(f"  {k}: {v}\n" for k, v in output.items())
    return make_site(
        "site:\n  base_url: https://e.com/\nsources:\n  - p.csv\n" + ("output:\n" + settings if settings else ""),
        **{"p.csv": rows},
    )


@pytest.mark.parametrize("count,files", [(50_000, ["sitemap.xml"]),
                                         (50_001, ["sitemap-1.xml", "sitemap-2.xml", "sitemap.xml"])])
def test_split_at_exactly_50000(make_site: Callable[..., Path], tmp_path: Path, count: int, files: list[str],
                                assert_valid: Callable[[Path], None]) -> None:
    # (the split, not the views: output.html is off here, else 50 pages of 1,000 rows)
    result = build(str(_many(make_site, count, html="false")), str(tmp_path / "out"))
    assert result.ok
    assert sorted(f.name for f in result.files) == files
    if count == 50_001:
        assert len(locs(tmp_path / "out" / "sitemap-1.xml")) == 50_000
        assert locs(tmp_path / "out" / "sitemap-2.xml") == ["https://e.com/p/50000"]
        assert locs(tmp_path / "out" / "sitemap.xml") == [
            "https://e.com/sitemap-1.xml", "https://e.com/sitemap-2.xml"]
    for name in files:
        assert_valid(tmp_path / "out" / name)


def test_50005_urls_make_two_files_and_an_index(make_site: Callable[..., Path], tmp_path: Path) -> None:
    result = build(str(_many(make_site, 50_005, html="false")), str(tmp_path / "out"))
    stats = {f.name: (f.kind, f.urls) for f in result.files}
    assert stats == {"sitemap-1.xml": ("urlset", 50_000), "sitemap-2.xml": ("urlset", 5),
                     "sitemap.xml": ("index", 2)}


def test_split_by_bytes_with_long_urls(make_site: Callable[..., Path], tmp_path: Path) -> None:
    # 30,000 URLs of about 1,950 characters: well under 50,000 URLs, over 50 MiB.
    pad = "x" * 1_920
    rows = "loc\n" + "".join(f"/{pad}/{i:06d}\n" for i in range(30_000))
    site = make_site("site:\n  base_url: https://e.com/\nsources:\n  - p.csv\n", **{"p.csv": rows})
    result = build(str(site), str(tmp_path / "out"))
    assert result.ok
    parts = [f for f in result.files if f.kind == "urlset"]
    assert len(parts) == 2 and sum(f.urls for f in parts) == 30_000
    first = tmp_path / "out" / "sitemap-1.xml"
    size = first.stat().st_size
    assert size == parts[0].bytes == parts[0].uncompressed
    assert size <= MAX_BYTES_PER_FILE
    # Exact: one more entry would have passed the limit.
    entry = len(f"<url><loc>https://e.com/{pad}/000000</loc></url>\n")
    assert size + entry > MAX_BYTES_PER_FILE


def test_max_bytes_setting_splits_exactly(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = _many(make_site, 1_000, max_bytes=10_000)
    result = build(str(site), str(tmp_path / "out"))
    parts = [f for f in result.files if f.kind == "urlset"]
    entry = len("<url><loc>https://e.com/p/100</loc></url>\n")
    for part in parts[:-1]:
        assert part.bytes <= 10_000 < part.bytes + entry
    assert sum(p.urls for p in parts) == 1_000


def test_two_builds_are_byte_identical(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = _many(make_site, 120, max_urls=50, gzip="true", text="true", robots="true")
    first = build(str(site), str(tmp_path / "a"))
    second = build(str(site), str(tmp_path / "b"))
    assert first.ok and second.ok
    assert output_files(tmp_path / "a") == output_files(tmp_path / "b")


def test_gzip_files_and_index_naming_them(make_site: Callable[..., Path], tmp_path: Path,
                                          assert_valid: Callable[[Path], None]) -> None:
    result = build(str(_many(make_site, 7, max_urls=5)), str(tmp_path / "out"), gzip=True)
    names = sorted(f.name for f in result.files)
    assert names == ["sitemap-1.html", "sitemap-1.xml.gz", "sitemap-2.html", "sitemap-2.xml.gz", "sitemap.xml",
                     "sitemaps.html"]
    assert locs(tmp_path / "out" / "sitemap.xml") == [
        "https://e.com/sitemap-1.xml.gz", "https://e.com/sitemap-2.xml.gz"]
    raw = (tmp_path / "out" / "sitemap-1.xml.gz").read_bytes()
    assert raw[:2] == b"\x1f\x8b" and raw[4:8] == b"\0\0\0\0"  # gzip, mtime 0
    assert len(locs(tmp_path / "out" / "sitemap-1.xml.gz")) == 5
    part = next(f for f in result.files if f.name == "sitemap-1.xml.gz")
    assert part.uncompressed == len(gzip.decompress(raw)) and part.bytes == len(raw)
    assert_valid(tmp_path / "out" / "sitemap-2.xml.gz")


@pytest.mark.parametrize("deflate", ["isal", "zlib"])
def test_gzip_with_either_deflate_holds_the_plain_bytes(make_site: Callable[..., Path], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch, deflate: str) -> None:
    from sitemap_ext.write.series import deflate_name

    if deflate == "isal":
        pytest.importorskip("isal", reason="isal (the `fast` extra) is not installed")
    else:
        monkeypatch.setenv("SITEMAP_EXT_DEFLATE", "zlib")
    assert deflate_name() == deflate
    site = _many(make_site, 7, max_urls=5)
    assert build(str(site), str(tmp_path / "plain")).ok
    assert build(str(site), str(tmp_path / "gz"), gzip=True).ok
    assert build(str(site), str(tmp_path / "gz2"), gzip=True).ok
    for n in (1, 2):
        raw = (tmp_path / "gz" / f"sitemap-{n}.xml.gz").read_bytes()
        assert raw[4:8] == b"\0\0\0\0"  # mtime 0
        assert gzip.decompress(raw) == (tmp_path / "plain" / f"sitemap-{n}.xml").read_bytes()
        assert raw == (tmp_path / "gz2" / f"sitemap-{n}.xml.gz").read_bytes()  # the same bytes again
    zlib_made = (tmp_path / "gz" / "sitemap-1.xml.gz").read_bytes()
    if deflate == "zlib":  # portable: what Python's gzip module writes at level 6
        import io

        expected = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=expected, compresslevel=6, mtime=0) as handle:
            handle.write((tmp_path / "plain" / "sitemap-1.xml").read_bytes())
        assert zlib_made == expected.getvalue()


def test_single_file_takes_the_index_name_unless_index_always(make_site: Callable[..., Path],
                                                              tmp_path: Path) -> None:
    auto = build(str(_many(make_site, 3)), str(tmp_path / "auto"))
    assert [f.name for f in auto.files if f.kind != "html"] == ["sitemap.xml"]
    always = build(str(_many(make_site, 3, index="always")), str(tmp_path / "always"))
    assert sorted(f.name for f in always.files) == ["sitemap-1.html", "sitemap-1.xml", "sitemap.xml", "sitemaps.html"]
    assert locs(tmp_path / "always" / "sitemap.xml") == ["https://e.com/sitemap-1.xml"]


def test_public_url_and_subfolder_pattern(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = _many(make_site, 4, max_urls=2, pattern="maps/part-{n}.xml", public_url="https://cdn.e.com/s",
                 robots="true")
    result = build(str(site), str(tmp_path / "out"))
    assert result.ok
    assert (tmp_path / "out" / "maps" / "part-2.xml").is_file()
    assert locs(tmp_path / "out" / "sitemap.xml") == [
        "https://cdn.e.com/s/maps/part-1.xml", "https://cdn.e.com/s/maps/part-2.xml"]
    assert (tmp_path / "out" / "robots-sitemap.txt").read_text() == "Sitemap: https://cdn.e.com/s/sitemap.xml\n"


def test_subfolder_pattern_without_robots_warns_about_scope(make_site: Callable[..., Path]) -> None:
    site = _many(make_site, 1, pattern="maps/part-{n}.xml")
    result = build(str(site), dry_run=True)
    assert [(d.code, d.url) for d in result.collector.diagnostics] == [("U108", "https://e.com/p/0")]


def test_failed_build_leaves_old_output_untouched(make_site: Callable[..., Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    good = build(str(_many(make_site, 3)), str(out))
    assert good.ok
    before = output_files(out)
    bad = make_site("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n    lastmod: 2026-02-30\n")
    result = build(str(bad), str(out))
    assert not result.ok and result.files == []
    assert output_files(out) == before
    assert not [p for p in out.iterdir() if p.name.startswith(".sitemap-ext-") and p.is_dir()]


def test_strict_build_with_warnings_writes_nothing(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site("site:\n  base_url: https://e.com/\npages:\n  - loc: /a b\n")
    result = build(str(site), str(tmp_path / "out"), strict=True)
    assert result.files == [] and not (tmp_path / "out" / "sitemap.xml").exists()


def test_stale_files_of_an_earlier_build_are_removed(make_site: Callable[..., Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(str(_many(make_site, 12, max_urls=4)), str(out))
    assert (out / "sitemap-3.xml").exists()
    (out / "unrelated.html").write_text("not ours")
    build(str(_many(make_site, 6, max_urls=4)), str(out))
    assert (out / "sitemap-3.html").exists() is False  # (a stale view goes with its sitemap)
    assert sorted(os.listdir(out)) == [".sitemap-ext-manifest.json", "sitemap-1.html", "sitemap-1.xml",
                                       "sitemap-2.html", "sitemap-2.xml", "sitemap.xml", "sitemaps.html",
                                       "unrelated.html"]


def test_duplicates_are_written_once(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n  - loc: https://e.com/a\n"
                     "  - loc: /b\n")
    result = build(str(site), str(tmp_path / "out"))
    assert locs(tmp_path / "out" / "sitemap.xml") == ["https://e.com/a", "https://e.com/b"]
    assert [d.code for d in result.collector.diagnostics] == ["U104"]


def test_interpolation_with_defaults(make_site: Callable[..., Path], tmp_path: Path) -> None:
    text = "site:\n  base_url: ${SITEMAP_TEST_URL:-https://prod.e.com/}\npages:\n  - loc: /a\n"
    prod = build(str(make_site(text)), str(tmp_path / "prod"))
    staging = build(str(make_site(text)), str(tmp_path / "stage"), env={"SITEMAP_TEST_URL": "https://stage.e.com/"})
    assert prod.ok and staging.ok
    assert locs(tmp_path / "prod" / "sitemap.xml") == ["https://prod.e.com/a"]
    assert locs(tmp_path / "stage" / "sitemap.xml") == ["https://stage.e.com/a"]


def test_jsonl_and_gzipped_csv_sources(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(
        "site:\n  base_url: https://e.com/\nsources:\n  - a.jsonl\n  - b.csv.gz\n",
        **{"a.jsonl": '{"loc": "/j1", "lastmod": "2026-01-02", "priority": 0.3}\n\n{"loc": "/j2"}\n',
           "b.csv.gz": gzip.compress(b"loc,lastmod\n/g1,2026-03-04\n")},
    )
    result = build(str(site), str(tmp_path / "out"))
    assert result.ok, result.collector.sorted()
    assert locs(tmp_path / "out" / "sitemap.xml") == ["https://e.com/j1", "https://e.com/j2", "https://e.com/g1"]


def test_jsonl_values_that_are_not_text_are_judged_not_crashed_on(make_site: Callable[..., Path],
                                                                   tmp_path: Path) -> None:
    site = make_site(
        "site:\n  base_url: https://e.com/\nsources:\n  - a.jsonl\n",
        **{"a.jsonl": '{"loc": "/a"}\n{"loc": "/b", "lastmod": 5}\n{"loc": "/c", "sku": 7, "priority": "0.5"}\n'},
    )
    result = build(str(site), str(tmp_path / "out"))
    assert [(d.code, d.file, d.line) for d in result.collector.sorted()] == [
        ("D101", "a.jsonl", 2), ("S104", "a.jsonl", 3)]


def test_norwegian_key_and_yes_no_values_keep_their_text(make_site: Callable[..., Path]) -> None:
    # YAML 1.1 reads `no` as False; a key must stay the text written.
    from sitemap_ext.codes import REGISTRY
    from sitemap_ext.diagnostics import Collector
    from sitemap_ext.read.yaml_doc import load_yaml

    doc = load_yaml("no: 1\nyes: no\n", "x.yaml", Collector(REGISTRY), {})
    assert doc is not None and doc.data == {"no": 1, "yes": False} and doc.texts[("yes",)] == "no"
