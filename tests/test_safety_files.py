"""Issue "Safe where it guards deploys": every JSON and TOML file is read bounded
(sitemap_ext/structured.py), and a damaged file of our own (a manifest, a journal, a
cache entry) is set aside and rebuilt with a warning (F106), never a crash."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sitemap_ext import build
from sitemap_ext.folder import DAMAGED_SUFFIX, JOURNAL, MANIFEST

SITE = """\
site:
  base_url: https://www.example.com/
output:
  max_urls: 2
  html: {html}
pages:
{pages}
"""

DAMAGE = {
    "not JSON": b"{\"version\": 2, \"owners\": {",
    "too deep": b"[" * 100_000,
    "not UTF-8": b"\xff\xfe{}",
}


def describe(folder: Path, pages: int, *, html: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    listed = "\n".join(f"  - loc: /page-{i}/" for i in range(pages))
    path = folder / "site.yaml"
    path.write_text(SITE.format(pages=listed, html=str(html).lower()), encoding="utf-8")
    return path


def found(result: object) -> list[tuple[str, str | None]]:
    return [(d.code, d.file) for d in result.collector.sorted()]  # type: ignore[attr-defined]


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_the_build_after_a_damaged_manifest_succeeds_and_says_so(tmp_path: Path, damage: str) -> None:
    out = tmp_path / "out"
    first = build(str(describe(tmp_path, 5)), str(out))
    assert first.ok, found(first)
    assert (out / "sitemap-3.xml").is_file()
    (out / MANIFEST).write_bytes(DAMAGE[damage])
    (out / "mine.xml").write_text("a file of the site's own")
    # The site shrinks: sitemap-3.xml is stale, but no readable manifest says it is ours.
    again = build(str(describe(tmp_path, 3)), str(out))
    assert again.ok and found(again) == [("F106", str(out / MANIFEST))], found(again)
    message = again.collector.sorted()[0].message
    assert "set aside as " + MANIFEST + DAMAGED_SUFFIX in message and "left in place" in message
    assert (out / (MANIFEST + DAMAGED_SUFFIX)).read_bytes() == DAMAGE[damage]
    assert again.removed == [] and (out / "sitemap-3.xml").is_file() and (out / "mine.xml").is_file()
    manifest = json.loads((out / MANIFEST).read_text())
    assert sorted(manifest["owners"]["../site.yaml"]) == sorted(f.name for f in again.files)
    # And the build after that is a clean one, its manifest its own again.
    third = build(str(describe(tmp_path, 1)), str(out))
    assert third.ok and found(third) == [] and "sitemap-2.xml" in third.removed
    assert set(third.removed) <= set(manifest["owners"]["../site.yaml"])  # (only what the new manifest lists)
    assert (out / "sitemap-3.xml").is_file() and (out / "mine.xml").is_file()


def test_a_manifest_too_large_to_read_is_set_aside_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sitemap_ext import structured

    out = tmp_path / "out"
    assert build(str(describe(tmp_path, 2)), str(out)).ok
    monkeypatch.setattr(structured.read_json, "__defaults__", (100,))  # (a 64 MiB file, scaled down)
    (out / MANIFEST).write_text(json.dumps({"version": 2, "owners": {"x": ["a" * 200]}}))
    again = build(str(describe(tmp_path, 2)), str(out))
    assert again.ok and found(again) == [("F106", str(out / MANIFEST))]
    message = again.collector.sorted()[0].message
    assert "larger than 100 bytes" in message, message


def test_a_damaged_journal_is_set_aside_and_the_build_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert build(str(describe(tmp_path, 3)), str(out)).ok
    (out / JOURNAL).write_bytes(b"[" * 100_000)
    again = build(str(describe(tmp_path, 3)), str(out))
    assert again.ok and found(again) == [("F106", str(out / JOURNAL))], found(again)
    assert not (out / JOURNAL).exists() and (out / (JOURNAL + DAMAGED_SUFFIX)).is_file()
    assert again.removed == [] and json.loads((out / MANIFEST).read_text())["version"] == 2


def test_the_command_line_says_so_and_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sitemap_ext.cli import main

    out = tmp_path / "out"
    site = describe(tmp_path, 3)
    assert main(["build", str(site), "-o", str(out), "--no-config"]) == 0
    (out / MANIFEST).write_text("not json")
    assert main(["build", str(site), "-o", str(out), "--no-config"]) == 0
    captured = capsys.readouterr()
    assert "F106" in captured.out and "Traceback" not in captured.err
    assert os.path.isfile(out / "sitemap.xml")


def test_a_damaged_cache_entry_is_removed_fetched_whole_and_reported(tmp_path: Path) -> None:
    pytest.importorskip("httpx")
    from sitemap_ext import check
    from sitemap_ext.read.http import FetchOptions
    from tests.live_server import Server

    server = Server()
    try:
        body = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                f'<url><loc>{server.url}/a</loc></url></urlset>\n').encode()
        server.add("/sitemap.xml", body=body, etag='"v1"')
        server.add("/robots.txt", status=404, body=b"")
        cache = tmp_path / "cache"
        options = FetchOptions(timeout=2.0, allow_private=True, cache=str(cache))
        assert found(check([server.url + "/sitemap.xml"], fetch=options)) == []
        [entry] = cache.glob("*.json")
        entry.write_bytes(b"[" * 100_000)
        server.requests.clear()
        again = check([server.url + "/sitemap.xml"], fetch=options)
        assert found(again) == [("F106", str(entry))] and "nests deeper than 64" in again.collector.sorted()[0].message
        asked = [headers.get("if-none-match") for path, headers in server.requests if path == "/sitemap.xml"]
        assert asked == [None]  # fetched whole, and kept anew
        assert json.loads(entry.read_text())["etag"] == '"v1"'
        assert found(check([server.url + "/sitemap.xml"], fetch=options)) == []
    finally:
        server.close()


# --- config files: read bounded, and one that is no TOML is a usage error wherever found ---

URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
          "<url><loc>https://e.com/a</loc></url></urlset>\n")


def _check_in(folder: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    from sitemap_ext.cli import main

    (folder / "s.xml").write_text(URLSET)
    code = main(["check", str(folder / "s.xml"), "-q", *extra])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("name", ["sitemap-ext.toml", "pyproject.toml"])
@pytest.mark.parametrize("content, says", [
    ("a = " + "[" * 100_000, "not valid TOML: nests deeper than 64 levels"),
    ('[tool.sitemap-ext]\nselect = ["D"\n', "not valid TOML"),
    ("[tool.sitemap-ext]\nignore = \xff\n", "not valid TOML: not UTF-8"),
])
def test_a_config_that_is_no_toml_is_a_usage_error_naming_the_file_and_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str,
        content: str, says: str) -> None:
    """Found upward or named: an invalid pyproject.toml was passed over silently when
    looked for (its settings dropped), and nesting ended in a RecursionError."""
    (tmp_path / name).write_bytes(content.encode("utf-8", "surrogateescape").replace(b"\xc3\xbf", b"\xff"))
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    for extra in ([], ["--config", str(tmp_path / name)]):
        code, err = _check_in(work, capsys, *extra)
        assert code == 2 and f"{tmp_path / name}:" in err and says in err and "Traceback" not in err, err
    assert _check_in(work, capsys, "--no-config")[0] == 0


def test_a_config_is_read_to_its_limit_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with open(tmp_path / "sitemap-ext.toml", "wb") as handle:
        handle.truncate((1 << 20) + 1)  # (sparse: a byte past the limit, costing no disk)
    monkeypatch.chdir(tmp_path)
    code, err = _check_in(tmp_path, capsys)
    assert code == 2 and "sitemap-ext.toml: it is larger than 1,048,576 bytes" in err, err
    os.remove(tmp_path / "sitemap-ext.toml")
    os.mkfifo(tmp_path / "sitemap-ext.toml")  # named: refused unread, no hang
    code, err = _check_in(tmp_path, capsys, "--config", "sitemap-ext.toml")
    assert code == 2 and "FIFO" in err, err


# --- a YAML of millions of scalars: counted on its events, before anything is composed ---

@pytest.mark.parametrize("shape", ["flow", "block"])
def test_five_mb_of_scalars_is_c110_at_the_node_past_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               shape: str) -> None:
    """2.5 million scalars in 5 MB (a flow sequence) or 1.25 million (a block of '- a'
    lines): composed in Python, that took 50 s and 600 MB before C110 (at 1:1). Now the
    events are counted first (tests/README: about 1.5 s and 60 MB); nothing is composed."""
    from sitemap_ext import check
    from sitemap_ext.limits import MAX_YAML_NODES
    from sitemap_ext.read import yaml_doc

    head = "site:\n  base_url: https://e.com/\npages:"
    if shape == "flow":
        text = head + " [" + "a," * 2_500_000 + "a]\n"
        where = (3, 9 + 2 * (MAX_YAML_NODES - 7))  # (seven nodes before the list's first scalar)
    else:
        text = head + "\n" + "- a\n" * 1_250_000
        where = (4 + MAX_YAML_NODES - 7, 3)
    assert len(text) >= 5_000_000
    (tmp_path / "site.yaml").write_text(text)
    monkeypatch.setattr(yaml_doc._Loader, "compose_node", None)  # composing at all would fail the test
    result = check([str(tmp_path / "site.yaml")])
    assert [(d.code, d.line, d.column) for d in result.collector.sorted()] == [("C110", *where)]
    assert f"more than {MAX_YAML_NODES:,} nodes" in result.collector.sorted()[0].message


def test_the_node_limit_holds_a_description_of_50000_pages() -> None:
    """What the limit is measured against: 50,000 pages with translated slugs in five
    locales and a lastmod (the international example's shape) is 750,007 nodes."""
    from sitemap_ext.limits import MAX_YAML_NODES
    from sitemap_ext.read.yaml_events import past_node_limit

    page = ("  - urls: {en: /en/p, de-DE: /de/p, de-AT: /at/p, fr-FR: /fr/p, fr-CH: /ch/p}\n"
            "    lastmod: 2026-11-12\n")
    text = "site:\n  base_url: https://e.com/\npages:\n" + page * 50_000
    assert past_node_limit(text) is None and past_node_limit(text, 750_007) is None
    assert past_node_limit(text, 750_006) == (100_003, 14) and MAX_YAML_NODES >= 750_007
