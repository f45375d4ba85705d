"""Output safety: nothing outside the output folder, descriptions own their files, the
commit survives a failure or a kill at any point, one build at a time."""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Callable

import pytest
from lxml import etree

from sitemap_ext import build, check
from sitemap_ext.cli import main
from sitemap_ext.write.output import JOURNAL, MANIFEST

from .conftest import ROOT

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"

# These tests are about the commit, ownership and links: the sitemaps' HTML views
# (output.html, on by default) are written and owned as the sitemaps are; here they
# are left out so that each test lists the files it is about, except where said.
SITE = """\
site:
  base_url: https://www.example.com/
output:
  html: {html}
  max_urls: {max_urls}
  pattern: {pattern}
  index_file: {index}
pages:
{pages}
"""


def describe(folder: Path, name: str = "site.yaml", *, pages: int = 5, max_urls: int = 2,
             pattern: str = "sitemap-{n}.xml", index: str = "sitemap.xml", extra: str = "",
             html: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    key = "path" if "locales" in extra else "loc"
    listed = "\n".join(f"  - {key}: /{name.split('.')[0]}/page-{i}/" for i in range(pages))
    path = folder / name
    path.write_text(SITE.format(html=str(html).lower(), max_urls=max_urls, pattern=pattern, index=index, pages=listed) + extra,
                    encoding="utf-8")
    return path


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (links as their target text), bookkeeping left out."""
    out: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if name.startswith(".sitemap-ext"):
            continue
        if path.is_symlink():
            out[name] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            out[name] = path.read_bytes()
    return out


def codes(result: object) -> list[str]:
    return [d.code for d in result.collector.diagnostics]  # type: ignore[attr-defined]


def test_a_locale_host_of_dots_is_an_invalid_host_and_nothing_is_written_outside(tmp_path: Path) -> None:
    site = describe(tmp_path / "project", extra=textwrap.dedent("""\
        locales:
          en: /
          de: {host: "https://.."}
        """))
    before = sorted(os.listdir(tmp_path))
    result = build(str(site), str(tmp_path / "project" / "out"))
    assert "U109" in codes(result) and not result.ok
    assert sorted(os.listdir(tmp_path)) == before
    assert not (tmp_path / "project" / "out").exists() or tree(tmp_path / "project" / "out") == {}


def test_a_symlinked_host_folder_is_not_followed_for_writing_or_removal(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "sitemap.xml").write_text("precious")
    two_hosts = textwrap.dedent("""\
        locales:
          en: /
          de: {host: "https://www.example.de/"}
        x_default: en
        """)
    site = describe(tmp_path / "p", pages=2, max_urls=50_000, extra=two_hosts)
    out = tmp_path / "p" / "out"
    first = build(str(site), str(out))
    assert first.ok, first.collector.sorted()
    assert (out / "www.example.de" / "sitemap.xml").is_file()
    # Someone replaces the host folder with a link to a folder outside.
    for child in (out / "www.example.de").iterdir():
        child.unlink()
    (out / "www.example.de").rmdir()
    (out / "www.example.de").symlink_to(outside, target_is_directory=True)
    again = build(str(site), str(out))
    assert codes(again) == ["O105"]
    assert "symbolic link" in again.collector.diagnostics[0].message
    assert (outside / "sitemap.xml").read_text() == "precious"
    assert sorted(os.listdir(outside)) == ["sitemap.xml"]
    # The site shrinks to one host: the de files are stale, but behind a link: not removed.
    one_host = describe(tmp_path / "p", pages=2, max_urls=50_000)
    shrunk = build(str(one_host), str(out))
    assert shrunk.ok and shrunk.removed == ["www.example.com/sitemap.xml"]
    assert (outside / "sitemap.xml").read_text() == "precious"


def test_a_file_link_where_a_sitemap_goes_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("keep")
    site = describe(tmp_path / "p", pages=1, max_urls=50_000)
    out = tmp_path / "p" / "out"
    out.mkdir()
    (out / "sitemap.xml").symlink_to(outside)
    result = build(str(site), str(out))
    assert codes(result) == ["O105"]
    assert outside.read_text() == "keep" and (out / "sitemap.xml").is_symlink()


def test_two_descriptions_in_one_folder_keep_each_others_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    blog = describe(tmp_path, "blog.yaml", pattern="blog-{n}.xml", index="blog.xml", html=True)
    shop = describe(tmp_path, "shop.yaml", pattern="shop-{n}.xml", index="shop.xml", html=True)
    assert build(str(blog), str(out)).ok and build(str(shop), str(out)).ok
    both = tree(out)
    # Each description's views, and its own list of sitemaps (named after its index).
    blog_files = ["blog-1.xml", "blog-2.xml", "blog-3.xml", "blog.xml", "blog-1.html", "blog-2.html", "blog-3.html",
                  "blog.sitemaps.html"]
    assert set(both) == {*blog_files, *(name.replace("blog", "shop") for name in blog_files)}
    again = build(str(blog), str(out))
    assert again.ok and again.removed == [] and tree(out) == both
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["version"] == 2
    assert manifest["owners"]["../blog.yaml"] == blog_files
    # The blog shrinks: only its own stale files go, and the summary lists them.
    describe(tmp_path, "blog.yaml", pages=4, pattern="blog-{n}.xml", index="blog.xml", html=True)
    shrunk = build(str(blog), str(out))
    assert shrunk.removed == ["blog-3.html", "blog-3.xml"]
    assert set(tree(out)) == set(both) - {"blog-3.xml", "blog-3.html"}


def test_a_name_another_description_wrote_is_an_error_before_anything_moves(tmp_path: Path) -> None:
    out = tmp_path / "out"
    one = describe(tmp_path, "one.yaml")
    two = describe(tmp_path, "two.yaml")  # the same default names
    assert build(str(one), str(out)).ok
    before = tree(out)
    clash = build(str(two), str(out))
    assert codes(clash) == ["O104"]
    assert "one.yaml" in clash.collector.diagnostics[0].message
    assert tree(out) == before


def test_the_cli_lists_removed_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = describe(tmp_path, pages=5)
    out = tmp_path / "out"
    assert main(["build", str(site), "-o", str(out)]) == 0
    describe(tmp_path, pages=4)
    capsys.readouterr()
    assert main(["build", str(site), "-o", str(out), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["removed"] == ["sitemap-3.xml"]
    describe(tmp_path, pages=1)  # one file, named as the index was
    assert main(["build", str(site), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"removed {out}/sitemap-1.xml" in err and f"removed {out}/sitemap-2.xml" in err
    assert sorted(tree(out)) == ["sitemap.xml"]


def test_an_earlier_manifest_without_owners_is_taken_over(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "sitemap-9.xml").write_text("old")
    (out / MANIFEST).write_text(json.dumps({"files": ["sitemap-9.xml"]}))
    result = build(str(describe(tmp_path)), str(out))
    assert result.ok and result.removed == ["sitemap-9.xml"]
    assert list(json.loads((out / MANIFEST).read_text())["owners"]) == ["../site.yaml"]


@pytest.mark.parametrize("robots, index, pattern, news", [
    ("sitemap.xml", "sitemap.xml", "sitemap-{n}.xml", "news-{n}.xml"),
    ("robots.txt", "sitemap.xml", "s-{n}.xml", "s-{n}.xml"),
    (".sitemap-ext-manifest.json", "sitemap.xml", "sitemap-{n}.xml", "news-{n}.xml"),
])
def test_output_names_that_clash_are_refused_before_building(tmp_path: Path, robots: str, index: str,
                                                              pattern: str, news: str) -> None:
    site = tmp_path / "site.yaml"
    site.write_text(textwrap.dedent(f"""\
        site: {{base_url: "https://www.example.com/"}}
        output: {{robots: "{robots}", index_file: "{index}", pattern: "{pattern}", news_pattern: "{news}"}}
        pages: [{{loc: /a/}}]
        """))
    result = build(str(site), str(tmp_path / "out"))
    assert codes(result) == ["C108"]
    assert not (tmp_path / "out").exists()


def test_a_second_build_into_a_locked_folder_fails_clearly(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    site = describe(tmp_path)
    assert build(str(site), str(out)).ok
    before = tree(out)
    holder = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        describe(tmp_path, pages=1)
        assert main(["build", str(site), "-o", str(out)]) == 3
        assert "F103" in capsys.readouterr().out
        assert tree(out) == before
    finally:
        os.close(holder)
    assert build(str(site), str(out)).ok


def test_a_commit_that_fails_after_its_journal_is_finished_by_the_next_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    site = describe(tmp_path, pages=5)
    assert build(str(site), str(out)).ok
    describe(tmp_path, pages=3)  # the new build: two files fewer, other entries
    real = os.replace
    calls = []

    def failing(src: str, dst: str) -> None:
        if ".sitemap-ext-stage-" not in dst:  # a move into the output folder, not inside staging
            calls.append(dst)
        if len(calls) == 3:  # the journal, then the first sitemap moved: the second fails
            raise OSError(5, "Input/output error")
        real(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    broken = build(str(site), str(out))
    monkeypatch.setattr(os, "replace", real)
    assert codes(broken) == ["F102"] and broken.partial
    assert "next build" in broken.collector.diagnostics[0].message
    assert (out / JOURNAL).exists()
    fresh = build(str(site), str(tmp_path / "fresh"))
    done = build(str(site), str(out))
    assert done.ok and done.recovered
    assert tree(out) == tree(tmp_path / "fresh")
    assert not [n for n in os.listdir(out) if n.startswith(".sitemap-ext") and n != MANIFEST]
    assert fresh.ok


_KILLER = """
import os, sys
sys.path.insert(0, {root!r})
from sitemap_ext import build
real, count = os.replace, [0]
def replace(src, dst):
    if ".sitemap-ext-stage-" not in dst:
        count[0] += 1
    if count[0] == {kill_at}:
        os._exit(9)  # as if killed: no cleanup, no finally
    real(src, dst)
os.replace = replace
build({site!r}, {out!r})
"""


def listed(index: Path) -> list[str]:
    root = etree.fromstring(index.read_bytes())
    return [loc.text.rsplit("/", 1)[1] for loc in root.iter(f"{SM}loc")]  # type: ignore[union-attr]


@pytest.mark.parametrize("kill_at", range(1, 7))
def test_a_build_killed_at_any_rename_leaves_a_folder_the_next_build_finishes(tmp_path: Path,
                                                                              kill_at: int) -> None:
    out = tmp_path / "out"
    site = describe(tmp_path, pages=7)
    assert build(str(site), str(out)).ok
    old = tree(out)
    describe(tmp_path, pages=3)  # the new build: 2 files and its index instead of 4
    script = _KILLER.format(root=str(ROOT), kill_at=kill_at, site=str(site), out=str(out))
    subprocess.run([sys.executable, "-c", script], check=False, timeout=60)
    now = tree(out)
    assert build(str(site), str(tmp_path / "fresh")).ok
    new = tree(tmp_path / "fresh")
    # At every instant, every sitemap the index lists is in place.
    assert all(name in now for name in listed(out / "sitemap.xml"))
    # Without a journal in place the folder is the old output whole, or the new one.
    if (out / JOURNAL).exists():
        assert kill_at in (2, 3, 4, 5)
    else:
        assert now == (old if kill_at == 1 else new)
    done = build(str(site), str(out))
    assert done.ok and done.recovered == (kill_at in (2, 3, 4, 5))
    assert tree(out) == new
    assert [n for n in os.listdir(out) if n.startswith(".sitemap-ext")] == [MANIFEST]


def test_staging_folders_of_killed_builds_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / ".sitemap-ext-stage-abc123" / "x").mkdir(parents=True)
    (out / ".sitemap-ext-k2j3h4").mkdir()  # a 0.2 build's staging folder
    assert build(str(describe(tmp_path)), str(out)).ok
    assert [n for n in os.listdir(out) if n.startswith(".sitemap-ext")] == [MANIFEST]


def test_check_ignores_the_bookkeeping_of_the_output_folder(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert build(str(describe(tmp_path)), str(out)).ok
    assert main(["check", str(out), "--quiet"]) == 0


# --- versioned output: the index switches one build's set for another ------------------

def test_versioned_files_are_named_by_content_and_kept_one_build(tmp_path: Path) -> None:
    out = tmp_path / "out"
    extra = "  versioned: true\n"
    site = describe(tmp_path, pages=5)
    site.write_text(site.read_text().replace("output:\n", "output:\n" + extra))
    first = build(str(site), str(out))
    assert first.ok
    names = listed(out / "sitemap.xml")
    assert len(names) == 3 and all(re.fullmatch(r"sitemap-\d\.[0-9a-f]{10}\.xml", n) for n in names)
    assert build(str(site), str(out)).removed == []  # the same input: the same names and bytes
    assert listed(out / "sitemap.xml") == names
    site.write_text(site.read_text().replace("/site/page-4/", "/site/page-four/"))
    second = build(str(site), str(out))
    changed = listed(out / "sitemap.xml")
    assert changed[:2] == names[:2] and changed[2] != names[2]  # only the file whose bytes changed
    assert second.removed == [] and (out / names[2]).is_file()  # kept for readers of the last index
    # A check of the folder reads what the index now publishes, not the kept file.
    report = check([str(out)])
    assert report.ok and not [d for d in report.collector.diagnostics if d.code == "U104"]
    assert report.skipped == [os.path.join("out", names[2])]
    site.write_text(site.read_text().replace("/site/page-four/", "/site/page-4/"))
    third = build(str(site), str(out))
    assert listed(out / "sitemap.xml") == names
    assert third.removed == [] and (out / changed[2]).is_file()  # the second build's: kept once more
    assert build(str(site), str(out)).removed == [changed[2]]


def test_a_killed_versioned_build_never_shows_an_index_of_mixed_builds(tmp_path: Path) -> None:
    out = tmp_path / "out"
    site = describe(tmp_path, pages=7)
    site.write_text(site.read_text().replace("output:\n", "output:\n  versioned: true\n"))
    assert build(str(site), str(out)).ok
    old = {name: (out / name).read_bytes() for name in listed(out / "sitemap.xml")}
    site.write_text(site.read_text().replace("/site/page-", "/site/p-"))  # every file changes
    for kill_at in range(1, 7):
        script = _KILLER.format(root=str(ROOT), kill_at=kill_at, site=str(site), out=str(out))
        subprocess.run([sys.executable, "-c", script], check=False, timeout=60)
        now = {name: (out / name).read_bytes() for name in listed(out / "sitemap.xml")}
        assert now == old or not set(now) & set(old)  # one build's set, whole
        assert all(b"/site/p-" in data for data in now.values()) or now == old
        assert build(str(site), str(out)).ok
        old = {name: (out / name).read_bytes() for name in listed(out / "sitemap.xml")}
        site.write_text(site.read_text().replace("/site/p-", "/site/q-") if "/site/p-" in site.read_text()
                        else site.read_text().replace("/site/q-", "/site/p-"))


def test_planted_links_at_the_bookkeeping_names_are_not_followed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    target = tmp_path / "victim.txt"
    target.write_text("keep")
    (out / (MANIFEST + ".new")).symlink_to(target)
    (out / MANIFEST).symlink_to(target)
    assert build(str(describe(tmp_path)), str(out)).ok
    assert target.read_text() == "keep"
    assert not (out / MANIFEST).is_symlink() and json.loads((out / MANIFEST).read_text())["version"] == 2
