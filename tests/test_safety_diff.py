"""A diff guards deploys: it never compares against a side it did not read whole.

A side that is a maintenance page, a JSON error body, an empty or UTF-16 body, an index
whose children are missing or answer 404 or 500, or no sitemap at all, is no set of
sitemaps: diffed, OLD would seem empty (every URL "added", none removed, the guard
passed on the very day it is there for) and NEW would seem to drop what it did not
read. Each such side stops the diff with exit 3 and its findings (file and code), OLD
or NEW, a file or a URL served on 127.0.0.1, whatever --select or --ignore shows. What
makes a side not whole is its findings' codes' own declaration (``Code.unread``,
``Code.io``), checked here against the catalogue as a whole.
"""

from __future__ import annotations

import io
import json
import os
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from sitemap_ext import diff
from sitemap_ext.cli import main
from sitemap_ext.codes import REGISTRY

NOW = "2026-11-21T00:00:00Z"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
URLS = ["https://www.example.com/a", "https://www.example.com/b"]


def urlset(*urls: str) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n'
            + "".join(f"<url><loc>{url}</loc></url>\n" for url in urls) + "</urlset>\n").encode()


def index(*locs: str) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex {NS}>\n'
            + "".join(f"<sitemap><loc>{loc}</loc></sitemap>\n" for loc in locs) + "</sitemapindex>\n").encode()


MAINTENANCE = b"<!DOCTYPE html>\n<html><head><title>Down for maintenance</title></head><body>Back soon</body></html>\n"
BODIES = {  # what a server or a deploy step leaves where the sitemap was: (body, the code that says so)
    "maintenance": (MAINTENANCE, "X102"),
    "maintenance-bare": (b"<html><body>502 Bad Gateway</body></html>\n", "X104"),
    "json-error": (b'{"error": "Service Unavailable", "status": 503}\n', "X115"),
    "empty": (b"", "X115"),
    "utf-16": (urlset(*URLS).decode().replace("UTF-8", "UTF-16").encode("utf-16"), "X103"),
    "empty-urlset": (urlset(), "X115"),
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def assert_stops(bad: str, good: str, codes: list[tuple[str, str]], *extra: str) -> None:
    """``bad`` as OLD, then as NEW: exit 3, nothing on stdout, each (code, file) on
    stderr, the side named; with --fail-on-removed, the guard's own flag."""
    for argv, label in (((bad, good), "OLD"), ((good, bad), "NEW")):
        exit_code, out, err = run("diff", *argv, "--now", NOW, "--fail-on-removed", "5", "-q", *extra)
        assert (exit_code, out) == (3, ""), err
        for code, file in codes:
            assert f"{file}" in err and f" {code} " in err, err
        assert f"sitemap-ext diff: {label} {bad} is not a whole, readable set of sitemaps\n" in err
        assert err.endswith("sitemap-ext diff: a side could not be read; no diff was made\n")


@pytest.fixture()
def good(tmp_path: Path) -> str:
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "sitemap.xml").write_bytes(urlset(*URLS))
    return str(tmp_path / "good" / "sitemap.xml")


# --- file sides --------------------------------------------------------------------------

@pytest.mark.parametrize("case", sorted(BODIES))
def test_a_file_that_is_no_sitemap_stops_the_diff(tmp_path: Path, good: str, case: str) -> None:
    body, code = BODIES[case]
    bad = tmp_path / "sitemap.xml"
    bad.write_bytes(body)
    result = diff(bad, good, now=NOW, fail_on_removed=5)
    assert [d.code for d in result.unreadable] == [code] and not result.ok
    assert len(result.added) == 0 and result.failures == []  # (no diff was made)
    assert_stops(str(bad), good, [(code, str(bad))])


def test_an_index_whose_children_are_missing_files_stops_the_diff(tmp_path: Path, good: str) -> None:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "sitemap_index.xml").write_bytes(index("https://www.example.com/s1.xml",
                                                     "https://www.example.com/s2.xml"))
    (folder / "s1.xml").write_bytes(urlset(URLS[0]))  # s2.xml is missing: half the site
    assert_stops(str(folder), good, [("X111", "site/sitemap_index.xml:4")])
    assert_stops(str(folder / "sitemap_index.xml"), good, [("X111", "sitemap_index.xml:4")],
                 "--base-url", f"https://www.example.com/={folder}")


