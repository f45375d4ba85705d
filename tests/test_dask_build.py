"""The build on a Dask cluster (``build(client=)``, ``pages=<Dask DataFrame>``,
``build --dask``): for the same rows, the same entries (every URL with its lastmod,
alternates and media, byte for byte) and the same findings (code, severity, URL, place)
as the one-machine build; for the same rows and partitions, the same bytes every run;
repeats across partitions found by the shuffle; the index tree past the sitemaps an
index may list; the output folder whole when a build fails. One in-process cluster of
one worker (two threads) serves every test: CI stays fast."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from lxml import etree  # noqa: E402

from sitemap_ext import build  # noqa: E402
from sitemap_ext.cli import main  # noqa: E402
from sitemap_ext.dask_build import index_tree  # noqa: E402
from sitemap_ext.dask_build.partition import build_partition  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NOW = "2026-11-29T00:00:00Z"
TWO = ("site:\n  base_url: https://e.com/\nlocales:\n  en: /en/\n  de: /de/\n"
       "output:\n  max_urls: 3\n  robots: robots.txt\n")
ONE = "site:\n  base_url: https://e.com/\noutput:\n  max_urls: 4\n"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def entries(out: Path) -> dict[str, bytes]:
    """Every <url> of the output's urlsets, canonical XML, by its loc (none twice)."""
    found: dict[str, bytes] = {}
    for path in sorted(out.rglob("*.xml*")):
        data = path.read_bytes()
        data = gzip.decompress(data) if path.name.endswith(".gz") else data
        root = etree.fromstring(data)
        if root.tag != f"{SM}urlset":
            continue
        for url in root.iter(f"{SM}url"):
            loc = url.findtext(f"{SM}loc")
            assert loc is not None and loc not in found
            found[loc] = etree.tostring(url, method="c14n", exclusive=True)  # (the file's unused namespaces left out)
    return found


def findings(result: Any, out: Path) -> list[tuple[Any, ...]]:
    """code, severity, URL and place of each finding; a place in the output folder (the
    files are cut differently) as the folder."""
    made = []
    for d in result.collector.diagnostics:
        place = "OUT" if d.file and str(d.file).startswith(str(out)) else (d.file, d.line)
        made.append((d.code, d.severity.value if hasattr(d.severity, "value") else d.severity, d.url, place))
    return sorted(made, key=repr)


def files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()
            and not p.name.startswith(".")}


def frame(rows: list[dict[str, str]]) -> Any:
    return pd.DataFrame(rows, columns=["path", "lastmod", "image"]).replace("", None)


def both(tmp: Path, yaml: str, rows: list[dict[str, str]], parts: int, client: Any) -> tuple[Any, Any, Path, Path]:
    """The same rows built on one machine (``pages=[frame_1, ...]``) and on Dask."""
    (tmp / "site.yaml").write_text(yaml)
    ddf = dd.from_pandas(frame(rows), npartitions=parts, sort=False)
    pieces = [ddf.get_partition(k).compute() for k in range(ddf.npartitions)]
    one = build(str(tmp / "site.yaml"), str(tmp / "one"), pages=pieces, now=NOW, max_per_code=None)
    many = build(str(tmp / "site.yaml"), str(tmp / "dask"), pages=ddf, client=client, now=NOW, max_per_code=None)
    return one, many, tmp / "one", tmp / "dask"


ROWS = [{"path": "/a", "lastmod": "2026-01-02", "image": "https://e.com/a.png"},
        {"path": "/b", "lastmod": "2026-13-01", "image": ""},
        {"path": "/c", "lastmod": "", "image": ""},
        {"path": "/a", "lastmod": "2026-01-03", "image": ""},  # a repeat of partition 1's
        {"path": "/d", "lastmod": "2026-01-04", "image": ""},
        {"path": "/%7Ee", "lastmod": "", "image": ""},
        {"path": "/~e", "lastmod": "", "image": ""},  # one URL spelt two ways, across partitions
        {"path": "/b", "lastmod": "", "image": ""}]


def test_the_dask_build_gives_the_one_machine_builds_entries_and_findings(tmp_path: Path, client: Any) -> None:
    one, many, out_one, out_dask = both(tmp_path, TWO, ROWS, 4, client)
    assert one.urls == many.urls == 10
    assert entries(out_dask) == entries(out_one)
    assert findings(many, out_dask) == findings(one, out_one)
    codes = {(d.code, d.file, d.line, d.url) for d in many.collector.diagnostics}
    assert ("U104", "<partition 2>", 2, "https://e.com/en/a") in codes  # found across partitions, at its row
    assert ("U104", "<partition 4>", 1, "https://e.com/en/~e") in codes
    assert ("U104", "<partition 4>", 2, "https://e.com/en/b") in codes
    assert "D101" in {d.code for d in many.collector.diagnostics}  # the bad date, judged as on one machine


