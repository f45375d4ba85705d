"""A source that is a folder of parts (``sources: - file: parts/``): Parquet, CSV and
JSON Lines parts read in one order on every machine, building what one CSV of the
same rows builds; each finding placed at its part and row; what is not a part, what
cannot be read and parts that disagree on their columns are coded findings."""

from __future__ import annotations

import os
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from sitemap_ext import build  # noqa: E402
from sitemap_ext.cli import main  # noqa: E402

HEAD = "site:\n  base_url: https://e.com/\n  now: 2026-11-29T00:00:00Z\nsources:\n"
FOLDER = HEAD + "  - file: parts/\n"
KEY = ("site.yaml", 5, 11)  # where the source's file: value stands
COLUMNS = ("loc", "lastmod", "changefreq", "priority")


def rows(count: int) -> list[dict[str, str]]:
    """Pages with every column used, and some cells empty."""
    return [{"loc": f"/p/{k}", "lastmod": f"2026-11-{1 + k % 28:02d}" if k % 3 else "",
             "changefreq": ("daily", "weekly", "")[k % 3], "priority": f"0.{k % 10}" if k % 4 else ""}
            for k in range(count)]


def write_csv(path: Path, part: list[dict[str, str]], columns: tuple[str, ...] = COLUMNS) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    header = dict(zip(columns, columns, strict=True))
    path.write_text("".join(",".join(row[c] for c in columns) + "\n" for row in [header, *part]))


def write_jsonl(path: Path, part: list[dict[str, str]]) -> None:
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps({k: v for k, v in row.items() if v}) + "\n" for row in part))


