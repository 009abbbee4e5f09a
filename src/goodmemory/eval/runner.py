"""The A/B runner: replay a persona into every system, build each context, assert, answer, judge, persist.

The primary pair (candidate vs baseline) is answered and judged in the run's
mode (offline, live, or live with per-case fallback). Every other system is
held to the same hard checks on its context and judged against the same
baseline by the rule judge on offline answers, so the report can show all of
them side by side from one replay.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field

from ..errors import LLMError
from .assertions import AssertionReport, ContextView, run_assertions
from .candidates import Candidate, GoodMemoryCandidate, history_text, replay_turns
from .fixtures import Case
from .judge import JudgeInput, JudgeResult, RuleJudge, Side

__all__ = ["Answerer", "Breaker", "CaseResult", "Judge", "LiveFailure", "OfflineAnswerer", "RunConfig",
           "SystemRun", "failure_entry", "run_cases"]


class Answerer(Protocol):
    name: str

    def answer(self, question: str, context: str | None) -> str: ...


class Judge(Protocol):
    name: str

    def judge(self, inp: JudgeInput) -> JudgeResult: ...


class LiveFailure(RuntimeError):
    """The endpoint failed in --live mode (no --fallback): the run stops with one line."""


class OfflineAnswerer:
    """Deterministic: states what it was given. A system with no context gets nothing but the request."""

    name = "offline"

    def answer(self, question: str, context: str | None) -> str:
        if not context:
            return f"(no memory of earlier sessions) Request: {question}"
        return f"Request: {question}\nWhat I remember and use:\n{context}"


class SystemRun(BaseModel):
    """One system's result on one probe: hard checks on its context, rule verdict vs the baseline."""

    system: str
    context_tokens: int
    items: int
    assertions: AssertionReport
    winner: str | None = None  # vs the run's baseline; None for the baseline itself
    uplift: float | None = None


class CaseResult(BaseModel):
    case_id: str
    persona_id: str
    probe_id: str
    layer: str
    task_family: str
    evaluation_setting: str
    domain: str
    question: str
    candidate: str = "goodmemory"
    baseline: str = "current-session"
    candidate_answer: str
    baseline_answer: str
    context_tokens: int
    baseline_context_tokens: int = 0
    judge: JudgeResult
    judged_by: str = "rule"
    answered_by: str = "offline"
    samples: list[JudgeResult] = Field(default_factory=list)
    agreement: float = 1.0
    assertions: AssertionReport
    baseline_assertions: AssertionReport | None = None
    systems: dict[str, SystemRun] = Field(default_factory=dict)
    blocking: list[str] = Field(default_factory=list)
    failed: bool
    seconds: float

    @property
    def uplift(self) -> float | None:
        return self.judge.uplift()


def failure_entry(r: CaseResult) -> dict[str, Any] | None:
    """The failure rule: loss/tie keeps all tags; a win blocks only on blocking tags or failed assertions."""
    failed_checks = [c.name for c in r.assertions.failed()]
    if r.judge.winner != "goodmemory":
        return {"case_id": r.case_id, "persona_id": r.persona_id, "layer": r.layer, "winner": r.judge.winner,
                "source": "judge" if not failed_checks else "judge+assertions",
                "failure_tags": r.judge.failure_tags, "failed_assertions": failed_checks,
                "judged_by": r.judged_by, "reasoning": r.judge.reasoning}
    blocking = r.judge.effective_blocking()
    if blocking or failed_checks:
        return {"case_id": r.case_id, "persona_id": r.persona_id, "layer": r.layer, "winner": r.judge.winner,
                "source": "assertions" if not blocking else ("judge" if not failed_checks else "judge+assertions"),
                "blocking_failure_tags": blocking, "failed_assertions": failed_checks,
                "judged_by": r.judged_by, "reasoning": r.judge.reasoning}
    return None


@dataclass
class Breaker:
    """Stops calling an endpoint after ``limit`` consecutive failures (fallback mode)."""

    limit: int = 3
    failures: int = 0
    opened_at: str | None = None

    @property
    def open(self) -> bool:
        return self.opened_at is not None

    def ok(self) -> None:
        self.failures = 0

    def fail(self, case_id: str) -> None:
        self.failures += 1
        if self.failures >= self.limit and self.opened_at is None:
            self.opened_at = case_id


