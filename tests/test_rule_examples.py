"""Issue 28, point 3: `rules CODE` shows a failing and a passing example of each code,
kept as data beside the registry (sitemap_ext/rules/examples.yaml). Each example is
run through the real check here: every failing example gives exactly its code (and no
other), every passing example no finding at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitemap_ext import check
from sitemap_ext.cli import main
from sitemap_ext.codes import REGISTRY
from sitemap_ext.rules.rule_set import checker_codes
from sitemap_ext.rules.examples import NOW, Example, examples

# Codes with no example, and why (each also named in examples.yaml's header).
WITHOUT = {
    "F101": "an unreadable file", "F102": "an unwritable folder", "F103": "a concurrent build",
    "F104": "no input at all", "X108": "50,001 entries", "X109": "a 50 MiB file", "X114": "gzip bytes",
    "X117": "a file and its gzip copy", "U103": "a 2,048-character URL", "U116": "a file name not UTF-8",
    "H117": "a 1 MiB head", "S106": "bytes that are not UTF-8", "S109": "a 1 MiB line",
    "I102": "1,001 images", "V104": "a 2,049-character description", "V112": "33 tags", "N106": "1,001 articles",
    "O101": "50,001 sitemaps", "O103": "a clash only writing finds", "O104": "two descriptions built into one folder", "O105": "a link in the folder",
    "C120": "a build with lastmod: content", "D110": "two builds with a state", "F105": "a damaged state file", "F106": "a damaged manifest",
    "O108": "a state of another description", "O109": "50,001 URLs without output.html", "H118": "a built folder's _headers", "H119": "a 16 KiB header",
    "H120": "a built folder's _headers", "H121": "a built folder's _headers", "O106": "a build's output.headers",
    "O107": "a _headers the build did not write",
    **{code: "a live site" for code in REGISTRY if code.startswith("R")},
}


def _run(example: Example, text: str, folder: Path) -> list[tuple[str, str]]:
    folder.mkdir()
    for name, body in {example.name: example.document(text), **example.files}.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    bases = [f"{example.served_at}={folder}"] if example.served_at else []
    result = check([str(folder / name) for name in example.inputs()], now=NOW, base_urls=bases)
    return [(d.code, d.message) for d in result.collector.sorted()]


@pytest.mark.parametrize("code", sorted(examples()))
def test_the_failing_example_gives_its_code_and_the_passing_one_nothing(code: str, tmp_path: Path) -> None:
    example = examples()[code]
    failing = _run(example, example.failing, tmp_path / "failing")
    assert failing and {found for found, _ in failing} == {code, *example.also}, failing
    assert code in {found for found, _ in failing}
    assert _run(example, example.passing, tmp_path / "passing") == []


def test_every_code_has_an_example_or_a_reason() -> None:
    assert set(examples()) <= set(REGISTRY)
    assert set(examples()).isdisjoint(WITHOUT)
    assert sorted(set(REGISTRY) - set(examples()) - set(WITHOUT)) == []
    assert {code for code in checker_codes() if code not in WITHOUT} <= set(examples())


def test_rules_code_prints_the_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "X107"]) == 0
    text = capsys.readouterr().out
    assert "  failing (sitemap.xml, inside a <urlset> declaring the namespaces):\n    <url><lastmod>2026-11-01</lastmod></url>\n" in text
    assert "  passing:\n    <url><loc>https://www.example.com/</loc><lastmod>2026-11-01</lastmod></url>\n" in text
    assert main(["rules", "U107", "--format", "json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["examples"] == {"file": "sitemap.xml", "inside": "urlset", "served_at": "https://www.example.com/",
                                 "files": {}, "also": [], "failing": examples()["U107"].failing,
                                 "passing": examples()["U107"].passing}
    assert "  try: sitemap-ext check sitemap.xml --base-url https://www.example.com/=. --now 2026-11-21T12:00:00Z\n" in \
        main_text(["rules", "U107"], capsys)
    assert main(["rules", "F101"]) == 0
    assert "failing" not in capsys.readouterr().out


def main_text(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out
