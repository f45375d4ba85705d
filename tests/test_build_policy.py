"""The config file's select, ignore and severity apply to build as to check."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sitemap_ext import build, check
from sitemap_ext.cli import main
from sitemap_ext.rules.config import make_policy

SITE = "site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n    changefreq: Weekly\n  - loc: /b\n"


@pytest.fixture()
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "site.yaml").write_text(SITE, encoding="utf-8")
    return tmp_path


def test_build_takes_a_policy_as_check_does(site: Path) -> None:
    policy = make_policy([], [], {"D104": "warning"})
    built = build("site.yaml", "out", policy=policy, now="2026-01-01")
    checked = check(["site.yaml"], policy=policy, now="2026-01-01")
    assert built.ok and checked.collector.errors == 0
    assert [(d.code, d.severity.value) for d in built.collector.diagnostics] == \
        [(d.code, d.severity.value) for d in checked.collector.diagnostics] == [("D104", "warning")]
    assert os.path.exists("out/sitemap.xml")
    ignored = build("site.yaml", dry_run=True, policy=make_policy([], ["D1"], {}), now="2026-01-01")
    assert ignored.collector.diagnostics == [] and ignored.collector.ignored["D104"] == 1 and ignored.ok


def test_build_rejects_what_is_no_policy(site: Path) -> None:
    with pytest.raises(TypeError):
        build("site.yaml", dry_run=True, policy={"D104": "warning"})  # type: ignore[arg-type]


@pytest.mark.parametrize("config, name", [
    ('[tool.sitemap-ext]\nseverity = {D104 = "warning"}\n', "pyproject.toml"),
    ('severity = {D104 = "warning"}\n', "sitemap-ext.toml"),
])
def test_the_cli_build_reads_the_config_file_as_check_does(site: Path, config: str, name: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "site.yaml", "-o", "out", "--now", "2026-01-01", "--quiet", "--no-config"]) == 1
    assert "error D104" in capsys.readouterr().out
    (site / name).write_text(config, encoding="utf-8")
    for argv in (["build", "site.yaml", "-o", "out"], ["check", "site.yaml"]):
        assert main([*argv, "--now", "2026-01-01", "--quiet"]) == 0
        assert "warning D104" in capsys.readouterr().out
    assert main(["build", "site.yaml", "-o", "out", "--now", "2026-01-01", "--quiet", "--severity", "D104=error"]) == 1
    assert "error D104" in capsys.readouterr().out
    assert main(["build", "site.yaml", "-o", "out", "--now", "2026-01-01", "--quiet", "--ignore", "D104",
                 "--severity", "D104=error"]) == 0
    assert "D104" not in capsys.readouterr().out


def test_a_bad_config_is_a_usage_error_for_build(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (site / "sitemap-ext.toml").write_text("severity = 3\n", encoding="utf-8")
    assert main(["build", "site.yaml", "-o", "out"]) == 2
    assert "sitemap-ext build:" in capsys.readouterr().err
