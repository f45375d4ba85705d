"""The build state (issue 29): one SQLite file beside the output, written in the same
commit as the sitemaps; ``lastmod: content`` dated by it; a state that is damaged,
foreign or another description's refused with a code, never a traceback."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from sitemap_ext import build
from sitemap_ext.cli import main
from sitemap_ext.folder import JOURNAL, MANIFEST, STATE
from sitemap_ext.state import State

from .conftest import ROOT

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
BUILT = "site:\n  base_url: https://e.com/\nsources:\n  - site: public/\n    lastmod: {places}\n"


def page(public: Path, name: str, main: str, stamp: str = "1", nonce: str = "n1") -> None:
    """A built page whose head carries a build time and a nonce, as themes write them."""
    target = public / name / "index.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f'<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="generated" content="{stamp}">'
                      f'<script nonce="{nonce}">var built = "{stamp}";</script></head><body><header>Menu {stamp}'
                      f"</header><main>\n<h1>{name}</h1>\n{main}\n</main></body></html>\n", encoding="utf-8")


def lastmods(out: Path) -> dict[str, str | None]:
    doc = etree.parse(str(out / "sitemap.xml"))
    return {url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)  # type: ignore[misc]
            for url in doc.getroot().findall("s:url", NS)}


def codes(result: object) -> list[tuple[str, str | None, int | None]]:
    return [(d.code, os.path.basename(d.file or ""), d.line)  # type: ignore[attr-defined]
            for d in result.collector.sorted()]  # type: ignore[attr-defined]


def built_site(tmp_path: Path, places: str = "content") -> Path:
    public = tmp_path / "public"
    for name in ("a", "b", "c"):
        page(public, name, f"<p>About {name}.</p>")
    site = tmp_path / "site.yaml"
    site.write_text(BUILT.format(places=places), encoding="utf-8")
    return site


def test_only_the_changed_page_gets_a_new_lastmod_and_an_unchanged_build_the_same_bytes(tmp_path: Path) -> None:
    site, out = built_site(tmp_path), tmp_path / "out"
    first = build(str(site), str(out), now="2026-01-01T00:00:00Z")
    assert first.ok and codes(first) == []
    assert lastmods(out) == {f"https://e.com/{n}/": "2026-01-01T00:00:00Z" for n in "abc"}
    assert (out / STATE).is_file() and first.state == str(out / STATE)
    public = tmp_path / "public"
    for name in "abc":  # every head changes (a build time, a nonce), one page's main content too
        page(public, name, "<p>About b, rewritten.</p>" if name == "b" else f"<p>About {name}.</p>",
             stamp="2", nonce="n2")
    assert build(str(site), str(out), now="2026-02-01T00:00:00Z").ok
    assert lastmods(out) == {"https://e.com/a/": "2026-01-01T00:00:00Z", "https://e.com/b/": "2026-02-01T00:00:00Z",
                             "https://e.com/c/": "2026-01-01T00:00:00Z"}
    second = (out / "sitemap.xml").read_bytes()
    for name in "abc":  # only the head changes again, and the layout of whitespace
        page(public, name, "<p>About   b,\n rewritten.</p>" if name == "b" else f"<p>About {name}.</p>",
             stamp="3", nonce="n3")
    assert build(str(site), str(out), now="2026-03-01T00:00:00Z").ok
    assert (out / "sitemap.xml").read_bytes() == second
    state = State(str(out / STATE))
    rows = {row.url: row for row in state.rows()}
    state.close()
    assert rows["https://e.com/b/"].first_seen == "2026-01-01T00:00:00Z"
    assert rows["https://e.com/b/"].last_seen == "2026-03-01T00:00:00Z"
    assert (rows["https://e.com/a/"].changed, rows["https://e.com/b/"].changed) == (1, 2)
    assert state.meta["build"] == "3" and state.meta["description"] == "../site.yaml"


def test_content_named_by_a_selector(tmp_path: Path) -> None:
    site, out = built_site(tmp_path), tmp_path / "out"
    site.write_text(site.read_text() + "    content: 'p.body'\n", encoding="utf-8")
    public = tmp_path / "public"
    page(public, "a", '<p class="body">Text.</p><p>Updated 1</p>')
    assert build(str(site), str(out), now="2026-01-01T00:00:00Z").ok
    page(public, "a", '<p class="body">Text.</p><p>Updated 2</p>')  # outside the element named
    assert build(str(site), str(out), now="2026-02-01T00:00:00Z").ok
    assert lastmods(out)["https://e.com/a/"] == "2026-01-01T00:00:00Z"
    page(public, "a", '<p class="body">New text.</p><p>Updated 2</p>')
    assert build(str(site), str(out), now="2026-03-01T00:00:00Z").ok
    assert lastmods(out)["https://e.com/a/"] == "2026-03-01T00:00:00Z"


def test_a_content_selector_that_is_none_is_c103(tmp_path: Path) -> None:
    site = built_site(tmp_path)
    site.write_text(site.read_text() + "    content: 'main > p'\n", encoding="utf-8")
    assert codes(build(str(site), str(tmp_path / "out"))) == [("C103", "site.yaml", 6)]


def git(folder: Path, *args: str, when: str = "2025-06-01T12:00:00+00:00") -> None:
    env = {"PATH": os.environ["PATH"], "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "HOME": str(folder),
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e.com"}
    subprocess.run(["git", "-C", str(folder), *args], check=True, env=env, capture_output=True)


def test_a_page_seen_first_takes_its_commit_time_when_git_is_named(tmp_path: Path) -> None:
    site, out = built_site(tmp_path, "[content, git]"), tmp_path / "out"
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "public/a", "public/b")
    git(tmp_path, "commit", "-qm", "pages")  # c is not committed: it takes the build's clock
    assert build(str(site), str(out), now="2026-01-01T00:00:00Z").ok
    committed = "2025-06-01T12:00:00+00:00"  # (git's own form of the commit time)
    assert lastmods(out) == {"https://e.com/a/": committed, "https://e.com/b/": committed,
                             "https://e.com/c/": "2026-01-01T00:00:00Z"}
    page(tmp_path / "public", "a", "<p>Changed.</p>")
    assert build(str(site), str(out), now="2026-02-01T00:00:00Z").ok
    assert lastmods(out)["https://e.com/a/"] == "2026-02-01T00:00:00Z"  # a change: the build's clock
    second = (out / "sitemap.xml").read_bytes()
    assert build(str(site), str(out), now="2026-03-01T00:00:00Z").ok
    assert (out / "sitemap.xml").read_bytes() == second  # git's form of a date kept as it was written


DESCRIBED = """site:
  base_url: https://e.com/