def write_parquet(path: Path, part: list[dict[str, Any]], row_group_size: int | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist([{k: (v if v != "" else None) for k, v in row.items()} for row in part],
                                 schema=pa.schema([(name, pa.string()) for name in COLUMNS]))
    pq.write_table(table, str(path), row_group_size=row_group_size)


WRITERS = {"csv": write_csv, "jsonl": write_jsonl, "parquet": write_parquet}


def sitemaps(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in sorted(os.listdir(out)) if name.endswith(".xml")}


def built(description: str, out: str = "out") -> tuple[Any, dict[str, bytes]]:
    Path("site.yaml").write_text(description)
    result = build("site.yaml", out)
    return result, sitemaps(Path(out)) if os.path.isdir(out) else {}


def findings(result: Any) -> list[tuple[str, str | None, int | None, int | None]]:
    return [(d.code, d.file, d.line, d.column) for d in result.collector.sorted()]


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_a_folder_of_mixed_parts_builds_the_bytes_one_csv_of_the_same_rows_builds() -> None:
    pages = rows(60)
    write_csv(Path("one.csv"), pages)
    single, expected = built(HEAD + "  - file: one.csv\n", "single")
    write_csv(Path("parts/p-0001.csv"), pages[:20])
    write_jsonl(Path("parts/p-0002.jsonl"), pages[20:35])
    write_parquet(Path("parts/p-0003.parquet"), pages[35:], row_group_size=7)
    result, found = built(FOLDER)
    assert single.ok and result.ok, findings(result)
    assert findings(result) == findings(single) == []
    assert found == expected and b"/p/59</loc>" in found["sitemap.xml"]


def test_a_finding_names_its_part_and_its_row_parquet_rows_counted_from_1_in_the_part() -> None:
    pages = rows(40)
    pages[4]["lastmod"] = "yesterday"  # line 6 of the CSV part (after its header)
    pages[12]["priority"] = "high"  # line 3 of the JSON Lines part
    pages[36]["changefreq"] = "sometimes"  # row 17 of the Parquet part, in its third row group
    write_csv(Path("parts/p-0001.csv"), pages[:10])
    write_jsonl(Path("parts/p-0002.jsonl"), pages[10:20])
    write_parquet(Path("parts/p-0003.parquet"), pages[20:], row_group_size=8)
    result, _ = built(FOLDER)
    assert findings(result) == [("D101", "parts/p-0001.csv", 6, None), ("D105", "parts/p-0002.jsonl", 3, None),
                                ("D104", "parts/p-0003.parquet", 17, None)]
    assert main(["build", "site.yaml", "-o", "cli", "--quiet"]) == 1


def test_without_pyarrow_a_parquet_part_is_s101_at_the_source_saying_which_extra(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    write_csv(Path("parts/p-0001.csv"), rows(3))
    write_parquet(Path("parts/p-0002.parquet"), rows(3))
    for name in [name for name in sys.modules if name == "pyarrow" or name.startswith("pyarrow.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # (an import of it raises ImportError)
    result, found = built(FOLDER)
    assert findings(result) == [("S101", *KEY)] and found == {}
    message = result.collector.sorted()[0].message
    assert "'parquet' extra" in message and "pip install pyarrow" in message and "parts/p-0002.parquet" in message
    Path("site.yaml").write_text(HEAD + "  - file: parts/p-0002.parquet\n")
    assert findings(build("site.yaml", "out")) == [("S101", *KEY)]
    assert main(["build", "site.yaml", "-o", "out"]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_parts_are_read_in_the_byte_order_of_their_paths_in_the_folder() -> None:
    # Listed by the walk: a folder's files before its folders; by bytes, 'a/' before
    # 'b', 'B' before 'a' and 'z' before 'é' (U+00E9: 0xC3 0xA9).
    names = ["b.csv", "a/x.csv", "B.jsonl", "z.csv", "é.csv", "a/y/1.parquet", "a.csv"]
    for k, name in enumerate(names):
        WRITERS[name.rsplit(".", 1)[1]](Path("parts", name), [{"loc": f"/{k}", "lastmod": "", "changefreq": "",
                                                               "priority": ""}])
    result, found = built(FOLDER)
    assert result.ok, findings(result)
    ordered = sorted(names, key=lambda name: name.encode())
    assert ordered == ["B.jsonl", "a.csv", "a/x.csv", "a/y/1.parquet", "b.csv", "z.csv", "é.csv"]
    text = found["sitemap.xml"].decode()
    positions = [text.index(f"https://e.com/{names.index(name)}</loc>") for name in ordered]
    assert positions == sorted(positions)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.integers(0, 30), max_size=6), kinds=st.lists(st.sampled_from(sorted(WRITERS)), min_size=7,
                                                                     max_size=7))
def test_any_split_of_the_rows_into_parts_builds_what_the_rows_unsplit_build(
        tmp_path: Path, cuts: list[int], kinds: list[str]) -> None:
    import shutil

    pages = rows(30)
    os.chdir(tmp_path)
    if not Path("single").exists():
        write_csv(Path("one.csv"), pages)
        built(HEAD + "  - file: one.csv\n", "single")
    expected = sitemaps(Path("single"))
    shutil.rmtree("parts", ignore_errors=True)
    bounds = [0, *sorted(cuts), len(pages)]
    for k, (start, stop) in enumerate(pairwise(bounds)):
        WRITERS[kinds[k]](Path(f"parts/part-{k:02d}.{kinds[k]}"), pages[start:stop])
    result, found = built(FOLDER)
    assert findings(result) == [] and found == expected


def test_hidden_underscored_and_empty_parts_give_no_rows_and_no_finding() -> None:
    write_csv(Path("parts/p-1.csv"), rows(2))
    for name in ("_SUCCESS", "_metadata", ".p-1.csv.crc", ".DS_Store", "_tmp/p-9.csv", ".hidden/p-8.csv"):
        Path("parts", name).parent.mkdir(parents=True, exist_ok=True)
        Path("parts", name).write_text("loc\n/never\n")
    Path("parts/p-2.csv").write_bytes(b"")
    Path("parts/p-3.jsonl").write_bytes(b"")
    result, found = built(FOLDER)
    assert result.ok and findings(result) == []
    assert b"/never" not in found["sitemap.xml"] and found["sitemap.xml"].count(b"<loc>") == 2


def test_a_part_of_an_unknown_name_is_s107_at_the_source_and_left_out() -> None:
    write_csv(Path("parts/p-1.csv"), rows(2))
    Path("parts/part-00001").write_text("loc\n/p\n")  # (Hadoop's text output: no extension)
    Path("parts/p-2.parquet.gz").write_bytes(b"")
    result, _ = built(FOLDER)
    assert findings(result) == [("S107", *KEY), ("S107", *KEY)]
    assert "part 'parts/part-00001'" in result.collector.sorted()[1].message


def test_a_part_linked_from_outside_the_descriptions_folder_is_s108_and_a_link_inside_is_read(
        tmp_path: Path) -> None:
    outside = tmp_path / "exports"
    write_csv(outside / "p-9.csv", rows(1))
    site = tmp_path / "site"
    write_csv(site / "shared.csv", [{"loc": "/shared", "lastmod": "", "changefreq": "", "priority": ""}])
    write_csv(site / "parts" / "p-1.csv", rows(2))
    os.symlink(outside / "p-9.csv", site / "parts" / "p-9.csv")
    os.symlink(site / "shared.csv", site / "parts" / "p-5.csv")
    os.symlink(outside, site / "parts" / "linked")  # (a folder reached by a link is no folder of parts)
    os.chdir(site)
    result, _ = built(FOLDER)
    assert findings(result) == [("S108", *KEY)]
    assert "'parts/p-9.csv'" in result.collector.sorted()[0].message
    os.remove("parts/p-9.csv")
    result, found = built(FOLDER)
    assert result.ok and b"/shared</loc>" in found["sitemap.xml"]


def test_a_part_whose_columns_differ_from_the_first_parts_is_s111_naming_them() -> None:
    pages = rows(8)
    write_csv(Path("parts/p-1.csv"), pages[:2])
    write_csv(Path("parts/p-2.csv"), pages[2:4], ("priority", "loc", "lastmod", "changefreq"))  # (order is free)
    write_jsonl(Path("parts/p-3.jsonl"), pages[4:6])  # (JSON Lines rows name their own fields)
    write_csv(Path("parts/p-4.csv"), pages[6:], ("loc", "lastmod"))
    table = pa.Table.from_pylist([{"loc": "/x", "lastmod": "2026-11-01", "images": "/i.png"}])
    pq.write_table(table, "parts/p-5.parquet")
    result, _ = built(FOLDER)
    assert findings(result) == [("S111", "parts/p-4.csv", 1, None), ("S111", "parts/p-5.parquet", None, None)]
    messages = [d.message for d in result.collector.sorted()]
    assert "parts/p-1.csv (without changefreq, priority)" in messages[0]
    assert "(without changefreq, priority; with images)" in messages[1]


def test_an_empty_folder_format_on_a_folder_and_a_folder_of_too_many_parts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    Path("parts").mkdir()
    Path("parts/_SUCCESS").write_text("")
    result, _ = built(FOLDER)
    assert findings(result) == [("S101", *KEY)] and "holds no part" in result.collector.sorted()[0].message
    result, _ = built(FOLDER + "    format: csv\n")
    assert findings(result) == [("C103", "site.yaml", 6, 13)]
    import sitemap_ext.read.parts as parts

    write_csv(Path("parts/p-1.csv"), rows(1))
    write_csv(Path("parts/p-2.csv"), rows(1))
    monkeypatch.setattr(parts, "MAX_SOURCE_PARTS", 1)
    result, _ = built(FOLDER)
    assert findings(result) == [("S101", *KEY)] and "more than 100,000 parts" in result.collector.sorted()[0].message


def test_a_parquet_part_that_is_no_parquet_or_whose_row_groups_are_too_large_is_s101_at_the_part(
        monkeypatch: pytest.MonkeyPatch) -> None:
    write_csv(Path("parts/p-1.csv"), rows(2))
    Path("parts/p-2.parquet").write_text("loc\n/p\n/q\n/r\n")
    result, _ = built(FOLDER)
    assert findings(result) == [("S101", "parts/p-2.parquet", None, None)]
    assert "PAR1" in result.collector.sorted()[0].message
    import sitemap_ext.read.parquet as parquet

    write_parquet(Path("parts/p-2.parquet"), rows(20), row_group_size=5)
    monkeypatch.setattr(parquet, "MAX_PARQUET_ROW_GROUP", 100)
    result, _ = built(FOLDER)
    assert findings(result) == [("S101", "parts/p-2.parquet", 1, None)]
    assert "write smaller row groups" in result.collector.sorted()[0].message


def test_a_parquet_file_is_a_source_and_typed_columns_mean_what_their_text_means() -> None:
    import datetime

    write_csv(Path("one.csv"), [{"loc": "/a", "lastmod": "2026-11-01T10:00:00+00:00", "changefreq": "daily",
                                 "priority": "0.5"}, {"loc": "/b", "lastmod": "2026-11-02T00:00:00+00:00",
                                                      "changefreq": "", "priority": "1.0"}])
    single, expected = built(HEAD + "  - file: one.csv\n", "single")
    utc = datetime.timezone.utc
    table = pa.table({"loc": ["/a", "/b"], "priority": pa.array([0.5, 1.0]),
                      "lastmod": pa.array([datetime.datetime(2026, 11, 1, 10, tzinfo=utc),
                                           datetime.datetime(2026, 11, 2, tzinfo=utc)], pa.timestamp("s", tz="UTC")),
                      "changefreq": ["daily", None]})
    pq.write_table(table, "pages.parquet")
    result, found = built(HEAD + "  - file: pages.parquet\n")
    assert single.ok and findings(result) == []
    assert found == expected and b"2026-11-01T10:00:00+00:00" in found["sitemap.xml"]


@pytest.mark.parametrize(("columns", "expected"), [
    ({"lastmod": ["2026-11-01"]}, [("S105", "pages.parquet", None, None)]),
    ({"loc": ["/a"], "path": ["/b"]}, [("C111", "pages.parquet", None, None)]),
    ({"loc": ["/a"], "owner": ["me"], "notes": ["x"]}, [("S104", "pages.parquet", None, None)] * 2),
])
def test_a_parquet_schema_is_judged_as_a_csv_header_once_at_the_file(
        columns: dict[str, list[str]], expected: list[tuple[str, str, None, None]]) -> None:
    pq.write_table(pa.table(columns), "pages.parquet")
    result, _ = built(HEAD + "  - file: pages.parquet\n")
    assert findings(result) == expected
    assert all("CSV" not in d.message for d in result.collector.sorted())


def test_a_build_without_parquet_loads_nothing_of_pyarrow_and_a_build_of_files_nothing_of_parts() -> None:
    import subprocess

    write_csv(Path("parts/p-1.csv"), rows(2))
    write_jsonl(Path("parts/p-2.jsonl"), rows(4)[2:])
    write_csv(Path("one.csv"), rows(2))
    Path("folder.yaml").write_text(FOLDER)
    Path("file.yaml").write_text(HEAD + "  - file: one.csv\n")
    code = ("import sys\nfrom sitemap_ext.cli import main\n"
            "assert main(['build', sys.argv[1], '-o', sys.argv[1] + '.out', '-q']) == 0\n"
            "print(' '.join(sorted(sys.modules)))\n")
    for description, absent in (("folder.yaml", ("pyarrow", "sitemap_ext.read.parquet")),
                                ("file.yaml", ("pyarrow", "sitemap_ext.read.parquet", "sitemap_ext.read.parts"))):
        loaded = subprocess.run([sys.executable, "-c", code, description], capture_output=True, text=True,
                                check=True).stdout.split()
        assert "sitemap_ext.write.build" in loaded
        assert [name for name in loaded if name.partition(".")[0] in absent or name in absent] == []


def test_a_parquet_source_counts_its_bytes_for_progress_as_its_batches_are_read() -> None:
    from sitemap_ext.codes import REGISTRY
    from sitemap_ext.diagnostics import Collector
    from sitemap_ext.read.sources import SourceReader

    write_parquet(Path("pages.parquet"), rows(9000), row_group_size=2500)
    meter = [0]
    reader = SourceReader("pages.parquet", "pages.parquet", "parquet", Collector(REGISTRY), lambda _name: True, meter)
    counts = []
    for _, row in reader:
        if row % 4096 == 1 and row > 1:  # (a batch's bytes are counted once its rows are out)
            counts.append(meter[0])
    assert len(counts) == 2 and 0 < counts[0] < counts[1] < os.path.getsize("pages.parquet")
    assert meter[0] == os.path.getsize("pages.parquet") and reader.columns == list(COLUMNS)


# --- partitions a program gives: build(site, pages=[...]) --------------------------------

SITE = "site:\n  base_url: https://e.com/\n  now: 2026-11-29T00:00:00Z\n"


def test_partitions_given_as_pages_build_the_bytes_one_csv_of_the_same_rows_builds() -> None:
    pandas = pytest.importorskip("pandas")
    pages = rows(50)
    write_csv(Path("one.csv"), pages)
    _, expected = built(HEAD + "  - file: one.csv\n", "single")
    Path("site.yaml").write_text(SITE)
    nulls = [{k: (v if v != "" else None) for k, v in row.items()} for row in pages]
    given = [pa.Table.from_pylist(nulls[:10]), pa.RecordBatch.from_pylist(nulls[10:25]),
             pandas.DataFrame(nulls[25:40]), pandas.DataFrame(pages[40:])]  # (an empty cell is no value too)
    result = build("site.yaml", "frames", pages=iter(given))
    assert result.ok and findings(result) == []
    assert sitemaps(Path("frames")) == expected


def test_a_partitions_findings_name_it_by_its_place_and_its_rows_from_1() -> None:
    pages = rows(12)
    pages[6]["lastmod"] = "yesterday"
    Path("site.yaml").write_text(SITE)
    frame = pa.Table.from_pylist([{**row, "owner": "me"} for row in pages[4:]])
    result = build("site.yaml", "out", pages=[{"loc": "/home"}, pa.Table.from_pylist(pages[:4]), frame])
    assert findings(result) == [("S104", "<partition 3>", None, None), ("D101", "<partition 3>", 3, None)]
    with pytest.raises(TypeError, match="item 2 is int"):
        build("site.yaml", "out", pages=[{"loc": "/home"}, 7])


def test_a_dataframe_without_pyarrow_or_of_mixed_columns_is_s101_at_the_partition(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pandas = pytest.importorskip("pandas")
    Path("site.yaml").write_text(SITE)
    mixed = pandas.DataFrame({"loc": ["/a", "/b"], "priority": ["0.5", 0.25]})  # (an object column of two types)
    result = build("site.yaml", "out", pages=[pandas.DataFrame({"loc": ["/a"]}), mixed])
    assert findings(result) == [("S101", "<partition 2>", None, None)]
    for name in [name for name in sys.modules if name == "pyarrow" or name.startswith("pyarrow.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    result = build("site.yaml", "out", pages=[pandas.DataFrame({"loc": ["/a"]})])
    assert findings(result) == [("S101", "<partition 1>", None, None)]
    assert "pip install pyarrow" in result.collector.sorted()[0].message


def test_an_unknown_column_in_every_part_is_said_once_for_the_source() -> None:
    """S104 is said once a source: a folder of parts that all carry one column that is
    no page field gives one warning, at the first part's header, not one a part (a
    thousand parts gave a thousand); two sources each say it once."""
    import json

    pages = [{**page, "sku": f"S-{n}"} for n, page in enumerate(rows(8))]
    for number in range(3):
        write_csv(Path(f"parts/p-{number}.csv"), pages[2 * number:2 * number + 2], (*COLUMNS, "sku"))
    Path("parts/p-3.jsonl").write_text("".join(json.dumps(row) + "\n" for row in pages[6:]))
    write_csv(Path("more.csv"), [{**page, "loc": page["loc"] + "-more"} for page in pages[:2]], (*COLUMNS, "sku"))
    result, _ = built(FOLDER + "  - file: more.csv\n")
    assert findings(result) == [("S104", "more.csv", 1, None), ("S104", "parts/p-0.csv", 1, None)]
    assert all("column 'sku' is not a page field" in d.message for d in result.collector.sorted())