@dataclass
class RunConfig:
    out_dir: Path
    candidates: dict[str, Candidate]
    candidate: str = "goodmemory"
    baseline: str = "current-session"
    budget: int = 800
    samples: int = 1
    answerer: Answerer = field(default_factory=OfflineAnswerer)
    judge: Judge = field(default_factory=RuleJudge)
    fallback: bool = False
    breaker: Breaker = field(default_factory=Breaker)
    progress: Callable[[CaseResult], None] | None = None


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str), encoding="utf-8")


def _side(view: ContextView, answer: str, traced: AssertionReport) -> Side:
    prov = next((c for c in traced.checks if c.kind == "provenance"), None)
    return Side(view.system, answer, view.text, tuple(i.text for i in view.items),
                None if prov is None else prov.passed)


def _answers(cfg: RunConfig, case_id: str, q: str, a: ContextView, b: ContextView) -> tuple[str, str, str]:
    offline = OfflineAnswerer()
    if isinstance(cfg.answerer, OfflineAnswerer):
        return offline.answer(q, a.text), offline.answer(q, b.text), offline.name
    if not cfg.breaker.open:
        try:
            out = cfg.answerer.answer(q, a.text), cfg.answerer.answer(q, b.text), cfg.answerer.name
            cfg.breaker.ok()
            return out
        except LLMError as exc:
            if not cfg.fallback:
                raise LiveFailure(f"answering {case_id}: {exc}") from exc
            cfg.breaker.fail(case_id)
    # both sides fall back together, so the pair is always answered by the same answerer
    return offline.answer(q, a.text), offline.answer(q, b.text), "offline-fallback"


def _verdicts(cfg: RunConfig, inp: JudgeInput) -> tuple[list[JudgeResult], str]:
    n = max(1, cfg.samples)
    if isinstance(cfg.judge, RuleJudge):
        return [cfg.judge.judge(inp) for _ in range(n)], cfg.judge.name
    if not cfg.breaker.open:
        try:
            out = [cfg.judge.judge(inp) for _ in range(n)]
            if not cfg.fallback or not any("shared_judge_unparsable" in s.failure_tags for s in out):
                cfg.breaker.ok()
                return out, cfg.judge.name
            cfg.breaker.ok()  # the endpoint answered; its replies were unusable
        except LLMError as exc:
            if not cfg.fallback:
                raise LiveFailure(f"judging {inp.case_id}: {exc}") from exc
            cfg.breaker.fail(inp.case_id)
    res = RuleJudge().judge(inp)
    return [res.model_copy(update={"judge": "rule-fallback"})], "rule-fallback"


