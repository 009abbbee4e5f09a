"""Summaries and the human report (Markdown with PNG plots) of an eval run."""

from __future__ import annotations

import json
from pathlib import Path
from statistics import mean
from typing import Any

from .judge import DIMENSIONS
from .runner import CaseResult, failure_entry

__all__ = ["summarize", "write_report"]

LAYERS = ("retrieval", "personalization", "governance")


def _dim_means(results: list[CaseResult], side: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for d in DIMENSIONS:
        vals = []
        for r in results:
            s = r.judge.scores if side == "gm" else r.judge.baseline_scores
            if s is not None:
                vals.append(getattr(s, d))
        out[d] = round(mean(vals), 4) if vals else 0.0
    return out


def summarize(results: list[CaseResult], *, meta: dict[str, Any], calibration: dict[str, Any]) -> dict[str, Any]:
    n = len(results)
    wins = sum(r.judge.winner == "goodmemory" for r in results)
    ties = sum(r.judge.winner == "tie" for r in results)
    gm, base = _dim_means(results, "gm"), _dim_means(results, "base")
    checks = [c for r in results for c in r.assertions.checks]
    failures = [f for f in (failure_entry(r) for r in results) if f is not None]
    layer_uplift = {}
    for layer in LAYERS:
        sub = [r.uplift for r in results if r.layer == layer]
        layer_uplift[layer] = {"cases": len(sub), "uplift": round(mean(sub), 4) if sub else None}
    introduced = [r.case_id for r in results
                  if any(t in r.judge.failure_tags for t in ("goodmemory_contamination",
                                                             "goodmemory_wrong_personalization"))]
    stale_checks = [c for c in checks if c.kind == "stale"]
    by_uplift = sorted(results, key=lambda r: -r.uplift)
    personas = sorted({r.persona_id for r in results})
    failing_personas = sorted({f["persona_id"] for f in failures})
    agreement = [r.agreement for r in results]
    return {
        **meta,
        "cases": n,
        "personas": len(personas),
        "win_rate": round(wins / n, 4) if n else 0.0,
        "wins": wins, "ties": ties, "losses": n - wins - ties,
        "dimensions": {d: {"goodmemory": gm[d], "baseline": base[d], "uplift": round(gm[d] - base[d], 4)}
                       for d in DIMENSIONS},
        "layer_uplift": layer_uplift,
        "assertions": {
            "passing_cases": sum(r.assertions.passed for r in results), "total_cases": n,
            "passing_checks": sum(c.passed for c in checks), "total_checks": len(checks),
            "contamination_failures": sum(not c.passed for c in checks
                                          if c.kind in ("non_transfer", "wrong_personalization")),
            "update_failures": sum(not c.passed for c in checks if c.kind in ("update", "stale")),
            "by_kind": {k: {"passed": sum(c.passed for c in checks if c.kind == k),
                            "total": sum(1 for c in checks if c.kind == k)}
                        for k in sorted({c.kind for c in checks})},
        },
        "ab": {
            "average_uplift": round(mean(r.uplift for r in results), 4) if n else 0.0,
            "personalization_uplift": layer_uplift["personalization"]["uplift"],
            "wrong_personalization_introduced": len(introduced),
            "wrong_personalization_cases": introduced,
            "stale_memory_suppressed": f"{sum(c.passed for c in stale_checks)}/{len(stale_checks)}",
            "biggest_gains": [{"case_id": r.case_id, "uplift": round(r.uplift, 3)} for r in by_uplift[:5]],
            "worse_cases": [{"case_id": r.case_id, "uplift": round(r.uplift, 3)} for r in by_uplift if r.uplift < 0],
        },
        "blocking_failures": len(failures),
        "failing_personas": failing_personas,
        "calibration": calibration,
        "judge_agreement": round(mean(agreement), 4) if agreement else None,
        "mean_context_tokens": round(mean(r.context_tokens for r in results), 1) if n else 0.0,
    }


def _plots(results: list[CaseResult], summary: dict[str, Any], out: Path) -> list[str]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # the report still has its tables
        return []
    files = []
    dims = list(DIMENSIONS)
    fig, ax = plt.subplots(figsize=(8, 4))
    ups = [summary["dimensions"][d]["uplift"] for d in dims]
    ax.barh(dims, ups, color=["#2a9d8f" if u >= 0 else "#e76f51" for u in ups])
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("uplift (GoodMemory - baseline), score 0-5")
    ax.set_title("Uplift per judge dimension")
    fig.tight_layout()
    fig.savefig(out / "uplift_by_dimension.png", dpi=110)
    plt.close(fig)
    files.append("uplift_by_dimension.png")
    personas = sorted({r.persona_id for r in results})
    grid = []
    for p in personas:
        rs = [r for r in results if r.persona_id == p]
        row = []
        for d in dims:
            vals = [getattr(r.judge.scores, d) - (getattr(r.judge.baseline_scores, d) if r.judge.baseline_scores else 0)
                    for r in rs]
            row.append(mean(vals))
        grid.append(row)
    fig, ax = plt.subplots(figsize=(9, max(3, 0.28 * len(personas) + 1.5)))
    im = ax.imshow(grid, cmap="RdYlGn", vmin=-5, vmax=5, aspect="auto")
    ax.set_xticks(range(len(dims)), [d.replace("_", "\n") for d in dims], fontsize=7)
    ax.set_yticks(range(len(personas)), personas, fontsize=7)
    fig.colorbar(im, ax=ax, label="uplift")
    ax.set_title("Uplift per persona and dimension")
    fig.tight_layout()
    fig.savefig(out / "persona_heatmap.png", dpi=110)
    plt.close(fig)
    files.append("persona_heatmap.png")
    return files


def write_report(results: list[CaseResult], summary: dict[str, Any], out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    failures = [f for f in (failure_entry(r) for r in results) if f is not None]
    (out / "failures").mkdir(exist_ok=True)
    (out / "failures" / "summary.json").write_text(json.dumps({"failures": failures, "count": len(failures)},
                                                              indent=2, ensure_ascii=False), encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
    plots = _plots(results, summary, out)
    a = summary["assertions"]
    lines = [
        f"# GoodMemory eval — run `{summary.get('run_id')}`",
        "",
        f"Mode: **{summary.get('mode')}**. Judge: **{summary.get('judge')}**. Answerer: **{summary.get('answerer')}**.",
    ]
    if summary.get("judge") == "rule":
        lines += ["", "> Offline run: the answerer is deterministic and the judge is a rule judge. It scores what "
                      "each system puts in front of the model (the baseline sees only the request; GoodMemory also "
                      "sees its context block) against each probe's expected signals. It does not judge prose."]
    lines += [
        "",
        f"**{summary['cases']} cases over {summary['personas']} personas** in {summary.get('duration_s')} s. "
        f"GoodMemory wins **{summary['wins']}**, ties {summary['ties']}, loses {summary['losses']} "
        f"(win rate {summary['win_rate']:.1%}). Mean context: {summary['mean_context_tokens']} tokens.",
        "",
        "## Uplift per dimension (0–5)",
        "",
        "| dimension | baseline | GoodMemory | uplift |",
        "|---|---:|---:|---:|",
    ]
    for d, v in summary["dimensions"].items():
        lines.append(f"| {d} | {v['baseline']:.2f} | {v['goodmemory']:.2f} | {v['uplift']:+.2f} |")
    lines += ["", "## Uplift per layer", "", "| layer | cases | uplift |", "|---|---:|---:|"]
    for layer, v in summary["layer_uplift"].items():
        up = "—" if v["uplift"] is None else f"{v['uplift']:+.2f}"
        lines.append(f"| {layer} | {v['cases']} | {up} |")
    lines += [
        "", "## Assertions (hard gate)", "",
        f"- passing cases: **{a['passing_cases']}/{a['total_cases']}**",
        f"- passing checks: **{a['passing_checks']}/{a['total_checks']}**",
        f"- contamination failures: {a['contamination_failures']}; update/stale failures: {a['update_failures']}",
        "", "| check kind | passed | total |", "|---|---:|---:|",
    ]
    for k, v in a["by_kind"].items():
        lines.append(f"| {k} | {v['passed']} | {v['total']} |")
    ab = summary["ab"]
    cal = summary["calibration"]
    lines += [
        "", "## A/B", "",
        f"- average uplift: {ab['average_uplift']:+.2f}; personalization uplift: "
        f"{ab['personalization_uplift'] if ab['personalization_uplift'] is None else format(ab['personalization_uplift'], '+.2f')}",
        f"- wrong personalization introduced: {ab['wrong_personalization_introduced']} cases",
        f"- stale memory suppressed: {ab['stale_memory_suppressed']} checks",
        "- biggest gains: " + ", ".join(f"{g['case_id']} ({g['uplift']:+.2f})" for g in ab["biggest_gains"]),
        f"- cases that got worse: {len(ab['worse_cases'])}"
        + ("" if not ab["worse_cases"] else " — " + ", ".join(w["case_id"] for w in ab["worse_cases"][:10])),
        "", "## Judge calibration", "",
        f"Planted wrong answers not preferred: **{cal['rejected']}/{cal['planted']}** "
        f"(rate {cal['rejection_rate']}).",
        "", f"## Blocking failures: {summary['blocking_failures']}", "",
    ]
    by_id = {r.case_id: r for r in results}
    for f in failures[:60]:
        r = by_id[f["case_id"]]
        src = f["source"]
        lines += [
            f"### {f['case_id']} — layer {f['layer']}, {src} failure, winner {f['winner']}",
            "",
            f"- question: {r.question}",
            f"- failed assertions: {', '.join(f['failed_assertions']) or 'none'}",
            f"- tags: {', '.join(f.get('blocking_failure_tags') or f.get('failure_tags') or []) or 'none'}",
            f"- judge: {r.judge.reasoning}",
            "",
            "<details><summary>answers</summary>",
            "",
            "Baseline:",
            "```",
            r.baseline_answer,
            "```",
            "GoodMemory:",
            "```",
            r.goodmemory_answer,
            "```",
            "</details>",
            "",
        ]
    for p in plots:
        lines += [f"![{p}]({p})", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
