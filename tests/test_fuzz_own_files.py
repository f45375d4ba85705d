"""The second attack round of issue "Safe where it guards deploys", kept: the files we
read that a cache, a checkout or a pull request can hand us (a build state, a baseline,
a config) mutated by hypothesis. Whatever the bytes, the answer is a coded refusal
(F105, a BaselineError, a ConfigError: exit 2 or 3) or a clean reading, never another
exception."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_ext import build
from sitemap_ext.deploys import state_rows
from sitemap_ext.report import baseline
from sitemap_ext.rules.config import ConfigError, load_settings
from sitemap_ext.state import StateError

NOW = "2026-11-25T00:00:00Z"
SITE = ("site:\n  base_url: https://e.com/\nlocales:\n  en: {prefix: /}\n  de: {prefix: /de/}\n"
        "pages:\n" + "".join(f"  - path: /p{n}/\n    digest: d{n}\n" for n in range(40)) +
        "output:\n  state: state.sqlite\n")


@pytest.fixture(scope="module")
def state_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    folder = tmp_path_factory.mktemp("state")
    (folder / "site.yaml").write_text(SITE, encoding="utf-8")
    result = build(str(folder / "site.yaml"), str(folder / "out"), now=NOW)
    assert result.ok, [d.code for d in result.collector.sorted()]
    return (folder / "state.sqlite").read_bytes()


mutations = st.lists(st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=255)),
                     min_size=1, max_size=12)


def mutated(data: bytes, changes: list[tuple[int, int]], cut: int | None) -> bytes:
    buffer = bytearray(data)
    for offset, value in changes:
        buffer[offset % len(buffer)] = value
    return bytes(buffer[:cut] if cut is not None else buffer)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=mutations, cut=st.none() | st.integers(min_value=0, max_value=20_000))
def test_a_mutated_state_is_read_or_refused_with_f105(state_bytes: bytes, tmp_path: Path,
                                                        changes: list[tuple[int, int]], cut: int | None) -> None:
    path = tmp_path / f"s{abs(hash((tuple(changes), cut)))}.sqlite"
    path.write_bytes(mutated(state_bytes, changes, cut))
    try:
        rows = list(state_rows(str(path)))
    except StateError as exc:
        assert exc.code in ("F105", "F103"), exc
    else:
        assert all(isinstance(row.url, str) for row in rows)
    os.remove(path)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=mutations)
def test_a_build_on_a_mutated_state_reports_a_code(state_bytes: bytes, tmp_path_factory: pytest.TempPathFactory,
                                                   changes: list[tuple[int, int]]) -> None:
    """The build that finds the state damaged says F105 and writes nothing; one that
    can read it builds. No traceback either way."""
    folder = tmp_path_factory.mktemp("build")
    (folder / "site.yaml").write_text(SITE, encoding="utf-8")
    (folder / "state.sqlite").write_bytes(mutated(state_bytes, changes, None))
    result = build(str(folder / "site.yaml"), str(folder / "out"), now=NOW)
    codes = {d.code for d in result.collector.sorted()}
    assert result.ok or codes & {"F105", "D101", "D110"}, codes
    shutil.rmtree(folder)


finding = st.fixed_dictionaries({}, optional={
    "fingerprint": st.text(max_size=24) | st.integers() | st.none(),
    "code": st.text(max_size=6) | st.integers(),
    "url": st.text(max_size=30) | st.none(),
    "count": st.integers(min_value=-2, max_value=10**30) | st.booleans() | st.floats() | st.text(max_size=3),
})
documents = st.fixed_dictionaries({}, optional={
    "format": st.sampled_from([1, 2, "1", None, 1.0]),
    "tool": st.sampled_from(["sitemap-ext", "other", 5]),
    "findings": st.lists(finding | st.integers() | st.text(max_size=5), max_size=6) | st.integers() | st.none(),
})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=documents | st.lists(st.integers()) | st.text(max_size=20))
def test_any_json_as_a_baseline_is_read_or_refused(tmp_path: Path, document: object) -> None:
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    try:
        found = baseline.read(str(path))
    except baseline.BaselineError:
        return
    assert all(isinstance(key, str) and isinstance(count, int) for key, count in found.items())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200))
def test_any_bytes_as_a_baseline_are_read_or_refused(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "baseline.json"
    path.write_bytes(data)
    try:
        baseline.read(str(path))
    except baseline.BaselineError:
        pass


toml_values = st.one_of(st.integers(), st.booleans(), st.text(max_size=8).map(json.dumps),
                        st.lists(st.text(max_size=6).map(json.dumps), max_size=4).map(lambda xs: f"[{', '.join(xs)}]"),
                        st.just("{a = 1}"), st.just("1979-05-27"))
config_lines = st.tuples(st.sampled_from(["select", "ignore", "severity", "cross-submitted", "per-path-ignores",
                                          "unknown", "severity.H112", "per-path-ignores.\"a/*\""]), toml_values)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(config_lines, max_size=6), table=st.sampled_from(["", "[tool.sitemap-ext]\n", "[tool]\n"]),
       noise=st.text(alphabet="[]{}=\"'#.\n ab1", max_size=40))
def test_any_config_is_settings_or_a_usage_error(tmp_path: Path, lines: list[tuple[str, str]], table: str,
                                                 noise: str) -> None:
    for name in ("sitemap-ext.toml", "pyproject.toml"):
        path = tmp_path / name
        path.write_text(table + "".join(f"{key} = {value}\n" for key, value in lines) + noise, encoding="utf-8")
        try:
            load_settings(str(path))
        except ConfigError:
            pass


@pytest.mark.parametrize("needle", [b"CREATE TABLE", b"https://e.com/p3/"])
def test_text_that_is_not_utf8_in_a_state_is_f105(state_bytes: bytes, tmp_path: Path, needle: bytes) -> None:
    """Found by the mutations above: Python's sqlite3 decodes text itself and raises a
    UnicodeDecodeError, not an sqlite3 error, for a schema or a value that is not UTF-8."""
    place = state_bytes.index(needle) + 3
    path = tmp_path / "state.sqlite"
    path.write_bytes(state_bytes[:place] + b"\xff" + state_bytes[place + 1:])
    with pytest.raises(StateError) as caught:
        list(state_rows(str(path)))
    assert caught.value.code == "F105" and "is damaged" in str(caught.value)
