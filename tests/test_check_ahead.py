"""check --jobs: workers probe later files ahead; the findings are those of one process."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sitemap_ext.checker.ahead as ahead
import sitemap_ext.checker.canonical as canonical
from sitemap_ext import check
from tests.test_check_paths import HEAD, _link

INDEX = ("<?xml version='1.0' encoding='UTF-8'?>\n"
         "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{}</sitemapindex>\n")


def _cluster(page: int, codes: tuple[str, ...] = ("de", "en")) -> list[str]:
    links = "".join(_link(code, f"https://e.com/{code}/p{page}") for code in codes)
    return [f"<url><loc>https://e.com/{code}/p{page}</loc>{links}</url>\n" for code in codes]


def _files(draw: Any, folder: Path) -> list[str]:
    """Several urlsets of clean clusters; some with a defect, a duplicate of an
    earlier file's URL, a cluster split across two files, or another shape."""
    names = []
    page = 0
    for number in range(draw(st.integers(2, 6))):
        lines: list[str] = []
        for _ in range(draw(st.integers(1, 4))):
            lines += _cluster(page)
            page += 1
        kind = draw(st.sampled_from(["clean", "clean", "duplicate", "defect", "pretty", "split"]))
        if kind == "duplicate" and page > 1:
            lines += ["<url><loc>https://e.com/de/p0</loc></url>\n"]
        elif kind == "defect":
            lines[0] = lines[0].replace("<loc>https://e.com/", "<loc>https://other.org/")
        elif kind == "split":  # the first half of a cluster here, the rest in the next file
            lines += _cluster(page)[:1]
        text = HEAD + "".join(lines) + "</urlset>\n"
        if kind == "pretty":
            text = text.replace("<url>", "<url>\n  ")
        name = f"part-{number}.xml"
        (folder / name).write_text(text, encoding="utf-8")
        names.append(name)
    return names


def _findings(paths: list[str], jobs: int, served: str = "https://e.com/") -> list[tuple[Any, ...]]:
    folder = Path(paths[0]) if Path(paths[0]).is_dir() else Path(paths[0]).parent
    result = check(paths, base_urls=[f"{served}={folder}"], jobs=jobs)
    return [(d.code, d.file, d.line, d.url, d.hreflang, d.message) for d in result.collector.sorted()]


@settings(max_examples=25, deadline=None)
@given(data=st.data(), jobs=st.sampled_from([2, 3]), as_index=st.booleans(),
       served=st.sampled_from(["https://e.com/", "https://e.com/maps/"]))
def test_workers_change_nothing_in_the_findings(data: Any, jobs: int, as_index: bool, served: str,
                                               tmp_path_factory: Any) -> None:
    """Served under /maps/, every URL lies outside the files' folder (U108): the
    workers must judge each file with the URL it is served at, as the main process."""
    folder = tmp_path_factory.mktemp("ahead")
    names = _files(data.draw, folder)
    if as_index:  # an index's children, probed ahead in the index's order
        entries = "".join(f"<sitemap><loc>{served}{name}</loc></sitemap>\n" for name in names)
        (folder / "sitemap.xml").write_text(INDEX.format(entries), encoding="utf-8")
        paths = [str(folder / "sitemap.xml")]
    else:  # a folder's files
        paths = [str(folder)]
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(ahead, "MIN_BYTES", 0)  # small files: workers all the same
        taken: list[bool] = []
        original = ahead.Ahead.take

        def spy(self: ahead.Ahead, planned: ahead.Planned) -> Any:
            found = original(self, planned)
            taken.append(found is not False)
            return found
        monkeypatch.setattr(ahead.Ahead, "take", spy)
        alone = _findings(paths, 1, served)
        assert not taken  # one process: no workers
        assert _findings(paths, jobs, served) == alone
        assert any(taken)  # and a worker did probe some of them