defaults:
  lastmod: content
pages:
  - loc: /one/
    digest: v1
  - loc: /two/
    content: The text of page two.
sources:
  - rows.csv
"""


def test_descriptions_and_sources_date_by_a_digest_or_content_field(tmp_path: Path) -> None:
    site, out = tmp_path / "site.yaml", tmp_path / "out"
    site.write_text(DESCRIBED, encoding="utf-8")
    (tmp_path / "rows.csv").write_text("loc,digest,lastmod\n/three/,abc,content\n/four/,x,2025-01-01\n",
                                       encoding="utf-8")
    assert build(str(site), str(out), now="2026-01-01T00:00:00Z").ok
    site.write_text(DESCRIBED.replace("digest: v1", "digest: v2"), encoding="utf-8")
    result = build(str(site), str(out), now="2026-02-01T00:00:00Z")
    assert result.ok and codes(result) == []
    assert lastmods(out) == {"https://e.com/one/": "2026-02-01T00:00:00Z", "https://e.com/two/": "2026-01-01T00:00:00Z",
                             "https://e.com/three/": "2026-01-01T00:00:00Z", "https://e.com/four/": "2025-01-01"}


def test_a_lastmod_that_moved_while_the_digest_did_not_is_d110(tmp_path: Path) -> None:
    site, out = tmp_path / "site.yaml", tmp_path / "out"
    text = "site:\n  base_url: https://e.com/\noutput:\n  state: true\npages:\n  - loc: /a/\n    digest: same\n" \
           "    lastmod: {date}\n  - loc: /b/\n    digest: other{date}\n    lastmod: {date}\n"
    site.write_text(text.format(date="2026-01-01"), encoding="utf-8")
    assert build(str(site), str(out), now="2026-03-01T00:00:00Z").ok
    site.write_text(text.format(date="2026-02-01"), encoding="utf-8")
    moved = build(str(site), str(out), now="2026-03-01T00:00:00Z")
    assert codes(moved) == [("D110", "site.yaml", 6)]
    assert moved.collector.sorted()[0].url == "https://e.com/a/"
    assert lastmods(out)["https://e.com/a/"] == "2026-02-01"  # written as given


def test_lastmod_content_with_no_digest_or_no_state_is_c120(tmp_path: Path) -> None:
    site, out = tmp_path / "site.yaml", tmp_path / "out"
    site.write_text("site:\n  base_url: https://e.com/\npages:\n  - loc: /a/\n    lastmod: content\n"
                    "sources:\n  - rows.csv\n", encoding="utf-8")
    (tmp_path / "rows.csv").write_text("loc,lastmod,digest\n/b/,content,1\n", encoding="utf-8")
    result = build(str(site), str(out), now="2026-01-01T00:00:00Z")
    assert codes(result) == [("C120", "site.yaml", 4)]  # the page names content: a state is kept
    assert lastmods(out) == {"https://e.com/a/": None, "https://e.com/b/": "2026-01-01T00:00:00Z"}
    site.write_text("site:\n  base_url: https://e.com/\nsources:\n  - rows.csv\n", encoding="utf-8")
    alone = build(str(site), str(tmp_path / "out2"), now="2026-01-01T00:00:00Z")
    assert codes(alone) == [("C120", "rows.csv", 2)]  # only a row asks: no state was named
    assert "keeps no state" in alone.collector.sorted()[0].message


def test_the_state_path_is_configurable(tmp_path: Path) -> None:
    site, out = built_site(tmp_path), tmp_path / "out"
    site.write_text(site.read_text() + "output:\n  state: cache/state.sqlite\n", encoding="utf-8")
    (tmp_path / "cache").mkdir()
    assert build(str(site), str(out)).ok
    assert (tmp_path / "cache" / "state.sqlite").is_file() and not (out / STATE).exists()
    assert main(["build", str(site), "-o", str(out), "--state", str(tmp_path / "other.sqlite"), "-q"]) == 0
    assert (tmp_path / "other.sqlite").is_file()
    assert not [n for n in os.listdir(tmp_path / "cache") if n != "state.sqlite"]


@pytest.mark.parametrize(("content", "what"), [
    (b"not a database at all", "not an SQLite file"),
    (b"SQLite format 3\0" + b"\xff" * 4000, "damaged"),
    (None, "no build state of sitemap-ext"),
])
def test_a_damaged_or_foreign_state_is_f105(tmp_path: Path, content: bytes | None, what: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    site, out = built_site(tmp_path), tmp_path / "out"
    out.mkdir()
    if content is None:
        with sqlite3.connect(out / STATE) as other:
            other.execute("CREATE TABLE notes (x TEXT)")
        other.close()
    else:
        (out / STATE).write_bytes(content)
    before = (out / STATE).read_bytes()
    result = build(str(site), str(out))
    assert [(c, f) for c, f, _ in codes(result)] == [("F105", STATE)]
    assert what in result.collector.sorted()[0].message
    assert (out / STATE).read_bytes() == before and not (out / "sitemap.xml").exists()
    assert main(["build", str(site), "-o", str(out), "-q"]) == 3
    assert "Traceback" not in capsys.readouterr().err


def test_a_state_of_another_description_is_o108(tmp_path: Path) -> None:
    site, out = built_site(tmp_path), tmp_path / "out"
    assert build(str(site), str(out)).ok
    other = tmp_path / "other.yaml"
    other.write_text(site.read_text(), encoding="utf-8")
    result = build(str(other), str(tmp_path / "out2"), state=out / STATE)
    assert [(c, f) for c, f, _ in codes(result)] == [("O108", STATE)]
    assert "../site.yaml" in result.collector.sorted()[0].message


def test_a_failed_build_leaves_the_old_state(tmp_path: Path) -> None:
    site, out = built_site(tmp_path), tmp_path / "out"
    assert build(str(site), str(out), now="2026-01-01T00:00:00Z").ok
    before = (out / STATE).read_bytes()
    site.write_text(site.read_text() + "pages:\n  - loc: ftp://e.com/x\n", encoding="utf-8")
    assert not build(str(site), str(out), now="2026-02-01T00:00:00Z").ok
    assert (out / STATE).read_bytes() == before
    assert sorted(n for n in os.listdir(out) if n.startswith(".sitemap-ext")) == sorted([MANIFEST, STATE])
    assert build(str(site), str(out), dry_run=True).collector.errors  # a dry run writes no state either
    assert (out / STATE).read_bytes() == before


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
build({site!r}, {out!r}, now="2026-02-01T00:00:00Z")
"""


