"""A check on a Dask cluster (``check --dask [SCHEDULER]``, ``check(client=)``): each file
the process pool would judge is judged on a worker by the pool's own function, read
there from its path; results are taken in the pool's order and the cluster index stays
on the client. So the JSON report (every finding's code, severity, file, line, column,
URL and message, in order; the files read and the counts) and the exit code are those of
``check --jobs 1``, on folders of every kind the pool handles; spilled past
--memory-budget too. No dask: exit 2 with the install hint. A scheduler that cannot be
reached: F101 (exit 3). One in-process cluster (two workers of a thread each) serves
the tests; one of a worker process shows that the client judges none of the files."""

from __future__ import annotations

import gzip
import json
import os
import socket
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

distributed = pytest.importorskip("distributed", reason="a check on Dask needs dask and distributed")

from sitemap_ext import check  # noqa: E402
from sitemap_ext.checker import folder_walk, on_dask, workers  # noqa: E402
from sitemap_ext.checker.given import check as check_given  # noqa: E402  (it takes a Budget of its own pages)
from sitemap_ext.checker.results import Results  # noqa: E402
from sitemap_ext.cli import main  # noqa: E402
from sitemap_ext.rules.cluster_store import ClusterStore, minimum_budget  # noqa: E402
from sitemap_ext.rules.clusters import ClusterIndex  # noqa: E402
from sitemap_ext.rules.spill import Budget, SpillFolder  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NOW = "2026-11-29T00:00:00Z"
E = "https://e.com"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    made = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0")
    with distributed.Client(made) as client:
        yield client
    made.close()


def urlset(*entries: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + "".join(entries) + "</urlset>\n")


def url(loc: str, *alternates: tuple[str, str]) -> str:
    links = "".join(f'  <xhtml:link rel="alternate" hreflang="{c}" href="{h}"/>\n' for c, h in alternates)
    return f"<url>\n  <loc>{loc}</loc>\n{links}</url>\n"


def page(lang: str, *alternates: tuple[str, str]) -> str:
    links = "".join(f'<link rel="alternate" hreflang="{c}" href="{h}">\n' for c, h in alternates)
    return f'<!DOCTYPE html><html lang="{lang}"><head>\n<title>t</title>\n{links}</head><body></body></html>\n'


