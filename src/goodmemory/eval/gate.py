"""The release gate: thresholds from one YAML file, checked against a run's summary.

The file (default ``eval/gate.yaml`` in the checkout) has one profile per
run kind (``default`` for the full offline run, ``smoke`` for ``--smoke``),
each a mapping of ``<metric>_min`` / ``<metric>_max`` to a number. The
metrics are the keys of ``METRICS``; an unknown key is an error, so a typo
cannot switch a line off.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

__all__ = ["METRICS", "GateError", "GateLine", "check_gate", "default_gate_path", "load_gate"]


class GateError(ValueError):
    """The gate file is missing, unreadable, or names an unknown metric or profile."""


def _get(summary: dict[str, Any], *path: str) -> float | None:
    cur: Any = summary
    for key in path:
        if not isinstance(cur, dict) or cur.get(key) is None:
            return None
        cur = cur[key]
    return float(cur)


METRICS: dict[str, tuple[str, ...]] = {
    "case_pass_rate": ("headline", "pass_rate"),
    "contamination_failures": ("assertions", "contamination_failures"),
    "update_failures": ("assertions", "update_failures"),
    "blocking_failures": ("blocking_failures",),
    "calibration": ("calibration", "rate"),
    "uplift_ci_low": ("headline", "uplift_ci95", "0"),
}


@dataclass(frozen=True)
class GateLine:
    metric: str
    bound: str  # "min" | "max"
    threshold: float
    value: float | None

    @property
    def passed(self) -> bool:
        if self.value is None:
            return False
        return self.value >= self.threshold if self.bound == "min" else self.value <= self.threshold

    def describe(self) -> str:
        op = ">=" if self.bound == "min" else "<="
        got = "missing" if self.value is None else f"{self.value:g}"
        return f"{'ok  ' if self.passed else 'FAIL'} {self.metric} = {got} (needs {op} {self.threshold:g})"


def default_gate_path() -> Path:
    """The repository's eval/gate.yaml in a checkout; the copy a wheel ships (setup.py) in a pip install."""
    repo = Path(__file__).resolve().parents[3] / "eval" / "gate.yaml"
    packaged = Path(__file__).resolve().parent / "gate.yaml"
    return repo if repo.is_file() or not packaged.is_file() else packaged


def load_gate(path: Path, profile: str) -> dict[str, float]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise GateError(f"cannot read gate file {path}: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get(profile), dict):
        raise GateError(f"gate file {path} has no profile {profile!r}")
    out: dict[str, float] = {}
    for key, value in data[profile].items():
        metric, _, bound = str(key).rpartition("_")
        if metric not in METRICS or bound not in ("min", "max") or not isinstance(value, (int, float)):
            raise GateError(f"gate file {path}: {profile}.{key} is not <metric>_min|_max: <number> "
                            f"(metrics: {', '.join(METRICS)})")
        out[str(key)] = float(value)
    return out


def _value(summary: dict[str, Any], metric: str) -> float | None:
    path = METRICS[metric]
    if metric == "uplift_ci_low":
        ci = (summary.get("headline") or {}).get("uplift_ci95")
        return None if not ci else float(ci[0])
    return _get(summary, *path)


def check_gate(summary: dict[str, Any], thresholds: dict[str, float]) -> list[GateLine]:
    lines = []
    for key, threshold in thresholds.items():
        metric, _, bound = key.rpartition("_")
        lines.append(GateLine(metric, bound, threshold, _value(summary, metric)))
    return lines