def rows(path: Path) -> dict[str, str | None]:
    state = State(str(path))
    try:
        return {row.url: row.lastmod for row in state.rows()}
    finally:
        state.close()


@pytest.mark.parametrize("kill_at", range(1, 6))
def test_a_build_killed_at_any_point_leaves_the_old_state_or_a_journal_that_finishes(tmp_path: Path,
                                                                                     kill_at: int) -> None:
    site, out = built_site(tmp_path), tmp_path / "out"
    assert build(str(site), str(out), now="2026-01-01T00:00:00Z").ok
    old_sitemap, old_rows = (out / "sitemap.xml").read_bytes(), rows(out / STATE)
    page(tmp_path / "public", "b", "<p>Changed.</p>")
    script = _KILLER.format(root=str(ROOT), kill_at=kill_at, site=str(site), out=str(out))
    subprocess.run([sys.executable, "-c", script], check=False, timeout=120)
    if not (out / JOURNAL).exists():  # killed before the commit was decided, or after it ended
        now = rows(out / STATE)
        assert (now, (out / "sitemap.xml").read_bytes()) == (old_rows, old_sitemap) or \
            now["https://e.com/b/"] == lastmods(out)["https://e.com/b/"] == "2026-02-01T00:00:00Z"
    done = build(str(site), str(out), now="2026-02-01T00:00:00Z")
    assert done.ok
    assert lastmods(out)["https://e.com/b/"] == rows(out / STATE)["https://e.com/b/"] == "2026-02-01T00:00:00Z"
    assert lastmods(out)["https://e.com/a/"] == "2026-01-01T00:00:00Z"
    assert sorted(n for n in os.listdir(out) if n.startswith(".sitemap-ext")) == sorted([MANIFEST, STATE])


