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


def run_step(step: dict, inputs: dict[str, str], workdir: Path, first: Path | None = None,
             context: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], dict]:
    """The step's script run by bash as the runner runs it: its env from the inputs
    (their defaults), the action's folder, and ``context`` (other expressions)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GITHUB_")}
    for name, expression in step.get("env", {}).items():
        inner = expression.strip("${} ")
        if inner.startswith("inputs."):
            key = inner.split("inputs.")[1]
            env[name] = inputs.get(key, ACTION["inputs"][key].get("default", ""))
        elif inner == "github.action_path":
            env[name] = str(ROOT)
        else:
            env[name] = (context or {})[inner]
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
    assert (tmp_path / "summary.md").read_text().count("sitemap-ext check") == 1  # the step summary, one run
    (tmp_path / "public" / "sitemap.xml").write_text("<urlset>broken")
    check, outputs = run_step(STEPS["check"], inputs, tmp_path)
    assert outputs["status"] == "1" and outputs["sarif"] == "sitemap-ext.sarif"
    # the annotations, the report and the summary of one run
    results = json.loads((tmp_path / "sitemap-ext.sarif").read_text())["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["X101"]
    # the annotations are those the tool's own --format github gives
    github = subprocess.run([str(Path(sys.executable).parent / "sitemap-ext"), "check", "public", "--base-url",
                             inputs["base-url"], "--now", inputs["now"], "--format", "github"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120, env={"PATH": os.environ.get("PATH", "")})
    annotations = [line for line in check.stdout.splitlines() if line.startswith("::")]
    assert annotations == [line for line in github.stdout.splitlines() if line.startswith("::")]
    assert annotations[0].startswith("::error file=public/sitemap.xml,line=1,title=X101::not well-formed XML")
    assert (tmp_path / "summary.md").read_text().count("sitemap-ext check") == 2


# a report as the tool writes it: a finding in a file whose name has a space, a
# message with what a workflow command must escape, and one with no file
REPORT = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "sitemap-ext"}}, "results": [
    {"ruleId": "H104", "level": "error", "message": {"text": "no return link: 50%, a\nb"},
     "locations": [{"physicalLocation": {"artifactLocation": {"uri": "my%20site/public/sitemap%2C1.xml"},
                                         "region": {"startLine": 3, "startColumn": 5}}}]},
    {"ruleId": "R101", "level": "note", "message": {"text": "https://e.com/ answered 404"}}]}]}

STAND_IN = f"""#!{sys.executable}
import json, os, sys
with open("argv.jsonl", "a", encoding="utf-8") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
status = int(os.environ.get("STAND_IN_STATUS", "0"))
if status < 2 and "-o" in sys.argv:
    with open(sys.argv[sys.argv.index("-o") + 1], "w", encoding="utf-8") as report:
        json.dump({REPORT!r}, report)
