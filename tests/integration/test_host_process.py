"""Using GoodMemory leaves the host process alone: no environment variables, no torch thread count, no
onnxruntime telemetry files; ``tune_process`` is the opt-in that does change the process (gc)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import goodmemory
from goodmemory import create_good_memory, tune_process
from goodmemory.testing import FakeEmbedder

SRC = Path(__file__).resolve().parents[2] / "src"


_RUN = textwrap.dedent("""
    import json, os, sys
    before = dict(os.environ)
    from goodmemory import create_good_memory
    m = create_good_memory("sqlite://")
    m.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u")
    m.build_context("where do I live?", user_id="u")
    threads = sys.modules["torch"].get_num_threads() if "torch" in sys.modules else None
    changed = sorted(k for k in set(before) | set(os.environ) if before.get(k) != os.environ.get(k))
    print(json.dumps({"changed": changed, "torch_threads": threads, "runtime": m.embedder.inner.runtime}))
""")
_TORCH_ONLY = textwrap.dedent("""
    import json, os
    before = dict(os.environ)
    import torch, sentence_transformers
    changed = sorted(k for k in set(before) | set(os.environ) if before.get(k) != os.environ.get(k))
    print(json.dumps({"changed": changed, "torch_threads": torch.get_num_threads()}))
""")


def _run(code: str, home: Path, cache: Path) -> object:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GOODMEMORY_", "XDG_", "KMP_", "TORCH"))}
    env.update(PYTHONPATH=str(SRC), HOME=str(home), GOODMEMORY_CACHE_DIR=str(cache))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_first_calls_change_no_env_threads_or_home(tmp_path: Path) -> None:
    """The default embedder end to end (import, create, remember, build_context) in fresh processes whose HOME
    is empty. Cold cache: torch is imported to export, and only the variables torch sets on its own import
    change; warm cache: nothing changes. Never a file under HOME (onnxruntime's telemetry would write
    ~/.cache/Microsoft/DeveloperTools/.onnxruntime/deviceid), never torch's thread count."""
    home, cache = tmp_path / "home", tmp_path / "cache"
    home.mkdir()
    cold = _run(_RUN, home, cache)
    by_torch = _run(_TORCH_ONLY, home, tmp_path / "unused")
    warm = _run(_RUN, home, cache)
    assert isinstance(cold, dict) and isinstance(warm, dict) and isinstance(by_torch, dict)
    assert cold["runtime"] == "onnx-exported" and cold["torch_threads"] == by_torch["torch_threads"]
    assert set(cold["changed"]) <= set(by_torch["changed"]), (cold["changed"], by_torch)
    assert warm == {"changed": [], "torch_threads": None, "runtime": "onnx-cached"}
    assert [p.relative_to(home).as_posix() for p in home.rglob("*")] == []


def test_tune_process_warms_the_embedder_and_freezes_the_heap() -> None:
    class Counting(FakeEmbedder):
        calls = 0

        def embed(self, texts):  # type: ignore[no-untyped-def]
            Counting.calls += 1
            return super().embed(texts)

    m = create_good_memory("sqlite://", embedder=Counting())
    try:
        done = tune_process(m)
        assert Counting.calls == 1 and done["warmed"] is True
        # a frozen object still goes when its last reference does (a worker thread's leftovers): the permanent
        # generation may be a few objects smaller by the time it is counted here, never larger
        assert 0 < gc.get_freeze_count() <= done["frozen_objects"]
        assert gc.get_freeze_count() > 0.99 * done["frozen_objects"]
    finally:
        gc.unfreeze()
        m.close()


def test_tune_process_is_public_and_the_async_names_load_on_first_use() -> None:
    assert "tune_process" in goodmemory.__all__
    code = "import sys, goodmemory; a = 'goodmemory.aio' in sys.modules; goodmemory.AsyncGoodMemory; " \
           "print(json.dumps([a, 'goodmemory.aio' in sys.modules]))"
    out = subprocess.run([sys.executable, "-c", "import json; " + code], env={**os.environ, "PYTHONPATH": str(SRC)},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [False, True]
    with pytest.raises(AttributeError):
        goodmemory.no_such_name  # noqa: B018
