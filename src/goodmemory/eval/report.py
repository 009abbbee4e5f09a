"""The run's files: ``summary.json``, ``failures/summary.json`` and ``report.md`` with its plots.

Everything here is computed from the case results and ``run.json``, so
``run_eval.py --summarize RUN_DIR`` rebuilds the same files from a finished
(or interrupted) run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .gate import GateLine
from .judge import STRUCTURAL
from .plots import write_plots
from .runner import CaseResult, failure_entry
from .summary import LAYERS

__all__ = ["load_run", "write_report"]

RED = "🔴"


def load_run(run_dir: Path) -> tuple[list[CaseResult], dict[str, Any]]:
    """The case results and run record of a run directory (``cases/*.json`` and ``run.json``)."""
    results = [CaseResult.model_validate_json(p.read_text(encoding="utf-8"))
               for p in sorted((run_dir / "cases").glob("*.json"))]
    run_path = run_dir / "run.json"
    run = json.loads(run_path.read_text(encoding="utf-8")) if run_path.exists() else {}
    return results, run


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _frac(v: dict[str, int] | None) -> str:
    return "—" if not v or not v.get("total") else f"{v['passed']}/{v['total']}"


def _headline(s: dict[str, Any]) -> list[str]:
    h = s.get("headline") or {}
    if not h.get("strongest_baseline"):
        return [f"Hard checks: **{h.get('candidate')}** passes {_pct(h.get('pass_rate'))} of cases."]
    lo, hi = h["uplift_ci95"] or (h["uplift"], h["uplift"])
    return [
        f"**Hard checks: `{h['candidate']}` passes {h['passing_cases']}/{h['cases']} cases "
        f"({_pct(h['pass_rate'])}).** Strongest non-memory baseline: `{h['strongest_baseline']}` "
        f"({_pct(h['strongest_pass_rate'])}). **Uplift {100 * h['uplift']:+.1f} pp, 95% CI "
        f"[{100 * lo:+.1f}, {100 * hi:+.1f}] pp** (paired bootstrap over cases, {h['bootstrap']['resamples']} "
        f"resamples, seed {h['bootstrap']['seed']}).",
        "",
        f"Judge ({s.get('judge')}), `{h['candidate']}` vs `{s.get('baseline')}`: wins {s['wins']}, ties "
        f"{s['ties']}, losses {s['losses']}{' ' + RED if s['losses'] else ''}. A tie is not a win; a side that "
        "surfaces no expected signal never wins.",
    ]


def _systems(s: dict[str, Any]) -> list[str]:
    cand, base = (s.get("headline") or {}).get("candidate"), s.get("baseline")
    strongest = (s.get("headline") or {}).get("strongest_baseline")
    lines = ["## Every system side by side (same replay, same hard checks)", "",
             "| system | cases passed | checks | transfer | cross-domain transfer | update | stale | "
             "contamination failures | provenance | mean / max tokens | rule judge vs baseline W/T/L |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, v in s["systems"].items():
        k = v["by_kind"]
        role = " (candidate)" if name == cand else (" (baseline)" if name == base else "")
        role += " (strongest baseline)" if name == strongest else ""
        role += " (no budget)" if name == "full-history" else ""
        mark = f" {RED}" if name == cand and strongest and v["pass_rate"] < s["systems"][strongest]["pass_rate"] else ""
        vs = v["vs_baseline"]
        wtl = "—" if vs is None else f"{vs['wins']}/{vs['ties']}/{vs['losses']}"
        lines.append(
            f"| `{name}`{role} | {v['passing_cases']}/{v['total_cases']} ({_pct(v['pass_rate'])}){mark} | "
            f"{v['passing_checks']}/{v['total_checks']} | {_frac(k.get('transfer'))} | "
            f"{_frac(v['cross_domain_transfer'])} | {_frac(k.get('update'))} | {_frac(k.get('stale'))} | "
            f"{v['contamination_failures']} | {_frac(k.get('provenance'))} | {v['mean_tokens']:.0f} / "
            f"{v['max_tokens']} | {wtl} |")
    fh = s["systems"].get("full-history")
    if fh:
        lines += ["", f"`full-history` pastes every turn regardless of the budget: {fh['total_tokens']} context "
                  f"tokens over the run ({fh['mean_tokens']:.0f} per case, up to {fh['max_tokens']})."]
    lines += ["", "Provenance is checked only for a context that holds items (an empty context has nothing to "
              "explain). Turn baselines cite their turns, so they trace by construction."]
    return lines


def _dimensions(s: dict[str, Any]) -> list[str]:
    lines = ["## Judge scores per dimension (candidate vs baseline)", "",
             "N/A dimensions are excluded for both sides; `n` is the number of cases where it applies. "
             f"{', '.join(STRUCTURAL)} is reported but never decides the winner.", "",
             "| dimension | n | baseline | candidate | uplift |", "|---|---:|---:|---:|---:|"]
    for d, v in s["dimensions"].items():
        if not v["n"]:
            lines.append(f"| {d} | 0 | — | — | — |")
            continue
        mark = f" {RED}" if v["uplift"] < 0 else ""
        lines.append(f"| {d} | {v['n']} | {v['baseline']:.2f} | {v['goodmemory']:.2f} | {v['uplift']:+.2f}{mark} |")
    lines += ["", "| layer | cases | candidate hard checks | strongest baseline | judge uplift (95% CI) |",
              "|---|---:|---:|---:|---:|"]
    cand, strongest = s["headline"]["candidate"], s["headline"].get("strongest_baseline")
    for layer in LAYERS:
        v = s["layer_uplift"][layer]
        c = s["systems"][cand]["by_layer"][layer]
        b = s["systems"][strongest]["by_layer"][layer] if strongest else None
        up = "—" if v["uplift"] is None else f"{v['uplift']:+.2f}"
        if v.get("uplift_ci95"):
            up += f" [{v['uplift_ci95'][0]:+.2f}, {v['uplift_ci95'][1]:+.2f}]"
        mark = f" {RED}" if b and c["passed"] < b["passed"] else ""
        lines.append(f"| {layer} | {v['cases']} | {_frac(c)}{mark} | {_frac(b)} | {up} |")
    return lines


def _personas(results: list[CaseResult], s: dict[str, Any]) -> list[str]:
    cand, strongest = s["headline"]["candidate"], s["headline"].get("strongest_baseline")
    lines = ["## Per persona", "", f"| persona | `{cand}` hard checks | `{strongest}` | judge W/T/L |",
             "|---|---:|---:|---:|"]
    for p in sorted({r.persona_id for r in results}):
        rs = [r for r in results if r.persona_id == p]
        c = sum(r.systems[cand].assertions.passed for r in rs)
        b = sum(r.systems[strongest].assertions.passed for r in rs) if strongest else 0
        w = sum(r.judge.winner == "goodmemory" for r in rs)
        t = sum(r.judge.winner == "tie" for r in rs)
        lo = len(rs) - w - t
        mark = f" {RED}" if c < b or lo else ""
        lines.append(f"| {p}{mark} | {c}/{len(rs)} | {b}/{len(rs)} | {w}/{t}/{lo} |")
    return lines


def _calibration(s: dict[str, Any]) -> list[str]:
    cal = s.get("calibration")
    if not cal:
        return []
    lines = ["## Judge calibration", "",
             f"Planted wrong answers, each judged in both slots; only picking the correct answer counts, a tie "
             f"fails: **{cal['correct']}/{cal['trials']}** ({_pct(cal['rate'])}) over {cal['cases']} cases.", "",
             "| plant | correct | trials |", "|---|---:|---:|"]
    for k, v in cal["per_kind"].items():
        mark = f" {RED}" if v["trials"] and v["correct"] < v["trials"] else ""
        lines.append(f"| {k} | {v['correct']}{mark} | {v['trials']} |")
    return lines


def _usage(s: dict[str, Any]) -> list[str]:
    u = s.get("usage")
    lines = ["## Who answered and judged", "", f"- answered by: {s.get('answered_by')}",
             f"- judged by: {s.get('judged_by')}"]
    if u:
        for role in ("answerer", "judge"):
            v = u.get(role)
            if v:
                lines.append(f"- {role} `{v['model']}`: {v['calls']} calls, {v['failures']} failed, "
                             f"{v['prompt_tokens']} prompt + {v['completion_tokens']} completion tokens "
                             f"(estimated), cost ${v['cost_usd']:.4f}"
                             + (f", {v['unusable_replies']} unusable replies retried or failed closed"
                                if "unusable_replies" in v else ""))
        if u.get("fallback_from"):
            lines.append(f"- the endpoint was given up after consecutive failures at {u['fallback_from']}")
    return lines


def _failures(results: list[CaseResult], failures: list[dict[str, Any]]) -> list[str]:
    lines = [f"## Blocking failures: {len(failures)}", "",
             "Rule (seed §9.4): a case the candidate does not win fails with all its tags; a win fails only on "
             "blocking tags or a failed hard check. Every one is listed.", ""]
    by_id = {r.case_id: r for r in results}
    for f in failures:
        r = by_id[f["case_id"]]
        tags = f.get("blocking_failure_tags") or f.get("failure_tags") or []
        mark = f"{RED} " if f["winner"] == "baseline" else ""
        lines += [
            "<details>",
            f"<summary>{mark}<code>{f['case_id']}</code> — {f['layer']}, {f['source']} failure, winner "
            f"{f['winner']}, judged by {f['judged_by']}</summary>", "",
            f"- question: {r.question}",
            f"- failed hard checks: {', '.join(f['failed_assertions']) or 'none'}",
            f"- tags: {', '.join(tags) or 'none'}",
            f"- judge: {r.judge.reasoning}", "",
            f"Baseline (`{r.baseline}`):", "```", r.baseline_answer, "```",
            f"Candidate (`{r.candidate}`):", "```", r.candidate_answer, "```",
            "</details>", "",
        ]
    return lines


def write_report(results: list[CaseResult], summary: dict[str, Any], out: Path,
                 gate: list[GateLine] | None = None) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    failures = [f for f in (failure_entry(r) for r in results) if f is not None]
    (out / "failures").mkdir(exist_ok=True)
    (out / "failures" / "summary.json").write_text(json.dumps({"failures": failures, "count": len(failures)},
                                                              indent=2, ensure_ascii=False), encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
    lines = [
        f"# GoodMemory eval — run `{summary.get('run_id')}`", "",
        f"Mode: **{summary.get('mode')}**. Candidate: **{summary.get('candidate')}**. Baseline: "
        f"**{summary.get('baseline')}**. Judge: **{summary.get('judge')}**. Answerer: **{summary.get('answerer')}**. "
        f"{summary['cases']} cases over {summary['personas']} personas in {summary.get('duration_s')} s.",
    ]
    if summary.get("judge") == "rule":
        lines += ["", "> Offline run: the answerer is deterministic and the judge is a rule judge. It scores what "
                      "each system puts in front of the model against each probe's expected signals and the "
                      "user's history. It does not judge prose."]
    if not results:
        lines += ["", "No cases."]
    else:
        lines += ["", *_headline(summary)]
        if gate is not None:
            ok = all(g.passed for g in gate)
            lines += ["", f"## Release gate: {'passed' if ok else 'FAILED ' + RED}", "", "```",
                      *[g.describe() for g in gate], "```"]
        lines += ["", *_systems(summary), "", *_dimensions(summary), "", *_personas(results, summary), "",
                  *_calibration(summary), "", *_usage(summary), ""]
        for p in write_plots(results, summary, out):
            lines += [f"![{p}]({p})", ""]
        lines += _failures(results, failures)
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
