"""The surfaces added in 0.5, attacked as a stranger would: Parquet sources and folders
of parts, a lastmod per version, the placing pass and H104's second read, the Django
middleware, the Action's check script, and the rule catalogue's examples. Each test
names the promise it holds: a coded diagnostic at its place (exit 1) or a clear error
(exit 3), never a traceback; every read bounded; nothing touched outside what was named."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_ext.cli import main
from sitemap_ext.limits import MAX_CATALOGUE_BYTES
from sitemap_ext.rules import examples as catalogue_examples

# --- the rule catalogue (sitemap-ext rules CODE, the docs-site hook) -----------------

@pytest.fixture
def catalogue_at(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """The catalogue looked for at a path of the test's (nothing there yet)."""
    path = tmp_path / "rules.md"
    monkeypatch.setattr(catalogue_examples, "catalogue", lambda: path)
    catalogue_examples.examples.cache_clear()
    yield path
    catalogue_examples.examples.cache_clear()


def _fill(path: Path, how: str) -> None:
    if how == "oversized":
        path.write_bytes(b"#" * (MAX_CATALOGUE_BYTES + 1))
    elif how == "not utf-8":
        path.write_bytes(b"# Rule catalogue \xff\xfe\n")
    elif how == "a folder":
        path.mkdir()
    elif how == "a fifo":
        os.mkfifo(path)
    elif how == "unclosed":
        path.write_text("## Examples\n\n```yaml example X101\nfailing: x\n", encoding="utf-8")


