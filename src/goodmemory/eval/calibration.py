"""Judge calibration: planted wrong answers the judge must reject in favour of the correct one.

For each case an ideal answer is written from the probe's expectations, and
planted variants break it in one way each: a wrong value, the stale value,
another user's value, an invented detail, or a leak of a signal that must not
transfer. Every pair is judged twice, with the planted answer in the
candidate slot and in the baseline slot; the judge passes a trial only when
it picks the correct answer. A tie is a failure, so a judge that always says
tie scores 0 and one that always prefers the same slot scores 50%.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..errors import LLMError
from .candidates import history_text
from .fixtures import Case
from .judge import JudgeInput, Side
from .runner import Judge
from .signals import norm, ungrounded_details

__all__ = ["PLANTS", "calibrate", "planted_answers"]

PLANTS = ("wrong_value", "stale_value", "other_user", "invented_detail", "contamination")
_INVENTIONS = ("your confirmation number is {a}{b}-{n}", "you said your appointment is at {h}:{m} on the {d}th",
               "your account number ends in {n}")


def _digest(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


def _positives(case: Case) -> list[str]:
    return [*case.probe.expected_transfer_signals, *(u.new for u in case.probe.expected_update_wins)]


def _ideal(case: Case, values: list[str] | None = None) -> str:
    p = case.probe
    vals = values if values is not None else _positives(case)
    lines = [f"Request: {p.question}", "What I remember and use:"]
    lines += [f"- {v}" for v in vals]
    return "\n".join(lines)


def _donor(case: Case, others: list[Case]) -> list[str]:
    """Another user's values that this user's history never mentions."""
    hist = norm(history_text(case.scenario) + " " + case.probe.question)
    for other in sorted(others, key=lambda c: _digest(case.case_id + c.case_id)):
        if other.persona.persona_id == case.persona.persona_id:
            continue
        vals = [v for v in _positives(other) if norm(v) not in hist]
        if vals:
            return vals
    return []


def _invention(case: Case) -> str:
    hist = history_text(case.scenario) + "\n" + case.probe.question
    h = _digest(case.case_id)
    for i in range(len(_INVENTIONS) * 4):
        k = h + 7919 * i
        text = _INVENTIONS[k % len(_INVENTIONS)].format(
            a=chr(65 + k % 26), b=chr(65 + (k // 26) % 26), n=f"{1000 + k % 9000}", h=f"{7 + k % 12:02d}",
            m=f"{(k // 12) % 6}5", d=f"{4 + k % 20}")
        if ungrounded_details(text, hist):
            return text
    raise AssertionError("no invented detail outside this user's history")  # pragma: no cover


def planted_answers(case: Case, others: list[Case]) -> dict[str, str]:
    """The planted wrong answers that apply to this case, by kind."""
    p = case.probe
    pos = _positives(case)
    out: dict[str, str] = {}
    if pos:
        out["wrong_value"] = _ideal(case, [v[::-1] if v[::-1].lower() != v.lower() else v + "-x" for v in pos])
        donor = _donor(case, others)
        if donor:
            out["other_user"] = _ideal(case, [donor[i % len(donor)] for i in range(len(pos))])
    if p.expected_update_wins or p.expected_stale_suppression:
        olds = [u.old for u in p.expected_update_wins] + list(p.expected_stale_suppression)
        out["stale_value"] = _ideal(case, [*p.expected_transfer_signals, *(f"currently: {o}" for o in olds)])
    out["invented_detail"] = _ideal(case) + f"\n- {_invention(case)}"
    leaks = [*p.expected_non_transfer_signals, *p.wrong_personalization_signals]
    if leaks:
        out["contamination"] = _ideal(case) + "\n" + "\n".join(f"- apply: {s}" for s in leaks)
    return out


def _side(system: str, answer: str) -> Side:
    body = answer.split("\n", 2)[2] if answer.count("\n") >= 2 else ""
    return Side(system, answer, body, tuple(line for line in body.splitlines() if line.strip()), True)


def calibrate(cases: list[Case], judge: Judge, *, limit: int | None = None, others: list[Case] | None = None
              ) -> dict[str, Any]:
    """Share of trials in which the judge picks the correct answer over a planted one (ties fail)."""
    pool = sorted(cases, key=lambda c: _digest(c.case_id))[:limit] if limit else cases
    donors = others if others is not None else cases
    per_kind: dict[str, list[int]] = {k: [0, 0] for k in PLANTS}
    failures: list[dict[str, str]] = []
    for case in pool:
        ideal = _ideal(case)
        history = history_text(case.scenario)
        for kind, planted in planted_answers(case, donors).items():
            for slot in ("goodmemory", "baseline"):
                good, bad = _side("correct", ideal), _side(f"planted:{kind}", planted)
                cand, base = (bad, good) if slot == "goodmemory" else (good, bad)
                winner: str
                try:
                    winner = judge.judge(JudgeInput(case.persona, case.probe, cand, base, history,
                                                    f"{case.case_id}:{kind}:{slot}")).winner
                except LLMError:  # an endpoint failure is a failed trial, not a crash
                    winner = "error"
                want = "baseline" if slot == "goodmemory" else "goodmemory"
                ok = winner == want
                per_kind[kind][0] += ok
                per_kind[kind][1] += 1
                if not ok:
                    failures.append({"case_id": case.case_id, "plant": kind, "planted_in": slot,
                                     "winner": winner})
    total = sum(v[1] for v in per_kind.values())
    correct = sum(v[0] for v in per_kind.values())
    return {
        "trials": total, "correct": correct,
        "rate": round(correct / total, 4) if total else None,
        "cases": len(pool),
        "per_kind": {k: {"correct": v[0], "trials": v[1]} for k, v in per_kind.items()},
        "failed_trials": failures[:100],
        "rule": "each planted answer is judged in both slots; only picking the correct answer passes, a tie fails",
    }
