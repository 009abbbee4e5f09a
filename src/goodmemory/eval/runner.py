"""The A/B runner: replay a persona, answer each probe with and without memory, judge, assert, persist."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field

from ..memory import GoodMemory
from ..models import Context, MemoryKind
from .assertions import AssertionReport, run_assertions
from .fixtures import Case
from .judge import JudgeResult
from .schema import Persona, Probe, Scenario

__all__ = ["Answerer", "CaseResult", "OfflineAnswerer", "RunConfig", "run_cases", "failure_entry"]


class Answerer(Protocol):
    name: str

    def answer(self, question: str, context: str | None) -> str: ...


class OfflineAnswerer:
    """Deterministic: states what it was given. Baseline gets nothing but the request."""

    name = "offline"

    def answer(self, question: str, context: str | None) -> str:
        if not context:
            return f"(no memory of earlier sessions) Request: {question}"
        return f"Request: {question}\nWhat I remember and use:\n{context}"


class Judge(Protocol):
    name: str

    def judge(self, persona: Persona, probe: Probe, baseline: str, goodmemory: str,
              provenance_ok: float | None, baseline_provenance: float | None = None) -> JudgeResult: ...


class CaseResult(BaseModel):
    case_id: str
    persona_id: str
    probe_id: str
    layer: str
    task_family: str
    evaluation_setting: str
    domain: str
    question: str
    baseline_answer: str
    goodmemory_answer: str
    context_tokens: int
    judge: JudgeResult
    samples: list[JudgeResult] = Field(default_factory=list)
    agreement: float = 1.0
    assertions: AssertionReport
    blocking: list[str] = Field(default_factory=list)
    failed: bool
    seconds: float

    @property
    def uplift(self) -> float:
        g = self.judge.scores.model_dump()
        b = (self.judge.baseline_scores.model_dump() if self.judge.baseline_scores else {k: 0.0 for k in g})
        return sum(g[k] - b[k] for k in g) / len(g)


def failure_entry(r: CaseResult) -> dict[str, Any] | None:
    """The failure rule: loss/tie keeps all tags; a win blocks only on blocking tags or failed assertions."""
    failed_checks = [c.name for c in r.assertions.failed()]
    if r.judge.winner != "goodmemory":
        return {"case_id": r.case_id, "persona_id": r.persona_id, "layer": r.layer, "winner": r.judge.winner,
                "source": "judge" if not failed_checks else "judge+assertions",
                "failure_tags": r.judge.failure_tags, "failed_assertions": failed_checks,
                "reasoning": r.judge.reasoning}
    blocking = r.judge.effective_blocking()
    if blocking or failed_checks:
        return {"case_id": r.case_id, "persona_id": r.persona_id, "layer": r.layer, "winner": r.judge.winner,
                "source": "assertions" if not blocking else ("judge" if not failed_checks else "judge+assertions"),
                "blocking_failure_tags": blocking, "failed_assertions": failed_checks,
                "reasoning": r.judge.reasoning}
    return None


@dataclass
class RunConfig:
    out_dir: Path
    budget: int = 800
    samples: int = 1
    make_memory: Callable[[Path], GoodMemory] | None = None
    progress: Callable[[CaseResult], None] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str), encoding="utf-8")


def _replay(mem: GoodMemory, user_id: str, scenario: Scenario) -> tuple[list[dict[str, Any]], set[str]]:
    traces: list[dict[str, Any]] = []
    message_ids: set[str] = set()
    for s in scenario.sessions:
        msgs = [{"role": t.role, "content": t.content, "id": f"{s.session_id}:{i}",
                 "timestamp": s.at + timedelta(minutes=i)} for i, t in enumerate(s.turns)]
        message_ids.update(str(m["id"]) for m in msgs)
        res = mem.remember(msgs, user_id=user_id, session_id=s.session_id, domain=s.domain, at=s.at)
        traces.append({"session_id": s.session_id, "domain": s.domain, "at": s.at.isoformat(),
                       "result": res.model_dump(mode="json", exclude={"memories"}),
                       "memories": [{"id": m.id, "kind": m.kind.value, "key": m.key, "text": m.text,
                                     "status": m.status.value} for m in res.memories
                                    if m.kind != MemoryKind.EPISODE]})
    return traces, message_ids


def _apply_feedback(mem: GoodMemory, user_id: str, scenario: Scenario) -> tuple[list[dict[str, Any]], set[str]]:
    traces: list[dict[str, Any]] = []
    new_msgs: set[str] = set()
    for step in scenario.feedback:
        needle = step.match.lower()
        targets = [r for r in mem.list(user_id=user_id) if needle in r.text.lower()]
        targets.sort(key=lambda r: (r.kind == MemoryKind.EPISODE, -r.event_time.timestamp()))
        if not targets:
            traces.append({"match": step.match, "signal": step.signal, "applied": False,
                           "reason": "no active memory contains the match text"})
            continue
        res = mem.feedback(targets[0].id, step.signal, user_id=user_id, correction=step.correction)
        if res.memory is not None:
            new_msgs.update(res.memory.source.message_ids)
        traces.append({"match": step.match, "signal": step.signal, "applied": True, "memory_id": targets[0].id,
                       "result": res.model_dump(mode="json", exclude={"memory"})})
    return traces, new_msgs


def run_persona(
    mem: GoodMemory, cases: list[Case], cfg: RunConfig, answerer: Answerer, judge: Judge
) -> list[CaseResult]:
    persona, scenario = cases[0].persona, cases[0].scenario
    user_id = f"eval-{persona.persona_id}"
    mem.forget(user_id=user_id)
    remember_traces, message_ids = _replay(mem, user_id, scenario)
    feedback_traces, fb_msgs = _apply_feedback(mem, user_id, scenario)
    message_ids |= fb_msgs
    results: list[CaseResult] = []
    for case in sorted(cases, key=lambda c: c.probe.at):
        t0 = time.perf_counter()
        p = case.probe
        recall = mem.recall(p.question, user_id=user_id, domain=p.domain, at=p.at)
        ctx: Context = mem.build_context(p.question, user_id=user_id, domain=p.domain, max_tokens=cfg.budget, at=p.at)
        known = {m.id for m in mem.export(user_id=user_id).memories}
        baseline = answerer.answer(p.question, None)
        goodmemory = answerer.answer(p.question, ctx.text)
        assertions = run_assertions(p, ctx, known_memory_ids=known, known_message_ids=message_ids)
        prov = next(c for c in assertions.checks if c.kind == "provenance")
        samples = [judge.judge(case.persona, p, baseline, goodmemory, 1.0 if prov.passed else 0.0)
                   for _ in range(max(1, cfg.samples))]
        winners = [s.winner for s in samples]
        majority = max(set(winners), key=winners.count)
        verdict = next(s for s in samples if s.winner == majority)
        r = CaseResult(
            case_id=case.case_id, persona_id=persona.persona_id, probe_id=p.probe_id, layer=p.layer,
            task_family=p.task_family, evaluation_setting=p.evaluation_setting, domain=p.domain,
            question=p.question, baseline_answer=baseline, goodmemory_answer=goodmemory,
            context_tokens=ctx.tokens, judge=verdict, samples=samples if cfg.samples > 1 else [],
            agreement=winners.count(majority) / len(winners), assertions=assertions,
            blocking=verdict.effective_blocking(), failed=False, seconds=0.0,
        )
        r.failed = failure_entry(r) is not None
        # the user's request becomes part of their history, as in a live agent
        mem.remember([{"role": "user", "content": p.question, "id": f"probe-{p.probe_id}:0"}], user_id=user_id,
                     session_id=f"probe-{p.probe_id}", domain=p.domain, at=p.at)
        message_ids.add(f"probe-{p.probe_id}:0")
        r.seconds = round(time.perf_counter() - t0, 4)
        tdir = cfg.out_dir / "traces" / case.case_id
        _write_json(tdir / "remember.json", remember_traces)
        _write_json(tdir / "feedback.json", feedback_traces)
        _write_json(tdir / "recall.json", recall.model_dump(mode="json"))
        _write_json(tdir / "context.json", ctx.model_dump(mode="json"))
        _write_json(tdir / "judge.json", {"verdict": verdict.model_dump(mode="json"),
                                          "samples": [s.model_dump(mode="json") for s in samples]})
        _write_json(tdir / "assertions.json", assertions.model_dump(mode="json"))
        _write_json(cfg.out_dir / "cases" / f"{case.case_id}.json", r.model_dump(mode="json"))
        results.append(r)
        if cfg.progress:
            cfg.progress(r)
    return results


def run_cases(cases: list[Case], cfg: RunConfig, answerer: Answerer, judge: Judge) -> list[CaseResult]:
    assert cfg.make_memory is not None
    by_persona: dict[str, list[Case]] = {}
    for c in cases:
        by_persona.setdefault(c.persona.persona_id, []).append(c)
    results: list[CaseResult] = []
    mem = cfg.make_memory(cfg.out_dir)
    try:
        for pid in sorted(by_persona):
            results.extend(run_persona(mem, by_persona[pid], cfg, answerer, judge))
    finally:
        mem.close()
    return results