def run_persona(cases: list[Case], cfg: RunConfig) -> list[CaseResult]:
    persona, scenario = cases[0].persona, cases[0].scenario
    user_id = f"eval-{persona.persona_id}"
    for cand in cfg.candidates.values():
        cand.prepare(user_id, scenario)
    gm = cfg.candidates.get("goodmemory")
    history = history_text(scenario)
    known = {t.message_id for s in replay_turns(scenario) for t in s.turns}
    if isinstance(gm, GoodMemoryCandidate):
        known |= gm.feedback_message_ids
    offline, rule = OfflineAnswerer(), RuleJudge()
    results: list[CaseResult] = []
    for case in sorted(cases, key=lambda c: c.probe.at):
        t0 = time.perf_counter()
        p = case.probe
        views = {name: c.context(user_id, p, cfg.budget) for name, c in cfg.candidates.items()}
        checks = {name: run_assertions(p, v, known_message_ids=known) for name, v in views.items()}
        cv, bv = views[cfg.candidate], views[cfg.baseline]
        cand_answer, base_answer, answered_by = _answers(cfg, case.case_id, p.question, cv, bv)
        inp = JudgeInput(persona, p, _side(cv, cand_answer, checks[cfg.candidate]),
                         _side(bv, base_answer, checks[cfg.baseline]), history, case.case_id)
        samples, judged_by = _verdicts(cfg, inp)
        winners = [s.winner for s in samples]
        majority = max(set(winners), key=winners.count)
        verdict = next(s for s in samples if s.winner == majority)
        base_offline = _side(bv, offline.answer(p.question, bv.text), checks[cfg.baseline])
        systems: dict[str, SystemRun] = {}
        for name, v in views.items():
            run = SystemRun(system=name, context_tokens=v.tokens, items=len(v.items), assertions=checks[name])
            if name != cfg.baseline:
                sv = rule.judge(JudgeInput(persona, p, _side(v, offline.answer(p.question, v.text), checks[name]),
                                           base_offline, history, case.case_id))
                run.winner, run.uplift = sv.winner, sv.uplift()
            systems[name] = run
        r = CaseResult(
            case_id=case.case_id, persona_id=persona.persona_id, probe_id=p.probe_id, layer=p.layer,
            task_family=p.task_family, evaluation_setting=p.evaluation_setting, domain=p.domain,
            question=p.question, candidate=cfg.candidate, baseline=cfg.baseline, candidate_answer=cand_answer,
            baseline_answer=base_answer, context_tokens=cv.tokens, baseline_context_tokens=bv.tokens,
            judge=verdict, judged_by=judged_by, answered_by=answered_by,
            samples=samples if cfg.samples > 1 else [], agreement=winners.count(majority) / len(winners),
            assertions=checks[cfg.candidate], baseline_assertions=checks[cfg.baseline], systems=systems,
            blocking=verdict.effective_blocking(), failed=False, seconds=0.0,
        )
        r.failed = failure_entry(r) is not None
        for c in cfg.candidates.values():
            c.after_probe(user_id, p)
        known.add(f"probe-{p.probe_id}:0")
        r.seconds = round(time.perf_counter() - t0, 4)
        _persist(cfg, case.case_id, r, views, samples, verdict, gm)
        results.append(r)
        if cfg.progress:
            cfg.progress(r)
    return results


def _persist(cfg: RunConfig, case_id: str, r: CaseResult, views: dict[str, ContextView],
             samples: list[JudgeResult], verdict: JudgeResult, gm: Candidate | None) -> None:
    tdir = cfg.out_dir / "traces" / case_id
    traces = gm.traces if isinstance(gm, GoodMemoryCandidate) else {}
    _write_json(tdir / "remember.json", traces.get("remember", []))
    _write_json(tdir / "feedback.json", traces.get("feedback", []))
    _write_json(tdir / "recall.json", traces.get("recall", {}))
    cv = views[cfg.candidate]
    if isinstance(gm, GoodMemoryCandidate) and cfg.candidate == "goodmemory" and gm.last_context is not None:
        _write_json(tdir / "context.json", gm.last_context.model_dump(mode="json"))
    else:
        _write_json(tdir / "context.json", {"system": cv.system, "text": cv.text, "tokens": cv.tokens,
                                            "items": [i.__dict__ for i in cv.items]})
    _write_json(tdir / "contexts.json", {n: {"text": v.text, "tokens": v.tokens, "items": len(v.items)}
                                         for n, v in views.items()})
    _write_json(tdir / "judge.json", {
        "judged_by": r.judged_by, "answered_by": r.answered_by,
        "sides": {"candidate": {"system": r.candidate, "scores": verdict.scores.model_dump()},
                  "baseline": {"system": r.baseline,
                               "scores": verdict.baseline_scores.model_dump() if verdict.baseline_scores else None}},
        "verdict": verdict.model_dump(mode="json"), "samples": [s.model_dump(mode="json") for s in samples]})
    _write_json(tdir / "assertions.json", {"candidate": r.assertions.model_dump(mode="json"),
                                           "systems": {n: s.assertions.model_dump(mode="json")
                                                       for n, s in r.systems.items()}})
    _write_json(cfg.out_dir / "cases" / f"{case_id}.json", r.model_dump(mode="json"))


def run_cases(cases: list[Case], cfg: RunConfig) -> list[CaseResult]:
    by_persona: dict[str, list[Case]] = {}
    for c in cases:
        by_persona.setdefault(c.persona.persona_id, []).append(c)
    results: list[CaseResult] = []
    try:
        for pid in sorted(by_persona):
            results.extend(run_persona(by_persona[pid], cfg))
    finally:
        for cand in cfg.candidates.values():
            cand.close()
    return results
