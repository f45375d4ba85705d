"""The CLI contract: verbs, formats, exit codes; through main() and once as a process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from sitemap_ext.cli import main

GOOD = "site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n    lastmod: 2026-01-01\n  - loc: /b c\n"
BAD = "site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n    priority: 3\n"


def test_build_text_output(make_site: Callable[..., Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(GOOD)
    assert main(["build", str(site), "-o", "out"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "site.yaml:6:10: warning U105 loc: URL contains whitespace; it is written percent-encoded [https://e.com/b%20c]",
        "      - loc: /b c",
        "             ^",
    ]
    assert "wrote out/sitemap.xml  2 URLs" in captured.err
    assert (tmp_path / "out" / "sitemap.xml").is_file()


def test_build_json_output(make_site: Callable[..., Path], capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(GOOD)
    assert main(["build", str(site), "-o", "out", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["diagnostics"] == [{
        "code": "U105", "severity": "warning", "file": "site.yaml", "line": 6, "column": 10,
        "url": "https://e.com/b%20c",
        "message": "loc: URL contains whitespace; it is written percent-encoded",
    }]
    assert doc["summary"]["errors"] == 0 and doc["summary"]["warnings"] == 1
    entry, view, index_view = doc["summary"]["files"]
    assert entry["file"] == "sitemap.xml" and entry["urls"] == 2 and entry["bytes"] > 100
    assert (view["file"], view["kind"], index_view["file"]) == ("sitemap.html", "html", "sitemaps.html")
    assert doc["ok"] is True


def test_errors_exit_1_and_github_format(make_site: Callable[..., Path], capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(BAD)
    assert main(["build", str(site), "-o", "out", "--format", "github"]) == 1
    out = capsys.readouterr().out
    assert out == ("::error file=site.yaml,line=5,col=15,title=D105::priority '3' must be a number from 0.0 to 1.0 "
                   "(0.5 is the default)\n")


def test_strict_turns_warnings_into_exit_1(make_site: Callable[..., Path]) -> None:
    site = make_site(GOOD)
    assert main(["check", str(site), "--quiet"]) == 0
    assert main(["check", str(site), "--strict", "--quiet"]) == 1


def test_check_writes_nothing(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(GOOD)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["check", str(site), "--format", "json"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_usage_errors_exit_2(make_site: Callable[..., Path]) -> None:
    site = make_site(GOOD)
    assert main([]) == 2
    assert main(["frobnicate"]) == 2
    assert main(["build"]) == 2
    assert main(["build", str(site), "--now", "yesterday"]) == 2
    assert main(["check", str(site), "--format", "xml"]) == 2


def test_io_failures_exit_3(make_site: Callable[..., Path], tmp_path: Path) -> None:
    assert main(["build", "missing.yaml"]) == 3
    site = make_site(GOOD)
    (tmp_path / "file").write_text("x")
    assert main(["build", str(site), "-o", str(tmp_path / "file" / "sub")]) == 3


def test_rules_lists_every_code(capsys: pytest.CaptureFixture[str]) -> None:
    from sitemap_ext.codes import REGISTRY

    assert main(["rules", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [r["code"] for r in listed] == sorted(REGISTRY)
    # (0.5: which findings say an input was not read: never baselined, never lowered, a diff stops)
    assert {r["code"] for r in listed if r["not_read"]} == {c for c, e in REGISTRY.items() if e.io or e.unread}
    assert {"F101", "X101", "F104", "R101"} <= {r["code"] for r in listed if r["not_read"]}
    assert main(["rules"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(REGISTRY)


def test_now_flag_enables_future_check(make_site: Callable[..., Path], capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(GOOD)
    assert main(["check", str(site), "--now", "2025-06-01", "--format", "json"]) == 0
    codes = [d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]]
    assert codes == ["D102", "U105"]


def test_real_subprocess(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(BAD)
    proc = subprocess.run([sys.executable, "-m", "sitemap_ext", "build", str(site), "-o", "out"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 1
    assert proc.stdout.startswith("site.yaml:5:15: error D105 ")
    assert "Traceback" not in proc.stderr and "nothing written" in proc.stderr
    assert not (tmp_path / "out" / "sitemap.xml").exists()


def test_progress_is_reported_to_the_callback(make_site: Callable[..., Path], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import sitemap_ext.write.build as builder
    from sitemap_ext import build

    monkeypatch.setattr(builder._Meter, "INTERVAL", 0.0)
    rows = "loc\n" + "".join(f"/p{i}\n" for i in range(20_000))
    site = make_site("site:\n  base_url: https://e.com/\nsources:\n  - p.csv\noutput:\n  max_urls: 3000\n",
                     **{"p.csv": rows})
    seen: list[builder.Progress] = []
    assert build(str(site), str(tmp_path / "out"), progress=seen.append).ok
    assert [p.urls for p in seen] == sorted(p.urls for p in seen) and seen[-1].urls == 16_384
    assert seen[-1].files == 5 and 0.7 < (seen[-1].fraction or 0) <= 1.0


def test_no_progress_display_when_stderr_is_not_a_terminal(make_site: Callable[..., Path], tmp_path: Path) -> None:
    site = make_site(GOOD)
    proc = subprocess.run([sys.executable, "-m", "sitemap_ext", "build", str(site), "-o", "out"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0 and "\r" not in proc.stderr and "URLs/s" not in proc.stderr


def test_one_value_wrong_on_every_entry_is_said_once_in_text_and_kept_per_place_in_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A generator that writes one wrong lastmod on every entry: the text says it once,
    at its first entry, with the count and the next lines (before: once per entry); a
    finding that differs (another value, another file) is said apart; JSON keeps one
    record per place."""
    head = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    entries = "".join(f"<url><loc>https://e.com/{n}</loc><lastmod>2026-13-01</lastmod></url>\n" for n in range(50))
    entries += "<url><loc>https://e.com/x</loc><lastmod>2026-02-30</lastmod></url>\n"
    (tmp_path / "a.xml").write_text(head + entries + "</urlset>\n")
    (tmp_path / "b.xml").write_text(head + "<url><loc>https://e.com/b</loc><lastmod>2026-13-01</lastmod></url>\n"
                                    "</urlset>\n")
    files = [str(tmp_path / "a.xml"), str(tmp_path / "b.xml")]
    assert main(["check", *files, "--now", "2026-11-21T12:00:00Z", "-q"]) == 1
    out = capsys.readouterr().out
    assert out.count("'2026-13-01' is not a valid lastmod") == 2  # once in a.xml, once in b.xml
    assert out.count("'2026-02-30' is not a valid lastmod") == 1
    assert "a.xml:3: error D101 '2026-13-01'" in out and "a.xml:4:" not in out
    assert "    ... and on 49 more entries of this file (lines 4, 5, 6, ...)\n" in out
    assert main(["check", *files, "--now", "2026-11-21T12:00:00Z", "-q", "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert sum(d["code"] == "D101" for d in document["diagnostics"]) == 52
