"""Every example is valid against the JSON Schema in specs/, builds cleanly, and validates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import jsonschema
import pytest

from sitemap_ext import build, check
from sitemap_ext.codes import REGISTRY
from sitemap_ext.diagnostics import Collector, Severity
from sitemap_ext.read.yaml_doc import load_yaml

from .conftest import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*/site.yaml"))
SCHEMA = json.loads((ROOT / "specs" / "site.schema.json").read_text(encoding="utf-8"))


def yaml_files(site: Path) -> list[Path]:
    return sorted(site.parent.rglob("*.yaml"))


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 2


INCLUDED = {"$ref": "#/$defs/included", "$defs": SCHEMA["$defs"]}


@pytest.mark.parametrize("site", EXAMPLES, ids=lambda p: p.parent.name)
def test_example_matches_json_schema(site: Path) -> None:
    for path in yaml_files(site):
        # Our loader, not yaml.safe_load: dates stay strings, as the schema describes them.
        doc = load_yaml(path.read_text(encoding="utf-8"), str(path), Collector(REGISTRY), {})
        assert doc is not None
        schema = SCHEMA if path == site else INCLUDED
        errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc.data), key=str)
        assert not errors, f"{path}: {errors[0].message}"


def test_json_schema_names_the_keys_the_loader_takes() -> None:
    from sitemap_ext.write import site_yaml as site_module
    from sitemap_ext.write.page_normaliser import PAGE_KEYS

    props = SCHEMA["properties"]
    assert set(props) == set(site_module.TOP_KEYS)
    assert set(props["site"]["properties"]) == set(site_module.SITE_KEYS)
    assert set(props["output"]["properties"]) == set(site_module.OUTPUT_KEYS)
    assert set(SCHEMA["$defs"]["page"]["properties"]) == set(PAGE_KEYS)
    assert set(SCHEMA["$defs"]["defaults"]["properties"]) == set(site_module.DEFAULT_KEYS)
    assert set(SCHEMA["$defs"]["included"]["properties"]) == set(site_module.INCLUDED_KEYS)


@pytest.mark.parametrize("site", EXAMPLES, ids=lambda p: p.parent.name)
def test_example_builds_cleanly_and_validates(site: Path, tmp_path: Path,
                                              assert_valid: Callable[[Path], None]) -> None:
    result = build(str(site), str(tmp_path / "out"), now="2026-11-21T12:00:00Z")
    problems = [d for d in result.collector.sorted() if d.severity is not Severity.INFO]
    assert result.ok and not problems, problems
    xml = [p for p in (tmp_path / "out").rglob("*.xml*")]
    assert xml
    for path in xml:
        assert_valid(path)
    # What we build passes our own check, every file and host together.
    report = check([str(tmp_path / "out")], now="2026-11-21T12:00:00Z")
    problems = [d for d in report.collector.sorted() if d.severity is not Severity.INFO]
    assert report.ok and not problems, problems
    assert sum(int(str(f["urls"])) for f in report.files if f["kind"] == "urlset") == result.urls
