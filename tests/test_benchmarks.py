"""The benchmarks' bare writers write the build's bytes, so their floors stay fair."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from sitemap_ext import build

from .conftest import ROOT


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("build_shapes", ROOT / "benchmarks" / "build_shapes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_shapes"] = module
    spec.loader.exec_module(module)
    return module


SHAPES = _module()


@pytest.mark.parametrize("shape", SHAPES.shapes(0.0003), ids=lambda s: s.name)
def test_each_bare_writer_writes_the_builds_bytes(shape, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(SHAPES, "MAX_URLS", 7)  # small splits, so that the index is compared too
    source = tmp_path / shape.source
    shape.write_source(str(source), shape.rows)
    (tmp_path / "site.yaml").write_text(shape.yaml.replace("output:\n", "output:\n  max_urls: 7\n"))
    result = build(str(tmp_path / "site.yaml"), str(tmp_path / "ours"), now="2026-11-21T12:00:00Z")
    assert result.ok, result.collector.sorted()
    SHAPES.bare(shape, str(source), str(tmp_path / "bare"))
    ours, bare = SHAPES.files_of(str(tmp_path / "ours")), SHAPES.files_of(str(tmp_path / "bare"))
    assert len(ours) > 2 and ours == bare


def test_the_record_path_benchmark_times_the_engine_per_entry_on_what_a_build_wrote(
        capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/record_path.py reads each shape's sitemaps into records, then times the
    readers and the engine (entry, file and cluster rules) per entry; it stops
    (SystemExit) if the engine finds an error or warning in what the build wrote."""
    spec = importlib.util.spec_from_file_location("record_path", ROOT / "benchmarks" / "record_path.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--rows", "300", "--repeat", "1"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[0] for row in rows] == ["shape", "w", "single", "forty"]
    assert [row.split()[1] for row in rows[1:]] == ["1,500", "300", "1,480"]
    assert all(float(row.split()[2]) > 0 and float(row.split()[3]) > 0 for row in rows[1:])


