"""The conventions linters taught users (issue "Adopted in a day"): -q, --exit-zero,
--statistics, `-` for standard input, `rules CODE|NAME`, rule names wherever a code is
taken, colour on a terminal (NO_COLOR, FORCE_COLOR), baselines for CI and per-path
ignores in the config, for check and build alike."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from sitemap_ext.cli import main

URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
          "{entries}</urlset>\n")


def sitemap(path: Path, *entries: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(URLSET.format(entries="".join(entries)), encoding="utf-8")
    return path


def entry(loc: str, lastmod: str = "2026-01-01") -> str:
    return f"<url><loc>{loc}</loc><lastmod>{lastmod}</lastmod></url>\n"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def defective(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return sitemap(Path("s.xml"), entry("https://e.com/a", "x"), entry("https://e.com/a"))


def test_quiet_exit_zero_and_statistics(defective: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["check", str(defective), "-q"], capsys)
    assert code == 1 and "D101" in out and err == ""
    code, out, _ = run(["check", str(defective), "--exit-zero"], capsys)
    assert code == 0 and "D101" in out
    code, out, _ = run(["check", str(defective), "--statistics", "-q"], capsys)
    assert code == 1 and out.split("\n")[:2] == ["      1  D101  error    lastmod-invalid",
                                                  "      1  U104  warning  url-duplicate"]


def test_standard_input_is_read_by_its_content(defective: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import gzip

    for data in (defective.read_bytes(), gzip.compress(defective.read_bytes())):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        code, out, _ = run(["check", "-", "-q"], capsys)
        assert code == 1 and out.startswith("<stdin>:3: error D101")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"https://e.com/a\nhttps://e.com/b\n")))
    assert run(["check", "-", "-q"], capsys)[0] == 0  # a text sitemap


def test_standard_input_has_no_name_to_say_another_kind(defective: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """X116 compares a file's name with its content; standard input (and bytes given to
    check()) has no name, so gzip on it is judged as the same file named s.xml.gz is."""
    import gzip

    named = defective.with_name("s.xml.gz")
    named.write_bytes(gzip.compress(defective.read_bytes()))
    by_name = run(["check", str(named), "--format", "json"], capsys)[1]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(named.read_bytes())))
    by_stdin = run(["check", "-", "--format", "json"], capsys)[1]
    codes = [sorted(d["code"] for d in json.loads(out)["diagnostics"]) for out in (by_name, by_stdin)]
    assert codes[0] == codes[1] == ["D101", "U104"]


def test_rules_explains_a_code_a_prefix_or_a_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "hreflang-no-return"], capsys)
    assert code == 0 and out.startswith("H104 (hreflang-no-return): error") and "Tell Google about localized" in out
    code, out, _ = run(["rules", "D104"], capsys)
    assert "rule: changefreq (judges each entry)" in out and "sitemaps.org" in out
    code, out, _ = run(["rules", "L10", "--format", "json"], capsys)
    assert [e["code"] for e in json.loads(out)] == [f"L10{n}" for n in range(1, 10)]
    code, _, err = run(["rules", "url-dupe"], capsys)
    assert code == 2 and "'url-dupe'" in err and "url-duplicate (U104)" in err  # as written, not upper-cased


def test_rule_names_are_taken_wherever_codes_are(defective: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", str(defective), "-q", "--ignore", "lastmod-invalid,U104"], capsys)
    assert code == 0 and out == ""
    code, out, _ = run(["check", str(defective), "-q", "--severity", "lastmod-invalid=warning"], capsys)
    assert code == 0 and "warning D101" in out
    Path("sitemap-ext.toml").write_text('select = ["url-duplicate"]\n')
    code, out, _ = run(["check", str(defective), "-q"], capsys)
    assert code == 0 and "U104" in out and "D101" not in out


@pytest.mark.parametrize("env, coloured", [({}, False), ({"FORCE_COLOR": "1"}, True),
                                           ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False)])
def test_colour_on_request_never_in_a_pipe_by_default(defective: Path, env: dict[str, str], coloured: bool,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    _, out, _ = run(["check", str(defective), "-q"], capsys)  # (captured: no terminal)
    assert ("\x1b[" in out) is coloured and "D101" in out
    _, out, _ = run(["check", str(defective), "-q", "--format", "github"], capsys)
    assert "\x1b[" not in out  # colour is for the text format only


def test_a_committed_baseline_fails_ci_only_on_a_new_defect(defective: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["check", str(defective), "--baseline", "baseline.json"], capsys)
    assert code == 0 and out == "" and "wrote 2 findings to the baseline" in err
    assert run(["check", str(defective), "--baseline", "baseline.json"], capsys)[0] == 0  # CI: nothing new
    # A planted new defect fails; the old ones stay quiet.
    sitemap(defective, entry("https://e.com/a", "x"), entry("https://e.com/a"), entry("https://e.com/b", "y"))
    code, out, _ = run(["check", str(defective), "--baseline", "baseline.json", "-q"], capsys)
    assert code == 1 and out.count("D101") == 1 and "https://e.com/b" in out and "U104" not in out
    # An old one fixed: passes, says so, and the baseline shrinks when updated.
    sitemap(defective, entry("https://e.com/a"), entry("https://e.com/a"))
    code, _, err = run(["check", str(defective), "--baseline", "baseline.json"], capsys)
    assert code == 0 and "1 finding of it fixed" in err
    assert run(["check", str(defective), "--baseline", "baseline.json", "--baseline-update"], capsys)[0] == 0
    assert len(json.loads(Path("baseline.json").read_text())["findings"]) == 1
    Path("baseline.json").write_text("{}")
    code, _, err = run(["check", str(defective), "--baseline", "baseline.json"], capsys)
    assert code == 2 and "no sitemap-ext baseline" in err


def test_per_path_ignores_apply_to_check_and_build(defective: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sitemap(Path("legacy/old.xml"), entry("https://e.com/old", "x"))
    Path("sitemap-ext.toml").write_text('[per-path-ignores]\n"legacy/*" = ["D101"]\n')
    code, out, _ = run(["check", "legacy/old.xml", str(defective), "-q"], capsys)
    assert code == 1 and "legacy/old.xml" not in out and "s.xml:3: error D101" in out
    Path("site.yaml").write_text("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n    changefreq: often\n")
    assert run(["build", "site.yaml", "-o", "out", "-q"], capsys)[0] == 1
    Path("sitemap-ext.toml").write_text('[per-path-ignores]\n"site.yaml" = ["changefreq-invalid"]\n')
    code, out, _ = run(["build", "site.yaml", "-o", "out", "-q"], capsys)
    assert code == 0 and "D104" not in out
    Path("sitemap-ext.toml").write_text('per-path-ignores = 5\n')
    assert run(["check", str(defective)], capsys)[0] == 2


def test_the_command_line_severity_overrides_the_config_however_either_names_the_code(
        defective: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path("sitemap-ext.toml").write_text('[severity]\nurl-duplicate = "info"\n')
    code, out, _ = run(["check", str(defective), "-q", "--ignore", "D101", "--severity", "u104=error"], capsys)
    assert code == 1 and "error U104" in out