@pytest.mark.parametrize("how", ["missing", "oversized", "not utf-8", "a folder", "a fifo", "unclosed"])
def test_rules_with_a_catalogue_that_cannot_be_read_is_a_clear_error(
        catalogue_at: Path, how: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A catalogue missing, past MAX_CATALOGUE_BYTES, not UTF-8, a folder, a FIFO (never
    waited on) or with a block never closed: exit 3 and one line naming the catalogue,
    no traceback (before: FileNotFoundError, safeio.Refused, UnicodeDecodeError...)."""
    _fill(catalogue_at, how)
    assert main(["rules", "X101"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("sitemap-ext rules: ") and "Traceback" not in err, err
    assert str(catalogue_at) in err or "catalogue" in err
    assert main(["rules"]) == 0  # the list of codes does not need the examples


# --- Parquet sources and partitions ---------------------------------------------------

HEAD = "site:\n  base_url: https://e.com/\n  now: 2026-11-29T00:00:00Z\nsources:\n  - file: p.parquet\n"


def _far_dates() -> dict[str, object]:
    """Dates and times pyarrow stores that Python's datetime cannot hold (past year 9999),
    and a string column of bytes that are no UTF-8 (a lone surrogate's, 0xff)."""
    pa = pytest.importorskip("pyarrow")
    offsets = pa.py_buffer(pa.array([0, 5, 8], pa.int32()).buffers()[1].to_pybytes())
    return {"timestamp": pa.array([1, 2**62], pa.timestamp("us")),
            "date": pa.array([1, 2**30], pa.date32()),
            "no utf-8": pa.Array.from_buffers(pa.string(), 2, [None, offsets, pa.py_buffer(b"/a\xed\xa0\x80/b\xff")])}


@pytest.mark.parametrize("kind", ["timestamp", "date"])
def test_a_parquet_date_past_year_9999_is_s101_at_its_batch_not_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    """pyarrow raises OverflowError (neither OSError nor ValueError) turning such a value
    into Python: the build said a traceback and exit 1; now S101 at the file's first row
    of the batch, exit 1, and no binary "source line" quoted under it."""
    pq = pytest.importorskip("pyarrow.parquet")
    pa = pytest.importorskip("pyarrow")
    monkeypatch.chdir(tmp_path)
    pq.write_table(pa.table({"loc": ["/a", "/b"], "lastmod": _far_dates()[kind]}), "p.parquet")
    Path("site.yaml").write_text(HEAD)
    assert main(["build", "site.yaml", "-o", "out"]) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    assert out.out.splitlines()[0].startswith("p.parquet:1: error S101 Parquet source cannot be read"), out.out
    assert "PAR1" not in out.out  # a Parquet file's row is no line of text to quote
    assert not os.path.exists("out") or not os.listdir("out")  # nothing written


@pytest.mark.parametrize("kind", ["timestamp", "date", "no utf-8"])
def test_a_partition_s_date_past_year_9999_is_s101_at_the_partition(tmp_path: Path, kind: str) -> None:
    """build(pages=[Table]) with such a value: S101 at <partition 1>, row 1 (before:
    OverflowError, UnicodeDecodeError out of build())."""
    pa = pytest.importorskip("pyarrow")
    from sitemap_ext import build

    site = tmp_path / "site.yaml"
    site.write_text("site:\n  base_url: https://e.com/\n  now: 2026-11-29T00:00:00Z\n")
    result = build(str(site), str(tmp_path / "out"),
                   pages=[pa.table({"loc": ["/a", "/b"], "lastmod": _far_dates()[kind]})])
    found = [(d.code, d.file, d.line) for d in result.collector.sorted()]
    assert found == [("S101", "<partition 1>", 1)], found


def test_a_finding_in_a_parquet_row_quotes_no_bytes_of_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A Parquet finding's line is its row: the text report quoted that "line" of the
    binary file (PAR1 and escapes) under it; now it quotes nothing."""
    pq = pytest.importorskip("pyarrow.parquet")
    pa = pytest.importorskip("pyarrow")
    monkeypatch.chdir(tmp_path)
    pq.write_table(pa.table({"loc": ["/a", "/b"], "priority": [float("nan"), 0.5]}), "p.parquet")
    Path("site.yaml").write_text(HEAD)
    assert main(["build", "site.yaml", "-o", "out"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("p.parquet:1: error D105 priority 'nan' must be a number"), lines


# --- the Action's check script ----------------------------------------------------------

RUN_CHECK = Path(__file__).resolve().parent.parent / "action" / "run_check.py"


@pytest.mark.parametrize("sarif", ["../elsewhere.sarif", "{outside}/elsewhere.sarif", "link/elsewhere.sarif"])
def test_a_sarif_path_outside_the_workspace_stops_the_step_and_touches_nothing(tmp_path: Path, sarif: str) -> None:
    """The step removes a report left from before at the SARIF path, then has the tool
    write one there: a path leaving GITHUB_WORKSPACE (.., absolute, through a link) had
    a file outside the workspace deleted and overwritten; now exit 2 and an ::error."""
    import subprocess
    import sys

    workspace, outside = tmp_path / "ws", tmp_path / "outside"
    workspace.mkdir()
    outside.mkdir()
    (workspace / "link").symlink_to(outside)
    victim = (outside / "elsewhere.sarif") if "outside" in sarif or "link" in sarif else tmp_path / "elsewhere.sarif"
    victim.write_text("precious", encoding="utf-8")
    env = {"PATH": os.environ.get("PATH", ""), "GITHUB_WORKSPACE": str(workspace), "CHECK": "public",
           "SARIF": sarif.format(outside=outside), "GITHUB_OUTPUT": str(tmp_path / "output.txt")}
    run = subprocess.run([sys.executable, str(RUN_CHECK)], cwd=workspace, env=env, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert run.stderr.startswith("::error title=sitemap-ext::the input sarif "), run.stderr
    assert "outside the workspace" in run.stderr
    assert victim.read_text(encoding="utf-8") == "precious" and not (tmp_path / "output.txt").exists()


# --- a lastmod per version (and every lastmod): dates at the ends of the calendar -------

EDGE = "9999-12-31T23:59:59-23:59"  # W3C's form; in UTC the year 10000


@given(day=st.sampled_from(["0001-01-01", "9999-12-31"]), hour=st.integers(0, 24), minute=st.integers(0, 59),
       sign=st.sampled_from("+-"), zone_h=st.integers(0, 23), zone_m=st.integers(0, 59))
@settings(max_examples=300, deadline=None)
def test_a_lastmod_at_the_ends_of_the_calendar_is_a_verdict_never_an_exception(
        day: str, hour: int, minute: int, sign: str, zone_h: int, zone_m: int) -> None:
    """A date-time of 0001-01-01 or 9999-12-31 whose zone takes it past the years 0001 to
    9999 in UTC (or 24:00 on the last day): format_instant raised ValueError or
    OverflowError out of parse_w3c (a traceback from a build or a check); now D101."""
    from sitemap_ext.dates import parse_w3c

    lastmod, problems = parse_w3c(f"{day}T{hour:02d}:{minute:02d}:00{sign}{zone_h:02d}:{zone_m:02d}")
    assert lastmod is not None or [p.code for p in problems] == ["D101"]


def test_a_version_s_lastmod_past_year_9999_in_utc_is_d101_at_its_value(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    Path("site.yaml").write_text("site:\n  base_url: https://e.com/\n  now: 2026-11-29T00:00:00Z\npages:\n"
                                 f"  - urls: {{en: /en/a, de: {{url: /de/a, lastmod: {EDGE}}}}}\n")
    assert main(["build", "site.yaml", "-o", "out"]) == 1
    errors = [line for line in capsys.readouterr().out.splitlines() if " error " in line]
    assert errors == [f"site.yaml:5:40: error D101 '{EDGE}' is not a valid lastmod: in UTC it falls outside the "
                      "years 0001 to 9999; write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm (W3C Datetime)"], errors


def test_a_sitemap_s_lastmod_past_year_9999_in_utc_is_d101_and_such_a_clock_a_usage_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    Path("s.xml").write_text('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>'
                             f"<loc>https://e.com/a</loc><lastmod>{EDGE}</lastmod></url></urlset>")
    assert main(["check", "s.xml", "--now", "2026-11-29T00:00:00Z"]) == 1
    assert capsys.readouterr().out.startswith(f"s.xml:1: error D101 '{EDGE}' is not a valid lastmod")
    assert main(["check", "s.xml", "--now", "9999-12-31T23:59:59-14:00"]) == 2


# --- the Django middleware --------------------------------------------------------------

SERVE = """
import sys
import django
from django.conf import settings
settings.configure(SITEMAP_EXT={"base_url": "https://e.com/maps/", "out_dir": sys.argv[1]}, ALLOWED_HOSTS=["*"])
django.setup()
from django.test import RequestFactory
from sitemap_ext.integrations.django.middleware import SitemapFilesMiddleware
serve = SitemapFilesMiddleware(lambda request: "handed on")
factory = RequestFactory()
for path in sys.argv[2:]:
    method, _, path = path.partition(" ")
    answer = serve(getattr(factory, method.lower())(path, HTTP_IF_MODIFIED_SINCE="garbage, 99 Foo"))
    print(answer if isinstance(answer, str) else answer.status_code)
"""


def test_the_middleware_serves_only_the_folder_s_own_regular_files(tmp_path: Path) -> None:
    """Guard: '..', encoded slashes and dots, NUL, a name past NAME_MAX, the build's
    reserved files, a link, a folder named like a sitemap and a FIFO are handed on
    (never opened in a way that blocks or leaves the folder); HEAD and a conditional
    request with a date that is none are answered as GET is."""
    import subprocess
    import sys

    pytest.importorskip("django")
    out = tmp_path / "out"
    out.mkdir()
    (out / "sitemap.xml").write_text("<urlset/>", encoding="utf-8")
    (tmp_path / "secret.xml").write_text("secret", encoding="utf-8")
    (out / ".sitemap-ext-manifest.json").write_text("{}", encoding="utf-8")
    (out / "sitemap-1.xml").mkdir()
    (out / "link.xml").symlink_to(tmp_path / "secret.xml")
    os.mkfifo(out / "fifo.xml")
    paths = ["GET /maps/sitemap.xml", "HEAD /maps/sitemap.xml", "POST /maps/sitemap.xml", "GET /maps/../secret.xml",
             "GET /maps/%2e%2e/secret.xml", "GET /maps/..%2fsecret.xml", "GET /maps/sitemap.xml%00",
             "GET /maps/" + "a" * 5000 + ".xml", "GET /maps/.sitemap-ext-manifest.json", "GET /maps/sitemap-1.xml",
             "GET /maps/link.xml", "GET /maps/fifo.xml", "GET /maps/", "GET /mapssitemap.xml"]
    env = {**os.environ, "PYTHONPATH": ""}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    run = subprocess.run([sys.executable, "-c", SERVE, str(out), *paths], capture_output=True, text=True,
                         timeout=60, env=env)
    assert run.stdout.split() == ["200", "200", *["handed", "on"] * 12], run.stderr


# --- the placing pass and H104's second read ------------------------------------------

ENTITIES = "<!ENTITY a0 'xxxxxxxxxx'>" + "".join(f"<!ENTITY a{k} '{f'&a{k - 1};' * 10}'>" for k in range(1, 10))
BOMB = (f"<?xml version='1.0'?><!DOCTYPE urlset [{ENTITIES}]><urlset xmlns='http://www.sitemaps.org/schemas/"
        "sitemap/0.9'>" + "".join(f"<url><loc>https://e.com/{k}</loc><priority>&a9;</priority></url>"
                                  for k in range(3)) + "</urlset>")


def test_the_second_reads_of_a_file_replaced_after_the_first_are_bounded(tmp_path: Path) -> None:
    """Guard: what the placing pass (expat) and H104's second read find at the path when
    the checked file was replaced after the first read (an entity bomb, a FIFO, a gzip
    bomb, nothing at all): no element placed, no link found, at once, no exception."""
    import gzip
    import time

    from sitemap_ext.checker import placing
    from sitemap_ext.rules.link_places import link_places

    (tmp_path / "bomb.xml").write_text(BOMB, encoding="utf-8")
    os.mkfifo(tmp_path / "fifo.xml")
    (tmp_path / "zip.xml.gz").write_bytes(gzip.compress(b"<urlset>" + b" " * (80 << 20), compresslevel=1))
    started = time.monotonic()
    for name in ("bomb.xml", "fifo.xml", "zip.xml.gz", "gone.xml"):
        path = str(tmp_path / name)
        assert placing._entries(path, {"https://e.com/2", "https://e.com/9"}) == {}
        assert link_places(path, [(1, "https://e.com/de/")]) == {}
        assert list(placing._file_lines(path))[-1:] in ([b""], [b"<urlset>" + b" " * (placing._LONG_LINE - 8)],
                                                        [BOMB.encode()])
    assert time.monotonic() - started < 10


def test_a_dataframe_column_pyarrow_has_no_type_for_is_s101_at_the_partition(tmp_path: Path) -> None:
    """A column of complex numbers: pyarrow raises ArrowNotImplementedError (neither a
    TypeError nor a ValueError), which came out of build(); now S101 at <partition 1>."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    from sitemap_ext import build

    site = tmp_path / "site.yaml"
    site.write_text("site:\n  base_url: https://e.com/\n  now: 2026-11-29T00:00:00Z\n")
    result = build(str(site), str(tmp_path / "out"), pages=[pd.DataFrame({"loc": ["/a"], "priority": [1 + 2j]})])
    found = [(d.code, d.file, d.line, d.message.split(":")[0]) for d in result.collector.sorted()]
    assert found == [("S101", "<partition 1>", None, "partition cannot be read as a table")], found


PREFIXED = """<?xml version="1.0" encoding="UTF-8"?>
<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<sm:url>
<sm:loc>https://e.com/en/</sm:loc>
<xhtml:link rel="alternate" hreflang="en" href="https://e.com/en/"/>
<xhtml:link rel="alternate" hreflang="de" href = "https://e.com/de/"/>
</sm:url>
<sm:url>
<sm:loc>https://e.com/de/</sm:loc>
<xhtml:link rel="alternate" hreflang="de" href="https://e.com/de/"/>
</sm:url>
</sm:urlset>
"""


def test_h104_s_second_read_keeps_to_its_entry_whatever_the_prefix_of_its_end_tag(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """An entry closed by </sm:url> was read as ending 1 MiB later: a link not found as
    written in its entry (href = "...") was placed at another entry's link (line 10,
    the German page's own), and each finding searched a MiB (20,000 H104s in a 4 MB
    file took 17 s instead of 3). Now each entry's links are read once, to its own end
    tag: the finding keeps its entry's line."""
    monkeypatch.chdir(tmp_path)
    Path("s.xml").write_text(PREFIXED, encoding="utf-8")
    assert main(["check", "s.xml", "--now", "2026-11-29T00:00:00Z"]) == 1
    found = [line.split(" https://")[0] for line in capsys.readouterr().out.splitlines() if " H104 " in line]
    assert found == ["s.xml:3: error H104"], found


def test_a_folder_of_parts_with_a_fifo_a_socket_and_link_loops_builds_its_parts_without_blocking(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard: a FIFO and a socket named as parts are never opened (no build waits on a
    writer), a link to the folder itself or to a link loop is not followed, a link out
    of the folder is S108 at the source's file:."""
    import socket

    site = tmp_path / "site"
    parts = site / "parts"
    parts.mkdir(parents=True)
    monkeypatch.chdir(site)
    (parts / "a.csv").write_text("loc\n/a\n", encoding="utf-8")
    os.mkfifo(parts / "b.csv")
    listener = socket.socket(socket.AF_UNIX)
    try:
        listener.bind(str(parts / "c.jsonl"))
        (parts / "self").symlink_to(parts)
        (parts / "d.csv").symlink_to(parts / "e.csv")
        (parts / "e.csv").symlink_to(parts / "d.csv")
        Path("site.yaml").write_text("site:\n  base_url: https://e.com/\n  now: 2026-11-29T00:00:00Z\n"
                                     "sources:\n  - file: parts/\n")
        assert main(["build", "site.yaml", "-o", "out"]) == 0
        assert "<loc>https://e.com/a</loc>" in (site / "out" / "sitemap.xml").read_text(encoding="utf-8")
        (parts / "f.csv").symlink_to(tmp_path / "outside.csv")
        (tmp_path / "outside.csv").write_text("loc\n/b\n", encoding="utf-8")
        from sitemap_ext import build

        result = build("site.yaml", "out")
        assert [(d.code, d.file, d.line, d.column) for d in result.collector.sorted()] == [
            ("S108", "site.yaml", 5, 11)]
    finally:
        listener.close()


def test_rules_of_an_install_with_no_catalogue_at_all_is_a_clear_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Neither the package's copy nor a checkout's specs/rules.md (a wheel built without
    specs/): catalogue() raised FileNotFoundError through `rules CODE`; now exit 3."""
    monkeypatch.setattr(catalogue_examples, "__file__", str(tmp_path / "sitemap_ext" / "rules" / "examples.py"))
    catalogue_examples.examples.cache_clear()
    try:
        assert main(["rules", "H104"]) == 3
    finally:
        catalogue_examples.examples.cache_clear()
    err = capsys.readouterr().err
    assert err.startswith("sitemap-ext rules: the rule catalogue (specs/rules.md) is neither in "), err


def test_a_parquet_column_named_with_spaces_around_is_read_as_its_csv_column_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """' loc ' is the loc column in a CSV header and was judged so in a Parquet schema,
    but its rows were asked of pyarrow as 'loc', which it skips without a word: every
    row was lost and the build said O102 (no pages). A partition's column too."""
    pq = pytest.importorskip("pyarrow.parquet")
    pa = pytest.importorskip("pyarrow")
    from sitemap_ext import build

    monkeypatch.chdir(tmp_path)
    table = pa.table({" loc ": ["/a"], "lastmod\t": ["2026-01-01"]})
    pq.write_table(table, "p.parquet")
    Path("site.yaml").write_text(HEAD)
    Path("bare.yaml").write_text(HEAD.split("sources:")[0])
    for out, result in (("out", build("site.yaml", "out")), ("out2", build("bare.yaml", "out2", pages=[table]))):
        assert [d.code for d in result.collector.sorted()] == []
        assert "<url><loc>https://e.com/a</loc><lastmod>2026-01-01</lastmod></url>" in Path(
            out, "sitemap.xml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("variable", "value"), [
    ("NOW", "x\n::warning::injected"), ("ARGS", "--select 'X\n::warning::injected'"),
    ("CHECK", "'public\r::warning::injected'"), ("BASE_URL", "'https://e.com/\n::warning::injected=public'")])
def test_an_input_word_with_a_line_break_stops_the_step_before_the_tool_echoes_it(
        tmp_path: Path, variable: str, value: str) -> None:
    """A --now the tool refuses is echoed in its usage error on stderr: a line break in
    it put '::warning::injected' at the start of a line of the job's log, a workflow
    command (any input may be built from a pull request's title). Now exit 2, one
    ::error, the tool not run."""
    import subprocess
    import sys

    env = {"PATH": os.environ.get("PATH", ""), "CHECK": "public", "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
           variable: value}
    run = subprocess.run([sys.executable, str(RUN_CHECK)], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2, (run.stdout, run.stderr)
    lines = (run.stdout + run.stderr).splitlines()
    assert len(lines) == 1 and lines[0].startswith("::error title=sitemap-ext::the input "), lines
    assert "holds a line break inside a word" in lines[0]


@pytest.mark.parametrize("verb", ["build", "check"])
def test_a_refused_now_is_echoed_with_its_line_breaks_escaped(verb: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A usage error shows the value it refuses, with a line break as its escape: echoed
    raw, 'x<newline>::warning::...' would start a line of a CI log with a command."""
    from sitemap_ext.cli import main

    site = tmp_path / "site.yaml"
    site.write_text("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n", encoding="utf-8")
    target = [str(site), "-o", str(tmp_path / "out")] if verb == "build" else [str(site)]
    assert main([verb, *target, "--now", "x\n::warning::hi"]) == 2
    err = capsys.readouterr().err
    assert "x\\x0a::warning::hi" in err and "\n::warning::" not in err
