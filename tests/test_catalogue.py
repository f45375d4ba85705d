"""specs/rules.md and the code registry list the same codes with the same severities."""

from __future__ import annotations

import re

from sitemap_ext.codes import REGISTRY

from .conftest import ROOT

ROW = re.compile(r"^\| ([A-Z]\d{3}) \| (error|warning|info) \| ([a-z0-9-]+) \|", re.M)


def test_catalogue_matches_registry() -> None:
    text = (ROOT / "specs" / "rules.md").read_text(encoding="utf-8")
    documented = {code: (severity, name) for code, severity, name in ROW.findall(text)}
    registered = {c.code: (c.severity.value, c.name) for c in REGISTRY.values()}
    assert documented == registered


def test_codes_are_well_formed() -> None:
    for code, entry in REGISTRY.items():
        assert re.fullmatch(r"[A-Z]\d{3}", code) and entry.code == code
        assert entry.summary.endswith(".")
