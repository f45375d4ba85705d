"""Issue 28, point 3: `rules CODE` shows a failing and a passing example of each code,
kept in the catalogue itself (specs/rules.md, its Examples part: one ```yaml example
CODE block a code). Each example is run through the real check here: every failing
example gives exactly its code (and no other), every passing example no finding at
all. A block that is no example fails here, with its line, rather than being skipped.

Adding a code touches three files: the module that reports it, its row in
sitemap_ext/code_table.py, and specs/rules.md (its row, its text and its example)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st

from sitemap_ext import check
from sitemap_ext.cli import main
from sitemap_ext.codes import REGISTRY
from sitemap_ext.rules.examples import NOW, CatalogueError, Example, catalogue, examples, parse
from sitemap_ext.rules.rule_set import checker_codes

from .conftest import ROOT

# Codes with no example, and why (each also named in the catalogue's Examples part).
WITHOUT = {
    "F101": "an unreadable file", "F102": "an unwritable folder", "F103": "a concurrent build",
    "F104": "no input at all", "X108": "50,001 entries", "X109": "a 50 MiB file", "X114": "gzip bytes",
    "X117": "a file and its gzip copy", "U103": "a 2,048-character URL", "U116": "a file name not UTF-8",
    "H117": "a 1 MiB head", "S106": "bytes that are not UTF-8", "S109": "a 1 MiB line",
    "I102": "1,001 images", "V104": "a 2,049-character description", "V112": "33 tags", "N106": "1,001 articles",
    "O101": "50,001 sitemaps", "O103": "a clash only writing finds", "O104": "two descriptions built into one folder", "O105": "a link in the folder",
    "C120": "a build with lastmod: content", "D110": "two builds with a state", "F105": "a damaged state file", "F106": "a damaged manifest",
    "F107": "a full disk",
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
    where = "a ```yaml example CODE block in specs/rules.md's Examples part"
    assert set(examples()) <= set(REGISTRY), f"an example of a code not in sitemap_ext/code_table.py ({where})"
    assert set(examples()).isdisjoint(WITHOUT)
    assert sorted(set(REGISTRY) - set(examples()) - set(WITHOUT)) == [], \
        f"a code without an example: add {where}, or its reason to WITHOUT here"
    assert {code for code in checker_codes() if code not in WITHOUT} <= set(examples())
    preamble = catalogue().read_text(encoding="utf-8").split("\n## Examples\n", 1)[1].split("\n### ", 1)[0]
    named = set(re.findall(r"\b[A-Z]\d{3}\b", preamble))
    assert sorted(code for code in WITHOUT if code not in named and f" {code[0]} (" not in preamble) == [], \
        "a code without an example is named, with the reason, in the Examples part's preamble"


def test_the_examples_are_the_catalogue_s_blocks() -> None:
    """In a checkout the catalogue is specs/rules.md beside the package (an installed
    package, a wheel's or the compiled engine's of tests/test_compiled.py, carries its
    copy as sitemap_ext/specs/rules.md); each of its example blocks is one example."""
    found = catalogue()
    assert found == ROOT / "specs" / "rules.md" or (
        found.parts[-3:] == ("sitemap_ext", "specs", "rules.md")
        and found.read_bytes() == (ROOT / "specs" / "rules.md").read_bytes())
    text = found.read_text(encoding="utf-8")
    assert text.count("\n```yaml example ") == len(examples()) > 100
    part = text.split("\n## Examples\n", 1)[1]
    assert "\n## " not in part and "```yaml example X107\n" in part
    assert examples()["X107"].failing == "<url><lastmod>2026-11-01</lastmod></url>\n"
    assert examples()["C101"].name == "site.yaml" and examples()["U107"].served_at == "https://www.example.com/"


BLOCK = "## Examples\n\nSome prose.\n\n```yaml example X101\nfailing: |\n  <a/>\npassing: |\n  <b/>\n```\n"


@pytest.mark.parametrize(("text", "error"), [
    (BLOCK.replace("passing: |\n  <b/>", "passing: [<b/>"),
     "specs/rules.md:5: the example of X101 is no YAML (line 9): expected ',' or ']'"),
    (BLOCK.replace("passing:", "pasing:"),
     "specs/rules.md:5: the example of X101 has a key 'pasing'; its keys are failing, passing, name, files,"),
    (BLOCK.replace("passing: |\n  <b/>\n", ""), "specs/rules.md:5: the example of X101 has no passing"),
    (BLOCK.replace("failing: |\n  <a/>", "failing: [a]"), "specs/rules.md:5: the example of X101: failing is a str,"),
    (BLOCK.replace("```yaml example X101", "```yaml"),
     "specs/rules.md:5: a block of the examples opens with ```yaml example CODE, not ```yaml"),
    (BLOCK.replace("```yaml example X101", "```yml example X101"), "specs/rules.md:5: a block of the examples"),
    (BLOCK + BLOCK.split("\n\n", 2)[2], "specs/rules.md:11: a second example of X101"),
    (BLOCK.removesuffix("```\n"), "specs/rules.md:5: a block that is never closed"),
    ("# Rule catalogue\n\n```yaml example X101\n- a list\n```\n" + BLOCK,
     "specs/rules.md:3: the example of X101 is no mapping of failing, passing,"),
])
def test_a_block_that_is_no_example_is_an_error_at_its_line(text: str, error: str) -> None:
    with pytest.raises(CatalogueError) as raised:
        parse(text)
    assert str(raised.value).startswith(error), str(raised.value)


def test_blocks_outside_the_examples_part_are_prose() -> None:
    text = "# Rule catalogue\n\n```xml\n<url/>\n```\n\n" + BLOCK + "\n## After\n\n```sh\nls\n```\n"
    assert list(parse(text)) == ["X101"]
    assert parse(text)["X101"] == Example(code="X101", failing="<a/>\n", passing="<b/>\n", name="sitemap.xml")


_TEXTS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")) | st.sampled_from("\n`~"), max_size=40)


@given(failing=_TEXTS, passing=_TEXTS, files=st.dictionaries(st.from_regex(r"[a-z]{1,8}\.html", fullmatch=True), _TEXTS,
                                                              max_size=2),
       also=st.lists(st.from_regex(r"[A-Z][0-9]{3}", fullmatch=True), max_size=2))
@example(failing="<a>\n```\n~~~\n````\n</a>\n", passing="```yaml example X101\n", files={"a.html": "## Examples\n"},
         also=[])
def test_an_example_written_as_a_block_reads_back_as_written(failing: str, passing: str, files: dict[str, str],
                                                             also: list[str]) -> None:
    """Whatever an example holds (backticks, tildes, lines like a fence), a block fenced
    longer than any run inside it gives it back."""
    mapping: dict[str, object] = {"failing": failing, "passing": passing, "name": "site.yaml", "files": files,
                                  "served_at": "https://www.example.com/", "also": also}
    body = yaml.safe_dump(mapping, allow_unicode=True, sort_keys=False)
    fence = "`" * max([3, *(len(line.strip()) + 1 for line in body.splitlines() if set(line.strip()) == {"`"})])
    text = f"## Examples\n\n{fence}yaml example C101\n{body}{fence}\n"
    assert parse(text) == {"C101": Example(code="C101", failing=failing, passing=passing, name="site.yaml",
                                           files=files, served_at="https://www.example.com/", also=tuple(also))}


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
