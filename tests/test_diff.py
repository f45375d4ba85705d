"""sitemap-ext diff OLD NEW (issue 29, point 4): two builds differ by exactly the planted
changes (URLs added, removed, lastmod moved, a cluster member lost, new and gone
clusters), whether each side is a folder, a file or a URL served on 127.0.0.1; the
JSON is its golden file and its schema; exit codes; hostile and missing input end in
coded diagnostics, never a traceback."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_ext import Locale, Page, Site, build, diff
from sitemap_ext.cli import main
from sitemap_ext.diff import ClusterChange

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "diff" / "planted.json"
NOW = "2026-11-21T00:00:00Z"
SITE = Site(base_url="https://www.example.com/", x_default="en",
            locales=(Locale(code="en", prefix="/en/"), Locale(code="de", prefix="/de/"),
                     Locale(code="fr", prefix="/fr/")))
PLANTED = {
    "added": ["https://www.example.com/de/new", "https://www.example.com/en/new", "https://www.example.com/fr/new"],
    "removed": ["https://www.example.com/de/p5", "https://www.example.com/en/p5", "https://www.example.com/fr/p5",
                "https://www.example.com/de/p7"],
    "changed": [("https://www.example.com/de/p3", "2026-11-01", "2026-11-20T08:30:00Z"),
                ("https://www.example.com/en/p3", "2026-11-01", "2026-11-20T08:30:00Z"),
                ("https://www.example.com/fr/p3", "2026-11-01", "2026-11-20T08:30:00Z")],
}


def pages(planted: bool) -> list[Page]:
    """Twenty pages in three languages; with ``planted``: p3's lastmod moved, p5 gone,
    p7's German version dropped, a new page (its three versions)."""
    out = []
    for number in range(20):
        if planted and number == 5:
            continue
        lastmod = "2026-11-20T09:30:00+01:00" if planted and number == 3 else "2026-11-01"
        locales = ("en", "fr") if planted and number == 7 else ("en", "de", "fr")
        out.append(Page(path=f"/p{number}", locales=locales, lastmod=lastmod))
    if planted:
        out.append(Page(path="/new", locales=("en", "de", "fr"), lastmod="2026-11-20"))
    return out


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two builds of one site, ``old`` and ``new``, the second with the planted changes."""
    root = tmp_path_factory.mktemp("builds")
    for name, planted in (("old", False), ("new", True)):
        assert build(SITE, str(root / name), pages=pages(planted), now=NOW).ok
    return root


def cluster_lines(changes: list[ClusterChange]) -> list[tuple[str, str, list[str], list[str], list[str]]]:
    return [(c.change, c.name, [f"{m.hreflang} {m.url}" for m in c.gained], [f"{m.hreflang} {m.url}" for m in c.lost],
             [f"{m.hreflang} {m.url} {m.state}" for m in c.broken]) for c in changes]


def assert_planted(result: object) -> None:
    assert list(result.added) == PLANTED["added"]  # type: ignore[attr-defined]
    assert list(result.removed) == PLANTED["removed"]  # type: ignore[attr-defined]
    assert [(c.url, c.old_lastmod, c.new_lastmod) for c in result.changed] == PLANTED["changed"]  # type: ignore
    assert cluster_lines(list(result.clusters)) == [  # type: ignore[attr-defined]
        ("changed", "https://www.example.com/en/p7", [], ["de https://www.example.com/de/p7"], []),
        ("new", "https://www.example.com/de/new", ["de https://www.example.com/de/new",
                                                   "en https://www.example.com/en/new",
                                                   "fr https://www.example.com/fr/new",
                                                   "x-default https://www.example.com/en/new"], [], []),
        ("gone", "https://www.example.com/de/p5", [], ["de https://www.example.com/de/p5",
                                                       "en https://www.example.com/en/p5",
                                                       "fr https://www.example.com/fr/p5",
                                                       "x-default https://www.example.com/en/p5"], []),
    ]
    assert result.new_errors == [] and result.unreadable == []  # type: ignore[attr-defined]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


# --- what a diff lists ---------------------------------------------------------------

def test_two_builds_differ_by_exactly_the_planted_changes(builds: Path) -> None:
    result = diff(builds / "old", builds / "new", now=NOW)
    assert_planted(result)
    assert result.files_added == [] and result.files_removed == []
    assert round(result.removed_share, 2) == 6.67 and result.ok


def test_a_build_against_itself_differs_in_nothing(builds: Path) -> None:
    result = diff(builds / "new", builds / "new", now=NOW)
    assert (len(result.added), len(result.removed), len(result.changed), len(result.clusters)) == (0, 0, 0, 0)


def test_files_given_as_files_compare_the_same(builds: Path) -> None:
    assert_planted(diff(builds / "old" / "sitemap.xml", builds / "new" / "sitemap.xml", now=NOW))


@pytest.fixture()
def served(builds: Path) -> Iterator[str]:
    """OLD's files served by a real HTTP server on 127.0.0.1 (the deployed site)."""
    pytest.importorskip("httpx", reason="a URL side needs the 'live' extra (httpx, protego)")
    pytest.importorskip("protego", reason="a URL side needs the 'live' extra (httpx, protego)")
    from tests.live_server import Server

    server = Server()
    for name in os.listdir(builds / "old"):
        data = (builds / "old" / name).read_bytes()
        server.add("/" + name, body=data, content_type="text/plain" if name.endswith(".txt") else "application/xml")
    yield server.url
    server.close()


