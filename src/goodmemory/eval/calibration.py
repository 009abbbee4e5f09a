"""Judge calibration: planted wrong answers the judge must not prefer over a correct one."""

from __future__ import annotations

from typing import Any

from .fixtures import Case
from .runner import Judge

__all__ = ["PLANTS", "calibrate"]

PLANTS = ("wrong_fact", "stale_value", "contamination", "invented_detail")


def _ideal(case: Case) -> str:
    p = case.probe
    lines = [f"Request: {p.question}", "What I remember and use:"]
    lines += [f"- {s}" for s in p.expected_transfer_signals]
    lines += [f"- now: {u.new}" for u in p.expected_update_wins]
    return "\n".join(lines)


def _planted(case: Case, kind: str) -> str | None:
    p = case.probe
    ideal = _ideal(case)
    if kind == "wrong_fact" and p.expected_transfer_signals:
        out = ideal
        for s in p.expected_transfer_signals:
            out = out.replace(f"- {s}", f"- {s[::-1]}x")
        return out
    if kind == "stale_value" and (p.expected_stale_suppression or p.expected_update_wins):
        olds = list(p.expected_stale_suppression) + [u.old for u in p.expected_update_wins]
        return "\n".join(line for line in ideal.splitlines() if not line.startswith("- now:")) + "\n" + "\n".join(
            f"- currently: {o}" for o in olds)
    if kind == "contamination" and (p.expected_non_transfer_signals or p.wrong_personalization_signals):
        return ideal + "\n" + "\n".join(f"- apply: {s}" for s in
                                        [*p.expected_non_transfer_signals, *p.wrong_personalization_signals])
    if kind == "invented_detail":
        return ideal + "\n- the user's loyalty number is ZZ-000-INVENTED"
    return None


def calibrate(cases: list[Case], judge: Judge) -> dict[str, Any]:
    """Rate at which the judge does not prefer a planted wrong answer over the correct one."""
    total = rejected = 0
    per_kind: dict[str, list[int]] = {k: [0, 0] for k in PLANTS}
    failures: list[dict[str, str]] = []
    for case in cases:
        ideal = _ideal(case)
        for kind in PLANTS:
            planted = _planted(case, kind)
            if planted is None:
                continue
            # the planted answer sits in the GoodMemory slot: preferring it is the judge's error
            verdict = judge.judge(case.persona, case.probe, ideal, planted, 1.0, 1.0)
            ok = verdict.winner != "goodmemory"
            total += 1
            rejected += ok
            per_kind[kind][0] += ok
            per_kind[kind][1] += 1
            if not ok:
                failures.append({"case_id": case.case_id, "plant": kind})
    return {
        "planted": total,
        "rejected": rejected,
        "rejection_rate": round(rejected / total, 4) if total else None,
        "per_kind": {k: {"rejected": v[0], "planted": v[1]} for k, v in per_kind.items()},
        "preferred_planted": failures[:50],
        "note": "invented details carry no expected signal, so a rule judge can only tie them; a tie counts as "
                "not preferring the planted answer",
    }
