"""The report's PNG plots: hard checks next to judge scores, per layer, per persona, per dimension.

Losses are red everywhere: a layer or persona where the candidate passes
fewer hard checks than the strongest baseline, or loses on the judge.
"""

from __future__ import annotations

from pathlib import Path
from statistics import mean
from typing import Any

from .judge import DIMENSIONS, content_mean
from .runner import CaseResult
from .summary import LAYERS

__all__ = ["write_plots"]

GOOD, BAD, NEUTRAL = "#2a9d8f", "#d62828", "#5c677d"
OTHERS = ("#e9c46a", "#a8dadc", "#cdb4db", "#f4a261", "#b5c99a", "#ffafcc", "#bde0fe")


def _mean_or_none(vals: list[float]) -> float | None:
    return mean(vals) if vals else None


def _judge_means(results: list[CaseResult]) -> tuple[float | None, float | None]:
    g = [m for r in results if (m := content_mean(r.judge.scores)) is not None]
    b = [m for r in results if r.judge.baseline_scores is not None
         and (m := content_mean(r.judge.baseline_scores)) is not None]
    return _mean_or_none(g), _mean_or_none(b)


def _by_layer(plt: Any, results: list[CaseResult], summary: dict[str, Any], out: Path) -> str:
    systems = list(summary["systems"])
    cand, strongest = summary["headline"]["candidate"], summary["headline"].get("strongest_baseline")
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.2))
    width = 0.8 / max(1, len(systems))
    others = iter(OTHERS * 2)
    for i, name in enumerate(systems):
        rates = []
        for layer in LAYERS:
            v = summary["systems"][name]["by_layer"][layer]
            rates.append(v["passed"] / v["total"] if v["total"] else 0.0)
        color = GOOD if name == cand else (NEUTRAL if name == strongest else next(others))
        xs = [j + i * width for j in range(len(LAYERS))]
        bars = ax1.bar(xs, rates, width, color=color, label=name, edgecolor="black" if name == cand else None)
        if name == cand and strongest:
            srates = [(summary["systems"][strongest]["by_layer"][la]["passed"]
                       / max(1, summary["systems"][strongest]["by_layer"][la]["total"])) for la in LAYERS]
            for bar, r, s in zip(bars, rates, srates, strict=True):
                if r < s:
                    bar.set_color(BAD)
    ax1.set_xticks([j + 0.4 - width / 2 for j in range(len(LAYERS))], LAYERS)
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("hard-check case pass rate")
    ax1.set_title(f"Hard checks per layer (red: {cand} below {strongest})", fontsize=9)
    ax1.legend(fontsize=7, ncol=2)
    labels, gm, bm = [], [], []
    for layer in LAYERS:
        g, b = _judge_means([r for r in results if r.layer == layer])
        labels.append(layer)
        gm.append(g or 0.0)
        bm.append(b or 0.0)
    pos = range(len(labels))
    ax2.bar([x - 0.2 for x in pos], bm, 0.4, color=NEUTRAL, label=f"baseline ({results[0].baseline})")
    ax2.bar([x + 0.2 for x in pos], gm, 0.4, color=[GOOD if g >= b else BAD for g, b in zip(gm, bm, strict=True)],
            label=f"candidate ({cand})")
    ax2.set_xticks(list(pos), labels)
    ax2.set_ylim(0, 5)
    ax2.set_ylabel("judge content score (0-5, N/A excluded)")
    ax2.set_title("Judge scores per layer (red: candidate below baseline)", fontsize=9)
    ax2.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "by_layer.png", dpi=100)
    plt.close(fig)
    return "by_layer.png"


def _by_persona(plt: Any, results: list[CaseResult], summary: dict[str, Any], out: Path) -> str:
    cand, strongest = summary["headline"]["candidate"], summary["headline"].get("strongest_baseline")
    personas = sorted({r.persona_id for r in results})
    c_rate, s_rate, ups, losses = [], [], [], []
    for p in personas:
        rs = [r for r in results if r.persona_id == p]
        c_rate.append(mean(r.systems[cand].assertions.passed for r in rs))
        s_rate.append(mean(r.systems[strongest].assertions.passed for r in rs) if strongest else 0.0)
        u = [x for r in rs if (x := r.uplift) is not None]
        ups.append(mean(u) if u else 0.0)
        losses.append(sum(r.judge.winner == "baseline" for r in rs))
    h = max(3.0, 0.22 * len(personas) + 1.2)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, h), sharey=True)
    ys = range(len(personas))
    ax1.barh([y + 0.2 for y in ys], s_rate, 0.4, color=NEUTRAL, label=f"strongest baseline ({strongest})")
    ax1.barh([y - 0.2 for y in ys], c_rate, 0.4, color=[GOOD if c >= s else BAD for c, s in
                                                        zip(c_rate, s_rate, strict=True)], label=cand)
    ax1.set_yticks(list(ys), personas, fontsize=6)
    for label, c, s in zip(ax1.get_yticklabels(), c_rate, s_rate, strict=True):
        if c < s:  # a zero-length bar shows no colour: mark the name too
            label.set_color(BAD)
    ax1.invert_yaxis()
    ax1.set_xlim(0, 1)
    ax1.set_xlabel("hard-check case pass rate")
    ax1.set_title("Hard checks per persona (red bar and name: below the strongest baseline)", fontsize=9)
    ax1.legend(fontsize=7, loc="lower right")
    ax2.barh(list(ys), ups, color=[BAD if u < 0 or n else GOOD for u, n in zip(ups, losses, strict=True)])
    ax2.axvline(0, color="black", lw=0.8)
    ax2.set_xlabel(f"judge uplift vs {results[0].baseline} (red: negative or a lost case)")
    ax2.set_title("Judge uplift per persona", fontsize=9)
    fig.tight_layout()
    fig.savefig(out / "by_persona.png", dpi=100)
    plt.close(fig)
    return "by_persona.png"


def _by_dimension(plt: Any, summary: dict[str, Any], out: Path) -> str:
    dims = [d for d in DIMENSIONS if summary["dimensions"][d]["n"]]
    fig, ax = plt.subplots(figsize=(9, 4))
    ups = [summary["dimensions"][d]["uplift"] for d in dims]
    ax.barh([f"{d} (n={summary['dimensions'][d]['n']})" for d in dims], ups,
            color=[GOOD if u > 0 else (BAD if u < 0 else NEUTRAL) for u in ups])
    ax.axvline(0, color="black", lw=0.8)
    ax.invert_yaxis()
    ax.set_xlabel("uplift (candidate - baseline), judge score 0-5, over cases where the dimension applies")
    ax.set_title("Judge uplift per dimension (red: the candidate is worse)", fontsize=9)
    fig.tight_layout()
    fig.savefig(out / "by_dimension.png", dpi=100)
    plt.close(fig)
    return "by_dimension.png"


def write_plots(results: list[CaseResult], summary: dict[str, Any], out: Path) -> list[str]:
    if not results or not summary.get("headline"):
        return []
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # the report still has its tables
        return []
    return [_by_layer(plt, results, summary, out), _by_persona(plt, results, summary, out),
            _by_dimension(plt, summary, out)]