def test_a_deployed_url_against_a_new_build_folder(builds: Path, served: str) -> None:
    from sitemap_ext.read.http import FetchOptions

    fetch = FetchOptions(timeout=2.0, allow_private=True)
    result = diff(served + "/sitemap.xml", builds / "new", now=NOW, fetch=fetch)
    assert_planted(result)
    assert result.files_added == [] and result.files_removed == []  # sitemap.xml on both sides, by its name
    back = diff(builds / "new", served + "/sitemap.xml", now=NOW, fetch=fetch)
    assert list(back.added) == PLANTED["removed"] and list(back.removed) == PLANTED["added"]
    code, out, _ = run("diff", served + "/sitemap.xml", str(builds / "new" / "sitemap.xml"), "--allow-private",
                       "--timeout", "2", "--now", NOW, "--fail-on-removed", "5", "-q")
    assert code == 1 and "  - https://www.example.com/de/p7\n" in out


def test_spellings_of_one_url_and_forms_of_one_date_are_no_change(tmp_path: Path) -> None:
    write(tmp_path / "old" / "sitemap.xml", entry("https://www.example.com/a", lastmod="2026-11-01")
          + entry("https://www.example.com/b", lastmod="2026-11-01") + entry("https://www.example.com/c"))
    write(tmp_path / "new" / "sitemap.xml", entry("https://WWW.Example.com:443/a", lastmod="2026-11-01T00:00:00Z")
          + entry("https://www.example.com/b")
          + entry("https://www.example.com/c", lastmod="2026-11-02T10:00:00+02:00"))
    result = diff(tmp_path / "old", tmp_path / "new", now=NOW)
    assert list(result.added) == [] and list(result.removed) == []
    assert [(c.url, c.old_lastmod, c.new_lastmod) for c in result.changed] == [
        ("https://www.example.com/b", "2026-11-01", None), ("https://www.example.com/c", None, "2026-11-02T08:00:00Z")]


