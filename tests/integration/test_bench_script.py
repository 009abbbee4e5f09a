"""``scripts/bench.py`` runs end to end and writes the figures it promises (no timing thresholds)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "scripts" / "bench.py"

KEYS = (
    "remember_msgs_per_s", "extract_policy_msgs_per_s", "recall_p50_ms", "recall_p95_ms", "build_context_p50_ms",
    "build_context_p95_ms", "tokens_per_context", "bytes_per_memory", "peak_rss_mb", "bruteforce_p50_ms",
    "bruteforce_p95_ms", "memories", "messages", "storage", "seed", "remember_call_p50_ms", "remember_call_p95_ms",
    "remember_last10pct_msgs_per_s", "remember_msgs_per_cpu_s", "embed_share_of_remember", "second_instance_p50_ms",
    "recall_tuned_p50_ms", "recall_tuned_p95_ms", "build_context_tuned_p50_ms", "build_context_tuned_p95_ms",
    "texts_embedded_per_remember", "model_calls_per_remember",
)


@pytest.mark.slow
def test_bench_quick_writes_json_and_table(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--memories", "300", "--queries", "20", "--seed", "3",
         "--json", str(out), "--no-progress"],
        capture_output=True, text=True, timeout=900, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    missing = [k for k in KEYS if k not in data]
    assert not missing, missing
    for k in KEYS:
        if k in ("storage", "seed"):
            continue
        assert isinstance(data[k], (int, float)) and data[k] > 0, (k, data[k])
    assert data["memories"] >= 300
    assert data["messages"] > 0 and data["seed"] == 3
    for name in ("recall", "build_context", "bruteforce"):
        assert data[f"{name}_p95_ms"] >= data[f"{name}_p50_ms"], name
    assert "| metric | value | note |" in proc.stdout
    assert "recall p50 / p95" in proc.stdout
    # garbage-collector pauses while the reads were timed: counted, the longest measured
    gc_ = data["gc_during_reads"]
    assert gc_["collections"] >= gc_["full"] >= 0 and gc_["collections"] > 0
    assert gc_["max_pause_ms"] >= 0 and gc_["total_pause_ms"] >= gc_["max_pause_ms"]
    assert "GC pauses while reads were timed" in proc.stdout
    # the same reads after goodmemory.tune_process(): labelled apart, with what it froze
    assert data["gc_during_reads_tuned"]["frozen_objects"] > 0
    assert "recall p50 / p95 after tune_process()" in proc.stdout and "GC pauses after tune_process()" in proc.stdout


def test_gc_pauses_records_collections() -> None:
    import gc

    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import bench
    finally:
        sys.path.pop(0)
    with bench.GcPauses() as pauses:
        gc.collect(0)
        gc.collect()
    assert [g for g, _ in pauses.pauses][-2:] == [0, 2]
    assert pauses.summary()["full"] >= 1 and pauses.summary()["collections"] >= 2
    assert pauses._record not in gc.callbacks  # removed on exit


def test_recording_embedder_counts_model_texts_and_passes_library_texts_to_the_disk_copy() -> None:
    import numpy as np

    from goodmemory.embeddings import HashingEmbedder

    class Fixed(HashingEmbedder):
        def __init__(self) -> None:
            super().__init__(16)
            self.model_texts: list[str] = []

        def embed(self, texts):  # type: ignore[no-untyped-def]
            self.model_texts.extend(texts)
            return super().embed(texts)

        def embed_fixed(self, texts):  # type: ignore[no-untyped-def]
            return np.ones((len(texts), 16), np.float32)  # stands in for the default embedder's disk copy

    sys.path.insert(0, str(BENCH.parent))
    try:
        import bench  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(BENCH.parent))
    inner = Fixed()
    rec = bench.RecordingEmbedder(inner)
    rec.embed(["a", "b"])
    rec.embed(["c"])
    assert np.array_equal(rec.embed_fixed(["x", "y"]), np.ones((2, 16), np.float32))
    assert (rec.texts, rec.calls) == (3, 2) and inner.model_texts == ["a", "b", "c"]


def test_synthetic_user_is_deterministic() -> None:
    sys.path.insert(0, str(BENCH.parent))
    try:
        import bench  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(BENCH.parent))
    a = [s.messages for _, s in zip(range(5), bench.sessions(11), strict=False)]
    b = [s.messages for _, s in zip(range(5), bench.sessions(11), strict=False)]
    c = [s.messages for _, s in zip(range(5), bench.sessions(12), strict=False)]
    assert a == b and a != c
    assert all(len(m) == bench.BATCH_MESSAGES for m in a)
    q = bench.queries(11, 150)
    assert len({text for text, _ in q}) == 150 and q == bench.queries(11, 150)


@pytest.mark.slow
def test_bench_cold_reports_start_up_and_second_instance(tmp_path: Path) -> None:
    out = tmp_path / "cold.json"
    proc = subprocess.run([sys.executable, str(BENCH), "--cold", "--cold-runs", "1", "--json", str(out)],
                          capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-4000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["context_ok"] is True and data["runs"] == 1
    assert data["warmup_runtime"].startswith("onnx") and data["runtime"] == ["onnx-cached"]
    assert data["torch_imported"] is False  # the warm cache keeps torch off the start-up path
    stages = data["stages_s"]
    assert set(stages) == {"import_s", "create_s", "remember_s", "context_s"}
    assert 0 < sum(v["p50"] for v in stages.values()) <= data["cold_start_s"]["p50"]
    assert data["second_instance_ms"]["p50"] > 0 and data["reopen_context_ms"]["p50"] > 0
    assert data["bare_interpreter_s"]["p50"] > 0
    assert "new process to first build_context" in proc.stdout