def test_the_files_are_named_per_partition_indexed_and_committed(tmp_path: Path, client: Any) -> None:
    rows = [dict(row, lastmod="2026-01-05") for row in ROWS]
    _, many, _, out = both(tmp_path, TWO, rows, 4, client)
    assert many.ok
    names = [f.name for f in many.files]
    assert names == ["sitemap-p00001-1.xml", "sitemap-p00001-2.xml", "sitemap-p00002-1.xml",
                     "sitemap-p00003-1.xml", "sitemap-p00003-2.xml", "sitemap.xml", "robots.txt"]
    # (partition 4 repeats URLs of partitions 1 and 3 only: nothing of its own to write)
    assert (out / "robots.txt").read_text() == "Sitemap: https://e.com/sitemap.xml\n"
    index = etree.fromstring((out / "sitemap.xml").read_bytes())
    assert [loc.text for loc in index.iter(f"{SM}loc")] == [f"https://e.com/{n}" for n in names[:5]]
    assert not [p for p in os.listdir(out) if p.startswith(".sitemap-ext-stage")]


def test_the_same_rows_and_partitions_give_the_same_bytes_every_run(tmp_path: Path, client: Any) -> None:
    (tmp_path / "site.yaml").write_text(TWO.replace("robots: robots.txt", "gzip: true"))
    ddf = dd.from_pandas(frame(ROWS * 3), npartitions=3, sort=False)
    runs = []
    for run in ("a", "b"):
        result = build(str(tmp_path / "site.yaml"), str(tmp_path / run), pages=ddf, client=client, now=NOW)
        assert result.urls > 0
        runs.append(files(tmp_path / run))
    assert runs[0] == runs[1]


def test_past_the_sitemaps_one_index_lists_the_client_writes_several(tmp_path: Path, client: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_tree, "MAX_SITEMAPS_PER_INDEX", 2)
    (tmp_path / "site.yaml").write_text(ONE.replace("max_urls: 4", "max_urls: 1\n  robots: robots.txt"))
    rows = [{"path": f"/{k}", "lastmod": "", "image": ""} for k in range(5)]
    result = build(str(tmp_path / "site.yaml"), str(tmp_path / "out"), pages=dd.from_pandas(frame(rows), 2),
                   client=client, now=NOW)
    indexes = [f.name for f in result.files if f.kind == "index"]
    assert indexes == ["sitemap-index-1.xml", "sitemap-index-2.xml", "sitemap-index-3.xml"]
    assert (tmp_path / "out" / "robots.txt").read_text() == "".join(
        f"Sitemap: https://e.com/{name}\n" for name in indexes)
    listed = [etree.fromstring((tmp_path / "out" / name).read_bytes()).findall(f"{SM}sitemap") for name in indexes]
    assert [len(one) for one in listed] == [2, 2, 1]


def test_a_failed_build_leaves_the_old_output_whole(tmp_path: Path, client: Any) -> None:
    (tmp_path / "site.yaml").write_text(ONE)
    good = [{"path": f"/{k}", "lastmod": "", "image": ""} for k in range(6)]
    first = build(str(tmp_path / "site.yaml"), str(tmp_path / "out"), pages=dd.from_pandas(frame(good), 2),
                  client=client, now=NOW)
    assert first.ok
    before = files(tmp_path / "out")
    bad = good + [{"path": "https://other.example/x", "lastmod": "", "image": ""}]  # an error: another host
    second = build(str(tmp_path / "site.yaml"), str(tmp_path / "out"), pages=dd.from_pandas(frame(bad), 3),
                   client=client, now=NOW)
    assert not second.ok and second.files == []
    assert files(tmp_path / "out") == before


