"""Judges of the A/B eval: the judge result schema, the offline rule judge, and the LLM judge.

The rule judge scores what each system put in front of the model (its
answer material) against the probe's expected signals; it does not judge
prose. The LLM judge uses the fixed rubric in ``prompts/judge.md``; output
that cannot be parsed is retried, then fails closed.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .schema import Persona, Probe
from .signals import SignalReport, check_signals

__all__ = [
    "BLOCKING_PREFIXES",
    "DIMENSIONS",
    "JudgeResult",
    "LLMJudge",
    "RuleJudge",
    "judge_prompt",
    "parse_judge_reply",
]

DIMENSIONS = (
    "factual_recall",
    "preference_consistency",
    "cross_domain_transfer",
    "contamination_penalty",
    "update_correctness",
    "personalization_usefulness",
    "provenance_explainability",
)

# Tags promoted to blocking for judge outputs that carry no blocking_failure_tags (legacy outputs).
BLOCKING_PREFIXES = ("leak", "contamination", "update", "stale", "wrong_personalization", "invented")


class Scores(BaseModel):
    model_config = ConfigDict(extra="forbid")
    factual_recall: float = Field(ge=0, le=5)
    preference_consistency: float = Field(ge=0, le=5)
    cross_domain_transfer: float = Field(ge=0, le=5)
    contamination_penalty: float = Field(ge=0, le=5)
    update_correctness: float = Field(ge=0, le=5)
    personalization_usefulness: float = Field(ge=0, le=5)
    provenance_explainability: float = Field(ge=0, le=5)


class JudgeResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    winner: Literal["baseline", "goodmemory", "tie"]
    scores: Scores
    baseline_scores: Scores | None = None
    reasoning: str
    failure_tags: list[str] = Field(default_factory=list)
    blocking_failure_tags: list[str] | None = None
    judge: str = "rule"

    @model_validator(mode="after")
    def _subset(self) -> JudgeResult:
        if self.blocking_failure_tags is not None:
            extra = set(self.blocking_failure_tags) - set(self.failure_tags)
            if extra:
                raise ValueError(f"blocking_failure_tags {sorted(extra)} are not in failure_tags")
        return self

    def effective_blocking(self) -> list[str]:
        """Blocking tags; for outputs without them, leak/contamination/update tags are promoted."""
        if self.blocking_failure_tags is not None:
            return [t for t in self.blocking_failure_tags if not t.startswith("baseline_")]
        return [t for t in self.failure_tags if not t.startswith("baseline_")
                and any(p in t for p in BLOCKING_PREFIXES)]


def _scale(x: float | None) -> float:
    return round(5.0 * (1.0 if x is None else x), 3)


class RuleJudge:
    """Deterministic judge over answer material; see the module docstring."""

    name = "rule"

    def score(self, probe: Probe, material: str, provenance_ok: float | None) -> tuple[Scores, SignalReport]:
        rep = check_signals(probe, material)
        recall = rep.transfer_share
        personal = probe.layer == "personalization" or probe.task_family in ("preference", "cross_domain")
        cross = recall if probe.evaluation_setting == "cross_domain" else None
        contamination = 1.0 - rep.contamination_share
        update = rep.update_share
        useful_parts = [v for v in (recall, update) if v is not None]
        usefulness = (sum(useful_parts) / len(useful_parts)) * contamination if useful_parts else contamination
        scores = Scores(
            factual_recall=_scale(recall if recall is not None else 1.0),
            preference_consistency=_scale(recall if personal and recall is not None else
                                          (None if recall is None else recall)),
            cross_domain_transfer=_scale(cross if cross is not None else contamination),
            contamination_penalty=_scale(contamination),
            update_correctness=_scale(update),
            personalization_usefulness=_scale(usefulness),
            provenance_explainability=_scale(provenance_ok if provenance_ok is not None else 0.0),
        )
        return scores, rep

    def judge(self, persona: Persona, probe: Probe, baseline: str, goodmemory: str,
              provenance_ok: float | None, baseline_provenance: float | None = None) -> JudgeResult:
        g_scores, g = self.score(probe, goodmemory, provenance_ok)
        b_scores, b = self.score(probe, baseline, baseline_provenance)
        g_mean = sum(g_scores.model_dump().values()) / len(DIMENSIONS)
        b_mean = sum(b_scores.model_dump().values()) / len(DIMENSIONS)
        tags: list[str] = []
        blocking: list[str] = []
        for side, rep in (("goodmemory", g), ("baseline", b)):
            if rep.missing_transfer:
                tags.append(f"{side}_missed_signal")
            if rep.leaked:
                tags.append(f"{side}_contamination")
            if rep.wrong:
                tags.append(f"{side}_wrong_personalization")
            if rep.stale_surfaced:
                tags.append(f"{side}_stale_value")
            if rep.update_lost:
                tags.append(f"{side}_update_lost")
        for t in ("missed_signal",):
            if f"goodmemory_{t}" in tags and f"baseline_{t}" in tags:
                tags = [x for x in tags if x not in (f"goodmemory_{t}", f"baseline_{t}")] + [f"shared_{t}"]
        blocking = [t for t in tags if t.startswith("goodmemory_") and t != "goodmemory_missed_signal"]
        if abs(g_mean - b_mean) < 0.05:
            winner: Literal["baseline", "goodmemory", "tie"] = "tie"
        else:
            winner = "goodmemory" if g_mean > b_mean else "baseline"
        reasoning = (
            f"Rule judge over answer material (not prose). GoodMemory mean {g_mean:.2f} vs baseline {b_mean:.2f}. "
            f"GoodMemory: {g.describe()}. Baseline: {b.describe()}."
        )
        return JudgeResult(winner=winner, scores=g_scores, baseline_scores=b_scores, reasoning=reasoning,
                           failure_tags=tags, blocking_failure_tags=blocking, judge="rule")


def judge_prompt() -> str:
    return resources.files("goodmemory.eval").joinpath("prompts/judge.md").read_text(encoding="utf-8")


def parse_judge_reply(text: str) -> JudgeResult:
    """Parse a judge reply (JSON, possibly code-fenced). Raises ValueError when unusable."""
    raw = text.strip()
    if raw.startswith("```"):
        raw = raw.strip("`")
        raw = raw[raw.find("{"):]
    start, end = raw.find("{"), raw.rfind("}")
    if start < 0 or end < start:
        raise ValueError("judge reply holds no JSON object")
    try:
        data: Any = json.loads(raw[start : end + 1])
        data.setdefault("judge", "llm")
        return JudgeResult.model_validate(data)
    except (json.JSONDecodeError, ValidationError, AttributeError) as exc:
        raise ValueError(f"judge reply is not a valid judge result: {exc}") from exc


class LLMJudge:
    """The rubric judge through any OpenAI-compatible endpoint (``goodmemory.llm.LLMClient``)."""

    name = "llm"

    def __init__(self, client: Any, *, model: str | None = None, retries: int = 2) -> None:
        self.client = client
        self.model = model
        self.retries = retries

    def judge(self, persona: Persona, probe: Probe, baseline: str, goodmemory: str,
              provenance_ok: float | None, baseline_provenance: float | None = None) -> JudgeResult:
        user = json.dumps({
            "persona": persona.model_dump(mode="json"),
            "user_request": probe.question,
            "target_domain": probe.domain,
            "memory_source_domains": probe.memory_source_domains,
            "evaluation_setting": probe.evaluation_setting,
            "expected_transfer_signals": probe.expected_transfer_signals,
            "expected_non_transfer_signals": probe.expected_non_transfer_signals,
            "expected_update_wins": [u.model_dump() for u in probe.expected_update_wins],
            "expected_stale_suppression": probe.expected_stale_suppression,
            "wrong_personalization_signals": probe.wrong_personalization_signals,
            "baseline_answer": baseline,
            "goodmemory_answer": goodmemory,
        }, ensure_ascii=False)
        messages = [{"role": "system", "content": judge_prompt()}, {"role": "user", "content": user}]
        last = ""
        for _ in range(self.retries + 1):
            try:
                reply = self.client.complete(messages, model=self.model)
            except Exception as exc:  # an endpoint failure also fails closed
                last = f"endpoint error: {exc}"
                continue
            try:
                return parse_judge_reply(reply)
            except ValueError as exc:
                last = str(exc)
        return JudgeResult(
            winner="tie",
            scores=Scores(**{d: 0.0 for d in DIMENSIONS}),
            reasoning=f"judge failed closed after {self.retries + 1} attempts: {last}",
            failure_tags=["shared_judge_unparsable"],
            blocking_failure_tags=["shared_judge_unparsable"],
            judge="llm",
        )
