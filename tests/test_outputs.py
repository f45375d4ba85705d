"""Outputs for pipelines: the JSON report's version and schema, CSV, --max-per-code, the
GitHub step summary, and no silent pass on an input with nothing to check."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import jsonschema
import pytest

from sitemap_ext.cli import main

from .conftest import ROOT

SCHEMA = json.loads((ROOT / "specs" / "report.schema.json").read_text(encoding="utf-8"))
BAD_LINES = "".join(f"not a url {i}\n" for i in range(30))


def run_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main([*args, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_json_reports_of_both_verbs_follow_the_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, built = run_json(["build", str(ROOT / "examples" / "international" / "site.yaml"), "-o",
                            str(tmp_path / "out")], capsys)
    assert code == 0 and built["version"] == 1
    jsonschema.validate(built, SCHEMA)
    (tmp_path / "planted").mkdir()
    for path in (ROOT / "tests" / "data" / "planted").iterdir():
        (tmp_path / "planted" / path.name).write_bytes(path.read_bytes())
    code, checked = run_json(["check", str(tmp_path / "planted")], capsys)
    assert code == 1 and checked["diagnostics"] and any(d.get("related") for d in checked["diagnostics"])
    jsonschema.validate(checked, SCHEMA)


def test_csv_is_one_finding_a_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "s.txt").write_text('https://e.com/a\nhttps://e.com/"quoted", more\n')
    assert main(["check", str(tmp_path / "s.txt"), "--format", "csv"]) == 1
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["code"], r["line"], r["severity"]) for r in rows] == [("X113", "2", "error")]
    assert rows[0]["file"].endswith("s.txt") and "one URL" in rows[0]["message"]


@pytest.mark.parametrize("limit, kept", [("5", 5), ("0", 30), ("1000", 30)])
def test_max_per_code_keeps_that_many_and_counts_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          limit: str, kept: int) -> None:
    (tmp_path / "s.txt").write_text("https://e.com/a\n" + BAD_LINES)
    code, report = run_json(["check", str(tmp_path / "s.txt"), "--max-per-code", limit], capsys)
    assert code == 1 and len(report["diagnostics"]) == kept
    assert report["summary"]["errors"] == 30
    assert report["summary"]["not_shown"] == ({"X113": 30 - kept} if kept < 30 else {})


def test_a_negative_max_per_code_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "s.txt").write_text("https://e.com/a\n")
    assert main(["check", str(tmp_path / "s.txt"), "--max-per-code", "-1"]) == 2


def test_the_step_summary_is_appended_when_github_sets_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    (tmp_path / "s.txt").write_text("https://e.com/a\n" + BAD_LINES)
    assert main(["check", str(tmp_path / "s.txt"), "--format", "github"]) == 1
    text = summary.read_text()
    assert text.startswith("earlier step\n### ❌ sitemap-ext check")
    assert "| X113 | error | text-line-invalid | 30 |" in text
    assert "::error file=" in capsys.readouterr().out  # the findings themselves: annotations


@pytest.mark.parametrize("content", [{}, {"robots.txt": "Sitemap: https://e.com/sitemap.xml\n"},
                                     {"index.html": "<html></html>"}])
def test_nothing_to_check_is_not_a_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        content: dict[str, str]) -> None:
    folder = tmp_path / "public"
    folder.mkdir()
    for name, text in content.items():
        (folder / name).write_text(text)
    code, report = run_json(["check", str(folder)], capsys)
    assert code == 1 and [d["code"] for d in report["diagnostics"]] == ["F104"]


def test_sarif_follows_the_official_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Validated against the OASIS SARIF 2.1.0 schema (errata 01), kept in tests/data/sarif:
    no package on PyPI or npm that this project can install ships it."""
    schema = json.loads((ROOT / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    (tmp_path / "planted").mkdir()
    for path in (ROOT / "tests" / "data" / "planted").iterdir():
        (tmp_path / "planted" / path.name).write_bytes(path.read_bytes())
    assert main(["check", str(tmp_path / "planted"), "--format", "sarif"]) == 1
    log = json.loads(capsys.readouterr().out)
    jsonschema.Draft4Validator(schema).validate(log)
    run = log["runs"][0]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert run["results"] and all(r["ruleId"] in rules for r in run["results"])
    assert {r["level"] for r in run["results"]} <= {"error", "warning", "note"}
    h104 = next(r for r in run["results"] if r["ruleId"] == "H104")
    location = h104["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"].endswith(".xml") and location["region"]["startLine"] >= 1
    assert h104["relatedLocations"] and rules["H104"]["defaultConfiguration"]["level"] == "error"
    assert run["tool"]["driver"]["rules"][h104["ruleIndex"]]["id"] == "H104"
