"""One process pool (pool.process_pool) for the build and the check, and the build's
choice of how many processes a source gets."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import pytest
import yaml

import sitemap_ext.checker.workers as workers
import sitemap_ext.write.parallel as parallel
from sitemap_ext import build, check
from sitemap_ext.pool import process_pool

FORK = "fork" in multiprocessing.get_all_start_methods()
needs_fork = pytest.mark.skipif(not FORK, reason="no fork on this platform: one process")

_SHARED: list[Any] = []


def _keep(value: Any) -> None:
    _SHARED.append(value)


def _shared(_: int) -> str:
    return type(_SHARED[0]).__name__


@needs_fork
def test_a_worker_starts_with_its_initargs_in_place_not_pickled() -> None:
    with process_pool(1, initializer=_keep, initargs=(lambda: None,)) as pool:  # (a lambda cannot be pickled)
        assert pool.submit(_shared, 0).result() == "function"


class _Spy:
    def __init__(self) -> None:
        self.jobs: list[int] = []

    def __call__(self, jobs: int, *args: Any, **kwargs: Any) -> Any:
        self.jobs.append(jobs)
        return process_pool(jobs, *args, **kwargs)


def _site(tmp_path: Path, locales: dict[str, str], rows: int) -> Path:
    (tmp_path / "site.yaml").write_text(yaml.safe_dump({
        "site": {"base_url": "https://e.com/"}, "locales": locales, "sources": [{"file": "rows.csv"}]}))
    (tmp_path / "rows.csv").write_text("path\n" + "".join(f"/p{i}\n" for i in range(rows)))
    return tmp_path / "site.yaml"


@needs_fork
def test_the_build_and_the_check_share_the_pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_spy, check_spy = _Spy(), _Spy()
    monkeypatch.setattr(parallel, "process_pool", build_spy)
    monkeypatch.setattr(workers, "process_pool", check_spy)
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "PIECE_BYTES", 100)
    monkeypatch.setattr(parallel, "spare_cores", lambda *_: 8)  # (whatever else this machine runs)
    site = _site(tmp_path, {}, 400)  # one locale: a few bytes written a byte read
    assert build(str(site), str(tmp_path / "out"), jobs=2).ok
    assert build_spy.jobs == [1]  # (this process is the other one)
    (tmp_path / "out" / "b.xml").write_bytes((tmp_path / "out" / "sitemap.xml").read_bytes())
    check([str(tmp_path / "out" / "sitemap.xml"), str(tmp_path / "out" / "b.xml")], jobs=2)
    assert check_spy.jobs == [2]


@needs_fork
def test_a_source_writing_hundreds_of_bytes_a_byte_read_stays_in_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twelve locales' alternates: a worker's pieces would be too large to pass."""
    spy = _Spy()
    monkeypatch.setattr(parallel, "process_pool", spy)
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "PIECE_BYTES", 100)
    codes = ["da", "de", "en", "es", "fi", "fr", "it", "ja", "nl", "pl", "pt", "sv"]
    site = _site(tmp_path, {code: f"/{code}/" for code in codes}, 400)
    more = build(str(site), str(tmp_path / "more"), jobs=2)
    one = build(str(site), str(tmp_path / "one"), jobs=1)
    assert more.ok and one.ok and spy.jobs == []
    assert (tmp_path / "more" / "sitemap.xml").read_bytes() == (tmp_path / "one" / "sitemap.xml").read_bytes()
