"""A build on several processes never waits for a piece no worker reads: the build's
own process reads a piece handed to a worker that has not started it (a worker whose
core is busy), and a worker skips a piece taken so; and it starts no worker where no
core is spare. The output is the same."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
import yaml

import sitemap_ext.write.parallel as parallel
from sitemap_ext import build
from sitemap_ext.read.sources import Part

from .test_fast_paths import LOCALES, diagnostics, files_of

FORK = "fork" in multiprocessing.get_all_start_methods()


def _claims(count: int) -> Any:
    return multiprocessing.get_context("fork" if FORK else None).Array("b", count)


def test_a_piece_no_worker_started_is_taken_here() -> None:
    claims = _claims(3)
    waiting: Future[str | None] = Future()
    assert parallel._steal(waiting, claims, 1)
    assert list(claims) == [0, 2, 0]  # a worker that comes to it now skips it


def test_a_piece_a_worker_reads_is_waited_for() -> None:
    claims = _claims(3)
    claims[2] = 1
    running: Future[str | None] = Future()
    assert not parallel._steal(running, claims, 2)
    done: Future[str | None] = Future()
    done.set_result("path")
    assert not parallel._steal(done, claims, 1)
    assert list(claims) == [0, 0, 1]


def test_a_worker_skips_a_piece_taken_here(monkeypatch: pytest.MonkeyPatch) -> None:
    claims = _claims(2)
    claims[1] = 2
    rendered: list[Part] = []
    monkeypatch.setattr(parallel, "_CLAIMS", (claims, {0: 0, 50: 1}))
    monkeypatch.setattr(parallel, "_render", lambda piece: rendered.append(piece) or "path")
    assert parallel._work(Part(50, 100, 4)) is None
    assert parallel._work(Part(0, 50, 1)) == "path"
    assert rendered == [Part(0, 50, 1)] and list(claims) == [1, 2]


def _never_starts(piece: Any) -> Any:
    import time

    time.sleep(0.5)  # a worker with no core to run on: this process takes every piece first
    return None


def test_pieces_no_worker_starts_are_read_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not FORK:
        pytest.skip("no fork on this platform: builds run in one process")
    (tmp_path / "site.yaml").write_text(yaml.safe_dump({
        "site": {"base_url": "https://e.com/"}, "locales": LOCALES, "sources": [{"file": "rows.csv"}],
        "output": {"max_urls": 40}}))
    (tmp_path / "rows.csv").write_text("path,lastmod\n" + "".join(f"/p{i},2026-01-0{1 + i % 9}\n" for i in range(80))
                                       + "/bad path,2026-02-30\n")
    one = build(str(tmp_path / "site.yaml"), str(tmp_path / "one"), jobs=1)
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "PIECE_BYTES", 100)
    monkeypatch.setattr(parallel, "MAX_EXPANSION", float("inf"))
    monkeypatch.setattr(parallel, "spare_cores", lambda *_: 8)
    monkeypatch.setattr(parallel, "_work", _never_starts)  # (a piece taken from a worker would fail: None)
    two = build(str(tmp_path / "site.yaml"), str(tmp_path / "two"), jobs=2)
    # (and H112 for each of the 81 pages written: the locales name no x-default; the engine's verdict on what is written)
    assert [d.code for d in one.collector.diagnostics] == ["U105"] * 3 + ["D101"] + ["H112"] * 81
    assert diagnostics(one) == diagnostics(two)
    assert files_of(tmp_path / "one") == files_of(tmp_path / "two")


@pytest.mark.parametrize(("cores", "load", "spare"), [(2, 0.0, 1), (2, 0.4, 1), (2, 0.6, 0), (2, 2.5, 0),
                                                      (4, 1.2, 2), (1, 0.0, 0)])
def test_spare_cores_are_the_cores_less_the_load(monkeypatch: pytest.MonkeyPatch, cores: int, load: float,
                                                 spare: int) -> None:
    monkeypatch.setattr(parallel, "usable_cores", lambda: cores)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (load, load, load))
    assert parallel.spare_cores() == spare


def _no_pool(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a worker was started with no core spare")


def test_no_worker_is_started_where_no_core_is_spare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not FORK:
        pytest.skip("no fork on this platform: builds run in one process")
    (tmp_path / "site.yaml").write_text(yaml.safe_dump({
        "site": {"base_url": "https://e.com/"}, "locales": LOCALES, "sources": [{"file": "rows.csv"}]}))
    (tmp_path / "rows.csv").write_text("path\n" + "".join(f"/p{i}\n" for i in range(80)))
    one = build(str(tmp_path / "site.yaml"), str(tmp_path / "one"), jobs=1)
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "PIECE_BYTES", 100)
    monkeypatch.setattr(parallel, "MAX_EXPANSION", float("inf"))
    monkeypatch.setattr(parallel, "spare_cores", lambda *_: 0)
    monkeypatch.setattr(parallel, "process_pool", _no_pool)
    two = build(str(tmp_path / "site.yaml"), str(tmp_path / "two"), jobs=2)
    assert one.ok and two.ok and files_of(tmp_path / "one") == files_of(tmp_path / "two")


@pytest.mark.parametrize(("idle", "spare"), [(50, 1), (30, 1), (20, 0), (0, 0), (100, 1)])
def test_spare_cores_are_those_idle_while_the_first_piece_was_read(monkeypatch: pytest.MonkeyPatch, idle: int,
                                                                   spare: int) -> None:
    monkeypatch.setattr(parallel, "usable_cores", lambda: 2)
    monkeypatch.setattr(parallel, "cpu_times", lambda: (1000 + idle, 1100))  # 100 ticks since (1000, 1000)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (9.0, 9.0, 9.0))  # (not asked)
    assert parallel.spare_cores((1000, 1000)) == spare
    assert parallel.spare_cores((1000, 1099)) == 0  # one tick: too few to tell, so the load says
