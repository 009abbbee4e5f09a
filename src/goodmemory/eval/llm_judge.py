"""The LLM judge: the fixed rubric (``prompts/judge.md``) through any OpenAI-compatible endpoint.

The judge is blind: it sees two answers labelled A and B (which one is the
candidate is decided by a hash of the case id), the request, the persona, the
expected signals and the context items each answer was given, and scores
*both* answers on every dimension. Its reply is mapped back to a
:class:`JudgeResult` with both score sets. A dimension one side marks N/A is
N/A for both. Unusable replies are retried with backoff, then fail closed (a
tie with a blocking ``shared_judge_unparsable`` tag); endpoint errors leave as
``LLMError`` so the runner can stop (``--live``) or fall back (``--fallback``).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..llm.client import parse_json_reply
from .judge import DIMENSIONS, JudgeInput, JudgeResult, Scores

__all__ = ["LLMJudge", "judge_prompt", "parse_judge_reply"]


def judge_prompt() -> str:
    return resources.files("goodmemory.eval").joinpath("prompts/judge.md").read_text(encoding="utf-8")


class _BlindScores(BaseModel):
    model_config = ConfigDict(extra="forbid")
    factual_recall: float | None = Field(ge=0, le=5)
    preference_consistency: float | None = Field(ge=0, le=5)
    cross_domain_transfer: float | None = Field(ge=0, le=5)
    contamination_penalty: float | None = Field(ge=0, le=5)
    update_correctness: float | None = Field(ge=0, le=5)
    personalization_usefulness: float | None = Field(ge=0, le=5)
    provenance_explainability: float | None = Field(ge=0, le=5)


class _BlindReply(BaseModel):
    model_config = ConfigDict(extra="forbid")
    winner: Literal["A", "B", "tie"]
    scores_A: _BlindScores  # noqa: N815 - the reply's field names
    scores_B: _BlindScores  # noqa: N815
    reasoning: str
    failure_tags: list[str] = Field(default_factory=list)
    blocking_failure_tags: list[str] = Field(default_factory=list)


def _flip(case_id: str) -> bool:
    """True when the candidate is shown as B."""
    return hashlib.sha256(case_id.encode()).digest()[0] % 2 == 1


def _retag(tag: str, a_is: str, b_is: str) -> str:
    for label, side in (("A_", a_is), ("B_", b_is), ("a_", a_is), ("b_", b_is)):
        if tag.startswith(label):
            return f"{side}_{tag[2:]}"
    return tag if tag.startswith("shared_") else f"shared_{tag}"


def parse_judge_reply(text: str, *, flipped: bool = False) -> JudgeResult:
    """Parse a blind judge reply into a JudgeResult (candidate = "goodmemory" slot). Raises ValueError."""
    try:
        reply = _BlindReply.model_validate(parse_json_reply(text))
    except (ValueError, ValidationError) as exc:
        raise ValueError(f"judge reply is not a valid judge result: {str(exc)[:300]}") from exc
    if not set(reply.blocking_failure_tags) <= set(reply.failure_tags):
        raise ValueError("blocking_failure_tags must be a subset of failure_tags")
    a_is, b_is = ("baseline", "goodmemory") if flipped else ("goodmemory", "baseline")
    a, b = reply.scores_A.model_dump(), reply.scores_B.model_dump()
    na = {d for d in DIMENSIONS if a[d] is None or b[d] is None}  # N/A for one side is N/A for both
    sa = Scores(**{d: (None if d in na else a[d]) for d in DIMENSIONS})
    sb = Scores(**{d: (None if d in na else b[d]) for d in DIMENSIONS})
    cand, base = (sb, sa) if flipped else (sa, sb)
    winner = {"A": a_is, "B": b_is, "tie": "tie"}[reply.winner]
    tags = [_retag(t, a_is, b_is) for t in reply.failure_tags]
    blocking = [_retag(t, a_is, b_is) for t in reply.blocking_failure_tags]
    return JudgeResult(winner=winner, scores=cand, baseline_scores=base,  # type: ignore[arg-type]
                       reasoning=reply.reasoning, failure_tags=tags, blocking_failure_tags=blocking, judge="llm")


def _guard(res: JudgeResult, inp: JudgeInput) -> JudgeResult:
    """A side that was given no context cannot win: what it knows, the other side could know too."""
    side = {"goodmemory": inp.candidate, "baseline": inp.baseline}.get(res.winner)
    if side is None or side.context.strip():
        return res
    return res.model_copy(update={"winner": "tie", "reasoning": res.reasoning + f" [guard: {side.system} had "
                                  "no context and cannot win; recorded as a tie]"})


class LLMJudge:
    """The rubric judge through a ``goodmemory.llm.LLMClient`` (or anything with ``complete``)."""

    name = "llm"

    def __init__(self, client: Any, *, model: str | None = None, retries: int = 2, backoff_s: float = 0.5,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.client, self.model, self.retries = client, model, retries
        self.backoff_s, self._sleep = backoff_s, sleep
        self.unusable_replies = 0  # replies that parsed to no judge result (each was retried or failed closed)

    def prompt(self, inp: JudgeInput) -> list[dict[str, str]]:
        p = inp.probe
        flipped = _flip(inp.case_id)
        shown = (inp.baseline, inp.candidate) if flipped else (inp.candidate, inp.baseline)
        user = {
            "persona": inp.persona.model_dump(mode="json"),
            "user_request": p.question,
            "target_domain": p.domain,
            "memory_source_domains": p.memory_source_domains,
            "evaluation_setting": p.evaluation_setting,
            "expected_signals": {
                "transfer": p.expected_transfer_signals,
                "must_not_transfer": p.expected_non_transfer_signals,
                "update_wins": [u.model_dump() for u in p.expected_update_wins],
                "stale_must_be_suppressed": p.expected_stale_suppression,
                "wrong_personalization": p.wrong_personalization_signals,
            },
            "A": {"context_items": list(shown[0].items), "answer": shown[0].answer},
            "B": {"context_items": list(shown[1].items), "answer": shown[1].answer},
        }
        return [{"role": "system", "content": judge_prompt()},
                {"role": "user", "content": json.dumps(user, ensure_ascii=False)}]

    def judge(self, inp: JudgeInput) -> JudgeResult:
        messages = self.prompt(inp)
        flipped = _flip(inp.case_id)
        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                self._sleep(self.backoff_s * 2 ** (attempt - 1))
            reply = self.client.complete(messages, model=self.model)  # LLMError: the runner decides
            try:
                res = parse_judge_reply(reply, flipped=flipped)
            except ValueError as exc:
                last = str(exc)
                self.unusable_replies += 1
                continue
            return _guard(res, inp)
        return JudgeResult(
            winner="tie", scores=Scores(), baseline_scores=Scores(),
            reasoning=f"judge failed closed after {self.retries + 1} unusable replies: {last}",
            failure_tags=["shared_judge_unparsable"], blocking_failure_tags=["shared_judge_unparsable"], judge="llm")
