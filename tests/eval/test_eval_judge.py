"""A judge that cannot be gamed, and a calibration that means something.

These run the rule judge over every probe of the fixtures (pure, no replay): a null candidate never
wins, identical content always ties whatever its provenance, N/A is N/A for both sides, and planted
wrong answers are rejected while an always-tie or always-prefer-one-slot judge fails calibration.
"""

from __future__ import annotations

import pytest

from goodmemory.eval.calibration import PLANTS, calibrate, planted_answers
from goodmemory.eval.candidates import history_text
from goodmemory.eval.fixtures import Case, load_cases
from goodmemory.eval.gate import check_gate
from goodmemory.eval.judge import (
    DIMENSIONS,
    STRUCTURAL,
    TIE_BAND,
    JudgeInput,
    JudgeResult,
    RuleJudge,
    Scores,
    Side,
    content_mean,
)
from goodmemory.eval.runner import OfflineAnswerer

CASES = load_cases()
ANSWER = OfflineAnswerer()


def _side(system: str, case: Case, context: str, traced: bool | None = True) -> Side:
    return Side(system, ANSWER.answer(case.probe.question, context), context,
                tuple(line for line in context.splitlines() if line.strip()), traced if context else None)


def _ideal(case: Case) -> str:
    p = case.probe
    return "\n".join([f"- {s}" for s in p.expected_transfer_signals] + [f"- now: {u.new}" for u in p.expected_update_wins])


def _judge(case: Case, cand: Side, base: Side) -> JudgeResult:
    return RuleJudge().judge(JudgeInput(case.persona, case.probe, cand, base, history_text(case.scenario),
                                        case.case_id))


def _harmful(case: Case) -> str:
    """A context that surfaces stale values and leaks, and some of the expected signals."""
    p = case.probe
    lines = [f"- {s}" for s in p.expected_transfer_signals[:1]]
    lines += [f"- currently {u.old}" for u in p.expected_update_wins] + [f"- {s}" for s in p.expected_stale_suppression]
    lines += [f"- apply {s}" for s in [*p.expected_non_transfer_signals, *p.wrong_personalization_signals]]
    return "\n".join(lines)


def test_a_null_candidate_never_wins() -> None:
    """The empty context against nothing, the ideal context, an irrelevant one and a harmful one: never a win."""
    assert len(CASES) > 150
    irrelevant = "\n".join(f"- the user once mentioned the weather on day {i}" for i in range(1, 30))
    for case in CASES:
        null = _side("empty", case, "")
        for ctx in ("", _ideal(case), irrelevant, _harmful(case)):
            j = _judge(case, null, _side("baseline", case, ctx))
            assert j.winner != "goodmemory", (case.case_id, ctx[:40], j.reasoning)
        # an irrelevant context is no better: it cannot beat a harmful baseline by doing less harm
        j = _judge(case, _side("irrelevant", case, irrelevant), _side("baseline", case, _harmful(case)))
        assert j.winner != "goodmemory", case.case_id


def test_a_signal_echoed_from_the_request_is_no_evidence() -> None:
    case = next(c for c in CASES if c.probe.expected_transfer_signals)
    signal = case.probe.expected_transfer_signals[0]
    probe = case.probe.model_copy(update={"question": f"{case.probe.question} ({signal})"})
    echo = Case(case.persona, case.scenario, probe)
    harmful = _harmful(case) or "- unrelated"
    j = _judge(echo, _side("empty", echo, ""), _side("baseline", echo, harmful))
    assert j.winner != "goodmemory" and j.scores.personalization_usefulness == 0


def test_identical_content_ties_whatever_the_provenance() -> None:
    for case in CASES:
        for ctx in (_ideal(case), _harmful(case)):
            assert _judge(case, _side("a", case, ctx), _side("b", case, ctx)).winner == "tie"
            # one side untraceable, the other traced: provenance is structural and never decides
            j = _judge(case, _side("a", case, ctx, traced=False), _side("b", case, ctx, traced=True))
            assert j.winner == "tie", case.case_id
            assert j.scores.provenance_explainability == 0 and j.baseline_scores is not None
            assert j.baseline_scores.provenance_explainability == 5
            assert "goodmemory_untraceable_context" in j.failure_tags
            structural_offset = abs((content_mean(j.scores) or 0) - (content_mean(j.baseline_scores) or 0))
            assert structural_offset < TIE_BAND


def test_the_ideal_context_beats_the_null_and_the_harmful_one() -> None:
    for case in CASES:
        ideal = _side("gm", case, _ideal(case))
        assert _judge(case, ideal, _side("empty", case, "")).winner == "goodmemory", case.case_id
        assert _judge(case, _side("empty", case, ""), ideal).winner == "baseline", case.case_id
        if case.probe.expected_update_wins or case.probe.expected_non_transfer_signals:
            assert _judge(case, ideal, _side("bad", case, _harmful(case))).winner == "goodmemory", case.case_id