def test_an_index_child_that_is_a_maintenance_page_stops_the_diff(tmp_path: Path, good: str) -> None:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "sitemap_index.xml").write_bytes(index("https://www.example.com/s1.xml",
                                                     "https://www.example.com/s2.xml"))
    (folder / "s1.xml").write_bytes(urlset(URLS[0]))
    (folder / "s2.xml").write_bytes(MAINTENANCE)
    assert_stops(str(folder), good, [("X102", "s2.xml:1")])


def test_a_folder_that_holds_no_sitemap_stops_the_diff(tmp_path: Path, good: str) -> None:
    """Built pages and a robots.txt, no sitemap: nothing lists a URL."""
    folder = tmp_path / "public"
    folder.mkdir()
    (folder / "index.html").write_text('<!DOCTYPE html><html lang="en"><head><link rel="alternate" hreflang="en" '
                                       'href="https://www.example.com/"></head></html>\n', encoding="utf-8")
    (folder / "robots.txt").write_text("User-agent: *\nAllow: /\n", encoding="utf-8")
    assert_stops(str(folder), good, [("F104", str(folder))], "--base-url", f"https://www.example.com/={folder}")
    (folder / "index.html").unlink()
    assert_stops(str(folder), good, [("F104", str(folder))])


def test_a_missing_side_stops_the_diff(tmp_path: Path, good: str) -> None:
    assert_stops(str(tmp_path / "gone.xml"), good, [("F101", "gone.xml")])


@pytest.mark.parametrize("flag", [["--ignore", "X115"], ["--select", "D101"], ["--ignore", "X"],
                                  ["--severity", "X115=info"]])
def test_what_is_shown_does_not_make_a_side_whole(tmp_path: Path, good: str, flag: list[str]) -> None:
    """--select, --ignore and --severity say what is reported, not what was read."""
    bad = tmp_path / "sitemap.xml"
    bad.write_bytes(b"")
    assert_stops(str(bad), good, [("X115", str(bad))], *flag)


def test_a_whole_side_is_still_diffed(tmp_path: Path, good: str) -> None:
    """The control: whole sides diff, and the guard fails on what NEW drops."""
    (tmp_path / "new.xml").write_bytes(urlset(URLS[0]))
    code, out, _ = run("diff", good, str(tmp_path / "new.xml"), "--now", NOW, "--fail-on-removed", "5", "-q")
    assert code == 1 and f"  - {URLS[1]}\n" in out


def test_the_codes_that_make_a_side_unread_are_declared_so() -> None:
    """Every code that says a file given or listed was not read whole as a sitemap is
    declared so in its module; no code of a finding about a value is. (A new reader's
    rejection code joins by its declaration, not by a list in the diff.)"""
    unread = {code for code, entry in REGISTRY.items() if entry.unread or entry.io}
    assert unread == {"F101", "F102", "F103", "F104", "F105", "X101", "X102", "X103", "X104", "X109", "X110",
                      "X111", "X114", "X115", "R101", "R102", "R104", "R106", "R108", "R110",
                      # (a description's: a diff refuses descriptions; they matter to baselines)
                      "C101", "C106", "C110", "S101", "S106",
                      # (a check's spill folder that cannot be written: an I/O failure, exit 3)
                      "F107"}


def test_the_help_says_what_exit_3_means() -> None:
    code, out, _ = run("diff", "--help")
    text = " ".join(out.split())
    assert code == 0
    assert "3 a side is not a whole, readable set of sitemaps" in text and "no diff is made" in text


# --- URL sides ---------------------------------------------------------------------------

LIVE = ["--allow-private", "--timeout", "2"]


@pytest.mark.parametrize("case", sorted(BODIES))
def test_a_url_that_answers_no_sitemap_stops_the_diff(server: object, good: str, case: str) -> None:
    body, code = BODIES[case]
    server.add("/sitemap.xml", body=body, content_type="application/xml")  # type: ignore[attr-defined]
    bad = server.url + "/sitemap.xml"  # type: ignore[attr-defined]
    # A body that is no XML sitemap sends the check to the site's usual places, which
    # hold none here (R108); a sitemap in another encoding is X103; an empty urlset X115.
    expected = {"X103": "X103", "X115": "X115" if case == "empty-urlset" else "R108"}.get(code, "R108")
    assert_stops(bad, good, [(expected, bad)], *LIVE)


