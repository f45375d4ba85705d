"""The one writer against its reference (lxml's incremental writer, tests/reference_xml.py):
the golden sites of every feature give the same canonical XML, and the same bytes but
for the two spellings canonical XML does not care about; the old ``engine`` argument is
taken, warned of, and changes nothing."""

from __future__ import annotations

import multiprocessing
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

import sitemap_ext.write.parallel as parallel
from sitemap_ext import build

from .conftest import ROOT, canonical
from .reference_xml import reference_build

NOW = "2026-11-21T12:00:00Z"


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("golden", ["core", "media"])
def test_the_reference_writes_the_golden_files(tmp_path: Path, golden: str,
                                               assert_valid: Callable[[Path], None]) -> None:
    folder = ROOT / "tests" / "golden" / golden
    result = reference_build(str(folder / "input" / "site.yaml"), str(tmp_path / "out"), now=NOW)
    assert result.ok, result.collector.sorted()
    names = sorted(p.name for p in (folder / "expected").iterdir())
    assert sorted(f.name for f in result.files) == names
    for name in names:
        got = (tmp_path / "out" / name).read_bytes()
        if name.endswith(".xml"):
            assert canonical(got) == canonical((folder / "expected" / name).read_bytes()), name
            assert_valid(tmp_path / "out" / name)


@pytest.mark.parametrize("golden", ["core", "media"])
def test_the_writer_writes_the_reference_bytes_but_for_quote_escapes(tmp_path: Path, golden: str) -> None:
    site = str(ROOT / "tests" / "golden" / golden / "input" / "site.yaml")
    ours = build(site, str(tmp_path / "ours"), now=NOW)
    reference = reference_build(site, str(tmp_path / "lxml"), now=NOW)
    assert ours.ok and reference.ok
    a, b = files_of(tmp_path / "ours"), files_of(tmp_path / "lxml")
    assert a.keys() == b.keys()
    for name in a:
        # The writer escapes ' and " in text too (the protocol asks for all five) and
        # closes an empty element in its start tag; lxml does neither.
        assert a[name].replace(b"&apos;", b"'").replace(b"&quot;", b'"') == \
            b[name].replace(b"></xhtml:link>", b"/>").replace(b"&quot;", b'"'), name


def test_workers_render_with_the_build_s_renderer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker makes the renderer the build made (not a fixed one): the reference too."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform: builds run in one process")
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "PIECE_BYTES", 200)
    monkeypatch.setattr(parallel, "spare_cores", lambda *_: 8)  # (whatever else this machine runs)
    monkeypatch.setattr(parallel, "MAX_EXPANSION", float("inf"))
    (tmp_path / "site.yaml").write_text(yaml.safe_dump({
        "site": {"base_url": "https://e.com/"}, "locales": {"en": "/en/", "de": "/de/"},
        "sources": [{"file": "rows.csv"}]}))
    (tmp_path / "rows.csv").write_text("path,image\n" + "".join(f"/p{i},/i{i}.jpg\n" for i in range(200)))
    ours = build(str(tmp_path / "site.yaml"), str(tmp_path / "ours"), jobs=2)
    reference = reference_build(str(tmp_path / "site.yaml"), str(tmp_path / "lxml"), jobs=2)
    assert ours.ok and reference.ok
    a, b = files_of(tmp_path / "ours"), files_of(tmp_path / "lxml")
    assert a.keys() == b.keys()
    links = b["sitemap.xml"].count(b"<xhtml:link ")
    assert links == 800 and b["sitemap.xml"].count(b"></xhtml:link>") == links  # every piece by the reference
    assert canonical(a["sitemap.xml"]) == canonical(b["sitemap.xml"])


def test_the_old_engine_argument_is_taken_warned_of_and_changes_nothing(tmp_path: Path) -> None:
    site = str(ROOT / "tests" / "golden" / "core" / "input" / "site.yaml")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert build(site, str(tmp_path / "plain")).ok
        assert build(site, str(tmp_path / "fast"), engine="fast").ok
    with pytest.warns(DeprecationWarning, match="engine"):
        assert build(site, str(tmp_path / "lxml"), engine="lxml").ok
    assert files_of(tmp_path / "plain") == files_of(tmp_path / "fast") == files_of(tmp_path / "lxml")
    with pytest.raises((TypeError, ValueError)):
        build(site, str(tmp_path / "other"), engine="xslt")