def test_not_applicable_is_not_applicable_for_both_sides() -> None:
    seen_pref = seen_fact = 0
    for case in CASES:
        p = case.probe
        j = _judge(case, _side("gm", case, _ideal(case)), _side("empty", case, ""))
        assert j.baseline_scores is not None
        g, b = j.scores.model_dump(), j.baseline_scores.model_dump()
        assert {d for d in DIMENSIONS if g[d] is None} == {d for d in DIMENSIONS if b[d] is None}
        # one side had no context: provenance is N/A for both, not 5 against 0
        assert g["provenance_explainability"] is None
        assert (g["update_correctness"] is None) == (not p.expected_update_wins and not p.expected_stale_suppression)
        assert (g["contamination_penalty"] is None) == (
            not p.expected_non_transfer_signals and not p.wrong_personalization_signals)
        # preference_consistency is its own dimension, not a copy of factual_recall
        if not p.expected_transfer_signals:
            assert g["preference_consistency"] is None and g["factual_recall"] is None
        elif p.task_family in ("preference", "cross_domain"):
            seen_pref += 1
            assert g["preference_consistency"] is not None and g["factual_recall"] is None
        else:
            seen_fact += 1
            assert g["factual_recall"] is not None and g["preference_consistency"] is None
    assert seen_pref > 30 and seen_fact > 30


def test_uplift_averages_only_the_applicable_dimensions() -> None:
    s = Scores(factual_recall=5, contamination_penalty=4)
    b = Scores(factual_recall=1, contamination_penalty=4)
    j = JudgeResult(winner="goodmemory", scores=s, baseline_scores=b, reasoning="r")
    assert j.uplift() == pytest.approx(2.0)
    assert set(STRUCTURAL) <= set(DIMENSIONS)


def test_an_invented_detail_costs_factual_recall_and_blocks() -> None:
    case = next(c for c in CASES if c.probe.expected_transfer_signals and c.probe.task_family == "fact_lookup")
    invented = _ideal(case) + "\n- your account number ends in 7741"
    j = _judge(case, _side("gm", case, invented), _side("b", case, _ideal(case)))
    assert j.winner == "baseline" and "goodmemory_invented_detail" in (j.blocking_failure_tags or [])
    # dates, citations and details the user did say are not inventions
    ok = _ideal(case) + "\n- [ab12cd fact 2025-03-01] noted on 2025-03-01T10:00:00Z"
    assert "goodmemory_invented_detail" not in _judge(case, _side("gm", case, ok), _side("b", case, "")).failure_tags


class _AlwaysTie:
    name = "always-tie"

    def judge(self, inp: JudgeInput) -> JudgeResult:
        return JudgeResult(winner="tie", scores=Scores(), baseline_scores=Scores(), reasoning="tie")


class _AlwaysGoodMemory:
    name = "always-goodmemory"

    def judge(self, inp: JudgeInput) -> JudgeResult:
        return JudgeResult(winner="goodmemory", scores=Scores(), baseline_scores=Scores(), reasoning="gm")


def test_calibration_rejects_every_planted_answer_with_the_rule_judge() -> None:
    cal = calibrate(CASES, RuleJudge())
    assert cal["rate"] == 1.0, cal["failed_trials"][:5]
    assert all(cal["per_kind"][k]["trials"] > 20 for k in PLANTS), cal["per_kind"]
    assert cal["trials"] == sum(2 * len(planted_answers(c, CASES)) for c in CASES)


@pytest.mark.parametrize("judge, rate", [(_AlwaysTie(), 0.0), (_AlwaysGoodMemory(), 0.5)])
def test_degenerate_judges_fail_calibration(judge: object, rate: float) -> None:
    cal = calibrate(CASES[:40], judge)  # type: ignore[arg-type]
    assert cal["rate"] == rate
    gate = check_gate({"calibration": cal}, {"calibration_min": 0.95})
    assert not gate[0].passed


def test_planted_answers_are_wrong_in_the_way_they_claim() -> None:
    case = next(c for c in CASES if c.probe.expected_update_wins and c.probe.expected_transfer_signals)
    plants = planted_answers(case, CASES)
    assert {"wrong_value", "stale_value", "other_user", "invented_detail"} <= set(plants)
    new, old = case.probe.expected_update_wins[0].new, case.probe.expected_update_wins[0].old
    assert f"currently: {old}" in plants["stale_value"] and f"- {new}" not in plants["stale_value"]
    hist = history_text(case.scenario).lower()
    other = plants["other_user"].split("\n")[2:]
    assert other and all(line[2:].lower() not in hist for line in other)
    assert all(s not in plants["wrong_value"] for s in case.probe.expected_transfer_signals)


def test_the_replay_is_dated_by_the_life_not_the_wall_clock() -> None:
    from goodmemory import create_good_memory
    from goodmemory.eval.candidates import GoodMemoryCandidate, ReplayClock, feedback_time

    case = next(c for c in CASES if any(f.correction for f in c.scenario.feedback))
    clock = ReplayClock()
    cand = GoodMemoryCandidate(create_good_memory("sqlite://", clock=clock), clock)
    try:
        cand.prepare("u", case.scenario)
        assert any(step["applied"] for step in cand.traces["feedback"])
        latest = feedback_time(case.scenario)
        for rec in cand.mem.list(user_id="u"):
            assert rec.created_at <= latest and rec.updated_at <= latest, rec
        view = cand.context("u", case.probe, 800)
        assert str(case.probe.at.year + 1) not in view.text  # no item dated after the probe
    finally:
        cand.close()
