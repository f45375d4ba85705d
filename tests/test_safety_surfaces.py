"""What leaves and enters by the side doors: reports quoting hostile text (CSV formulas,
terminal escapes, file names that are not UTF-8, SARIF URIs), config files of the
wrong shape or size, YAML that is large and no site description, and the Python API
given wrong types. Each class is tested at its one cause (``cli/report.py``,
``checker/config.py``, ``loader.py``, ``objects.py``)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import re
import tracemalloc
from pathlib import Path
from typing import Any, Callable
from urllib.parse import unquote, unquote_to_bytes

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_ext import (Alternate, Image, Locale, NewsArticle, NewsPublication, Output, Page, Site, SitemapWriter, Video, build, check, render)
from sitemap_ext.rules.config import ConfigError, Policy, load_settings, make_policy, split_codes
from sitemap_ext.cli import main
from sitemap_ext.report.html import write_html
from sitemap_ext.report.formats import csv_cell, sarif_uri, visible, write_csv
from sitemap_ext.codes import REGISTRY
from sitemap_ext.diagnostics import Collector, Severity, Where
from sitemap_ext.read import yaml_doc as loader
from sitemap_ext.read.yaml_doc import is_site_yaml, load_yaml

from .conftest import hang_guard

SITEMAP = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
           '<url><loc>{loc}</loc></url>\n</urlset>\n')
# What a terminal must never receive raw: C0 (but tab), DEL, C1, line separators, bidi.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --- reports -------------------------------------------------------------------------

def test_csv_cells_that_a_spreadsheet_would_run_are_quoted(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("=HYPERLINK(1).xml", "+1.xml", "-1.xml", "@SUM.xml", "\tx.xml"):
        (tmp_path / name).write_text(SITEMAP.format(loc="=cmd|' /C calc'!A0"), encoding="utf-8")
    code, out, _ = _run(["check", "--format", "csv", "."], capsys)
    assert code == 1
    rows = list(csv.reader(io.StringIO(out)))[1:]
    assert rows and {row[2].lstrip("'") for row in rows} >= {"=HYPERLINK(1).xml", "+1.xml", "-1.xml", "@SUM.xml"}
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), row
    assert csv_cell("=1+2") == "'=1+2" and csv_cell("\r=1") == "'\r=1" and csv_cell("a=1") == "a=1"
    assert csv_cell(12) == 12  # line and column stay numbers


def test_text_and_github_show_control_and_bidi_characters_escaped(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # A file name with ESC, BEL and a right-to-left override; a URL with C1 CSI and
    # U+2028; a source line with ESC (not XML: X101 quotes its line).
    (tmp_path / "evil\x1b[2J\x07\u202egpj.xml").write_text(
        SITEMAP.format(loc="https://www.example.com/a\x9b31m\u2028b"), encoding="utf-8")
    (tmp_path / "bad.xml").write_text(SITEMAP.format(loc="https://www.example.com/\x1b]0;owned\x07"),
                                      encoding="utf-8")
    for fmt in ("text", "github"):
        code, out, err = _run(["check", "--format", fmt, "."], capsys)
        assert code == 1 and out
        assert not RAW_CONTROL.search(out), (fmt, out)
        assert "\\x1b" in out and "\\u202e" in out
    assert visible("a\x1b\x07\x9b\x7f\n\u2066\ud800\udcff\tb") == "a\\x1b\\x07\\x9b\\x7f\\x0a\\u2066\\ud800\\xff\tb"


def test_the_caret_stays_under_its_column_after_escapes(monkeypatch: pytest.MonkeyPatch) -> None:
    collector = Collector(REGISTRY)
    collector.report("X101", "bad", Where("x.xml", 1, 4))
    out = io.StringIO()
    from sitemap_ext.report.formats import _Lines, write_text
    monkeypatch.setattr(_Lines, "_read", staticmethod(lambda file: ["\x1bab<"]))
    write_text(collector, out, quiet=False)
    lines = out.getvalue().splitlines()
    assert lines[1] == "    \\x1bab<" and lines[2].index("^") == lines[1].index("<")


@pytest.mark.skipif(os.uname().sysname == "Darwin", reason="macOS file names are always UTF-8")
@pytest.mark.parametrize("fmt", ["json", "sarif", "text", "github", "csv", "html"])
def test_a_file_name_that_is_not_utf8_gives_a_valid_utf8_report(tmp_path: Path, fmt: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    name = b"bad\xff\xfe.xml"
    with open(os.path.join(os.fsencode(folder), name), "w", encoding="utf-8") as handle:
        handle.write(SITEMAP.format(loc="relative/a"))
    code = main(["check", "--format", fmt, "-o", str(tmp_path / "report"), "in"])
    assert code == 1
    text = (tmp_path / "report").read_bytes().decode("utf-8")  # strict: valid UTF-8
    if fmt != "sarif":  # (SARIF names files only by URI)
        assert "bad\\xff\\xfe.xml" in text.replace("\\\\", "\\")
    if fmt == "json":
        files = [d["file"] for d in json.loads(text)["diagnostics"]]
        assert os.path.join("in", "bad\\xff\\xfe.xml") in files
    if fmt == "sarif":
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for r in json.loads(text)["runs"][0]["results"]]
        assert unquote_to_bytes(uris[0]) == b"in/" + name  # the very bytes of the name


@pytest.mark.parametrize("name", ["a#b.xml", "100%41.xml", "what?.xml", "a b.xml", "caf\u00e9/\u65e5\u672c.xml",
                                  "c:d.xml", "x/%2e%2e/y.xml"])
def test_sarif_uris_are_percent_encoded_and_round_trip(name: str) -> None:
    uri = sarif_uri(name)
    assert unquote(uri) == name
    assert not set(uri) & set("#?% :") - {"%"} and not re.search(r"%(?![0-9A-F]{2})", uri)
    assert uri.count("/") == name.count("/")


def test_the_html_report_escapes_every_field_and_links_only_http() -> None:
    collector = Collector(REGISTRY)
    evil = "<script>alert(1)</script>\"'&\x1b\u202e"
    collector.report("U101", evil, Where(evil + ".xml", 3), url="javascript:" + evil, suggestion=evil)
    out = io.StringIO()
    write_html(collector, out, title=evil, files=[{"file": evil, "kind": "urlset", "urls": 1}], clock=evil)
    page = out.getvalue()
    assert "<script>" not in page and "\x1b" not in page and "\u202e" not in page
    assert "&lt;script&gt;" in page and "\\x1b" in page and 'href="javascript' not in page
    from sitemap_ext.report.html import _link
    assert _link("javascript:alert(1)", "x") == "x" and _link("HTTPS://e.com/\"", "x").startswith('<a href="HTTPS')


# --- config ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["tool = 5\n", "tool = 'sitemap-ext'\n", "tool = ['sitemap-ext']\n",
                                  "[tool]\nsitemap-ext = 5\n", "[tool]\nsitemap-ext = 'x'\n",
                                  "[tool]\nsitemap-ext = [1]\n", "[tool.sitemap-ext]\nselect = 5\n",
                                  "[tool.sitemap-ext]\nseverity = 5\n", "[tool.sitemap-ext]\nseverity = {H1 = 5}\n",
                                  "[tool.sitemap-ext]\nselect = [[1]]\n", "[tool.sitemap-ext]\n1 = 2\n",
                                  "[tool.sitemap-ext]\nselect = 'Z'\n"])
def test_a_config_of_the_wrong_shape_is_a_usage_error(tmp_path: Path, text: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    (tmp_path / "s.xml").write_text(SITEMAP.format(loc="https://www.example.com/"), encoding="utf-8")
    code, _, err = _run(["check", "--config", "pyproject.toml", "s.xml"], capsys)
    assert code == 2 and "pyproject.toml" in err or "no code, prefix of one, or rule name" in err
    assert "Traceback" not in err


def test_a_pyproject_whose_tool_is_no_table_is_passed_over_when_looked_for(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text("tool = 'sitemap-ext'\n", encoding="utf-8")
    (tmp_path / "s.xml").write_text(SITEMAP.format(loc="https://www.example.com/"), encoding="utf-8")
    code, _, err = _run(["check", "s.xml"], capsys)
    assert code == 0, err


class _Counting(frozenset):  # type: ignore[type-arg]
    probes = 0

    def __contains__(self, item: object) -> bool:
        _Counting.probes += 1
        return super().__contains__(item)


def test_a_policy_lookup_costs_the_code_not_the_entries() -> None:
    codes = sorted(REGISTRY)
    entries = [codes[i % len(codes)][: 1 + i % 4] for i in range(100_000)]
    policy = make_policy(entries, entries[::7], dict.fromkeys(entries[:50_000], "warning"))
    assert len(policy.select) <= 5 * len(codes)  # each entry once
    for name in ("_select", "_ignore"):
        object.__setattr__(policy, name, _Counting(getattr(policy, name)))
    _Counting.probes = 0
    for code in codes:
        policy.shown(code)
    assert _Counting.probes <= 2 * len(codes) * 6  # at most the code's prefixes, per set


@given(st.lists(st.sampled_from(sorted({c[:n] for c in REGISTRY for n in range(1, 5)})), max_size=8),
       st.lists(st.sampled_from(sorted({c[:n] for c in REGISTRY for n in range(1, 5)})), max_size=8),
       st.dictionaries(st.sampled_from(sorted({c[:n] for c in REGISTRY for n in range(1, 5)})),
                       st.sampled_from(["error", "warning", "info"]), max_size=4))
@settings(max_examples=150, deadline=None)
def test_the_policy_decides_as_the_longest_prefix_rule(select: list[str], ignore: list[str],
                                                      severity: dict[str, str]) -> None:
    policy = make_policy(select, ignore, severity)
    for code in REGISTRY:
        chosen = max((len(p) for p in select if code.startswith(p)), default=-1 if select else 0)
        dropped = max((len(p) for p in ignore if code.startswith(p)), default=-1)
        assert policy.shown(code) == (chosen >= 0 and chosen >= dropped)
        best = max((p for p in severity if code.startswith(p)), key=len, default=None)
        want = Severity(severity[best]) if best else REGISTRY[code].severity
        assert policy.severity_of(code, REGISTRY[code].severity) is want


def test_a_config_of_60000_entries_is_read_in_linear_time(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    codes = sorted(REGISTRY)
    listed = ", ".join(f'"{codes[i % len(codes)]}"' for i in range(60_000))  # (under a config's 1 MiB)
    (tmp_path / "sitemap-ext.toml").write_text(f"select = [{listed}]\nignore = [{listed}]\n", encoding="utf-8")
    assert (tmp_path / "sitemap-ext.toml").stat().st_size < 1 << 20
    (tmp_path / "s.xml").write_text(SITEMAP.format(loc="https://www.example.com/"), encoding="utf-8")
    with hang_guard(60):  # was 40 s: a quadratic match; now about a second (the TOML parse)
        code, _, err = _run(["check", "--jobs", "1", "s.xml"], capsys)
    assert code == 0, err


_TOML_SCALAR = st.one_of(st.integers(-10, 10**6), st.booleans(), st.text(max_size=8), st.sampled_from(
    ["H", "h1", "X106", "error", "warning", "info", "", "Z999"]))
_TOML_VALUE = st.recursive(_TOML_SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["H1", "X106", "a", "L"]), inner, max_size=3)),
    max_leaves=8)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string (or invalid TOML: a usage error too)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"


@given(st.dictionaries(st.sampled_from(["select", "ignore", "severity", "cross-submitted", "other"]),
                       _TOML_VALUE, max_size=4), st.sampled_from(["pyproject.toml", "sitemap-ext.toml"]),
       st.sampled_from(["", "tool = {}\n", "tool = 1\n"]))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_fuzzed_configs_are_settings_or_config_errors(tmp_path: Path, table: dict[str, Any], name: str,
                                                      before: str) -> None:
    body = "".join(f"{json.dumps(k)} = {_toml(v)}\n" for k, v in table.items())
    text = before + ("[tool.sitemap-ext]\n" + body if name == "pyproject.toml" else body)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    try:
        settings_ = load_settings(str(path))
        make_policy(split_codes(settings_.select), split_codes(settings_.ignore), settings_.severity)
    except ConfigError as exc:
        assert str(exc)


# --- YAML that is large and no site description ----------------------------------------

def _data_yaml(path: Path, megabytes: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write("items:\n")
        row, size = 0, 0
        while size < megabytes << 20:
            line = f"  - {{id: {row}, name: n{row}, tags: [a, b]}}\n"
            out.write(line)
            size += len(line)
            row += 1
        out.write("site_name: not a description\n")


def test_a_large_yaml_data_file_is_told_apart_from_a_description_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "data.yaml"
    _data_yaml(path, 5)
    text = path.read_text(encoding="utf-8")
    tracemalloc.start()
    try:
        with hang_guard(120):  # composed, this took 38 s and 1.6 GB
            assert not is_site_yaml(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 32 << 20, f"{peak:,} bytes: the file was composed, not streamed"
    assert is_site_yaml("site: {base_url: x}\n" + text[:1000]) and is_site_yaml(text[:200] + "\nsite: {}\n")
    assert not is_site_yaml("- site\n") and not is_site_yaml("a: {site: 1}\n") and not is_site_yaml("")
    assert is_site_yaml("a: [\n") and is_site_yaml("a: *undefined\n") and is_site_yaml("a: 1\n---\nb: 2\n")


def test_the_node_limit_holds_while_the_yaml_is_composed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "MAX_YAML_NODES", 1_000)
    composed = []
    original = loader._Loader.compose_node

    def counting(self: Any, parent: Any, index: Any) -> Any:
        composed.append(1)
        return original(self, parent, index)

    monkeypatch.setattr(loader._Loader, "compose_node", counting)
    collector = Collector(REGISTRY)
    text = "pages:\n" + "".join(f"  - loc: /p{i}\n" for i in range(20_000))  # 60,000 nodes
    assert load_yaml(text, "big.yaml", collector) is None
    assert [d.code for d in collector.diagnostics] == ["C110"]
    assert len(composed) <= 1_001 + 64  # stopped at the limit, not after the whole document
    small = Collector(REGISTRY)
    doc = load_yaml("a: &x [1, 2]\nb: *x\nc: {d: 'e'}\n", "small.yaml", small)
    assert doc is not None and doc.data == {"a": [1, 2], "b": [1, 2], "c": {"d": "e"}} and not small.diagnostics
    assert doc.where(("c", "d")).line == 3 and doc.where(("c", "d")).column == 5


def test_a_yaml_error_in_a_large_file_still_names_its_line() -> None:
    collector = Collector(REGISTRY)
    load_yaml("a: 1\nb: [1, 2\nc: 3\n", "e.yaml", collector)
    assert [(d.code, d.line) for d in collector.diagnostics][0][0] == "C101"


# --- the Python API: wrong types are TypeErrors that say what was wanted ---------------

SITE = Site(base_url="https://www.example.com/")
WRONG = [5, None, [1], {"a": 1}, b"x", "text", 1.5, object()]


@pytest.mark.parametrize("make", [
    lambda v: Site(base_url="https://e.com/", locales=v),
    lambda v: Site(base_url="https://e.com/", locales=(v,)),
    lambda v: Site(base_url="https://e.com/", publication=v),
    lambda v: Site(base_url="https://e.com/", defaults=v),
    lambda v: Site(base_url="https://e.com/", output=v),
    lambda v: Locale(code=v, prefix="/x/"),
    lambda v: Alternate(code=v, url="/a"),
    lambda v: Page(alternates=v),
    lambda v: Page(alternates=(v,)),
    lambda v: Video(thumbnail_loc="/t", title="t", description="d", extra=v),
    lambda v: NewsArticle(title="t", publication_date="2026-01-01", extra=v),
])
@pytest.mark.parametrize("value", WRONG, ids=lambda v: type(v).__name__)
def test_constructors_refuse_what_yaml_cannot_hold(make: Callable[[Any], object], value: Any) -> None:
    try:
        obj = make(value)
    except TypeError as exc:
        assert re.search(r"\w+\(\w+(\[\.\.\.\])?=\.\.\.\) takes ", str(exc)), exc
        return
    # Accepted: a value of the right type (an empty list, a mapping), built without a traceback.
    result = build(obj if isinstance(obj, Site) else SITE, pages=[] if isinstance(obj, Site) else [_page(obj)],
                   dry_run=True)
    assert result.collector is not None


def _page(obj: object) -> Page:
    if isinstance(obj, Page):
        return obj
    if isinstance(obj, Video):
        return Page(loc="/a", videos=(obj,))
    if isinstance(obj, NewsArticle):
        return Page(loc="/a", news=obj)
    return Page(loc="/a")


def test_mapping_keys_that_are_no_text_are_read_as_yaml_reads_them() -> None:
    video = Video(thumbnail_loc="/t.jpg", title="t", description="d", content_loc="/v.mp4", extra={5: "x"})
    assert "5" in video.as_yaml()
    result = build(SITE, pages=[Page(loc="/a", videos=(video,))], dry_run=True)
    assert "C102" in [d.code for d in result.collector.diagnostics]


def test_a_page_mapping_with_a_key_that_is_no_page_key_is_c102() -> None:
    for key in (5, "bogus"):
        result = build(SITE, pages=[{"loc": "/a"}, {key: "x", "loc": "/b"}], dry_run=True)
        found = [(d.code, d.file, d.line) for d in result.collector.diagnostics]
        assert ("C102", "<pages>", 2) in found, (key, found)


_ANY = st.one_of(st.none(), st.integers(), st.floats(allow_nan=False), st.text(max_size=5), st.binary(max_size=3),
                 st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
                 st.just(dt.date(2026, 1, 1)), st.builds(object))


@given(st.sampled_from(["site", "locale", "page", "image", "video", "news", "output", "alternate", "render",
                        "check", "writer"]), _ANY, _ANY)
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_fuzzed_api_arguments_give_findings_or_clear_errors(tmp_path: Path, target: str, a: Any, b: Any) -> None:
    out = str(tmp_path / "out")
    try:
        with hang_guard(60):
            if target == "site":
                build(Site(base_url=a, x_default=b, now=b), out, pages=[], dry_run=True)
            elif target == "locale":
                build(Site(base_url="https://e.com/", locales=(Locale(code="en", prefix=a, host=b),)), out,
                      pages=[Page(path="/x")], dry_run=True)
            elif target == "page":
                build(SITE, out, pages=[Page(loc=a, lastmod=b, priority=a, changefreq=b, locales=a)], dry_run=True)
            elif target == "image":
                build(SITE, out, pages=[Page(loc="/a", images=(Image(loc=a, title=b),))], dry_run=True)
            elif target == "video":
                build(SITE, out, pages=[Page(loc="/a", videos=(Video(thumbnail_loc=a, title=b, description=a,
                                                                     duration=b, tag=a),))], dry_run=True)
            elif target == "news":
                build(Site(base_url="https://e.com/", publication=NewsPublication(name=a, language=b)), out,
                      pages=[Page(loc="/a", news=NewsArticle(title=a, publication_date=b))], dry_run=True)
            elif target == "output":
                build(Site(base_url="https://e.com/", output=Output(max_urls=a, pattern=b, index=a)), out,
                      pages=[Page(loc="/a")], dry_run=True)
            elif target == "alternate":
                build(SITE, out, pages=[Page(alternates=(Alternate(code="en", url=a),), x_default=b)], dry_run=True)
            elif target == "render":
                render(a if isinstance(a, str) else SITE, [b] if b is not None else None, now=a, gzip=b)
            elif target == "check":
                check(a, now=b)
            else:
                with SitemapWriter(SITE, out) as writer:
                    writer.add(a)
    except (TypeError, ValueError) as exc:
        assert str(exc), type(exc)


def test_the_precommit_hook_passes_over_a_large_yaml_data_file(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    _data_yaml(tmp_path / "data.yaml", 5)
    (tmp_path / "list.yaml").write_text("- site\n" * 10, encoding="utf-8")
    with hang_guard(60):  # was 38 s and 1.6 GB
        code, _, err = _run(["check", "--only-site-yaml", "data.yaml", "list.yaml"], capsys)
    assert code == 0 and "skipped 2 files" in err, err


@pytest.mark.parametrize("kwargs", [
    {"base_urls": "https://e.com/=x"}, {"base_urls": [1]}, {"base_urls": b"x"}, {"base_urls": ["no-pair"]},
    {"policy": 5}, {"allow_read": "folder"}, {"cross_submitted": (h for h in ["a"])}, {"jobs": True},
    {"jobs": 0}, {"max_per_code": "9"}, {"coverage": None}, {"only_site_yaml": "yes"}, {"html": 1},
    {"fetch": {}}, {"pages": -1}, {"pages": "some"}, {"delay": float("inf")}, {"delay": "1"},
    {"progress": 3}])
def test_check_arguments_of_the_wrong_type_are_named(tmp_path: Path, kwargs: dict[str, object]) -> None:
    from sitemap_ext import check

    (tmp_path / "s.txt").write_text("https://e.com/a\n")
    with pytest.raises((TypeError, ValueError)) as caught:
        check([str(tmp_path / "s.txt")], **kwargs)  # type: ignore[arg-type]
    assert f"check({next(iter(kwargs))}=...)" in str(caught.value)


@pytest.mark.parametrize("kwargs", [{"engine": 5}, {"collector": 3}, {"jobs": "2"}, {"env": {1: 2}},
                                    {"allow_read": "folder"}, {"dry_run": "no"}, {"progress": 1},
                                    {"max_per_code": 0}, {"gzip": "yes"}])
def test_build_arguments_of_the_wrong_type_are_named(tmp_path: Path, kwargs: dict[str, object]) -> None:
    (tmp_path / "site.yaml").write_text("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n")
    with pytest.raises((TypeError, ValueError)) as caught:
        build(str(tmp_path / "site.yaml"), str(tmp_path / "out"), **kwargs)  # type: ignore[arg-type]
    assert f"build({next(iter(kwargs))}=...)" in str(caught.value)
    assert not (tmp_path / "out").exists()
