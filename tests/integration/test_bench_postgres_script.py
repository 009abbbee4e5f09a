"""``scripts/bench_postgres.py`` runs end to end and reports every figure it promises (no timing
thresholds); its synthetic vectors are deterministic unit vectors shaped like their bases."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench_postgres.py"
PG_URL = os.environ.get("GOODMEMORY_TEST_POSTGRES_URL")


def _module():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import bench_postgres  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return bench_postgres


def test_derived_vectors_are_deterministic_unit_vectors() -> None:
    bp = _module()
    rng = np.random.default_rng(0)
    base = rng.standard_normal((50, 24)).astype(np.float32) * np.linspace(2, 0.1, 24, dtype=np.float32)
    base /= np.linalg.norm(base, axis=1, keepdims=True)
    a, pa = bp.derive(base, 300, np.random.default_rng(5))
    b, pb = bp.derive(base, 300, np.random.default_rng(5))
    assert a.shape == (300, 24) and a.dtype == np.float32
    assert np.array_equal(a, b) and np.array_equal(pa, pb)
    assert np.allclose(np.linalg.norm(a, axis=1), 1, atol=1e-5)
    # each vector stays nearer its parent sentence than a random base on average
    own = np.einsum("ij,ij->i", a, base[pa])
    assert own.mean() > (a @ base.T).mean() + 0.2


@pytest.mark.slow
def test_bench_writes_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    backends = "sqlite,postgres" if PG_URL else "sqlite"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--n", "1200", "--users", "3", "--queries", "20", "--per-row", "10",
         "--embedder", "hashing", "--max-sentences", "400", "--cache", str(tmp_path / "cache"), "--no-progress",
         "--backends", backends, "--out", str(out)],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert json.loads(proc.stdout) == data
    assert data["n"] == 1200 and data["data"]["queries"] == 80
    assert [r["backend"] for r in data["runs"]] == backends.split(",")
    for run in data["runs"]:
        for key in ("ingest_bulk_per_s", "ingest_per_row_per_s", "text_p50_ms", "text_p95_ms", "recall_p50_ms",
                    "recall_p95_ms", "embed_p50_ms"):
            assert isinstance(run[key], (int, float)) and run[key] > 0, (run["backend"], key)
        assert run["recall_p95_ms"] >= run["recall_p50_ms"]
        for v in run["vector"]:
            assert 0 <= v["recall_at_10"] <= 1 and v["p95_ms"] >= v["p50_ms"] > 0
        if run["backend"] == "sqlite":
            assert run["vector"][0]["recall_at_10"] == 1.0  # exact search
        else:
            assert [v["ef_search"] for v in run["vector"]] == [40, 100] and run["settings"]["pgvector"]