_KILLED_WRITING = """
import os, sys
sys.path.insert(0, {root!r})
from sitemap_ext import build
from sitemap_ext.write.state import BuildState
def finish(self):
    self._flush()
    os._exit(9)  # killed with the new state half made: no commit, no cleanup
BuildState.finish = finish
build({site!r}, {out!r}, now="2026-02-01T00:00:00Z")
"""


def test_a_build_killed_while_writing_its_state_leaves_the_old_one(tmp_path: Path) -> None:
    site, out = built_site(tmp_path), tmp_path / "out"
    assert build(str(site), str(out), now="2026-01-01T00:00:00Z").ok
    before = (out / STATE).read_bytes(), (out / "sitemap.xml").read_bytes()
    page(tmp_path / "public", "a", "<p>Changed.</p>")
    script = _KILLED_WRITING.format(root=str(ROOT), site=str(site), out=str(out))
    assert subprocess.run([sys.executable, "-c", script], check=False, timeout=120).returncode == 9
    assert ((out / STATE).read_bytes(), (out / "sitemap.xml").read_bytes()) == before
    assert (out / (STATE + ".sitemap-ext-new")).exists()  # what the next build removes
    assert build(str(site), str(out), now="2026-02-01T00:00:00Z").ok
    assert lastmods(out)["https://e.com/a/"] == "2026-02-01T00:00:00Z"
    assert sorted(n for n in os.listdir(out) if n.startswith(".sitemap-ext")) == sorted([MANIFEST, STATE])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(0, 2), min_size=4, max_size=4), min_size=1, max_size=4))
