"""The surfaces added in 0.5, attacked as a stranger would: Parquet sources and folders
of parts, a lastmod per version, the placing pass and H104's second read, the Django
middleware, the Action's check script, and the rule catalogue's examples. Each test
names the promise it holds: a coded diagnostic at its place (exit 1) or a clear error
(exit 3), never a traceback; every read bounded; nothing touched outside what was named."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitemap_ext.cli import main
from sitemap_ext.limits import MAX_CATALOGUE_BYTES
from sitemap_ext.rules import examples as catalogue_examples

# --- the rule catalogue (sitemap-ext rules CODE, the docs-site hook) -----------------

@pytest.fixture
def catalogue_at(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """The catalogue looked for at a path of the test's (nothing there yet)."""
    path = tmp_path / "rules.md"
    monkeypatch.setattr(catalogue_examples, "catalogue", lambda: path)
    catalogue_examples.examples.cache_clear()
    yield path
    catalogue_examples.examples.cache_clear()


def _fill(path: Path, how: str) -> None:
    if how == "oversized":
        path.write_bytes(b"#" * (MAX_CATALOGUE_BYTES + 1))
    elif how == "not utf-8":
        path.write_bytes(b"# Rule catalogue \xff\xfe\n")
    elif how == "a folder":
        path.mkdir()
    elif how == "a fifo":
        os.mkfifo(path)
    elif how == "unclosed":
        path.write_text("## Examples\n\n```yaml example X101\nfailing: x\n", encoding="utf-8")


@pytest.mark.parametrize("how", ["missing", "oversized", "not utf-8", "a folder", "a fifo", "unclosed"])
def test_rules_with_a_catalogue_that_cannot_be_read_is_a_clear_error(
        catalogue_at: Path, how: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A catalogue missing, past MAX_CATALOGUE_BYTES, not UTF-8, a folder, a FIFO (never
    waited on) or with a block never closed: exit 3 and one line naming the catalogue,
    no traceback (before: FileNotFoundError, safeio.Refused, UnicodeDecodeError...)."""
    _fill(catalogue_at, how)
    assert main(["rules", "X101"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("sitemap-ext rules: ") and "Traceback" not in err, err
    assert str(catalogue_at) in err or "catalogue" in err
    assert main(["rules"]) == 0  # the list of codes does not need the examples
