"""A check past its memory budget (``--memory-budget``, rules/spill.py): the cluster
index's columns in files of a private temporary folder, read back a page at a time.

Generated sites (clusters whole and broken, URLs listed in two files, x-default,
several files and hosts, thousands of entries) are checked with no budget and with one
so small that every column spills (pages of 256 bytes, two kept): the findings (codes,
places, URLs, messages, in order), the counts and the coverage picture are the same.
The folder is mode 0700 while the check runs and gone after it, after an error in the
middle too; a folder that cannot be made is F107 (exit 3); the flag's errors are exit 2.
The main process's peak memory is lower with a budget, and within it plus the fixed
overhead of a check (the interpreter, its modules, a small site's check)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_ext.checker.check import CheckResult
from sitemap_ext.checker.given import check
from sitemap_ext.cli import main
from sitemap_ext.report.formats import exit_code
from sitemap_ext.rules import spill
from sitemap_ext.rules.cluster_store import minimum_budget
from sitemap_ext.rules.clusters import ClusterIndex
from sitemap_ext.rules.spill import Budget, BudgetTooSmall, SpillArray, SpillFolder, parse_size

ROOT = Path(__file__).resolve().parent.parent
NOW = "2026-11-21T12:00:00Z"
SMALL = Budget(1, page=256, kept=2, block=1024)  # (its size set per site: see _budget)
CODES = ["en", "de", "fr", "es", "en-GB", "x-default", "pt_BR"]
HOSTS = ["https://e.com", "https://f.org"]


@st.composite
def sites(draw: Any) -> tuple[list[list[str]], int]:
    """Files of <url> entries (two or three), and how many distinct lists of alternates
    they give at most. Each cluster's members list its alternates, some members a list
    with one link dropped or pointed elsewhere; some URLs are listed in two files."""
    files: list[list[str]] = [[] for _ in range(draw(st.integers(2, 3)))]
    seed = draw(st.integers(0, 10_000))
    lists: set[tuple[tuple[str, str], ...]] = set()
    rng = __import__("random").Random(seed)
    for cluster in range(draw(st.integers(300, 700))):
        host = rng.choice(HOSTS)
        codes = rng.sample(CODES, rng.randint(1, 4))
        links = [(code, f"{host}/{code}/p{cluster}") for code in codes]
        broken = rng.random() < 0.3
        for code, loc in links:
            own = list(links)
            if broken and rng.random() < 0.5:
                dropped = rng.randrange(len(own))
                own[dropped] = (own[dropped][0], f"{host}/gone/p{cluster}") if rng.random() < 0.5 else own[0]
            if rng.random() < 0.1:
                own = []
            lists.add(tuple(own))
            entry = "<url>\n<loc>" + loc + "</loc>\n" + "".join(
                f'<xhtml:link rel="alternate" hreflang="{c}" href="{h}"/>\n' for c, h in own) + "</url>"
            number = rng.randrange(len(files))
            files[number].append(entry)
            if rng.random() < 0.05 or (code == "x-default" and rng.random() < 0.3):
                files[(number + 1) % len(files)].append(entry)  # listed in two files (U104 across files)
    return files, len(lists)


def _write(folder: Path, files: list[list[str]]) -> list[str]:
    paths = []
    for number, entries in enumerate(files):
        path = folder / f"sitemap-{number}.xml"
        path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/'
                        'sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + "\n".join(entries)
                        + "\n</urlset>\n", encoding="utf-8")
        paths.append(str(path))
    return paths


def _seen(result: CheckResult) -> tuple[Any, ...]:
    findings = [(d.code, d.file, d.line, d.column, d.url, d.message,
                 [(r.message, r.file, r.line, r.url) for r in d.related]) for d in result.collector.diagnostics]
    coverage = result.coverage
    return (findings, result.listed, None if coverage is None else
            (coverage.codes, coverage.rows, coverage.clusters, coverage.whole), exit_code(result.collector, False))


def _budget(entries: int, lists: int) -> Budget:
    """A budget every column spills within: the minimum, and the fixed part of the
    index (its distinct lists, a bucket of the sort) at most."""
    return Budget(minimum_budget(SMALL) + 120 * lists + entries, SMALL.page, SMALL.kept, SMALL.block)


class _Folders:
    """The spill folders a check makes, each with its mode as it was made."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: list[tuple[str, int]] = []
        self.spilled = 0
        made = SpillFolder.__init__
        opened = SpillFolder.open

        def init(folder: SpillFolder, budget: Budget) -> None:
            made(folder, budget)
            self.made.append((folder.path, stat.S_IMODE(os.stat(folder.path).st_mode)))

        def open_(folder: SpillFolder, name: str) -> int:
            self.spilled += 1
            return opened(folder, name)

        monkeypatch.setattr(SpillFolder, "__init__", init)
        monkeypatch.setattr(SpillFolder, "open", open_)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow, HealthCheck.data_too_large])