def test_a_page_is_dated_by_the_last_build_that_changed_its_digest(tmp_path_factory: pytest.TempPathFactory,
                                                                    versions: list[list[int]]) -> None:
    """Builds k = 1, 2, ... at day k; page i gives digest versions[k][i]: its lastmod is
    the day of the last build whose digest differed from the build before (or its first)."""
    folder = tmp_path_factory.mktemp("s")
    site, out = folder / "site.yaml", folder / "out"
    expected: dict[str, str] = {}
    for day, digests in enumerate(versions, 1):
        pages = "".join(f"  - loc: /p{i}/\n    digest: v{d}\n" for i, d in enumerate(digests))
        site.write_text("site:\n  base_url: https://e.com/\ndefaults:\n  lastmod: content\npages:\n" + pages,
                        encoding="utf-8")
        assert build(str(site), str(out), now=f"2026-01-{day:02d}T00:00:00Z").ok
        for i, digest in enumerate(digests):
            if day == 1 or versions[day - 2][i] != digest:
                expected[f"https://e.com/p{i}/"] = f"2026-01-{day:02d}T00:00:00Z"
        assert lastmods(out) == expected


def test_a_state_damaged_inside_is_f105_in_a_build_and_in_its_rows(tmp_path: Path) -> None:
    site, out = tmp_path / "site.yaml", tmp_path / "out"
    pages = "".join(f"  - loc: /page-{i:04d}/\n    digest: v{i}\n" for i in range(600))
    site.write_text("site:\n  base_url: https://e.com/\ndefaults:\n  lastmod: content\npages:\n" + pages,
                    encoding="utf-8")
    assert build(str(site), str(out), now="2026-01-01T00:00:00Z").ok
    data = bytearray((out / STATE).read_bytes())
    assert len(data) > 16384
    data[8192:16384] = b"\xa5" * 8192  # pages of the table overwritten, the header intact
    (out / STATE).write_bytes(bytes(data))
    result = build(str(site), str(out), now="2026-02-01T00:00:00Z")
    assert [(c, f) for c, f, _ in codes(result)] == [("F105", STATE)]
    assert "damaged" in result.collector.sorted()[0].message
    assert (out / STATE).read_bytes() == bytes(data)
    from sitemap_ext import StateError, state_rows

    with pytest.raises(StateError) as caught:
        list(state_rows(out / STATE))
    assert caught.value.code == "F105"


def test_a_refused_state_outside_the_output_folder_lets_its_folder_go(tmp_path: Path) -> None:
    site, out, cache = built_site(tmp_path), tmp_path / "out", tmp_path / "cache"
    cache.mkdir()
    (cache / "state.sqlite").write_bytes(b"not a state at all")
    assert [c for c, _, _ in codes(build(str(site), str(out), state=cache / "state.sqlite"))] == ["F105"]
    (cache / "state.sqlite").unlink()
    assert build(str(site), str(out), state=cache / "state.sqlite").ok  # the folder's lock was let go


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.permutations(range(30)), st.sets(st.integers(0, 29), max_size=6),
                          st.sets(st.integers(0, 29), max_size=6)), min_size=2, max_size=4))
def test_pages_in_any_order_added_and_removed_keep_their_dates(tmp_path_factory: pytest.TempPathFactory,
                                                                builds: list[tuple[list[int], set[int],
                                                                                   set[int]]]) -> None:
    """Builds of 30 pages in any order, some left out, some changed: each page written
    keeps the date of the last build that changed it while it stayed in the state (the
    state reads ahead in the last build's order, and looks up what is not in place)."""
    folder = tmp_path_factory.mktemp("o")
    site, out = folder / "site.yaml", folder / "out"
    version = dict.fromkeys(range(30), 0)
    dated: dict[int, str] = {}
    for day, (order, absent, changed) in enumerate(builds, 1):
        for i in changed:
            version[i] += 1
        kept = [i for i in order if i not in absent]
        pages = "".join(f"  - loc: /p{i}/\n    digest: v{version[i]}\n" for i in kept)
        site.write_text("site:\n  base_url: https://e.com/\ndefaults:\n  lastmod: content\npages:\n" + pages,
                        encoding="utf-8")
        assert build(str(site), str(out), now=f"2026-01-{day:02d}T00:00:00Z").ok
        previous, dated = dated, {}
        for i in kept:
            same = i in previous and i not in changed
            dated[i] = previous[i] if same else f"2026-01-{day:02d}T00:00:00Z"
        assert lastmods(out) == {f"https://e.com/p{i}/": dated[i] for i in kept}
