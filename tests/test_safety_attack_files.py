"""Files planted where sitemap-ext keeps its own: a commit journal whose staging
folder or sources lead out of the output folder, a --cache entry whose body is a link
or whose validators are no header values, a link at a baseline's temporary name, and a
manifest in a checked folder that would hide a sitemap."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitemap_ext import build, check
from sitemap_ext.cli import main
from sitemap_ext.folder import DAMAGED_SUFFIX, JOURNAL, MANIFEST, STATE_NEW
from sitemap_ext.read.http_types import FetchOptions

from .live_server import Server
from .test_safety_output import describe


def found(result: object) -> list[tuple[str, str | None]]:
    return [(d.code, d.file) for d in result.collector.sorted()]  # type: ignore[attr-defined]


# --- 1. a planted commit journal moves nothing from outside the output folder ----------

def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victimdir"
    (victim / "sub").mkdir(parents=True)
    (victim / "id_rsa").write_text("SECRET KEY")
    (victim / "sub" / "id_rsa").write_text("SECRET KEY")
    return victim


def _plant(out: Path, stage: str, moves: list[list[str]], **extra: object) -> None:
    manifest = json.loads((out / MANIFEST).read_text())
    (out / JOURNAL).write_text(json.dumps({"stage": stage, "moves": moves, "remove": [], "manifest": manifest,
                                           **extra}))


def _stage_is_a_link(out: Path, victim: Path) -> tuple[str, list[list[str]]]:
    (out / ".sitemap-ext-stage-evil").symlink_to(victim)
    return ".sitemap-ext-stage-evil", [["id_rsa", "leak.txt"]]


def _folder_in_stage_is_a_link(out: Path, victim: Path) -> tuple[str, list[list[str]]]:
    (out / ".sitemap-ext-stage-evil").mkdir()
    (out / ".sitemap-ext-stage-evil" / "host").symlink_to(victim / "sub")
    return ".sitemap-ext-stage-evil", [["host/id_rsa", "leak.txt"]]


def _source_is_a_link(out: Path, victim: Path) -> tuple[str, list[list[str]]]:
    (out / ".sitemap-ext-stage-evil").mkdir()
    (out / ".sitemap-ext-stage-evil" / "id_rsa").symlink_to(victim / "id_rsa")
    return ".sitemap-ext-stage-evil", [["id_rsa", "leak.txt"]]


def _stage_is_a_file(out: Path, victim: Path) -> tuple[str, list[list[str]]]:
    (out / ".sitemap-ext-stage-evil").write_text("no folder")
    return ".sitemap-ext-stage-evil", [["id_rsa", "leak.txt"]]


PLANTED = {"stage is a link": _stage_is_a_link, "folder in the stage is a link": _folder_in_stage_is_a_link,
           "source is a link": _source_is_a_link, "stage is a file": _stage_is_a_file}


@pytest.mark.parametrize("planted", sorted(PLANTED))
def test_a_planted_journal_moves_nothing_from_outside_the_output_folder(tmp_path: Path, planted: str) -> None:
    out = tmp_path / "out"
    site = describe(tmp_path / "site", pages=3)
    assert build(str(site), str(out)).ok
    victim = _victim(tmp_path)
    stage, moves = PLANTED[planted](out, victim)
    # A good move listed first: refused with the rest, as nothing of the journal is moved.
    if (out / stage).is_dir() and not (out / stage).is_symlink():
        (out / stage / "ok.xml").write_text("x")
    _plant(out, stage, [["ok.xml", "ok.xml"], *moves])
    again = build(str(site), str(out))
    assert again.ok and found(again) == [("F106", str(out / JOURNAL))], found(again)
    assert "not a f" in again.collector.sorted()[0].message
    assert (victim / "id_rsa").read_text() == "SECRET KEY" and (victim / "sub" / "id_rsa").read_text() == "SECRET KEY"
    assert not os.path.lexists(out / "leak.txt") and not os.path.lexists(out / "ok.xml")
    assert (out / (JOURNAL + DAMAGED_SUFFIX)).is_file() and not (out / JOURNAL).exists()
    assert not (out / ".sitemap-ext-stage-evil").is_symlink()  # (a link at a stage's name is removed, not followed)


def test_the_reproducer_through_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out2"
    site = describe(tmp_path / "site", pages=3)
    assert main(["build", str(site), "-o", str(out), "--no-config"]) == 0
    victim = _victim(tmp_path)
    (out / ".sitemap-ext-stage-evil").symlink_to(victim)
    _plant(out, ".sitemap-ext-stage-evil", [["id_rsa", "leak.txt"]])
    capsys.readouterr()
    assert main(["build", str(site), "-o", str(out), "--no-config"]) == 0
    assert "F106" in capsys.readouterr().out
    assert (victim / "id_rsa").read_text() == "SECRET KEY" and not os.path.lexists(out / "leak.txt")


def test_a_planted_journal_moves_no_link_in_place_of_the_build_state(tmp_path: Path) -> None:
    out = tmp_path / "out"
    site = describe(tmp_path / "site", pages=3)
    assert build(str(site), str(out)).ok
    victim = _victim(tmp_path)
    state = tmp_path / "state.sqlite"
    Path(str(state) + STATE_NEW).symlink_to(victim / "id_rsa")
    _plant(out, ".sitemap-ext-stage-gone", [], state=[str(state) + STATE_NEW, str(state)])
    again = build(str(site), str(out))
    assert found(again) == [("F106", str(out / JOURNAL))], found(again)
    assert not os.path.lexists(state) and (victim / "id_rsa").read_text() == "SECRET KEY"


def test_a_journal_a_build_wrote_is_still_finished(tmp_path: Path) -> None:
    """The staging folder of a killed build, its files in a host folder: moved in place."""
    out = tmp_path / "out"
    site = describe(tmp_path / "site", pages=3)
    assert build(str(site), str(out)).ok
    stage = out / ".sitemap-ext-stage-abc"
    (stage / "de").mkdir(parents=True)
    (stage / "de" / "x.xml").write_text("staged")
    _plant(out, stage.name, [["de/x.xml", "de/x.xml"], ["gone.xml", "gone.xml"]])
    again = build(str(site), str(out))
    assert again.ok and again.recovered and found(again) == []
    assert (out / "de" / "x.xml").read_text() == "staged" and not stage.exists()


# --- 2. a --cache entry: its body never read through a link, its values checked --------

def _urlset(*urls: str) -> bytes:
    rows = "".join(f"<url><loc>{url}</loc></url>" for url in urls)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"{rows}</urlset>\n").encode()


@pytest.fixture
def cached(tmp_path: Path) -> Iterator[tuple[Server, FetchOptions, Path, Path]]:
    """A sitemap served with an ETag, fetched once into a cache: (server, options, the
    entry's JSON, its body)."""
    server = Server()
    try:
        server.add("/sitemap.xml", body=_urlset(server.url + "/a"), etag='"v1"')
        server.add("/robots.txt", status=404, body=b"")
        options = FetchOptions(timeout=2.0, allow_private=True, cache=str(tmp_path / "cache"))
        assert found(check([server.url + "/sitemap.xml"], fetch=options)) == []
        [entry] = (tmp_path / "cache").glob("*.json")
        server.requests.clear()
        yield server, options, entry, entry.with_suffix(".body")
    finally:
        server.close()


def _asked(server: Server) -> list[str | None]:
    return [headers.get("if-none-match") for path, headers in server.requests if path == "/sitemap.xml"]


def test_a_cached_body_behind_a_link_is_never_read(cached: tuple[Server, FetchOptions, Path, Path],
                                                   tmp_path: Path) -> None:
    server, options, entry, body = cached
    victim = tmp_path / "victim.xml"
    victim.write_bytes(_urlset("https://secret.example.org/private-token"))
    body.unlink()
    body.symlink_to(victim)
    again = check([server.url + "/sitemap.xml"], fetch=options)
    assert found(again) == [("F106", str(entry))], found(again)
    assert "its body is a symbolic link" in again.collector.sorted()[0].message
    assert _asked(server) == [None]  # fetched whole, never answered from the victim
    assert "secret.example.org" not in json.dumps([d.message for d in again.collector.diagnostics])
    assert victim.read_bytes().startswith(b"<?xml") and not body.is_symlink()
    server.requests.clear()
    assert found(check([server.url + "/sitemap.xml"], fetch=options)) == [] and _asked(server) == ['"v1"']


def test_a_cached_body_that_is_no_regular_file_is_removed(cached: tuple[Server, FetchOptions, Path, Path]) -> None:
    server, options, entry, body = cached
    body.unlink()
    os.mkfifo(body)  # (opened without blocking, and refused)
    again = check([server.url + "/sitemap.xml"], fetch=options)
    assert found(again) == [("F106", str(entry))] and "FIFO" in again.collector.sorted()[0].message
    assert _asked(server) == [None]


def test_a_body_swapped_for_a_link_after_lookup_is_not_read(
        cached: tuple[Server, FetchOptions, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 304 reuses the file opened at lookup, not whatever its name holds by then."""
    from sitemap_ext.read import http_cache

    server, options, _, body = cached
    victim = tmp_path / "victim.xml"
    victim.write_bytes(_urlset("https://secret.example.org/private-token"))
    looked_up = http_cache.Cache.lookup

    def swap(self: http_cache.Cache, url: str) -> object:
        kept = looked_up(self, url)
        body.unlink()
        body.symlink_to(victim)
        return kept

    monkeypatch.setattr(http_cache.Cache, "lookup", swap)
    again = check([server.url + "/sitemap.xml"], fetch=options)
    assert _asked(server) == ['"v1"']
    assert found(again) == []  # (the victim's URL, read, would be U107: on another host)


BAD_VALIDATORS = {"a number": 5, "a list": [], "an object": {}, "true": True, "CR LF": '"v1"\r\nX-Evil: 1',
                  "NUL": '"v1"\x00', "not ASCII": '"v\u00e9"'}


@pytest.mark.parametrize("key", ["etag", "last_modified"])
@pytest.mark.parametrize("bad", sorted(BAD_VALIDATORS))
def test_a_cache_entry_whose_validator_is_no_header_value_is_removed(
        cached: tuple[Server, FetchOptions, Path, Path], key: str, bad: str) -> None:
    server, options, entry, _ = cached
    data = json.loads(entry.read_text())
    data[key] = BAD_VALIDATORS[bad]
    entry.write_text(json.dumps(data))
    again = check([server.url + "/sitemap.xml"], fetch=options)
    assert found(again) == [("F106", str(entry))], found(again)
    assert "cannot be sent as a header value" in again.collector.sorted()[0].message
    assert _asked(server) == [None] and json.loads(entry.read_text())["etag"] == '"v1"'  # kept anew
    server.requests.clear()
    assert found(check([server.url + "/sitemap.xml"], fetch=options)) == [] and _asked(server) == ['"v1"']


@pytest.mark.parametrize("status", ["200", 304, True, 200.0, None])
def test_a_cache_entry_whose_status_is_no_2xx_number_is_removed(
        cached: tuple[Server, FetchOptions, Path, Path], status: object) -> None:
    server, options, entry, _ = cached
    data = json.loads(entry.read_text())
    data["status"] = status
    entry.write_text(json.dumps(data))
    again = check([server.url + "/sitemap.xml"], fetch=options)
    assert found(again) == [("F106", str(entry))] and _asked(server) == [None]


def test_a_validator_that_cannot_be_sent_back_is_not_kept(tmp_path: Path) -> None:
    from sitemap_ext.read.http_cache import Cache
    from sitemap_ext.read.http_types import Fetched

    body = tmp_path / "body"
    body.write_bytes(b"x")
    cache = Cache(str(tmp_path / "cache"))
    fetched = Fetched("https://www.example.com/s.xml", status=200, path=str(body))
    fetched.headers = {"etag": '"v\u00e9"'}
    cache.store(fetched.url, fetched)
    assert os.listdir(tmp_path / "cache") == []
    fetched.headers = {"etag": '"v1"'}
    cache.store(fetched.url, fetched)
    kept = cache.lookup(fetched.url)
    assert kept is not None and kept.validators() == {"If-None-Match": '"v1"'} and cache.damaged == []
    kept.close()


# --- 4. a manifest in a checked folder hides no sitemap -----------------------------------

BAD = _urlset("https://www.example.com/a", "not a url")  # U101 (an error)
GOOD = _urlset("https://www.example.com/b")


def _index(*names: str) -> bytes:
    rows = "".join(f"<sitemap><loc>https://www.example.com/{name}</loc></sitemap>" for name in names)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"{rows}</sitemapindex>\n").encode()


def _folder(tmp_path: Path, files: dict[str, bytes], retained: list[str]) -> Path:
    folder = tmp_path / "public"
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    (folder / MANIFEST).write_text(json.dumps({"version": 2, "owners": {}, "retained": {"x": retained}}))
    return folder


def test_a_planted_manifest_hides_no_sitemap_from_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path, {"sitemap-bad.xml": BAD, "sitemap-good.xml": GOOD}, ["sitemap-bad.xml"])
    assert main(["check", str(folder), "--no-config", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert {(d["code"], os.path.basename(d["file"])) for d in report["diagnostics"]} == {("U101", "sitemap-bad.xml")}
    assert report["summary"].get("skipped", []) == []


def test_a_planted_manifest_hides_no_sitemap_from_diff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = tmp_path / "old"
    old.mkdir()
    (old / "sitemap-good.xml").write_bytes(GOOD)
    folder = _folder(tmp_path, {"sitemap-bad.xml": BAD, "sitemap-good.xml": GOOD}, ["sitemap-bad.xml"])
    assert main(["diff", str(old), str(folder), "--no-config"]) == 1  # NEW has errors OLD did not have
    assert "U101" in capsys.readouterr().out


def test_a_sitemap_an_index_lists_is_checked_whatever_its_name(tmp_path: Path) -> None:
    name = "sitemap-1.0123456789.xml"  # named as a versioned build names, and listed as retained
    folder = _folder(tmp_path, {"sitemap.xml": _index(name), name: BAD}, [name])
    report = check([str(folder)])
    assert [(d.code, os.path.basename(d.file or "")) for d in report.collector.sorted()] == [("U101", name)]
    assert report.skipped == []


def test_only_a_versioned_name_no_index_lists_is_passed_over_and_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    kept = "sitemap-2.89abcdef01.xml"
    _folder(tmp_path, {"sitemap.xml": _index("sitemap-1.0123456789.xml"), "sitemap-1.0123456789.xml": GOOD,
                       kept: BAD, "other.xml": _urlset("https://www.example.com/c")},
            [kept, "other.xml", "sitemap-1.0123456789.xml"])
    report = check(["public"])
    assert report.ok and report.collector.sorted() == []
    assert report.skipped == [os.path.join("public", kept)]
    checked = sorted(os.path.basename(str(f["file"])) for f in report.files)
    assert checked == ["other.xml", "sitemap-1.0123456789.xml", "sitemap.xml"]


def test_a_versioned_builds_previous_files_are_still_passed_over(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = Path("out")
    site = describe(Path("site"), pages=5)
    site.write_text(site.read_text().replace("output:\n", "output:\n  versioned: true\n"))
    assert build(str(site), str(out)).ok
    site.write_text(site.read_text().replace("/site/page-4/", "/site/page-four/"))
    assert build(str(site), str(out)).ok
    [previous] = json.loads((out / MANIFEST).read_text())["retained"].values()
    assert len(previous) == 1 and (out / previous[0]).is_file()
    report = check([str(out)])
    assert report.ok and report.collector.sorted() == []  # (read, the old file's URLs would be U104 twice)
    assert report.skipped == [os.path.join("out", previous[0])]


# --- a journal's state move: from a build state to a build state, nothing else ---------

def test_a_planted_state_move_replaces_no_file_of_anothers(tmp_path: Path) -> None:
    """The journal's build-state move once renamed any X.sitemap-ext-new to X anywhere
    on disk (found by a review): it moves a build state onto a build state, or nothing."""
    out = tmp_path / "out"
    site = describe(tmp_path / "site", pages=3)
    assert build(str(site), str(out)).ok
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "data.txt").write_text("precious")
    (victim / ("data.txt" + STATE_NEW)).write_text("attacker")
    _plant(out, ".sitemap-ext-stage-x", [], state=[str(victim / ("data.txt" + STATE_NEW)), str(victim / "data.txt")])
    again = build(str(site), str(out))
    assert again.ok and found(again) == [("F106", str(out / JOURNAL))], found(again)
    assert "not from a build state to a build state" in again.collector.sorted()[0].message
    assert (victim / "data.txt").read_text() == "precious"


def test_a_journal_whose_state_is_null_is_finished(tmp_path: Path) -> None:
    """``"state": null`` passed the journal's check, then ended every later build in a
    TypeError (found by a review)."""
    out = tmp_path / "out"
    site = describe(tmp_path / "site", pages=3)
    assert build(str(site), str(out)).ok
    _plant(out, ".sitemap-ext-stage-x", [], state=None)
    again = build(str(site), str(out))
    assert again.ok and again.recovered and found(again) == [], found(again)
    assert not (out / JOURNAL).exists()