def test_a_member_that_stops_announcing_its_cluster_is_broken(tmp_path: Path) -> None:
    links = {code: f"https://www.example.com/{code}/x" for code in ("en", "de", "fr")}
    write(tmp_path / "old" / "sitemap.xml", "".join(entry(url, links) for url in links.values()))
    # NEW: de/x announces only itself; fr/x is no longer listed at all (en/x still names both).
    write(tmp_path / "new" / "sitemap.xml", entry(links["en"], links) + entry(links["de"], {"de": links["de"]}))
    result = diff(tmp_path / "old", tmp_path / "new", now=NOW)
    assert list(result.removed) == [links["fr"]]
    assert cluster_lines(list(result.clusters)) == [
        ("changed", links["de"], [], [], [f"de {links['de']} differs", f"fr {links['fr']} absent"])]


def test_files_added_and_removed_are_named_relative_to_their_side(tmp_path: Path) -> None:
    write(tmp_path / "old" / "sitemap.xml", entry("https://www.example.com/a"))
    write(tmp_path / "old" / "legacy.xml", entry("https://www.example.com/b"))
    write(tmp_path / "new" / "sitemap.xml", entry("https://www.example.com/a"))
    write(tmp_path / "new" / "news" / "sitemap.xml", entry("https://www.example.com/b"))
    result = diff(tmp_path / "old", tmp_path / "new", now=NOW)
    assert (result.files_added, result.files_removed) == (["news/sitemap.xml"], ["legacy.xml"])
    assert list(result.added) == [] and list(result.removed) == []


# --- formats -------------------------------------------------------------------------

