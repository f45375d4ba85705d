"""Build safety for a built site and its output folder: `lastmod: git` runs nothing a
checked-out tree configures and reads git's output so that no file name can speak for
another; a page's columns cost a scan only for a finding; a file name that is not
UTF-8 is a finding, not a traceback; a commit into several host folders moves nothing
unless every folder can take its files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sitemap_ext import build, check
from sitemap_ext.write import built_site as builtsite
from sitemap_ext.read import html as read_html
from sitemap_ext.cli import main

from .conftest import hang_guard
from .test_build_site import DESCRIPTION, entries, findings, write_page
from .test_safety_output import codes, describe, tree

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

# --- lastmod: git ---------------------------------------------------------------------

_MARKER_SCRIPT = """#!/bin/sh
echo "$0 $*" >> {marker}
cat >/dev/null 2>&1
exit 0
"""


def _git(folder: Path, *args: str, date: str | None = None) -> str:
    env = {"PATH": os.environ["PATH"], "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e.com", **({"GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date} if date else {})}
    done = subprocess.run(["git", "-c", "core.hooksPath=" + os.devnull, *args], cwd=folder, check=True,
                          capture_output=True, env=env)
    return done.stdout.decode().strip()


def _signed_commit(folder: Path, message: str, stamp: int) -> None:
    """A commit that carries a (fake) signature: `log.showSignature` hands it to gpg.program."""
    _git(folder, "add", "-A")
    tree_id, parent = _git(folder, "write-tree"), _git(folder, "rev-parse", "HEAD")
    body = (f"tree {tree_id}\nparent {parent}\nauthor t <t@e.com> {stamp} +0000\ncommitter t <t@e.com> {stamp} +0000\n"
            "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\n"
            f"{message}\n")
    (folder / "commit.txt").write_text(body)
    commit = _git(folder, "hash-object", "-t", "commit", "-w", "commit.txt")
    (folder / "commit.txt").unlink()
    _git(folder, "update-ref", "HEAD", commit)


def _planted_repository(tmp_path: Path) -> Path:
    """A repository whose config names a program (that writes MARKER) everywhere git
    may run one; two pages, the second changed in a signed commit. Returns the script."""
    public = tmp_path / "public"
    write_page(public, "a.html", "")
    write_page(public, "b.html", "")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "first", date="2026-03-01T10:00:00+01:00")
    (public / "b.html").write_text((public / "b.html").read_text() + "<!-- changed -->\n")
    _signed_commit(tmp_path, "second", 1775118600)  # 2026-04-02T08:30:00Z
    script = tmp_path / "run.sh"
    script.write_text(_MARKER_SCRIPT.format(marker=tmp_path / "MARKER"))
    script.chmod(0o755)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "reference-transaction", "post-checkout"):
        shutil.copy(script, hooks / hook)
    (tmp_path / ".gitattributes").write_text("*.html diff=run\n")
    with (tmp_path / ".git" / "config").open("a") as config:
        config.write(textwrap.dedent(f"""\
            [core]
                fsmonitor = {script}
                pager = {script}
                hooksPath = {hooks}
                sshCommand = {script}
            [log]
                showSignature = true
            [gpg]
                program = {script}
            [diff]
                external = {script}
            [diff "run"]
                textconv = {script}
                command = {script}
            [credential]
                helper = !{script}
            """))
    (tmp_path / "site.yaml").write_text(DESCRIPTION + "    lastmod: [git]\n")
    return script


DATED = {"https://e.com/a.html": "2026-03-01T10:00:00+01:00", "https://e.com/b.html": "2026-04-02T08:30:00+00:00"}


@needs_git
def test_git_runs_nothing_a_repository_configures(tmp_path: Path) -> None:
    _planted_repository(tmp_path)
    marker = tmp_path / "MARKER"
    # git itself runs a planted program (what the build must not let it do):
    subprocess.run(["git", "log", "-1"], cwd=tmp_path, capture_output=True, check=False,
                   env={"PATH": os.environ["PATH"], "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"})
    assert marker.exists()
    marker.unlink()
    result = build("site.yaml", "out")
    assert result.ok, findings(result)
    assert not marker.exists(), marker.read_text()
    assert {loc: lastmod for loc, (lastmod, _) in entries(tmp_path / "out" / "sitemap.xml").items()} == DATED


@needs_git
def test_git_takes_nothing_from_the_users_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = _planted_repository(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    _git(other, "init", "-q")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))  # (as in a git hook)
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'core.pager={script}' 'log.showSignature=true'")
    monkeypatch.setenv("GIT_PAGER", str(script))
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", str(script))
    result = build("site.yaml", "out")
    assert result.ok, findings(result)
    assert not (tmp_path / "MARKER").exists()
    assert {loc: lastmod for loc, (lastmod, _) in entries(tmp_path / "out" / "sitemap.xml").items()} == DATED


@needs_git
def test_a_bare_repository_in_the_built_folder_is_not_taken_for_its_repository(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    public = tmp_path / "public"
    write_page(public, "a.html", "")
    subprocess.run(["git", "init", "-q", "--bare", str(public)], check=True, capture_output=True,
                   env={"PATH": os.environ["PATH"], "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"})
    (tmp_path / "site.yaml").write_text(DESCRIPTION + "    lastmod: [git]\n")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # (no repository around the test's folder)
    result = build("site.yaml", "out")
    assert [code for code, *_ in findings(result)] == ["S110"]


@needs_git
@pytest.mark.parametrize("trick", ["a\nb.html", "a\x01" + "2099-01-01T00:00:00Z", "a\n2099-01-01T00:00:00Z"])
def test_no_file_name_sets_another_files_lastmod(tmp_path: Path, trick: str) -> None:
    public = tmp_path / "public"
    write_page(public, "b.html", "")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "first", date="2026-03-01T10:00:00Z")
    # One commit holds the trick and b.html after it, in git's order of names.
    (public / trick).write_text("x")
    (public / "b.html").write_text((public / "b.html").read_text() + "<!-- changed -->\n")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "second", date="2026-04-02T08:30:00Z")
    (tmp_path / "site.yaml").write_text(DESCRIPTION + "    lastmod: [git]\n")
    result = build("site.yaml", "out")
    assert result.ok, findings(result)
    lastmods = {loc: lastmod for loc, (lastmod, _) in entries(tmp_path / "out" / "sitemap.xml").items()}
    assert lastmods["https://e.com/b.html"] == "2026-04-02T08:30:00+00:00"
    assert set(lastmods.values()) == {"2026-04-02T08:30:00+00:00"}


def test_git_output_is_read_strictly_and_a_cut_keeps_whole_commits() -> None:
    read = builtsite._commit_times
    newest, older = b"2026-04-02T08:30:00Z", b"2026-03-01T10:00:00+01:00"
    log = b"\0" + newest + b"\0\na\nb.html\0b.html\0\0" + newest + b"\0\0" + older + b"\0\nc.html\0b.html\0"
    assert read(log, cut=False) == {"a\nb.html": newest.decode(), "b.html": newest.decode(), "c.html": older.decode()}
    assert read(log[:-3], cut=True) == {"a\nb.html": newest.decode(), "b.html": newest.decode()}
    assert read(b"", cut=False) == {}
    for broken in (b"x\0", b"\0not a date\0\na.html\0", b"\0" + newest + b"\0a.html\0"):
        assert read(broken, cut=False) is None


def _fake_git(folder: Path, body: str, monkeypatch: pytest.MonkeyPatch) -> None:
    folder.mkdir()
    script = folder / "git"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")


def test_a_git_that_never_ends_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_page(tmp_path / "public", "a.html", "")
    (tmp_path / "site.yaml").write_text(DESCRIPTION + "    lastmod: [git]\n")
    _fake_git(tmp_path / "bin", "exec sleep 60\n", monkeypatch)
    monkeypatch.setattr(builtsite, "GIT_TIMEOUT", 1)
    with hang_guard(30):
        result = build("site.yaml", "out")
    assert result.ok and [code for code, *_ in findings(result)] == ["S110"]
    assert "no answer" in result.collector.diagnostics[0].message


def test_git_output_past_its_limit_is_cut_without_waiting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_page(tmp_path / "public", "a.html", "")
    (tmp_path / "site.yaml").write_text(DESCRIPTION + "    lastmod: [git]\n")
    # Endless output, and endless noise on stderr (which must not fill and block).
    record = "\\0002026-04-02T08:30:00Z\\000\\na.html\\000"
    _fake_git(tmp_path / "bin", f"while :; do printf '{record}'; echo noise >&2; done\n", monkeypatch)
    monkeypatch.setattr(builtsite, "GIT_LOG_LIMIT", 1 << 20)
    with hang_guard(60):
        result = build("site.yaml", "out")
    assert result.ok, findings(result)
    assert entries(tmp_path / "out" / "sitemap.xml")["https://e.com/a.html"][0] == "2026-04-02T08:30:00Z"


# --- columns --------------------------------------------------------------------------


def test_a_column_is_found_only_for_a_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page of many links on one line: the line is scanned for a link's column only
    when a finding names that link (here: one), never for every link read."""
    calls = []
    real = read_html._Columns.of

    def counted(self: object, line: int, tag: str, number: int) -> int | None:
        calls.append(number)
        return real(self, line, tag, number)  # type: ignore[arg-type]

    monkeypatch.setattr(read_html._Columns, "of", counted)
    codes_ = [f"{language}-{region}" for language in ("en", "de", "fr", "es", "it", "nl", "pt", "sv")
              for region in ("US", "GB", "DE", "FR", "ES", "IT", "NL", "PT", "SE", "AT", "CH", "BE")]
    line = "".join(f'<link rel="alternate" hreflang="{code}" href="https://e.com/elsewhere/{code}/">'
                   for code in codes_)
    missing = '<link rel="alternate" hreflang="da" href="https://e.com/g/missing.html">'  # H115: no file serves it
    write_page(tmp_path / "public", "index.html",
               '<link rel="alternate" hreflang="en" href="https://e.com/g/">'
               '<link rel="alternate" hreflang="x-default" href="https://e.com/g/">' + line + missing + "\n")
    (tmp_path / "site.yaml").write_text("site:\n  base_url: https://e.com/\nsources:\n  - site: public/\n"
                                        "    url: https://e.com/g/\n")
    result = build("site.yaml", "out")
    got = findings(result)
    assert ("H115", 5) in [(code, line) for code, _, line, _ in got]
    # (One scan per finding placed at a column; the cluster rules place theirs at the list's line.)
    assert len(calls) == sum(1 for d in result.collector.diagnostics if d.column is not None) < 2


