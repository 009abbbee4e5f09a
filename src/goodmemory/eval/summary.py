"""The numbers of an eval run, computed from its case results only (so ``--summarize`` can rebuild them).

The headline is the candidate's hard-check case pass rate and its uplift over
the strongest non-memory baseline of the same run (the plain system with the
highest pass rate), with a paired 95% bootstrap interval over cases at a fixed
seed. Judge scores are reported per dimension over the cases where the
dimension applies (``n``), never averaged with N/A as 0.
"""

from __future__ import annotations

from collections import Counter
from statistics import mean
from typing import Any

import numpy as np

from .assertions import CONTAMINATION_KINDS, UPDATE_KINDS, AssertionReport
from .judge import DIMENSIONS
from .runner import CaseResult, failure_entry

__all__ = ["BOOTSTRAP_RESAMPLES", "BOOTSTRAP_SEED", "LAYERS", "bootstrap_ci", "summarize"]

LAYERS = ("retrieval", "personalization", "governance")
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0
MEMORY_SYSTEMS = frozenset({"goodmemory"})


def bootstrap_ci(diffs: list[float], *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED
                 ) -> tuple[float, float] | None:
    """Percentile 95% interval of the mean of paired per-case differences."""
    if not diffs:
        return None
    arr = np.asarray(diffs, dtype=float)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(arr), size=(resamples, len(arr)))
    means = arr[idx].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return round(float(lo), 4), round(float(hi), 4)


def _checks_summary(reports: list[AssertionReport]) -> dict[str, Any]:
    checks = [c for r in reports for c in r.checks]
    kinds = sorted({c.kind for c in checks})
    return {
        "passing_cases": sum(r.passed for r in reports), "total_cases": len(reports),
        "pass_rate": round(sum(r.passed for r in reports) / len(reports), 4) if reports else 0.0,
        "passing_checks": sum(c.passed for c in checks), "total_checks": len(checks),
        "contamination_failures": sum(r.count_failed(CONTAMINATION_KINDS) for r in reports),
        "update_failures": sum(r.count_failed(UPDATE_KINDS) for r in reports),
        "by_kind": {k: {"passed": sum(c.passed for c in checks if c.kind == k),
                        "total": sum(1 for c in checks if c.kind == k)} for k in kinds},
    }


def _system_table(results: list[CaseResult]) -> dict[str, Any]:
    names = list(results[0].systems) if results else []
    out: dict[str, Any] = {}
    for name in names:
        runs = [r.systems[name] for r in results if name in r.systems]
        tokens = [s.context_tokens for s in runs]
        wins = Counter(s.winner for s in runs if s.winner is not None)
        ups = [s.uplift for s in runs if s.uplift is not None]
        cross = [s.assertions for r, s in zip(results, runs, strict=True) if r.evaluation_setting == "cross_domain"]
        row = _checks_summary([s.assertions for s in runs])
        row.update({
            "memory": name in MEMORY_SYSTEMS,
            "cross_domain_transfer": {"passed": sum(c.passed for a in cross for c in a.checks if c.kind == "transfer"),
                                      "total": sum(1 for a in cross for c in a.checks if c.kind == "transfer")},
            "mean_tokens": round(mean(tokens), 1) if tokens else 0.0,
            "max_tokens": max(tokens, default=0), "total_tokens": sum(tokens),
            "vs_baseline": {"wins": wins.get("goodmemory", 0), "ties": wins.get("tie", 0),
                            "losses": wins.get("baseline", 0)} if wins else None,
            "mean_uplift_vs_baseline": round(mean(ups), 4) if ups else None,
            "by_layer": {layer: {"passed": sum(r.systems[name].assertions.passed for r in results
                                               if r.layer == layer and name in r.systems),
                                 "total": sum(1 for r in results if r.layer == layer and name in r.systems)}
                         for layer in LAYERS},
        })
        out[name] = row
    return out


