"""The GitHub Action (action.yml at the root): its shape, and its build and check
steps run by bash as the runner runs them (inputs as environment variables, the
runner's files GITHUB_OUTPUT and GITHUB_STEP_SUMMARY), with the installed tool."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS = {step.get("id") or step.get("name"): step for step in ACTION["runs"]["steps"]}


def run_step(step: dict, inputs: dict[str, str], workdir: Path,
             first: Path | None = None) -> tuple[subprocess.CompletedProcess[str], dict]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("GITHUB_")}
    for name, expression in step.get("env", {}).items():
        key = expression.split("inputs.")[1].rstrip(" }")
        env[name] = inputs.get(key, ACTION["inputs"][key].get("default", ""))
    env["GITHUB_OUTPUT"] = str(workdir / "output.txt")
    env["GITHUB_STEP_SUMMARY"] = str(workdir / "summary.md")
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    if first is not None:  # (a folder looked in before the others: a stand-in for the tool)
        env["PATH"] = str(first) + os.pathsep + env["PATH"]
    run = subprocess.run(["bash", "-c", step["run"]], cwd=workdir, env=env, capture_output=True, text=True,
                         timeout=120)
    lines = (workdir / "output.txt").read_text().splitlines() if (workdir / "output.txt").exists() else []
    return run, dict(line.split("=", 1) for line in lines)


def test_the_action_is_a_composite_action_with_sarif_upload() -> None:
    assert ACTION["runs"]["using"] == "composite"
    uses = [step.get("uses", "") for step in ACTION["runs"]["steps"]]
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses)
    for step in ACTION["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), "inputs reach scripts as environment variables only"


@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash scripts")
def test_the_build_and_check_steps(tmp_path: Path) -> None:
    if shutil.which("sitemap-ext", path=os.path.dirname(sys.executable)) is None:
        pytest.skip("the sitemap-ext command is not installed beside this Python (pip install -e .)")
    shutil.copytree(ROOT / "examples" / "small", tmp_path / "site")
    inputs = {"site": "site/site.yaml", "output": "public", "check": "public",
              "base-url": "https://www.example-bakery.com/=public", "now": "2026-11-21T12:00:00Z"}
    build, _ = run_step(STEPS["build"], inputs, tmp_path)
    assert build.returncode == 0, build.stdout + build.stderr
    assert (tmp_path / "public" / "sitemap.xml").exists()
    check, outputs = run_step(STEPS["check"], inputs, tmp_path)
    assert check.returncode == 0, check.stderr
    assert outputs["status"] == "0" and outputs["sarif"] == "sitemap-ext.sarif"
    sarif = json.loads((tmp_path / "sitemap-ext.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    assert "sitemap-ext" in (tmp_path / "summary.md").read_text()  # the step summary
    (tmp_path / "public" / "sitemap.xml").write_text("<urlset>broken")
    check, outputs = run_step(STEPS["check"], inputs, tmp_path)
    assert outputs["status"] == "1" and "::error" in check.stdout


STAND_IN = f"""#!{sys.executable}
import json, sys
with open("argv.jsonl", "a", encoding="utf-8") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
"""


@pytest.fixture
def stand_in(tmp_path: Path) -> Path:
    """A folder with a ``sitemap-ext`` that writes the words it is given to argv.jsonl."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "sitemap-ext").write_text(STAND_IN, encoding="utf-8")
    (folder / "sitemap-ext").chmod(0o755)
    return folder


@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash scripts")
def test_the_check_inputs_are_split_into_words_as_a_shell_splits_them(tmp_path: Path, stand_in: Path) -> None:
    inputs = {"check": "'my site/public' \"other dir\"\nsitemap.xml", "now": "",
              "base-url": "'https://e.com/=my site/public'",
              "args": "--header 'Authorization: Bearer x' --ignore H112 --config \"conf dir/sitemap ext.toml\" "
                      "'$(touch pwned)' *"}
    run, outputs = run_step(STEPS["check"], inputs, tmp_path, first=stand_in)
    assert run.returncode == 0, run.stderr
    words = ["check", "my site/public", "other dir", "sitemap.xml", "--base-url", "https://e.com/=my site/public",
             "--header", "Authorization: Bearer x", "--ignore", "H112", "--config", "conf dir/sitemap ext.toml",
             "$(touch pwned)", "*"]
    calls = [json.loads(line) for line in (tmp_path / "argv.jsonl").read_text(encoding="utf-8").splitlines()]
    assert calls == [[*words, "--format", "github"], [*words, "--format", "sarif", "-o", "sitemap-ext.sarif",
                                                      "--quiet"]]
    assert outputs["status"] == "0" and not (tmp_path / "pwned").exists()  # nothing of an input is run


@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash scripts")
def test_an_input_with_an_unclosed_quote_stops_the_step(tmp_path: Path, stand_in: Path) -> None:
    run, outputs = run_step(STEPS["check"], {"check": "public", "args": "--header 'Authorization: x"}, tmp_path,
                            first=stand_in)
    assert run.returncode == 2 and "the input args cannot be split into words: No closing quotation" in run.stderr
    assert not (tmp_path / "argv.jsonl").exists() and "status" not in outputs