def write(folder: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return folder


def clean_build(folder: Path) -> tuple[Path, list[str]]:
    """The international example built into sitemaps of ten URLs (an index and its parts)."""
    example = ROOT / "examples" / "international"
    text = (example / "site.yaml").read_text(encoding="utf-8").replace("output:\n", "output:\n  max_urls: 10\n", 1)
    write(folder, {"site.yaml": text, "products.csv": (example / "products.csv").read_bytes()})
    out = folder / "out"
    assert main(["build", str(folder / "site.yaml"), "-o", str(out), "--now", NOW, "--quiet"]) == 0
    return out, ["--base-url", f"https://www.alpine-outfitters.example/={out}"]


def across_files(folder: Path) -> tuple[Path, list[str]]:
    """U104 (a URL in two files) and H104 (en's alternate de does not link back), across files."""
    en, de = f"{E}/en", f"{E}/de"
    return write(folder / "site", {"a.xml": urlset(url(f"{E}/same"), url(en, ("en", en), ("de", de))),
                                   "b.xml": urlset(url(f"{E}/same"), url(de, ("de", de)))}), []


def gzipped(folder: Path) -> tuple[Path, list[str]]:
    en, de = f"{E}/en", f"{E}/de"
    body = urlset(url(en, ("en", en), ("de", de)), url(f"{E}/x"))
    return write(folder / "site", {"s.xml.gz": gzip.compress(body.encode()), "de.xml": urlset(url(de, ("de", de))),
                                   "more.txt": f"{E}/x\n{E}/y\n"}), []


def index_with_parts(folder: Path) -> tuple[Path, list[str]]:
    index = ('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
             f"\n<sitemap><loc>{E}/part-1.xml</loc></sitemap>\n<sitemap><loc>{E}/part-2.xml</loc></sitemap>\n"
             f"<sitemap><loc>{E}/part-3.xml</loc></sitemap>\n</sitemapindex>\n")
    site = write(folder / "site", {"sitemap.xml": index, "part-1.xml": urlset(url(f"{E}/a"), url(f"{E}/b")),
                                   "part-2.xml": urlset(url(f"{E}/b"), url(f"{E}/c", ("en", f"{E}/c"),
                                                                            ("fr", f"{E}/fr/c")))})
    return site, ["--base-url", f"{E}/={site}"]


def malformed(folder: Path) -> tuple[Path, list[str]]:
    return write(folder / "site", {"bad.xml": urlset(url(f"{E}/a")).replace("</url>", "</urll>", 1),
                                   "good.xml": urlset(url(f"{E}/a"), url(f"{E}/b"))}), []


def built_pages(folder: Path) -> tuple[Path, list[str]]:
    """Pages in more than one batch (64 a batch), some without their return link, with a sitemap."""
    files: dict[str, str | bytes] = {}
    for number in range(150):
        en, de = f"{E}/en/p{number}/", f"{E}/de/p{number}/"
        files[f"en/p{number}/index.html"] = page("en", ("en", en), ("de", de))
        files[f"de/p{number}/index.html"] = page("de", ("de", de), *([("en", en)] if number % 7 else []))
    files["sitemap.xml"] = urlset(*(url(f"{E}/en/p{n}/") for n in range(0, 150, 3)), url(f"{E}/en/p1/"))
    site = write(folder / "site", files)
    return site, ["--base-url", f"{E}/={site}"]


FOLDERS: dict[str, Callable[[Path], tuple[Path, list[str]]]] = {
    "clean build": clean_build, "across files": across_files, "gzip and text": gzipped,
    "index with parts": index_with_parts, "malformed": malformed, "built pages": built_pages}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(["check", *argv, "--now", NOW, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", list(FOLDERS))
def test_a_check_on_dask_reports_what_one_process_does(name: str, tmp_path: Path, cluster: Any,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder, extra = FOLDERS[name](tmp_path)
    one = run(capsys, str(folder), *extra, "--jobs", "1")
    found = run(capsys, str(folder), *extra, "--dask", cluster.scheduler.address)
    assert found == one
    code, report = one
    found = {d["code"] for d in report["diagnostics"]}
    expected = {"clean build": (0, set()), "across files": (1, {"U104", "H104"}), "gzip and text": (1, {"H104"}),
                "index with parts": (0, {"U104", "X111"}), "malformed": (1, {"X101"}),
                "built pages": (1, {"H104"})}[name]
    assert code == expected[0] and found >= expected[1], (code, found)
    assert report["summary"]["files_checked"] > 1


def test_pages_handed_to_the_cluster_past_those_in_flight_are_taken_in_order(
        tmp_path: Path, cluster: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of 8 pages, one in flight per worker thread: the walk takes the oldest
    batch as it goes (38 batches, two in flight), and the findings are still those of one process."""
    folder, extra = built_pages(tmp_path)
    one = run(capsys, str(folder), *extra, "--jobs", "1")
    monkeypatch.setattr(folder_walk, "PAGE_BATCH", 8)
    monkeypatch.setattr(workers, "IN_FLIGHT", 1)
    taken = []
    take_oldest = Results.take_oldest

    def counted(results: Results) -> None:
        taken.append(len(results._handed))
        take_oldest(results)

    monkeypatch.setattr(Results, "take_oldest", counted)
    assert run(capsys, str(folder), *extra, "--dask", cluster.scheduler.address) == one
    assert taken[:3] == [3, 3, 3]  # (taken while walking: two in flight at most, then one more handed)


def many_sitemaps(folder: Path) -> tuple[Path, list[str]]:
    """Sitemaps of 300 clusters across three files (broken ones, other spellings, URLs twice)."""
    from tests.test_cluster_shards import _site
    from tests.test_cluster_shards import _write as write_site

    (folder / "site").mkdir()
    write_site(folder / "site", _site(3, 300, 3))
    return folder / "site", []


@pytest.mark.parametrize("name", ["built pages", "sitemaps"])
def test_a_check_on_dask_spilled_past_its_budget_reports_the_same(name: str, tmp_path: Path, cluster: Any,
                                                                  capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Within its budget (pages of 256 bytes, two kept, 55,000 bytes past the least a
    spilled index keeps: every column spills) the check finds what one process finds in
    memory: the client's index where built pages are read, each share's on its worker
    where only sitemaps are."""
    folder, extra = built_pages(tmp_path) if name == "built pages" else many_sitemaps(tmp_path)

    one = run(capsys, str(folder), *extra, "--jobs", "1")
    assert run(capsys, str(folder), *extra, "--dask", cluster.scheduler.address, "--memory-budget", "10M") == one
    spilled = []
    opened = SpillFolder.open

    def open_(folder: SpillFolder, name: str) -> int:
        spilled.append(name)
        return opened(folder, name)

    monkeypatch.setattr(SpillFolder, "open", open_)
    small = Budget(1, page=256, kept=2, block=1024)
    base_urls = extra[1:] if extra else []
    kept = check([str(folder)], now=NOW, jobs=1, base_urls=base_urls, max_per_code=None)
    assert not spilled
    found = check_given([str(folder)], now=NOW, base_urls=base_urls, max_per_code=None, client=cluster,
                        memory_budget=Budget(minimum_budget(small) + 55_000, small.page, small.kept, small.block))
    assert spilled
    assert seen(found) == seen(kept) and found.files == kept.files


def seen(result: Any) -> list[tuple[Any, ...]]:
    """Each finding: code, severity, file, line, column, URL, message, in order."""
    return [(d.code, d.severity, d.file, d.line, d.column, d.url, d.message) for d in result.collector.diagnostics]


@st.composite
def sitemaps(draw: Any) -> list[list[tuple[str, list[tuple[str, str]]]]]:
    """Two to four files of entries (a URL and its alternates), some URLs in two files,
    some alternates without their return link."""
    files: list[list[tuple[str, list[tuple[str, str]]]]] = [[] for _ in range(draw(st.integers(2, 4)))]
    for cluster in range(draw(st.integers(1, 12))):
        codes = draw(st.lists(st.sampled_from(["en", "de", "fr", "x-default"]), min_size=1, max_size=3, unique=True))
        links = [(code, f"{E}/{code}/{cluster}") for code in codes]
        for _, loc in links:
            own = links if draw(st.booleans()) else links[:1]
            for number in draw(st.lists(st.integers(0, len(files) - 1), min_size=1, max_size=2)):
                files[number].append((loc, own))
    return files


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=sitemaps(), shares=st.integers(1, 7))
def test_generated_sitemaps_find_the_same_on_dask(files: list[list[tuple[str, list[tuple[str, str]]]]], shares: int,
                                                  tmp_path_factory: pytest.TempPathFactory, cluster: Any) -> None:
    folder = tmp_path_factory.mktemp("generated")
    paths = [str(write(folder, {f"s{n}.xml": urlset(*(url(loc, *own) for loc, own in entries))}) / f"s{n}.xml")
             for n, entries in enumerate(files)]
    one = check(paths, now=NOW, jobs=1, max_per_code=None)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(on_dask, "SHARES_PER_THREAD", shares)  # (the join across files in 2 to 14 shares)
        patched.setattr(on_dask, "SPLIT_GROUP", 2)
        found = check(paths, now=NOW, max_per_code=None, client=cluster)

    assert seen(found) == seen(one)
    assert found.files == one.files and found.ok == one.ok and found.listed == one.listed


def test_the_join_across_files_runs_on_the_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """On a cluster of worker processes, the client neither adds a file's entries to a
    cluster index nor judges one (both raise here): the workers judge the rules across
    files in shares of the URL keys, and the report is one process's. The folder is given
    relative to the check's working folder, which is not the workers': they read each file by its absolute path, and findings name it
    as the check names it."""
    folder = tmp_path / "both"
    across, _ = across_files(tmp_path / "a")
    index, extra = index_with_parts(tmp_path / "b")
    across.rename(folder)
    index.rename(folder / "b")
    extra = ["--base-url", f"{E}/={folder / 'b'}"]
    made = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    with distributed.Client(made) as client:  # (the workers' working folder another)
        client.run(os.chdir, str(tmp_path / "elsewhere"))
    one = run(capsys, str(folder), *extra, "--jobs", "1")
    assert {d["code"] for d in one[1]["diagnostics"]} >= {"U104", "H104", "X111"}
    assert any(d["file"] == "both/a.xml" for d in one[1]["diagnostics"])

    def not_here(*args: object, **kwargs: object) -> None:
        raise AssertionError("the rules across files run on the client")

    monkeypatch.setattr(ClusterStore, "add", not_here)
    monkeypatch.setattr(ClusterIndex, "finish", not_here)
    try:
        assert run(capsys, str(folder), *extra, "--dask", made.scheduler_address) == one
        assert run(capsys, "both", *extra, "--dask", made.scheduler_address) == one  # (a relative path)
    finally:
        made.close()


def test_the_client_judges_no_file_the_workers_read_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """On a cluster of a worker process, the client's ``check_file`` is never called (it
    raises here): the worker reads and judges every file, the client merges."""
    folder, extra = built_pages(tmp_path)
    one = run(capsys, str(folder), *extra, "--jobs", "1")

    def not_here(*args: object, **kwargs: object) -> None:
        raise AssertionError("a file judged by the client")

    monkeypatch.setattr(workers, "check_file", not_here)
    made = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0")
    try:
        assert run(capsys, str(folder), *extra, "--dask", made.scheduler_address) == one
    finally:
        made.close()


def test_without_dask_installed_dask_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    folder, _ = across_files(tmp_path)
    monkeypatch.setitem(sys.modules, "distributed", None)  # (import distributed: ImportError)
    assert main(["check", str(folder), "--dask"]) == 2
    err = capsys.readouterr().err
    assert "--dask needs dask and distributed" in err and "pip install 'sitemap-ext[dask]'" in err


def test_a_scheduler_that_cannot_be_reached_is_f101_exit_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, _ = across_files(tmp_path)
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{unused.getsockname()[1]}"  # (bound, never listening)
        code, report = run(capsys, str(folder), "--dask", address)
    assert code == 3
    [finding] = report["diagnostics"]
    assert (finding["code"], finding["severity"], finding["file"]) == ("F101", "error", address)
    assert finding["message"].startswith("cannot read the inputs on the Dask cluster: ")
    assert address in finding["message"] and finding["message"].endswith("or check without --dask")


def test_a_check_on_dask_takes_no_urls_nor_standard_input(tmp_path: Path, cluster: Any,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "https://e.com/sitemap.xml", "--dask", cluster.scheduler.address]) == 2
    assert "not URLs: check those without Dask" in capsys.readouterr().err
    with pytest.raises(ValueError, match="not bytes, file objects or standard input"):
        check([b"<urlset/>"], client=cluster)


def test_a_worker_that_dies_is_f101_exit_3_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A worker process that dies while it judges a file, and that Dask gives up on
    (KilledWorker, ``allowed-failures: 0``): F101 at the scheduler's address and exit 3
    on the command line, the same result from check(client=), where it was a traceback."""
    import os

    import dask

    folder, _ = across_files(tmp_path)

    def dying() -> None:
        from sitemap_ext.checker import on_dask

        def work_batch(*args: Any, **kwargs: Any) -> Any:
            os._exit(1)
        on_dask.work_batch = work_batch  # type: ignore[assignment]

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        made = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0")
        try:
            with distributed.Client(made) as client:
                client.run(dying)
                code, report = run(capsys, str(folder), "--dask", made.scheduler_address)
                assert code == 3
                [finding] = report["diagnostics"]
                assert (finding["code"], finding["severity"], finding["file"]) == \
                    ("F101", "error", made.scheduler_address)
                assert "the cluster failed before the check was done (KilledWorker" in finding["message"]
                assert "sitemap-ext-judge-" in finding["message"] and ".xml" in finding["message"]  # (its file)
                client.wait_for_workers(1, timeout=60)  # (the worker Dask starts again in its place)
                client.run(dying)
                result = check([str(folder)], client=client, now=NOW)
                assert [(d.code, d.where.file) for d in result.collector.diagnostics] == \
                    [("F101", made.scheduler_address)]
        finally:
            made.close()


def test_no_more_batches_are_on_the_cluster_than_its_window() -> None:
    """Batches handed over wait on the client, as paths, until earlier ones are taken: at
    most IN_FLIGHT a worker thread are on the cluster (their results in its memory)."""
    from sitemap_ext.checker.judge_file import Options, Task
    from sitemap_ext.checker.on_dask import OnDask

    class Future:
        def __init__(self, name: str) -> None:
            self.name = name

        def result(self) -> Any:
            return ([self.name], None)

    class Client:
        sent: list[str] = []

        def nthreads(self) -> dict[str, int]:
            return {"tcp://worker": 1}

        def scatter(self, values: list[Any], **kwargs: Any) -> list[Any]:
            return values

        def submit(self, function: Any, tasks: list[Task], *args: Any, key: str, **kwargs: Any) -> Future:
            self.sent.append(os.path.basename(tasks[0].path))  # (a worker is given the absolute path)
            return Future(os.path.basename(tasks[0].path))

    client = Client()
    cluster = OnDask(client, {})
    options = Options(registry={})
    pending = [cluster.submit([Task(f"{n}.xml", None, False, None)], options) for n in range(30)]
    assert len(client.sent) == workers.IN_FLIGHT
    assert pending[0].result() == (["0.xml"], None)
    assert len(client.sent) == workers.IN_FLIGHT + 1
    assert pending[20].result() == (["20.xml"], None)  # (taken before its turn: sent then)
    assert [pending[n].result()[0] for n in range(1, 20)] == [[f"{n}.xml"] for n in range(1, 20)]
    assert [pending[n].result()[0] for n in range(21, 30)] == [[f"{n}.xml"] for n in range(21, 30)]
    assert sorted(client.sent, key=lambda name: int(name.partition(".")[0])) == [f"{n}.xml" for n in range(30)]