sys.exit(status)
"""


@pytest.fixture
def stand_in(tmp_path: Path) -> Path:
    """A folder with a ``sitemap-ext`` that writes the words it is given to argv.jsonl,
    writes REPORT to the file after ``-o`` and exits $STAND_IN_STATUS (none written past 1)."""
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
                      "'$(touch pwned)' * --pages 5"}
    run, outputs = run_step(STEPS["check"], inputs, tmp_path, first=stand_in)
    assert run.returncode == 0, run.stderr
    words = ["check", "my site/public", "other dir", "sitemap.xml", "--base-url", "https://e.com/=my site/public",
             "--header", "Authorization: Bearer x", "--ignore", "H112", "--config", "conf dir/sitemap ext.toml",
             "$(touch pwned)", "*", "--pages", "5"]
    calls = [json.loads(line) for line in (tmp_path / "argv.jsonl").read_text(encoding="utf-8").splitlines()]
    # one run (a live site fetched once) for the report, the summary and the annotations
    assert calls == [[*words, "--format", "sarif", "-o", "sitemap-ext.sarif"]]
    assert outputs == {"sarif": "sitemap-ext.sarif", "status": "0"} and not (tmp_path / "pwned").exists()
    assert run.stdout.splitlines() == [
        "::error file=my site/public/sitemap%2C1.xml,line=3,col=5,title=H104::no return link: 50%25, a\\x0ab",
        "::notice title=R101::https://e.com/ answered 404"]
    # code scanning gets the errors and warnings (an info is a notice on the run only)
    report = json.loads((tmp_path / "sitemap-ext.sarif").read_text(encoding="utf-8"))
    assert [result["ruleId"] for result in report["runs"][0]["results"]] == ["H104"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash scripts")
@pytest.mark.parametrize("status", [2, 3])
def test_a_check_that_writes_no_report_gives_no_report_to_upload(tmp_path: Path, stand_in: Path, status: int,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The tool could not run (2) or read its input (3): no SARIF, so the upload step
    (which needs outputs.sarif) does not run on a file never written, not even an old one."""
    monkeypatch.setenv("STAND_IN_STATUS", str(status))
    (tmp_path / "report dir").mkdir()
    (tmp_path / "report dir" / "old.sarif").write_text("{}", encoding="utf-8")
    run, outputs = run_step(STEPS["check"], {"check": "public", "sarif": "report dir/old.sarif"}, tmp_path,
                            first=stand_in)
    assert run.returncode == 0 and outputs == {"sarif": "", "status": str(status)}, run.stderr
    assert not (tmp_path / "report dir" / "old.sarif").exists()
    assert f"sitemap-ext check exited {status} without writing report dir/old.sarif" in run.stdout
    upload = STEPS["upload"]
    assert "steps.check.outputs.sarif != ''" in upload["if"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash scripts")
def test_an_input_with_an_unclosed_quote_stops_the_step(tmp_path: Path, stand_in: Path) -> None:
    run, outputs = run_step(STEPS["check"], {"check": "public", "args": "--header 'Authorization: x"}, tmp_path,
                            first=stand_in)
    assert run.returncode == 2 and "the input args cannot be split into words: No closing quotation" in run.stderr
    assert not (tmp_path / "argv.jsonl").exists() and "status" not in outputs


@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash scripts")
def test_a_run_with_nothing_to_build_or_check_fails_saying_so(tmp_path: Path, stand_in: Path) -> None:
    first = ACTION["runs"]["steps"][0]
    assert first["if"] == "inputs.site == '' && inputs.check == ''"  # (the runner judges the condition)
    run, _ = run_step(first, {}, tmp_path)
    assert run.returncode == 2
    assert run.stdout.startswith("::error title=sitemap-ext::nothing to build or check: give the input site")
    run, outputs = run_step(STEPS["check"], {"check": " \n "}, tmp_path, first=stand_in)  # (blank: no path)
    assert run.returncode == 2 and "the input check names no path to check" in run.stderr
    assert not (tmp_path / "argv.jsonl").exists() and "status" not in outputs


def test_the_upload_is_skipped_on_a_fork_and_its_failure_does_not_fail_the_job(tmp_path: Path) -> None:
    upload = STEPS["upload"]
    assert upload["continue-on-error"] is True
    assert "!(github.event_name == 'pull_request' && github.event.pull_request.head.repo.fork)" in upload["if"]
    notice = STEPS["Say why the findings were not uploaded"]
    assert "steps.upload.outcome != 'success'" in notice["if"]
    said = {}
    for outcome in ("failure", "skipped"):
        run, _ = run_step(notice, {}, tmp_path, context={"steps.upload.outcome": outcome,
                                                         "steps.check.outputs.sarif": "sitemap-ext.sarif"})
        assert run.returncode == 0 and run.stdout.startswith("::notice title=sitemap-ext::the findings were not "
                                                             "uploaded to code scanning: "), run.stderr
        said[outcome] = run.stdout
    assert "'permissions: security-events: write'" in said["failure"] and "fork" in said["skipped"]
