"""Judges of the A/B eval: the judge input and result schemas and the offline rule judge.

Both sides of a case are scored on the seven rubric dimensions. A dimension
that does not apply to the probe is N/A (``None``) for *both* sides, never a
fixed number, so it can neither add nor cost uplift. The rule judge scores what
each system put in front of the model against the probe's expected signals and
the user's history; it does not judge prose. It cannot be won by an empty or
irrelevant context: a side that surfaces none of the expected signals never
wins, and the winner is decided on content dimensions only with a tie band
(``TIE_BAND``) wider than any structural offset (provenance, the one
structural dimension, is reported but never decides; see ``STRUCTURAL``).

The LLM judge lives in ``llm_judge.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .schema import Persona, Probe
from .signals import SignalReport, check_signals, ungrounded_details

__all__ = [
    "BLOCKING_PREFIXES",
    "DIMENSIONS",
    "STRUCTURAL",
    "TIE_BAND",
    "JudgeInput",
    "JudgeResult",
    "RuleJudge",
    "Scores",
    "Side",
    "content_mean",
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
# Dimensions that measure how a system presents memory rather than what it knows; they never pick a winner.
STRUCTURAL = ("provenance_explainability",)
# Mean content-score difference (0-5 scale) below which a case is a tie. Structural dimensions are excluded
# from the winner, so the structural offset between two sides with the same content is exactly 0 < TIE_BAND.
TIE_BAND = 0.25
# Each invented detail costs this much of factual_recall (0-1 scale).
INVENTION_COST = 0.5

# Tags promoted to blocking for judge outputs that carry no blocking_failure_tags (legacy outputs).
BLOCKING_PREFIXES = ("leak", "contamination", "update", "stale", "wrong_personalization", "invented")
FACTUAL_FAMILIES = frozenset({"identity", "background", "task_continuation", "open_question", "update", "stale",
                              "fact_lookup", "governance"})
PREFERENCE_FAMILIES = frozenset({"preference", "cross_domain"})


class Scores(BaseModel):
    """The rubric scores of one side, 0-5; ``None`` = not applicable to this probe (for both sides)."""

    model_config = ConfigDict(extra="forbid")
    factual_recall: float | None = Field(default=None, ge=0, le=5)
    preference_consistency: float | None = Field(default=None, ge=0, le=5)
    cross_domain_transfer: float | None = Field(default=None, ge=0, le=5)
    contamination_penalty: float | None = Field(default=None, ge=0, le=5)
    update_correctness: float | None = Field(default=None, ge=0, le=5)
    personalization_usefulness: float | None = Field(default=None, ge=0, le=5)
    provenance_explainability: float | None = Field(default=None, ge=0, le=5)

    def applicable(self) -> dict[str, float]:
        return {k: v for k, v in self.model_dump().items() if v is not None}


def content_mean(s: Scores) -> float | None:
    vals = [v for k, v in s.applicable().items() if k not in STRUCTURAL]
    return sum(vals) / len(vals) if vals else None


class JudgeResult(BaseModel):
    """One judged case. ``scores`` is the candidate (the "goodmemory" slot), ``baseline_scores`` the baseline."""

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

    def uplift(self) -> float | None:
        """Mean candidate-minus-baseline over the dimensions that apply (both sides share the N/A set)."""
        if self.baseline_scores is None:
            return None
        g, b = self.scores.applicable(), self.baseline_scores.applicable()
        keys = [k for k in g if k in b]
        return sum(g[k] - b[k] for k in keys) / len(keys) if keys else None


@dataclass(frozen=True)
class Side:
    """What one system produced for a probe: its answer and the context it was given."""

    system: str
    answer: str
    context: str = ""
    items: tuple[str, ...] = ()
    traced: bool | None = None  # every context item traces to a replayed message; None: no context


@dataclass(frozen=True)
class JudgeInput:
    persona: Persona
    probe: Probe
    candidate: Side
    baseline: Side
    history: str = ""  # everything the user said or corrected, for the grounding check
    case_id: str = ""
    extra: dict[str, str] = field(default_factory=dict)


@dataclass
class _Evidence:
    rep: SignalReport
    invented: list[str]

    @property
    def positives(self) -> int:
        return len(self.rep.found_transfer) + len(self.rep.update_won)


def _applicable(probe: Probe, a: _Evidence, b: _Evidence, both_have_context: bool) -> set[str]:
    dims = {"personalization_usefulness"}
    if (probe.expected_transfer_signals and probe.task_family in FACTUAL_FAMILIES) or a.invented or b.invented:
        dims.add("factual_recall")
    if probe.expected_transfer_signals and probe.task_family in PREFERENCE_FAMILIES:
        dims.add("preference_consistency")
    if probe.expected_transfer_signals and probe.evaluation_setting == "cross_domain":
        dims.add("cross_domain_transfer")
    if probe.expected_non_transfer_signals or probe.wrong_personalization_signals:
        dims.add("contamination_penalty")
    if probe.expected_update_wins or probe.expected_stale_suppression:
        dims.add("update_correctness")
    if both_have_context:
        dims.add("provenance_explainability")
    return dims


def _scores(probe: Probe, ev: _Evidence, traced: bool | None, dims: set[str]) -> Scores:
    rep = ev.rep
    recall = rep.transfer_share
    clean = 1.0 - rep.contamination_share
    n_pos = len(probe.expected_transfer_signals) + len(probe.expected_update_wins)
    positive = ev.positives / n_pos if n_pos else 1.0
    raw = {
        "factual_recall": max(0.0, (1.0 if recall is None else recall) - INVENTION_COST * len(ev.invented)),
        "preference_consistency": recall or 0.0,
        "cross_domain_transfer": (recall or 0.0) * clean,
        "contamination_penalty": clean,
        "update_correctness": rep.update_share or 0.0,
        "personalization_usefulness": positive * clean,
        "provenance_explainability": 1.0 if traced else 0.0,
    }
    return Scores(**{k: round(5.0 * raw[k], 3) for k in dims})


class RuleJudge:
    """Deterministic judge over answer material; see the module docstring."""

    name = "rule"

    def _evidence(self, probe: Probe, side: Side, history: str) -> _Evidence:
        # the request is echoed in every answer: only what the system added is evidence, or can be invented
        material = side.answer.replace(probe.question, " ")
        return _Evidence(check_signals(probe, material), ungrounded_details(material, history + "\n" + probe.question))

    def judge(self, inp: JudgeInput) -> JudgeResult:
        p = inp.probe
        g = self._evidence(p, inp.candidate, inp.history)
        b = self._evidence(p, inp.baseline, inp.history)
        both = bool(inp.candidate.context.strip()) and bool(inp.baseline.context.strip())
        dims = _applicable(p, g, b, both)
        g_scores = _scores(p, g, inp.candidate.traced, dims)
        b_scores = _scores(p, b, inp.baseline.traced, dims)
        g_mean, b_mean = content_mean(g_scores) or 0.0, content_mean(b_scores) or 0.0
        tags: list[str] = []
        for side, ev, s in (("goodmemory", g, inp.candidate), ("baseline", b, inp.baseline)):
            rep = ev.rep
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
            if ev.invented:
                tags.append(f"{side}_invented_detail")
            if s.traced is False:
                tags.append(f"{side}_untraceable_context")
        if "goodmemory_missed_signal" in tags and "baseline_missed_signal" in tags:
            tags = [t for t in tags if not t.endswith("_missed_signal")] + ["shared_missed_signal"]
        blocking = [t for t in tags if t.startswith("goodmemory_") and t != "goodmemory_missed_signal"]
        winner: Literal["baseline", "goodmemory", "tie"] = "tie"
        guard = ""
        if abs(g_mean - b_mean) > TIE_BAND:
            ahead, ev = ("goodmemory", g) if g_mean > b_mean else ("baseline", b)
            if ev.positives:
                winner = ahead  # type: ignore[assignment]
            else:
                guard = f" {ahead} is ahead only by doing less harm and surfaces no expected signal: tie."
        reasoning = (
            f"Rule judge over answer material (not prose). Content mean {inp.candidate.system} {g_mean:.2f} vs "
            f"{inp.baseline.system} {b_mean:.2f} over {sorted(d for d in dims if d not in STRUCTURAL)} "
            f"(tie band {TIE_BAND}).{guard} {inp.candidate.system}: {_describe(g)}. "
            f"{inp.baseline.system}: {_describe(b)}."
        )
        return JudgeResult(winner=winner, scores=g_scores, baseline_scores=b_scores, reasoning=reasoning,
                           failure_tags=tags, blocking_failure_tags=blocking, judge="rule")


def _describe(ev: _Evidence) -> str:
    d = ev.rep.describe()
    return d + (f"; invented {', '.join(ev.invented)}" if ev.invented else "")