def test_a_worker_that_dies_leaves_its_files_to_the_main_process(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    for number in range(4):
        lines = [line for page in range(3) for line in _cluster(10 * number + page, ("de", "en", "fr"))]
        lines[1] = lines[1].replace("</url>", _link("it", "https://e.com/it/lost") + "</url>")  # H111 and the like
        (tmp_path / f"s{number}.xml").write_text(HEAD + "".join(lines) + "</urlset>\n", encoding="utf-8")
    monkeypatch.setattr(ahead, "MIN_BYTES", 0)
    alone = _findings([str(tmp_path)], 1)
    main = os.getpid()
    original = canonical.probe

    def dying(path: str, state: Any) -> Any:
        if os.getpid() != main:
            os._exit(3)  # the worker is gone without a word
        return original(path, state)
    monkeypatch.setattr(canonical, "probe", dying)
    assert _findings([str(tmp_path)], 2) == alone
    assert alone  # the files do have findings to compare


def test_shares_follow_sizes_and_leave_the_main_process_the_first(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    plan = []
    for number in range(10):
        path = tmp_path / f"s{number}.xml"
        path.write_bytes(b"x" * 1000)
        plan.append(ahead.Planned(str(path), None, False))
    monkeypatch.setattr(ahead, "MIN_BYTES", 0)
    shares = ahead._shares(plan, 3)
    places = [[place for place, _ in share] for share in shares]
    # Weights 0.6, 1, 1: the main process keeps 2,308 bytes' worth (its first two files, by
    # their middles), each worker 3,846: files 2-5, then 6-9.
    assert places == [[2, 3, 4, 5], [6, 7, 8, 9]]
    assert ahead._shares(plan, 1) == []
    monkeypatch.setattr(ahead, "MIN_BYTES", 1 << 20)
    assert ahead._shares(plan, 2) == []  # too little to be worth the processes


def test_no_temporary_folder_means_no_workers_and_the_same_findings(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    for number in range(3):
        lines = [line for page in range(3) for line in _cluster(10 * number + page)]
        lines.append("<url><loc>https://e.com/de/p0</loc></url>\n")  # a duplicate of the first file's URL
        (tmp_path / f"s{number}.xml").write_text(HEAD + "".join(lines) + "</urlset>\n", encoding="utf-8")
    monkeypatch.setattr(ahead, "MIN_BYTES", 0)
    alone = _findings([str(tmp_path)], 1)
    assert [code for code, *_ in alone].count("U104") == 3

    def refused(*args: Any, **kwargs: Any) -> str:
        raise PermissionError("no temporary folder here")
    monkeypatch.setattr(tempfile, "mkdtemp", refused)
    assert _findings([str(tmp_path)], 2) == alone


def test_a_worker_kept_one_probe_ahead_and_a_child_listed_twice(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """With no room to spool, a worker probes a file only when the main process has
    taken its last one; a child the index lists twice is checked once, its second
    probe dropped, and nothing waits for it."""
    import signal

    names = []
    for number in range(6):
        lines = [line for page in range(2) for line in _cluster(10 * number + page)]
        (tmp_path / f"s{number}.xml").write_text(HEAD + "".join(lines) + "</urlset>\n", encoding="utf-8")
        names.append(f"s{number}.xml")
    names.insert(4, "s3.xml")  # listed twice
    entries = "".join(f"<sitemap><loc>https://e.com/{name}</loc></sitemap>\n" for name in names)
    (tmp_path / "sitemap.xml").write_text(INDEX.format(entries), encoding="utf-8")
    monkeypatch.setattr(ahead, "MIN_BYTES", 0)
    alone = _findings([str(tmp_path / "sitemap.xml")], 1)
    monkeypatch.setattr(ahead, "SPOOL_BYTES", 0)
    class Stuck(Exception):  # not an OSError, which the main process takes for a worker gone
        pass

    def waited_too_long(*_: Any) -> None:
        raise Stuck("the main process and a worker wait for each other")
    previous = signal.signal(signal.SIGALRM, waited_too_long)
    signal.alarm(60)  # a wait that never ends fails the test instead of hanging it
    try:
        assert _findings([str(tmp_path / "sitemap.xml")], 2) == alone
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert [code for code, *_ in alone] == ["H112"] * 12  # each cluster once (no x-default), s3's too