@given(site=sites())
def test_findings_are_the_same_spilled(site: tuple[list[list[str]], int], tmp_path_factory: pytest.TempPathFactory,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    files, lists = site
    paths = _write(tmp_path_factory.mktemp("site"), files)
    entries = sum(map(len, files))
    kept = check(paths, now=NOW, jobs=1, max_per_code=None, coverage=10_000)
    folders = _Folders(monkeypatch)
    spilled = check(paths, now=NOW, jobs=1, max_per_code=None, coverage=10_000,
                    memory_budget=_budget(entries, lists))
    assert folders.spilled >= 14  # (every column, the texts, the sort's buckets and its two columns)
    assert _seen(spilled) == _seen(kept)
    assert {d.code for d in kept.collector.diagnostics} >= {"U104", "H104"}  # (what the sites are made to show)
    [(path, mode)] = folders.made
    assert mode == 0o700 and not os.path.exists(path)


def test_no_spill_under_the_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A check whose index and process fit its budget writes no column to disk."""
    paths = _write(tmp_path, [['<url><loc>https://e.com/a</loc></url>', '<url><loc>https://e.com/a</loc></url>']])
    folders = _Folders(monkeypatch)
    result = check(paths, now=NOW, memory_budget="16G")
    assert [d.code for d in result.collector.diagnostics] == ["U104"]
    assert folders.spilled == 0 and len(folders.made) == 1 and not os.path.exists(folders.made[0][0])


def test_a_process_near_its_budget_spills_a_small_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is the process's: an index far under it spills when the process's
    resident memory (the interpreter, the logs from the workers) comes near it, and
    finds the same."""
    from sitemap_ext.rules import spill

    paths = _write(tmp_path, [['<url><loc>https://e.com/a</loc></url>', '<url><loc>https://e.com/a</loc></url>']])
    folders = _Folders(monkeypatch)
    check(paths, now=NOW, jobs=1, memory_budget="1G")
    assert folders.spilled == 0
    monkeypatch.setattr(spill, "resident_bytes", lambda: (1 << 30) - (1 << 20))
    result = check(paths, now=NOW, jobs=1, memory_budget="1G")
    assert [d.code for d in result.collector.diagnostics] == ["U104"]
    assert folders.spilled >= 14


def test_the_resident_memory_is_read_where_the_system_says_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from sitemap_ext.rules import spill

    if os.path.exists("/proc/self/statm"):
        assert 10 << 20 < spill.resident_bytes() < 4 << 30
    real = open

    def missing(path: str, *args: object, **kwargs: object) -> object:
        if path == "/proc/self/statm":
            raise FileNotFoundError(path)
        return real(path, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", missing)
    assert spill.resident_bytes() == 0


def test_folder_removed_after_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An error in the middle of the rules (here: the sort) leaves no spill folder behind."""
    files, lists = [[f'<url><loc>https://e.com/{n}</loc></url>' for n in range(3000)]], 0
    paths = _write(tmp_path, files)
    folders = _Folders(monkeypatch)

    def broken(index: ClusterIndex, *args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ClusterIndex, "judge_all", broken)
    with pytest.raises(KeyboardInterrupt):
        check(paths, now=NOW, jobs=1, memory_budget=_budget(3000, lists))
    assert folders.spilled and folders.made and not os.path.exists(folders.made[0][0])


def test_a_folder_that_cannot_be_written_is_f107(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk while spilling: F107 at the spill folder, exit 3, the files' own findings kept."""
    files = [[f'<url><loc>https://e.com/{n}</loc><lastmod>2026-13-01</lastmod></url>' for n in range(2000)]]
    paths = _write(tmp_path, files)

    def full(fd: int, data: object, offset: int) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(spill.os, "pwrite", full)
    folders = _Folders(monkeypatch)
    result = check(paths, now=NOW, jobs=1, memory_budget=_budget(2000, 0))
    codes = [d.code for d in result.collector.diagnostics]
    assert "F107" in codes and len(set(codes)) > 1  # (and each lastmod's own finding)
    [f107] = [d for d in result.collector.diagnostics if d.code == "F107"]
    assert "No space left on device" in f107.message and f107.file == folders.made[0][0]
    assert exit_code(result.collector, False) == 3 and not os.path.exists(folders.made[0][0])


def test_cli_a_spill_folder_that_cannot_be_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    paths = _write(tmp_path, [['<url><loc>https://e.com/a</loc></url>']])
    def full(prefix: str) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(spill, "mkdtemp", full)
    assert main(["check", *paths, "--memory-budget", "1G", "--format", "json", "--now", NOW]) == 3
    report = json.loads(capsys.readouterr().out)
    assert [d["code"] for d in report["diagnostics"]] == ["F107"]


@pytest.mark.parametrize("size", ["12Q", "", "-5M", "M", "0", "1.5.2G", "\uff12G"])
def test_cli_a_malformed_size_is_a_usage_error(size: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = _write(tmp_path, [['<url><loc>https://e.com/a</loc></url>']])
    assert main(["check", *paths, "--memory-budget", size]) == 2
    assert "--memory-budget" in capsys.readouterr().err


def test_cli_a_budget_below_the_minimum(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = _write(tmp_path, [['<url><loc>https://e.com/a</loc></url>']])
    assert main(["check", *paths, "--memory-budget", "1M"]) == 2
    least = minimum_budget(Budget(1))
    err = capsys.readouterr().err
    assert "--memory-budget 1M is too small" in err and spill.size_text(least) in err
    assert main(["check", *paths, "--memory-budget", spill.size_text(least + (1 << 20)), "--quiet"]) == 0


def test_a_fixed_part_past_the_budget_is_a_usage_error(tmp_path: Path) -> None:
    """The distinct lists' index outgrows the budget as files are added: BudgetTooSmall,
    with the minimum it needed then."""
    paths = _write(tmp_path, [[f'<url><loc>https://e.com/{n}</loc><xhtml:link rel="alternate" hreflang="en" '
                               f'href="https://e.com/{n}"/></url>' for n in range(2000)]])
    with pytest.raises(BudgetTooSmall) as raised:
        check(paths, now=NOW, jobs=1, memory_budget=Budget(minimum_budget(SMALL) + 1000, 256, 2, 1024))
    assert raised.value.minimum > minimum_budget(SMALL) + 1000 and "more than" in str(raised.value)


@pytest.mark.parametrize(("text", "size"), [("512M", 512 << 20), ("2G", 2 << 30), ("1.5g", 3 << 29),
                                             ("100000", 100_000), ("64KiB", 64 << 10), ("8MB", 8 << 20)])
def test_sizes(text: str, size: int) -> None:
    assert parse_size(text) == size


def test_api_arguments() -> None:
    with pytest.raises(TypeError):
        check("x.xml", memory_budget=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="512M"):
        check("x.xml", memory_budget="lots")
    with pytest.raises(BudgetTooSmall, match="too small"):
        check("x.xml", memory_budget=1 << 20)


@given(st.lists(st.integers(-(1 << 63), (1 << 63) - 1), max_size=300), st.integers(1, 5))
def test_a_spilled_column_reads_as_its_array(values: list[int], cut: int) -> None:
    """Appended and extended in any runs, spilled at any point: read back by number, by
    slice, by iteration and by ``in`` as the array of the same values."""
    with SpillFolder(Budget(1, page=32, kept=2)) as folder:
        column: SpillArray[int] = SpillArray("q", folder)
        at = len(values) // cut
        column.extend(values[:at])
        column.spill()
        for value in values[at:]:
            column.append(value)
        assert len(column) == len(values) and list(column) == values
        assert [column[n] for n in reversed(range(len(values)))] == values[::-1]
        assert list(column[1:len(values) // 2]) == values[1:len(values) // 2]
        assert all(value in column for value in values[:5])
        assert ((1 << 63) - 1 in column) == ((1 << 63) - 1 in values)
        assert column.tobytes() == spill.array("q", values).tobytes()


_PEAK = """
import json
from sitemap_ext.checker.given import check
from sitemap_ext.rules import cluster_store
from sitemap_ext.rules.spill import Budget
spilled = []
mind = cluster_store.ClusterStore.mind_budget
def minded(self):
    mind(self)
    spilled.append(self.spilled)
cluster_store.ClusterStore.mind_budget = minded
budget = {budget}
result = check([{out!r}], jobs=2, memory_budget=None if budget is None else Budget(budget, page=4096, kept=8,
                                                                                   block=1 << 16))
# (VmHWM: this process's own peak; ru_maxrss keeps the peak of the process it was forked
# from, pytest's, across exec)
with open("/proc/self/status") as status:
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) * 1024
print(json.dumps([peak, any(spilled), list(result.listed),
                  sorted((d.code, d.where.file, d.where.line) for d in result.collector.diagnostics)]))
"""


def _peak(folder: Path, rows: int, budget: int | None, build: bool = False) -> tuple[int, bool, Any]:
    """The main process's peak resident set in a check of W(rows) (built first, in a process of its own)."""
    if build:
        made = (f"import sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); import workload; "
                f"from sitemap_ext.cli import main; main(['build', workload.make({str(folder)!r}, {rows}), '-o', "
                f"{str(folder / 'out')!r}, '--quiet'])")
        subprocess.run([sys.executable, "-c", made], check=True, cwd=folder)
    code = _PEAK.format(out=str(folder / "out"), budget=budget)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=folder)
    peak, spilled, listed, found = json.loads(done.stdout.splitlines()[-1])
    return peak, spilled, (listed, found)


@pytest.mark.skipif(sys.platform != "linux", reason="the peak read from /proc/self/status (VmHWM): Linux")
def test_a_check_of_w_spilled_finds_what_it_finds_in_memory(tmp_path: Path) -> None:
    """W(30,000): 150,000 entries and 900,000 alternates, checked by the CLI's API with
    two workers: with a budget of 6 MiB the index spills and the findings (codes and
    places) are those of the check in memory. The process's peak is not asserted: at
    this size the index (about 14 MiB) is a small part of it, and the peaks with and
    without the budget differ by less than their noise (VmHWM: 72 and 77 MB in one run,
    69 and 66 in another); the budget bounds the index's columns, not the process."""
    big = tmp_path / "big"
    big.mkdir()
    without, spilled_without, found = _peak(big, 30_000, None, build=True)
    within, spilled, found_spilled = _peak(big, 30_000, 6 << 20)
    assert (spilled_without, spilled) == (False, True), (without, within)
    assert found_spilled == found
    assert found[1], "W's check finds something to compare (I104, its images on a CDN)"


def test_the_spill_errors_cross_from_a_worker_whole() -> None:
    """A share of a check on Dask spills on its worker: its errors are pickled back to the
    client with what the check says of them (F107's folder and reason, the minimum)."""
    import pickle

    from sitemap_ext.rules.spill import SpillFailed

    failed = pickle.loads(pickle.dumps(SpillFailed("No space left on device", "/tmp/sitemap-ext-spill-x")))
    assert (failed.reason, failed.folder) == ("No space left on device", "/tmp/sitemap-ext-spill-x")
    small = pickle.loads(pickle.dumps(BudgetTooSmall(1 << 20, 3 << 20, "the index", so_far=True)))
    assert small.minimum == 3 << 20 and str(small) == str(BudgetTooSmall(1 << 20, 3 << 20, "the index", True))


def test_a_frame_held_after_a_write_does_not_keep_the_column_from_being_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Dask worker's profiler holds the frames of running tasks for a moment: a write's
    frame kept alive after it returns must hold no view of the column it wrote, which is
    cut at once (BufferError before: a share of a check on Dask failed now and then)."""
    import sys

    held: list[object] = []
    real = os.pwrite

    def pwrite(fd: int, data: Any, offset: int) -> int:
        held.append(sys._getframe(1))  # (the write's frame, kept as a profiler may keep it)
        return real(fd, data, offset)

    monkeypatch.setattr(spill.os, "pwrite", pwrite)
    with SpillFolder(Budget(1 << 20, page=256, kept=2, block=1024)) as folder:
        column = SpillArray("q", folder, range(1000))
        column.spill()
        column.extend(range(1000, 2000))
        assert held and list(column) == list(range(2000))