def test_a_worker_that_cannot_write_fails_the_build_and_changes_nothing(tmp_path: Path, client: Any,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from sitemap_ext.dask_build import driver

    (tmp_path / "site.yaml").write_text(ONE)
    rows = [{"path": f"/{k}", "lastmod": "", "image": ""} for k in range(6)]
    assert build(str(tmp_path / "site.yaml"), str(tmp_path / "out"), pages=dd.from_pandas(frame(rows), 2),
                 client=client, now=NOW).ok
    before = files(tmp_path / "out")

    def full(*args: Any, **kwargs: Any) -> Any:
        if args[2] == 2:
            raise OSError(28, "No space left on device")
        return build_partition(*args, **kwargs)
    monkeypatch.setattr(driver, "build_partition", full)
    result = build(str(tmp_path / "site.yaml"), str(tmp_path / "out"), pages=dd.from_pandas(frame(rows[:4]), 2),
                   client=client, now=NOW)
    assert [d.code for d in result.collector.diagnostics] == ["F102"]
    assert files(tmp_path / "out") == before
    assert not [p for p in os.listdir(tmp_path / "out") if p.startswith(".sitemap-ext-stage")]


def test_a_parquet_folder_builds_on_dask_as_on_one_machine(tmp_path: Path, client: Any,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``build site.yaml --dask SCHEDULER`` over a folder of Parquet parts: a part a
    partition, named and placed as the one-machine build names its rows."""
    parts = tmp_path / "parts"
    parts.mkdir()
    for k, chunk in enumerate((ROWS[:3], ROWS[3:6], ROWS[6:])):
        table = pa.Table.from_pylist([{"path": r["path"], "lastmod": "2026-01-01"} for r in chunk])
        pq.write_table(table, str(parts / f"part-{k}.parquet"))
    (tmp_path / "site.yaml").write_text(TWO + "sources:\n  - file: parts/\n")
    one = build(str(tmp_path / "site.yaml"), str(tmp_path / "one"), now=NOW)
    assert main(["build", str(tmp_path / "site.yaml"), "-o", str(tmp_path / "dask"), "--now", NOW, "--format",
                 "json", "--dask", client.scheduler.address]) == 0  # (U104: warnings)
    many = build(str(tmp_path / "site.yaml"), str(tmp_path / "again"), client=client, now=NOW)
    assert entries(tmp_path / "dask") == entries(tmp_path / "one") == entries(tmp_path / "again")
    assert findings(many, tmp_path / "again") == findings(one, tmp_path / "one")
    assert ("U104", "warning", "https://e.com/en/a", ("parts/part-1.parquet", 1)) in \
        findings(many, tmp_path / "again")
    assert '"code": "U104"' in capsys.readouterr().out
    assert (tmp_path / "dask" / "robots.txt").read_text() == "Sitemap: https://e.com/sitemap.xml\n"


def test_the_cli_says_what_a_build_on_dask_does_not_do(tmp_path: Path, client: Any,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "site.yaml").write_text(ONE.replace("max_urls: 4", "text: true") + "pages:\n  - path: /a\n")
    assert main(["build", str(tmp_path / "site.yaml"), "-o", str(tmp_path / "out"), "--now", NOW, "-q",
                 "--dask", client.scheduler.address]) == 2
    assert "does not support output.text" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_plain_build_loads_no_dask(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text(ONE + "pages:\n  - path: /a\n")
    code = ("from sitemap_ext import build\nfrom sitemap_ext.cli import main\n"
            "assert main(['build', 'site.yaml', '-o', 'out', '-q']) == 0\n"
            "assert build('site.yaml', 'out2').ok\nimport sys\n"
            "print(' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    loaded = done.stdout.split()
    assert [name for name in loaded if name.split(".")[0] in ("dask", "distributed", "sitemap_ext.dask_build")] == []
    assert not [name for name in loaded if name.startswith("sitemap_ext.dask_build")]


PATHS = st.sampled_from(["/a", "/b", "/c", "/%7Ed", "/~d", "/e/", "/f?x=1"])
ROW = st.fixed_dictionaries({"path": PATHS, "lastmod": st.sampled_from(["", "2026-01-02", "2026-02-30"]),
                             "image": st.sampled_from(["", "https://e.com/i.png"])})


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(ROW, min_size=1, max_size=14), parts=st.integers(1, 4), yaml=st.sampled_from([ONE, TWO]))
def test_random_rows_and_partitions_give_what_one_machine_gives(tmp_path_factory: pytest.TempPathFactory,
                                                                 client: Any, rows: list[dict[str, str]], parts: int,
                                                                 yaml: str) -> None:
    tmp = tmp_path_factory.mktemp("random")
    one, many, out_one, out_dask = both(tmp, yaml, rows, parts, client)
    assert many.urls == one.urls
    assert many.ok == one.ok
    assert findings(many, out_dask) == findings(one, out_one)
    if one.ok:
        assert entries(out_dask) == entries(out_one)


def test_process_workers_build_what_one_machine_builds_with_a_stylesheet(tmp_path: Path) -> None:
    """Two worker processes (the site and the partitions pickled to them); output.xsl:
    every partition's file names the stylesheet, written once by the client."""
    yaml = TWO.replace("robots: robots.txt", "xsl: true\n  html: false")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    try:
        with distributed.Client(cluster) as procs:
            one, many, out_one, out_dask = both(tmp_path, yaml, [dict(r, lastmod="2026-01-05") for r in ROWS], 3,
                                                procs)
    finally:
        cluster.close()
    assert many.ok and one.ok
    assert entries(out_dask) == entries(out_one)
    assert findings(many, out_dask) == findings(one, out_one)
    heads = {p.read_bytes().split(b"<urlset")[0] for p in out_dask.glob("sitemap-p*.xml")}
    assert heads == {(out_one / "sitemap-1.xml").read_bytes().split(b"<urlset")[0]}
    assert b"sitemap.xsl" in heads.pop()
    assert (out_dask / "sitemap.xsl").read_bytes() == (out_one / "sitemap.xsl").read_bytes()


@pytest.mark.parametrize("options,error", [({"allow_read": "docs"}, TypeError), ({"jobs": 2}, TypeError),
                                           ({"gzip": "yes"}, TypeError)])
def test_a_build_on_dask_checks_its_arguments_as_a_build_here_does(tmp_path: Path, options: dict[str, Any],
                                                                    error: type[Exception]) -> None:
    """build(client=) takes build()'s arguments with build()'s checks, before any cluster
    is asked: allow_read='docs' is no list of folders (it was taken as 'd', 'o', 'c', 's')."""
    from sitemap_ext import build

    site = tmp_path / "site.yaml"
    site.write_text("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n", encoding="utf-8")
    with pytest.raises(error):
        build(str(site), str(tmp_path / "out"), client=object(), **options)
    assert not (tmp_path / "out").exists()


@pytest.fixture
def fragile(tmp_path: Path) -> Iterator[tuple[Any, Path, dict[str, bytes]]]:
    """A cluster of one worker process that Dask gives up on at its first death
    (``allowed-failures: 0``), and an output folder it built once (its files)."""
    import dask

    (tmp_path / "site.yaml").write_text(ONE + "pages:\n  - path: /a\n  - path: /b\n")
    settings = {"distributed.scheduler.allowed-failures": 0, "distributed.comm.timeouts.connect": "3s"}
    with dask.config.set(settings):  # (3s: a client whose scheduler went closes soon)
        cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                           dashboard_address=":0")
        try:
            with distributed.Client(cluster) as made:
                assert build(str(tmp_path / "site.yaml"), str(tmp_path / "out"), client=made, now=NOW).ok
                yield made, tmp_path, files(tmp_path / "out")
        finally:
            cluster.close()


def _failed_on_the_cli(tmp: Path, address: str, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    import json

    code = main(["build", str(tmp / "site.yaml"), "-o", str(tmp / "out"), "--now", NOW, "--format", "json",
                 "--dask", address])
    assert code == 3
    return [{k: d[k] for k in ("code", "severity", "file")} | {"message": d["message"]}
            for d in json.loads(capsys.readouterr().out)["diagnostics"]]


def test_a_worker_that_dies_is_f102_exit_3_and_the_old_output_whole(fragile: tuple[Any, Path, dict[str, bytes]],
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A partition whose worker process dies (its build calls os._exit), and that Dask
    gives up on (KilledWorker): a finding and exit code 3, not a traceback; nothing committed."""
    made, tmp, before = fragile

    def dying() -> None:
        from sitemap_ext.dask_build import driver, partition

        def build_partition(*args: Any, **kwargs: Any) -> Any:
            os._exit(1)
        driver.build_partition = partition.build_partition = build_partition  # type: ignore[assignment]
    made.run(dying)
    found = _failed_on_the_cli(tmp, made.scheduler.address, capsys)
    assert [(d["code"], d["severity"], d["file"]) for d in found] == [("F102", "error", str(tmp / "out"))]
    assert "the Dask cluster failed before the build was done (KilledWorker" in found[0]["message"]
    assert "the old output is whole" in found[0]["message"]
    assert files(tmp / "out") == before
    assert not [p for p in os.listdir(tmp / "out") if p.startswith(".sitemap-ext-stage")]


def test_a_scheduler_lost_mid_build_is_f102_exit_3_and_the_old_output_whole(
        fragile: tuple[Any, Path, dict[str, bytes]], capsys: pytest.CaptureFixture[str]) -> None:
    """The scheduler closed while a partition is being built: the client's connection
    lost, a finding and exit code 3 (not a traceback, not a wait without end)."""
    import threading
    import time

    made, tmp, before = fragile

    def slow() -> None:
        from sitemap_ext.dask_build import driver, partition

        def build_partition(*args: Any, **kwargs: Any) -> Any:
            time.sleep(30)
        driver.build_partition = partition.build_partition = build_partition  # type: ignore[assignment]
    made.run(slow)
    cluster = made.cluster
    closing = threading.Timer(3, lambda: cluster.sync(cluster.scheduler.close))  # (the scheduler only)
    closing.start()
    started = time.monotonic()
    try:
        found = _failed_on_the_cli(tmp, made.scheduler.address, capsys)
    finally:
        closing.join()
    assert time.monotonic() - started < 40
    assert [(d["code"], d["severity"], d["file"]) for d in found] == [("F102", "error", str(tmp / "out"))]
    assert "the Dask cluster failed before the build was done" in found[0]["message"]
    assert files(tmp / "out") == before
    assert not [p for p in os.listdir(tmp / "out") if p.startswith(".sitemap-ext-stage")]