# --- file names that are not UTF-8 ----------------------------------------------------


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file systems refuse names that are not UTF-8")
def test_a_file_name_that_is_not_utf8_is_a_finding_and_reports_stay_utf8(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    public = tmp_path / "public"
    write_page(public, "a.html", "")
    with open(os.path.join(os.fsencode(public), b"caf\xe9.html"), "wb") as handle:
        handle.write((public / "a.html").read_bytes())
    (tmp_path / "site.yaml").write_text(DESCRIPTION)
    result = build("site.yaml", "out")
    assert [(code, line) for code, _, line, _ in findings(result)] == [("U116", None)]
    assert result.collector.diagnostics[0].file == os.fsdecode(b"public/caf\xe9.html")  # exact: reports render it
    (tmp_path / "site.yaml").write_text(DESCRIPTION + "    exclude: ['caf*.html']\n")
    assert build("site.yaml", "out").ok  # a name that is not UTF-8 can be excluded
    (tmp_path / "site.yaml").write_text(DESCRIPTION)
    assert main(["build", "--format", "json", "site.yaml", "-o", "out"]) == 0  # (a warning)
    report = json.loads(capsys.readouterr().out.encode("utf-8"))  # (valid UTF-8, valid JSON)
    assert [d["code"] for d in report["diagnostics"]] == ["U116"]
    assert "\\xe9" in report["diagnostics"][0]["file"]
    # The check of the same folder gives the same verdict, with no traceback.
    checked = check([str(public)], base_urls=[f"https://e.com/={public}"])
    assert [d.code for d in checked.collector.diagnostics if d.code == "U116"] == ["U116"]


# --- a commit into several host folders -----------------------------------------------

TWO_HOSTS = textwrap.dedent("""\
    locales:
      en: /
      de: {host: "https://www.example.de/"}
    x_default: en
    """)


def _unwritable(folder: Path) -> bool:
    """Make ``folder`` take no new entry, even for root (the immutable flag); False where
    the platform or the file system has no such flag."""
    chattr = shutil.which("chattr")
    return chattr is not None and subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode == 0


def test_a_host_folder_that_cannot_be_written_changes_no_host(tmp_path: Path) -> None:
    out = tmp_path / "p" / "out"
    site = describe(tmp_path / "p", pages=2, max_urls=50_000, extra=TWO_HOSTS)
    assert build(str(site), str(out)).ok
    old = tree(out)
    describe(tmp_path / "p", pages=3, max_urls=50_000, extra=TWO_HOSTS)  # every host's files change
    second = out / "www.example.de"
    if not _unwritable(second):
        pytest.skip("no immutable flag here")
    try:
        result = build(str(site), str(out))
    finally:
        subprocess.run(["chattr", "-i", str(second)], check=True)
    assert codes(result) == ["F102"] and not result.partial
    assert str(second) in result.collector.diagnostics[0].message
    assert tree(out) == old  # the first host's old files, byte for byte
    assert not (out / ".sitemap-ext-journal.json").exists()
    again = build(str(site), str(out))
    assert again.ok and not again.recovered
    assert tree(out) != old
    assert not [p for p in out.rglob(".sitemap-ext-probe-*")]


def test_a_host_folder_on_another_file_system_changes_no_host(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "p" / "out"
    site = describe(tmp_path / "p", pages=2, max_urls=50_000, extra=TWO_HOSTS)
    assert build(str(site), str(out)).ok
    old = tree(out)
    describe(tmp_path / "p", pages=3, max_urls=50_000, extra=TWO_HOSTS)
    second = str(out / "www.example.de")
    real = os.lstat

    class Elsewhere:  # what lstat says of a mount point: another device
        def __init__(self, result: os.stat_result) -> None:
            self.st_dev, self.st_mode = result.st_dev + 1, result.st_mode

    def lstat(path: str, *args: object, **kwargs: object) -> object:
        found = real(path, *args, **kwargs)  # type: ignore[arg-type]
        return Elsewhere(found) if os.fspath(path) == second else found

    monkeypatch.setattr(os, "lstat", lstat)
    result = build(str(site), str(out))
    monkeypatch.setattr(os, "lstat", real)
    assert codes(result) == ["F102"] and "another file system" in result.collector.diagnostics[0].message
    assert tree(out) == old