@pytest.mark.parametrize(("status", "content_type"), [(503, "text/html"), (500, "text/plain"),
                                                      (404, "text/html"), (200, "application/json")])
def test_a_url_that_answers_an_error_stops_the_diff(server: object, good: str, status: int,
                                                    content_type: str) -> None:
    body = MAINTENANCE if content_type == "text/html" else b'{"error": "down"}'
    server.add("/sitemap.xml", status=status, body=body, content_type=content_type)  # type: ignore[attr-defined]
    bad = server.url + "/sitemap.xml"  # type: ignore[attr-defined]
    assert_stops(bad, good, [("R102" if status >= 400 else "R108", bad)], *LIVE)


@pytest.mark.parametrize("statuses", [(404, 404), (500,), (200, 500), (200, 404)])
def test_an_index_whose_children_answer_errors_stops_the_diff(server: object, good: str,
                                                              statuses: tuple[int, ...]) -> None:
    url = server.url  # type: ignore[attr-defined]
    children = [f"{url}/s{number}.xml" for number in range(len(statuses))]
    server.add("/sitemap_index.xml", body=index(*children))  # type: ignore[attr-defined]
    for number, status in enumerate(statuses):
        body = urlset(f"{url}/p{number}") if status == 200 else b"error"
        server.add(f"/s{number}.xml", status=status, body=body,  # type: ignore[attr-defined]
                   content_type="application/xml" if status == 200 else "text/plain")
    bad = f"{url}/sitemap_index.xml"
    failed = [(f"{bad}:{line}", status) for line, status in enumerate(statuses, start=3) if status != 200]
    exit_code, _, err = run("diff", bad, good, "--now", NOW, "-q", *LIVE)
    assert exit_code == 3
    for where, status in failed:
        assert f"{where}: error R102 " in err and f"answers HTTP {status}" in err


# --- names that are not UTF-8 ------------------------------------------------------------

@pytest.mark.skipif(os.name == "nt" or sys.platform == "darwin", reason="a file name of any bytes: POSIX, not APFS")
def test_a_file_name_that_is_not_utf8_is_escaped_in_every_format(tmp_path: Path) -> None:
    """A name with the byte 0xff (os.fsdecode keeps it as a lone surrogate) is the text
    ``\\xff`` in every format, as check writes it: the JSON parses, every output is UTF-8."""
    root = os.fsencode(tmp_path)
    for side in (b"old", b"new-\xff"):
        os.makedirs(os.path.join(root, side))
        with open(os.path.join(root, side, b"sitemap.xml"), "wb") as file:
            file.write(urlset(URLS[0]))
    with open(os.path.join(root, b"new-\xff", b"sitemap-\xff.xml"), "wb") as file:  # a new file with a new error
        file.write(urlset(URLS[1]).replace(b"</loc>", b"</loc><lastmod>2026-02-30</lastmod>"))
    old, new = str(tmp_path / "old"), os.fsdecode(os.path.join(root, b"new-\xff"))
    assert "\udcff" in new
    outputs = {}
    for form in ("json", "text", "html"):
        target = tmp_path / f"diff.{form}"
        code, _, err = run("diff", old, new, "--now", NOW, "--format", form, "-o", str(target))
        assert code == 1 and "\udcff" not in err  # (NEW's error is new)
        outputs[form] = target.read_bytes().decode("utf-8")  # strict: no lone surrogate written
    report = json.loads(outputs["json"])
    assert report["new"]["input"] == str(tmp_path / "new-\\xff")
    assert report["files"] == {"added": ["sitemap-\\xff.xml"], "removed": []}
    assert [(d["code"], d["file"]) for d in report["new_errors"]] == [("D101", "new-\\xff/sitemap-\\xff.xml")]
    assert report["urls"]["added"] == [URLS[1]]
    assert "  + sitemap-\\xff.xml\n" in outputs["text"] and "new-\\xff/sitemap-\\xff.xml:" in outputs["text"]
    assert "sitemap-\\xff.xml" in outputs["html"]