def test_the_json_is_its_golden_file_and_its_schema(builds: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(builds)
    code, out, _ = run("diff", "old", "new", "--format", "json", "--now", NOW, "--fail-on-removed", "10")
    assert code == 0
    schema = json.loads((ROOT / "specs" / "diff.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(json.loads(out))
    if os.environ.get("SITEMAP_EXT_UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(out, encoding="utf-8")
    assert out == GOLDEN.read_text(encoding="utf-8")
    code, again, _ = run("diff", "old", "new", "--format", "json", "--now", NOW, "--fail-on-removed", "10",
                         "--jobs", "2")
    assert again == out  # the same bytes for any number of processes


def test_the_text_lists_each_change_once(builds: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(builds)
    code, out, err = run("diff", "old", "new", "--now", NOW)
    assert code == 0
    assert out.splitlines() == [
        "URLs added (3):", *[f"  + {url}" for url in PLANTED["added"]],
        "URLs removed (4, 6.7% of OLD's):", *[f"  - {url}" for url in PLANTED["removed"]],
        "URLs changed (3, lastmod moved):", *[f"  ~ {url} {before} -> {after}" for url, before, after
                                               in PLANTED["changed"]],
        "hreflang clusters (3):",
        "  changed https://www.example.com/en/p7 (en, fr, x-default)",
        "    - de https://www.example.com/de/p7 lost",
        "  new https://www.example.com/de/new (de, en, fr, x-default)",
        "  gone https://www.example.com/de/p5 (de, en, fr, x-default)",
    ]
    assert err.splitlines()[:4] == [
        "diff: reading OLD old", "diff: reading NEW new", "diff: comparing 60 and 59 URLs",  # (progress)
        "diff old -> new: 3 URLs added, 4 URLs removed (6.7% of OLD's 60), 3 URLs changed; 3 clusters changed; "
        "0 files added, 0 removed; 0 new errors"]


def test_the_html_report_names_each_member_a_cluster_gained_lost_or_broke(builds: Path) -> None:
    """As the text does: the member p7's cluster lost is named, with its code, its URL and
    the word."""
    code, out, _ = run("diff", str(builds / "old"), str(builds / "new"), "--format", "html", "--now", NOW)
    assert code == 0
    cells = [cell.replace("<wbr>", "") for cell in re.findall(r"<td>([^<]*(?:<(?!/td>)[^<]*)*)</td>", out)]
    assert "- de https://www.example.com/de/p7 lost" in "<br>".join(cells).split("<br>")


def test_the_html_report_lists_the_changes_escaped(tmp_path: Path) -> None:
    write(tmp_path / "old" / "sitemap.xml", entry("https://www.example.com/a"))
    write(tmp_path / "new" / "sitemap.xml", entry("https://www.example.com/a") +
          entry("https://www.example.com/&lt;script&gt;alert(1)&lt;/script&gt;"))
    code, out, _ = run("diff", str(tmp_path / "old"), str(tmp_path / "new"), "--format", "html", "--now", NOW)
    assert code == 0 and out.startswith("<!DOCTYPE html>")
    assert "<h2>URLs added (1)</h2>" in out and "<h2>URLs removed (0)</h2>" in out
    assert "<script>" not in out and "&lt;script&gt;alert(1)" in out


# --- exit codes ----------------------------------------------------------------------

def test_exit_codes_for_the_removed_share(builds: Path) -> None:
    old, new = str(builds / "old"), str(builds / "new")
    assert run("diff", old, new, "--now", NOW, "-q")[0] == 0
    assert run("diff", old, new, "--now", NOW, "-q", "--fail-on-removed", "10")[0] == 0
    code, _, err = run("diff", old, new, "--now", NOW, "--fail-on-removed", "5%")
    assert code == 1 and "failed: NEW drops 6.7% of OLD's URLs, more than --fail-on-removed 5%" in err
    assert run("diff", old, new, "--now", NOW, "-q", "--fail-on-removed", "5", "--exit-zero")[0] == 0


@pytest.mark.parametrize(("name", "content", "code"), [
    ("error-page.xml", b"<html><body>502 Bad Gateway</body></html>", "X104"),
    ("cut.xml", b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>', "X101"),
])
def test_an_old_side_that_holds_no_sitemap_stops_the_diff(builds: Path, tmp_path: Path, name: str, content: bytes,
                                                           code: str) -> None:
    """The deployed sitemap answered with an error page (or was cut short): diffing
    against nothing would pass the guard, so nothing is diffed and the exit is 3."""
    old = tmp_path / name
    old.write_bytes(content)
    exit_code, out, err = run("diff", str(old), str(builds / "new"), "--now", NOW, "--fail-on-removed", "5")
    assert exit_code == 3 and out == ""
    assert f" {code} " in err and "a side could not be read; no diff was made" in err


def test_a_file_in_a_folder_that_holds_no_sitemap_is_no_part_of_the_side(builds: Path, tmp_path: Path) -> None:
    """A folder's sitemaps are its files that hold one, and what they list: an HTML file
    among them that nothing lists is skipped, as check skips it, and the diff is made.
    (Listed by an index, it stops the diff: test_safety_diff.py.)"""
    old = tmp_path / "old"
    shutil.copytree(builds / "old", old)
    (old / "broken.xml").write_bytes(b"<html><body>502 Bad Gateway</body></html>")
    exit_code, out, _ = run("diff", str(old), str(builds / "new"), "--now", NOW, "-q")
    assert exit_code == 0 and "URLs added" in out


def test_new_errors_fail_and_old_ones_do_not(tmp_path: Path) -> None:
    old_errors = entry("https://www.example.com/a", lastmod="2026-02-30")  # D101 on both sides: not new
    write(tmp_path / "old" / "sitemap.xml", old_errors + entry("https://www.example.com/b"))
    write(tmp_path / "new" / "sitemap.xml", "\n\n" + old_errors  # (moved down: a line is no fingerprint)
          + entry("https://www.example.com/b", lastmod="2026-13-01"))
    result = diff(tmp_path / "old", tmp_path / "new", now=NOW)
    assert [(d.code, d.url) for d in result.new_errors] == [("D101", "https://www.example.com/b")]
    assert result.failures == ["new-errors"]
    code, out, _ = run("diff", str(tmp_path / "old"), str(tmp_path / "new"), "--now", NOW)
    assert code == 1 and "new errors in NEW (1):" in out and "error D101 '2026-13-01'" in out
    assert run("diff", str(tmp_path / "old"), str(tmp_path / "new"), "--now", NOW, "--ignore", "D101", "-q")[0] == 0


@pytest.mark.parametrize("argv, says", [
    (["diff", "old"], "the following arguments are required: NEW"),
    (["diff", "old", "new", "--fail-on-removed", "150"], "a percentage from 0 to 100"),
    (["diff", "old", "new", "--fail-on-removed", "ten"], "a percentage from 0 to 100"),
    (["diff", "site.yaml", "new"], "site.yaml is a site description; diff compares sitemaps"),
    (["diff", "old", "new", "--now", "yesterday"], "--now 'yesterday' is not a W3C date"),
    (["diff", "old", "new", "--base-url", "nowhere"], "--base-url takes URL=DIR"),
])
def test_usage_errors_exit_2(argv: list[str], says: str) -> None:
    code, _, err = run(*argv)
    assert code == 2 and says in err


# --- hostile and missing input --------------------------------------------------------

def test_a_missing_side_is_f101_exit_3_and_no_diff(tmp_path: Path) -> None:
    write(tmp_path / "new" / "sitemap.xml", entry("https://www.example.com/a"))
    code, out, err = run("diff", str(tmp_path / "gone"), str(tmp_path / "new"), "--now", NOW)
    assert code == 3 and out == ""
    assert f"gone: error F101 {tmp_path / 'gone'} does not exist\n" in err  # (located as check locates it)
    assert "no diff was made" in err


@pytest.mark.parametrize("content, code", [
    (b"<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'><url><loc>https://www.example.com/a", "X101"),
    (b"\x1f\x8b\x08\x00garbage", "X114"),
    (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><urlset/>', "X102"),
])
def test_a_hostile_new_side_stops_the_diff_with_its_coded_finding(tmp_path: Path, content: bytes,
                                                                   code: str) -> None:
    """A NEW side that is not read whole is no side to diff, as OLD is not (exit 3):
    its finding is what the diff says, not a list of URLs it seems to drop."""
    write(tmp_path / "old" / "sitemap.xml", entry("https://www.example.com/a"))
    (tmp_path / "new").mkdir()
    name = "sitemap.xml.gz" if code == "X114" else "sitemap.xml"
    (tmp_path / "new" / name).write_bytes(content)
    result = diff(tmp_path / "old", tmp_path / "new", now=NOW, fail_on_removed=50)
    assert [(d.code, d.file) for d in result.unreadable] == [(code, f"new/{name}")]  # (named as check names it)
    assert result.old.unread == [] and result.new.unread == result.unreadable
    assert len(result.removed) == 0 and result.new_errors == [] and not result.ok
    exit_code, out, err = run("diff", str(tmp_path / "old"), str(tmp_path / "new"), "--now", NOW)
    assert exit_code == 3 and out == "" and f" {code} " in err
    assert f"sitemap-ext diff: NEW {tmp_path / 'new'} is not a whole, readable set of sitemaps\n" in err


def test_the_command_never_shows_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "sitemap.xml").write_bytes(os.urandom(4096))
    command = [sys.executable, "-m", "sitemap_ext", "diff", str(tmp_path / "old"), str(tmp_path / "missing"),
               "--now", NOW]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 3 and "Traceback" not in done.stderr and "F101" in done.stderr
    shutil.copytree(tmp_path / "old", tmp_path / "new")
    done = subprocess.run(command[:-3] + [str(tmp_path / "new"), "--now", NOW], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 3 and "Traceback" not in done.stderr  # the same garbage on both sides: read neither
    assert "no diff was made" in done.stderr


def test_the_api_refuses_wrong_arguments_by_name(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"diff\(old=...\) takes a path or a URL"):
        diff(12, tmp_path)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"diff\(new=...\): .* is a site description"):
        diff(tmp_path, tmp_path / "site.yml")
    with pytest.raises(ValueError, match=r"diff\(fail_on_removed=...\) must be a percentage"):
        diff(tmp_path, tmp_path, fail_on_removed=101)
    with pytest.raises(ValueError, match=r"diff\(html=...\)"):
        diff(tmp_path, tmp_path, html="maybe")


# --- helpers -------------------------------------------------------------------------

def entry(loc: str, links: dict[str, str] | None = None, lastmod: str | None = None) -> str:
    tags = "".join(f'<xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>'
                   for code, href in (links or {}).items())
    return f"<url><loc>{loc}</loc>" + (f"<lastmod>{lastmod}</lastmod>" if lastmod else "") + tags + "</url>\n"


def write(path: Path, entries: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
                    ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + entries + "</urlset>\n", encoding="utf-8")


def test_built_pages_count_for_new_errors_and_list_no_url(tmp_path: Path) -> None:
    listed = entry("https://www.example.com/a.html") + entry("https://www.example.com/b.html")
    write(tmp_path / "old" / "sitemap.xml", listed)
    write(tmp_path / "new" / "sitemap.xml", listed)
    (tmp_path / "new" / "a.html").write_text('<!DOCTYPE html><html lang="en"><head><link rel="alternate" '
                                             'hreflang="en" href="https://www.example.com/a.html"></head></html>\n',
                                             encoding="utf-8")
    # The pair maps NEW's folder only: OLD is read without pages (had it been mapped, its
    # b.html would be U113 too, and not new).
    result = diff(tmp_path / "old", tmp_path / "new", now=NOW,
                  base_urls=[f"https://www.example.com/={tmp_path / 'new'}"])
    assert [(d.code, d.url) for d in result.new_errors] == [("U113", "https://www.example.com/b.html")]
    assert (list(result.added), list(result.removed), len(result.clusters)) == ([], [], 0)  # a page lists nothing
    assert result.files_added == []  # (a page is no file of the diff)


def test_both_sides_are_judged_at_one_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "old" / "sitemap.xml", entry("https://www.example.com/a", lastmod="2026-11-22"))
    write(tmp_path / "new" / "sitemap.xml", entry("https://www.example.com/a", lastmod="2026-11-22"))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1795219200")  # 2026-11-21T00:00:00Z: the lastmod is in the future
    result = diff(tmp_path / "old", tmp_path / "new")
    assert (result.new.result.now, result.new.result.clock) == (1795219200.0, "SOURCE_DATE_EPOCH")
    assert result.old.result.now == result.new.result.now
    assert [d.code for d in result.new.collector.diagnostics] == ["D102"] and result.new_errors == []


SIDES = st.dictionaries(st.sampled_from([f"/p{n}" for n in range(12)]),
                        st.sampled_from([None, "2026-11-01", "2026-11-01T00:00:00Z", "2026-11-02T08:00:00+02:00",
                                         "2026-11-03"]), max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(old=SIDES, new=SIDES)
def test_generated_sides_differ_as_their_sets_do(tmp_path: Path, old: dict[str, str | None],
                                                 new: dict[str, str | None]) -> None:
    """Whatever two sides list, the diff's URLs are the set differences, in the order each
    side lists them, and a lastmod moves only when its instant does."""
    from sitemap_ext.dates import parse_w3c

    def instant(text: str | None) -> float | None:
        return None if text is None else parse_w3c(text)[0].instant  # type: ignore[union-attr]

    folder = tmp_path / f"case-{len(list(tmp_path.iterdir()))}"
    for name, side in (("old", old), ("new", new)):
        write(folder / name / "sitemap.xml", "".join(entry(f"https://www.example.com{path}", lastmod=lastmod)
                                                      for path, lastmod in side.items()))
    result = diff(folder / "old", folder / "new", now=NOW, jobs=1)
    if not old or not new:  # an empty urlset is rejected as a sitemap (X115): no diff
        assert [d.code for d in result.unreadable] == ["X115"] * ((not old) + (not new)) and not result.ok
        return
    url = "https://www.example.com{}".format
    assert list(result.added) == [url(p) for p in new if p not in old]
    assert list(result.removed) == [url(p) for p in old if p not in new]
    assert [c.url for c in result.changed] == [url(p) for p in new if p in old
                                                and instant(old[p]) != instant(new[p])]
    assert result.removed_share == 100.0 * len(result.removed) / len(old)


def test_every_error_is_compared_and_warnings_stay_bounded(tmp_path: Path) -> None:
    """Past 1,000 findings of a code, errors are still all kept (each compared), while
    warnings are counted, not kept: a million warnings are no million objects."""
    bad = "".join(entry(f"https://www.example.com/p{n}#top", lastmod="2026-02-30") for n in range(1500))  # D101, U110
    write(tmp_path / "old" / "sitemap.xml", entry("https://www.example.com/a"))
    write(tmp_path / "new" / "sitemap.xml", bad)
    write(tmp_path / "same" / "sitemap.xml", bad)
    result = diff(tmp_path / "old", tmp_path / "new", now=NOW, jobs=1)
    assert [d.code for d in result.new_errors] == ["D101"] * 1500
    assert len({d.url for d in result.new_errors}) == 1500
    kept = result.new.collector
    assert sum(d.code == "U110" for d in kept.diagnostics) == 1000 and kept.suppressed["U110"] == 500
    assert diff(tmp_path / "new", tmp_path / "same", now=NOW, jobs=2).new_errors == []


def test_a_language_selector_no_longer_listed_breaks_the_x_default(tmp_path: Path) -> None:
    links = {"en": "https://www.example.com/en/", "de": "https://www.example.com/de/",
             "x-default": "https://www.example.com/choose"}
    pages = entry(links["en"], links) + entry(links["de"], links)
    write(tmp_path / "old" / "sitemap.xml", pages + entry(links["x-default"]))
    write(tmp_path / "new" / "sitemap.xml", pages)
    result = diff(tmp_path / "old", tmp_path / "new", now=NOW)
    assert list(result.removed) == [links["x-default"]]
    assert cluster_lines(list(result.clusters)) == [
        ("changed", links["de"], [], [], [f"x-default {links['x-default']} absent"])]


# --- clusters that share members ----------------------------------------------------------

def _shared_home() -> Any:
    """benchmarks/diff_shared.py, whose pair of sites this test judges (one generator)."""
    spec = importlib.util.spec_from_file_location("diff_shared", ROOT / "benchmarks" / "diff_shared.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SHARED = _shared_home()
HOME_DE = SHARED.HOME_DE


def test_clusters_sharing_one_member_are_each_matched_with_their_own(tmp_path: Path) -> None:
    """8,000 clusters that all name one German home page: each NEW cluster is matched
    with its own OLD one (it gained its x-default, and p17 lost its fr), not with one
    that shares only the home page. (Matching by that member once took 20 s.)"""
    count = 8_000
    SHARED.side(str(tmp_path / "old"), count, new=False)
    SHARED.side(str(tmp_path / "new"), count, new=True)
    result = diff(tmp_path / "old", tmp_path / "new", now=NOW, jobs=1)
    assert result.unreadable == [] and list(result.added) == []
    assert list(result.removed) == ["https://www.example.com/fr/p17"]
    changes = list(result.clusters)
    assert len(changes) == count
    for number, change in enumerate(changes):
        en = f"https://www.example.com/en/p{number}"
        assert (change.change, change.name) == ("changed", HOME_DE)
        assert [(m.hreflang, m.url) for m in change.gained] == [("x-default", en)]
        assert [(m.hreflang, m.url) for m in change.lost] == \
            ([("fr", "https://www.example.com/fr/p17")] if number == 17 else [])
        assert change.broken == ()


POOL = [f"https://www.example.com/{name}" for name in ("a", "b", "c", "d", "e", "f")]
CLUSTER = st.dictionaries(st.sampled_from(["en", "de", "fr", "x-default"]), st.sampled_from(POOL),
                          min_size=2, max_size=4).filter(lambda links: len(set(links) - {"x-default"}) >= 1)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(old=st.lists(CLUSTER, min_size=1, max_size=6), new=st.lists(CLUSTER, min_size=1, max_size=6))
def test_matching_by_shared_members_is_the_matching_by_every_member(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    old: list[dict[str, str]],
                                                                    new: list[dict[str, str]]) -> None:
    """Clusters drawn from six URLs share members every way: whichever URLs count as
    shared (all, some, none), each cluster is matched with the same one."""
    from sitemap_ext.diff import clusters

    folder = tmp_path / f"case-{len(list(tmp_path.iterdir()))}"
    for name, side in (("old", old), ("new", new)):
        write(folder / name / "sitemap.xml", "".join(entry(f"{url}?{number}", links)
                                                      for number, links in enumerate(side) for url in POOL[:1]))
    seen = []
    for shared in (10**9, 0, 1, 2):
        monkeypatch.setattr(clusters, "_SHARED", shared)
        result = diff(folder / "old", folder / "new", now=NOW, jobs=1)
        seen.append(cluster_lines(list(result.clusters)))
    assert seen[1:] == seen[:1] * 3


# --- identity relative to each side's root ("Ready for strangers") -------------------

def test_two_dated_snapshots_of_one_file_are_one_file(tmp_path: Path) -> None:
    """Two files given: each is its side's root, so a finding's identity holds no file
    name and two identical snapshots differ in nothing (before: 1, every error new)."""
    content = entry("https://www.example.com/a", lastmod="2026-13-01") + entry("https://www.example.com/a")
    write(tmp_path / "old-sitemap.xml", content)
    write(tmp_path / "new-sitemap.xml", content)
    result = diff(tmp_path / "old-sitemap.xml", tmp_path / "new-sitemap.xml", now=NOW)
    assert result.new_errors == [] and result.files_added == [] and result.files_removed == [] and result.ok
    code, out, _ = run("diff", str(tmp_path / "old-sitemap.xml"), str(tmp_path / "new-sitemap.xml"), "--now", NOW,
                       "-q")
    assert code == 0 and "new errors" not in out and "Files" not in out
    # A new error in the second snapshot is still new.
    write(tmp_path / "new-sitemap.xml", content + entry("https://www.example.com/b", lastmod="2026-02-30"))
    result = diff(tmp_path / "old-sitemap.xml", tmp_path / "new-sitemap.xml", now=NOW)
    assert [(d.code, d.url) for d in result.new_errors] == [("D101", "https://www.example.com/b")]


def test_folders_compare_by_the_path_within_each_folder(tmp_path: Path) -> None:
    """Folders: a file's identity is its path within its folder, so one file renamed is
    a file added and one removed, and its errors are new."""
    content = entry("https://www.example.com/a", lastmod="2026-13-01")
    write(tmp_path / "old" / "sitemap.xml", content)
    write(tmp_path / "new" / "sitemap-1.xml", content)
    result = diff(tmp_path / "old", tmp_path / "new", now=NOW)
    assert (result.files_added, result.files_removed) == (["sitemap-1.xml"], ["sitemap.xml"])
    assert [d.code for d in result.new_errors] == ["D101"]


def test_a_folder_of_built_pages_as_a_side_says_how_to_diff_it(tmp_path: Path) -> None:
    """The generator's own output folder lists no URL: exit 3, and the reason with the
    way out (build its sitemap, diff that)."""
    write(tmp_path / "new" / "sitemap.xml", entry("https://www.trail-guides.example/en/"))
    code, out, err = run("diff", str(ROOT / "examples" / "static-site" / "public"), str(tmp_path / "new"),
                         "--now", NOW, "-q")
    assert code == 3 and out == "" and " F104 " in err
    assert "lists no URL: diff compares sitemaps, and built pages (a site generator's output) are none" in err
    assert "sitemap-ext build SITE.yaml -o DIR" in err
