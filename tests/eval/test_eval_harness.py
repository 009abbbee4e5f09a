"""The persona eval harness: loaders, signals, the failure rule, the judges, the report, the CLI."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from goodmemory.eval.assertions import run_assertions
from goodmemory.eval.cli import main as eval_main
from goodmemory.eval.fixtures import FixtureError, load_cases, load_pairs
from goodmemory.eval.judge import DIMENSIONS, JudgeInput, JudgeResult, RuleJudge, Side
from goodmemory.eval.runner import CaseResult, failure_entry
from goodmemory.eval.schema import Probe
from goodmemory.eval.signals import check_signals
from goodmemory.models import Context, ContextItem, MemoryKind

AT = datetime(2025, 6, 1, tzinfo=UTC)


def _probe(**kw: object) -> Probe:
    base: dict[str, object] = dict(
        probe_id="q1", question="Plan my week", at=AT, layer="personalization", task_family="preference",
        domain="cooking", memory_source_domains=["travel"], evaluation_setting="cross_domain",
        expected_transfer_signals=["bullet points"], expected_non_transfer_signals=["window seat"],
        user_satisfaction_hypothesis="short lists help",
    )
    base.update(kw)
    return Probe.model_validate(base)


def test_all_fixtures_load_and_count() -> None:
    pairs = load_pairs()
    assert len(pairs) == 40
    lifecycles = [p.lifecycle for p, _ in pairs]
    assert (lifecycles.count("medium"), lifecycles.count("medium_complex"), lifecycles.count("long")) == (28, 8, 4)
    cases = load_cases()
    assert len({c.case_id for c in cases}) == len(cases) > 120


def test_loader_reports_bad_fixture(tmp_path: Path) -> None:
    (tmp_path / "personas").mkdir()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "personas" / "p01_x.yaml").write_text(yaml.safe_dump({"persona_id": "p01_x"}))
    (tmp_path / "scenarios" / "p01_x.yaml").write_text(yaml.safe_dump({"persona_id": "p01_x"}))
    with pytest.raises(FixtureError, match="p01_x"):
        load_pairs(tmp_path)


def test_signals_history_line_with_new_value_is_not_stale() -> None:
    p = _probe(expected_update_wins=[{"new": "Porto", "old": "Lisbon"}], expected_stale_suppression=["Lisbon"])
    ok = check_signals(p, "- moved to Porto from Lisbon\n- uses bullet points")
    assert ok.update_won == ["Porto"] and ok.stale_surfaced == [] and ok.update_share == 1.0
    bad = check_signals(p, "- lives in Lisbon\n- moved to Porto")
    assert bad.update_lost == ["Porto"] and bad.stale_surfaced == ["Lisbon"] and bad.update_share == 0.0
    leak = check_signals(p, "- prefers a WINDOW   seat")
    assert leak.leaked == ["window seat"] and leak.contamination_share == 1.0


def test_signals_are_not_found_inside_citation_ids() -> None:
    p = _probe(expected_transfer_signals=["3B"])
    assert check_signals(p, "- [93b276 fact 2025-01-02] parks on level 2").missing_transfer == ["3B"]
    assert check_signals(p, "- [93b276] parks on level 3B").found_transfer == ["3B"]


def _sides(probe: Probe, cand: str, base: str) -> JudgeInput:
    persona = load_pairs()[0][0]
    return JudgeInput(persona, probe, Side("goodmemory", cand, cand, tuple(cand.splitlines()), True),
                      Side("baseline", base, base, tuple(base.splitlines()), True if base else None))


def test_rule_judge_prefers_memory_that_helps_and_punishes_leaks() -> None:
    p = _probe()
    j = RuleJudge().judge(_sides(p, "- uses bullet points", ""))
    assert j.winner == "goodmemory" and "goodmemory_missed_signal" not in j.failure_tags
    j = RuleJudge().judge(_sides(p, "- uses bullet points\n- window seat please", ""))
    assert "goodmemory_contamination" in j.failure_tags and "goodmemory_contamination" in (j.blocking_failure_tags or [])
    assert j.scores.contamination_penalty is not None and j.scores.contamination_penalty < 5


def _result(winner: str, tags: list[str], blocking: list[str] | None, failed_check: bool = False) -> CaseResult:
    from goodmemory.eval.assertions import AssertionReport, Check
    from goodmemory.eval.judge import Scores

    scores = Scores(**{d: 3.0 for d in DIMENSIONS})
    judge = JudgeResult(winner=winner, scores=scores, reasoning="r", failure_tags=tags,  # type: ignore[arg-type]
                        blocking_failure_tags=blocking)
    return CaseResult(case_id="c", persona_id="p", probe_id="q", layer="retrieval", task_family="identity",
                      evaluation_setting="in_domain", domain="d", question="q", baseline_answer="b",
                      candidate_answer="g", context_tokens=1, judge=judge,
                      assertions=AssertionReport(checks=[Check(name="x", kind="transfer", passed=not failed_check)]),
                      failed=False, seconds=0.0)


def test_failure_rule() -> None:
    # a loss fails and keeps every tag
    f = failure_entry(_result("baseline", ["goodmemory_missed_signal", "baseline_x"], []))
    assert f is not None and f["failure_tags"] == ["goodmemory_missed_signal", "baseline_x"]
    assert failure_entry(_result("tie", [], [])) is not None
    # a win with only diagnostic or baseline tags does not block
    assert failure_entry(_result("goodmemory", ["baseline_no_memory", "goodmemory_style"], [])) is None
    # a win with a blocking tag or a failed assertion blocks
    f = failure_entry(_result("goodmemory", ["goodmemory_leak"], ["goodmemory_leak"]))
    assert f is not None and f["blocking_failure_tags"] == ["goodmemory_leak"]
    f = failure_entry(_result("goodmemory", [], [], failed_check=True))
    assert f is not None and f["failed_assertions"] == ["x"] and f["source"] == "assertions"
    # legacy outputs without blocking tags: leak/contamination/update tags are promoted
    f = failure_entry(_result("goodmemory", ["goodmemory_contamination", "goodmemory_tone"], None))
    assert f is not None and f["blocking_failure_tags"] == ["goodmemory_contamination"]
    # baseline_* alone never blocks GoodMemory
    assert failure_entry(_result("goodmemory", ["baseline_leak"], ["baseline_leak"])) is None


def test_assertions_provenance() -> None:
    p = _probe()
    item = ContextItem(memory_id="m1", kind=MemoryKind.PREFERENCE, section="about", text="bullet points",
                       tokens=3, source_message_ids=["s1:0"])
    ctx = Context(text="- bullet points", items=[item], tokens=3, max_tokens=10)
    ok = run_assertions(p, ctx, known_memory_ids={"m1"}, known_message_ids={"s1:0"})
    assert ok.passed
    bad = run_assertions(p, ctx, known_memory_ids=set(), known_message_ids={"s1:0"})
    assert [c.name for c in bad.failed()] == ["provenance"]
    # an empty context has nothing to trace: the check does not apply (it used to pass for free)
    empty = run_assertions(p, Context(text="", items=[], tokens=0, max_tokens=10), known_memory_ids=set(),
                           known_message_ids=set())
    assert "provenance" not in [c.kind for c in empty.checks] and not empty.passed  # the transfer check fails


def test_smoke_run_writes_every_artifact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert eval_main(["--smoke", "--personas", "p01_mariana_costa", "--out", str(out), "--no-progress",
                      "--systems", "goodmemory,current-session,empty"]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed[-1] == str(out)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["cases"] >= 3 and set(summary["dimensions"]) == set(DIMENSIONS)
    assert set(summary["layer_uplift"]) == {"retrieval", "personalization", "governance"}
    assert summary["calibration"]["trials"] > 0 and summary["calibration"]["rate"] == 1.0
    cases = list((out / "cases").glob("*.json"))
    assert len(cases) == summary["cases"]
    for c in cases:
        tdir = out / "traces" / c.stem
        for name in ("remember", "recall", "context", "feedback", "judge", "assertions"):
            assert (tdir / f"{name}.json").exists(), name
    failures = json.loads((out / "failures" / "summary.json").read_text())
    assert failures["count"] == summary["blocking_failures"]
    report = (out / "report.md").read_text()
    assert "Judge scores per dimension" in report and "rule judge" in report
    for png in ("by_layer.png", "by_persona.png", "by_dimension.png"):
        assert (out / png).stat().st_size > 1000
    # rerun-failures and compare work on that run
    if failures["count"]:
        out2 = tmp_path / "rerun"
        assert eval_main(["--rerun-failures", str(out), "--out", str(out2), "--no-progress",
                          "--systems", "goodmemory,current-session"]) == 0
        assert json.loads((out2 / "summary.json").read_text())["cases"] == failures["count"]
        assert eval_main(["--compare", str(out), str(out2)]) == 0
