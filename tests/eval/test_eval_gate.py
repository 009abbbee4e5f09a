"""The release gate, the null candidate through the CLI, and --summarize rebuilding a run from its artifacts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from goodmemory.eval.cli import main as eval_main
from goodmemory.eval.gate import METRICS, GateError, check_gate, default_gate_path, load_gate


def test_the_gate_file_has_both_profiles_with_every_issue_line() -> None:
    for profile in ("default", "smoke"):
        lines = load_gate(default_gate_path(), profile)
        for key in ("case_pass_rate_min", "contamination_failures_max", "update_failures_max",
                    "blocking_failures_max", "calibration_min"):
            assert key in lines, (profile, key)
    assert load_gate(default_gate_path(), "default")["uplift_ci_low_min"] >= 0.0


def test_gate_lines_pass_and_fail(tmp_path: Path) -> None:
    summary = {"headline": {"pass_rate": 0.5, "uplift_ci95": [-0.01, 0.2]},
               "assertions": {"contamination_failures": 3, "update_failures": 0}, "blocking_failures": 9,
               "calibration": {"rate": 1.0}}
    lines = check_gate(summary, {"case_pass_rate_min": 0.5, "contamination_failures_max": 2,
                                 "uplift_ci_low_min": 0.0, "calibration_min": 0.95})
    assert [g.passed for g in lines] == [True, False, False, True]
    assert lines[1].describe() == "FAIL contamination_failures = 3 (needs <= 2)"
    assert not check_gate({}, {"blocking_failures_max": 5})[0].passed  # a missing figure fails
    bad = tmp_path / "gate.yaml"
    bad.write_text(yaml.safe_dump({"default": {"case_pass_rat_min": 0.5}}))
    with pytest.raises(GateError, match="case_pass_rat_min"):
        load_gate(bad, "default")
    with pytest.raises(GateError, match="smoke"):
        load_gate(bad, "smoke")
    assert set(METRICS) >= {"case_pass_rate", "contamination_failures", "update_failures", "blocking_failures"}


def test_smoke_null_candidate_wins_nothing_and_fails_the_gate(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "empty"
    code = eval_main(["--smoke", "--candidate", "empty", "--systems", "empty,current-session", "--out", str(out),
                      "--no-progress"])
    printed = capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    assert code == 1 and summary["wins"] == 0 and summary["headline"]["pass_rate"] == 0.0
    assert "gate FAIL case_pass_rate = 0 (needs >= 0.4)" in printed
    assert "Release gate: FAILED" in (out / "report.md").read_text()


def test_a_gate_given_on_the_command_line_applies_to_any_selection(tmp_path: Path) -> None:
    gate = tmp_path / "gate.yaml"
    gate.write_text(yaml.safe_dump({"default": {"case_pass_rate_min": 1.01}}))
    out = tmp_path / "run"
    base = ["--personas", "p03_anneliese_vogt", "--systems", "goodmemory,current-session", "--no-progress"]
    assert eval_main([*base, "--out", str(out), "--gate", str(gate)]) == 1
    assert eval_main([*base, "--out", str(tmp_path / "run2"), "--gate", str(gate), "--no-gate"]) == 0
    broken = tmp_path / "broken.yaml"
    broken.write_text(yaml.safe_dump({"default": {"case_pas_rate_min": 1}}))
    assert eval_main([*base, "--out", str(tmp_path / "never"), "--gate", str(broken)]) == 2
    assert not (tmp_path / "never").exists()  # a broken gate file stops before the run

    # --summarize rebuilds the same summary, failures and report from cases/ and run.json
    before = {n: (out / n).read_text() for n in ("summary.json", "failures/summary.json")}
    report = (out / "report.md").read_text()
    for n in ("summary.json", "failures/summary.json", "report.md"):
        (out / n).unlink()
    shutil.rmtree(out / "traces")
    assert eval_main(["--summarize", str(out)]) == 1  # the recorded gate still fails
    for n, text in before.items():
        assert json.loads((out / n).read_text()) == json.loads(text), n
    rebuilt = (out / "report.md").read_text()
    assert rebuilt == report
    assert "<details>" in rebuilt and rebuilt.count("<details>") == json.loads(before["failures/summary.json"])["count"]
    assert eval_main(["--summarize", str(tmp_path / "nothing")]) == 2