def _headline(results: list[CaseResult], systems: dict[str, Any], candidate: str) -> dict[str, Any]:
    plain = {n: v for n, v in systems.items() if n not in MEMORY_SYSTEMS and n != candidate}
    if not results or not plain:
        return {"candidate": candidate, "pass_rate": systems.get(candidate, {}).get("pass_rate"),
                "strongest_baseline": None}
    strongest = max(plain, key=lambda n: (plain[n]["pass_rate"], -plain[n]["mean_tokens"]))
    diffs = [float(r.systems[candidate].assertions.passed) - float(r.systems[strongest].assertions.passed)
             for r in results]
    return {
        "candidate": candidate,
        "passing_cases": systems[candidate]["passing_cases"], "cases": len(results),
        "pass_rate": systems[candidate]["pass_rate"],
        "strongest_baseline": strongest, "strongest_pass_rate": plain[strongest]["pass_rate"],
        "uplift": round(mean(diffs), 4), "uplift_ci95": bootstrap_ci(diffs),
        "bootstrap": {"resamples": BOOTSTRAP_RESAMPLES, "seed": BOOTSTRAP_SEED, "paired_over": "cases"},
    }


def _dimensions(results: list[CaseResult]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for d in DIMENSIONS:
        pairs = [(getattr(r.judge.scores, d), getattr(r.judge.baseline_scores, d)) for r in results
                 if r.judge.baseline_scores is not None and getattr(r.judge.scores, d) is not None
                 and getattr(r.judge.baseline_scores, d) is not None]
        out[d] = {"n": len(pairs),
                  "goodmemory": round(mean(p[0] for p in pairs), 4) if pairs else None,
                  "baseline": round(mean(p[1] for p in pairs), 4) if pairs else None,
                  "uplift": round(mean(p[0] - p[1] for p in pairs), 4) if pairs else None}
    return out


def summarize(results: list[CaseResult], *, meta: dict[str, Any], calibration: dict[str, Any] | None,
              usage: dict[str, Any] | None = None) -> dict[str, Any]:
    n = len(results)
    candidate = meta.get("candidate") or (results[0].candidate if results else "goodmemory")
    wins = sum(r.judge.winner == "goodmemory" for r in results)
    ties = sum(r.judge.winner == "tie" for r in results)
    failures = [f for f in (failure_entry(r) for r in results) if f is not None]
    ups = [u for u in (r.uplift for r in results) if u is not None]
    layer_uplift = {}
    for layer in LAYERS:
        sub = [u for r in results if r.layer == layer and (u := r.uplift) is not None]
        layer_uplift[layer] = {"cases": sum(r.layer == layer for r in results),
                               "uplift": round(mean(sub), 4) if sub else None, "uplift_ci95": bootstrap_ci(sub)}
    introduced = [r.case_id for r in results if any(t in r.judge.failure_tags for t in (
        "goodmemory_contamination", "goodmemory_wrong_personalization", "goodmemory_invented_detail"))]
    systems = _system_table(results)
    a = _checks_summary([r.assertions for r in results])
    by_uplift = sorted((r for r in results if r.uplift is not None), key=lambda r: -(r.uplift or 0.0))
    agreement = [r.agreement for r in results]
    return {
        **meta,
        "cases": n,
        "personas": len({r.persona_id for r in results}),
        "headline": _headline(results, systems, candidate) if candidate in systems else None,
        "systems": systems,
        "win_rate": round(wins / n, 4) if n else 0.0,
        "wins": wins, "ties": ties, "losses": n - wins - ties,
        "dimensions": _dimensions(results),
        "layer_uplift": layer_uplift,
        "assertions": a,
        "ab": {
            "average_uplift": round(mean(ups), 4) if ups else None, "average_uplift_ci95": bootstrap_ci(ups),
            "personalization_uplift": layer_uplift["personalization"]["uplift"],
            "wrong_personalization_introduced": len(introduced),
            "wrong_personalization_cases": introduced,
            "stale_memory_suppressed": f"{a['by_kind'].get('stale', {}).get('passed', 0)}/"
                                       f"{a['by_kind'].get('stale', {}).get('total', 0)}",
            "biggest_gains": [{"case_id": r.case_id, "uplift": round(r.uplift or 0.0, 3)} for r in by_uplift[:5]],
            "worse_cases": [{"case_id": r.case_id, "uplift": round(r.uplift or 0.0, 3)} for r in by_uplift
                            if (r.uplift or 0.0) < 0],
        },
        "judged_by": dict(Counter(r.judged_by for r in results)),
        "answered_by": dict(Counter(r.answered_by for r in results)),
        "blocking_failures": len(failures),
        "failing_personas": sorted({f["persona_id"] for f in failures}),
        "calibration": calibration,
        "usage": usage,
        "judge_agreement": round(mean(agreement), 4) if agreement else None,
        "mean_context_tokens": round(mean(r.context_tokens for r in results), 1) if n else 0.0,
    }
