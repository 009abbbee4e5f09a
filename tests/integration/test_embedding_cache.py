"""The exported ONNX graph of the packaged MiniLM: cached on disk once per model version, verified when read,
rebuilt when corrupt, and one loaded model per process shared by every instance."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from goodmemory.embeddings import MiniLMEmbedder, minilm

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As in a new process: no model loaded yet (the real registry is put back afterwards)."""
    monkeypatch.setattr(minilm, "_SHARED", {})
    yield


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache directory the packaged model was exported into once."""
    directory = tmp_path_factory.mktemp("gm-cache")
    saved = minilm._SHARED
    minilm._SHARED = {}
    try:
        e = MiniLMEmbedder(cache_dir=directory)
        e.embed(["warm"])
        assert e.runtime == "onnx-exported"
    finally:
        minilm._SHARED = saved
    return directory


def _files(directory: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(directory.glob("minilm-*"))}


def test_the_graph_is_written_once_and_reused(warm_cache: Path, fresh_process: None) -> None:
    before = _files(warm_cache)
    assert [n.rsplit(".", 1)[1] for n in before] == ["json", "onnx"]
    exports = minilm.export_count
    e = MiniLMEmbedder(cache_dir=warm_cache)
    vec = e.embed(["When is my dentist appointment?"])
    assert e.runtime == "onnx-cached"
    assert minilm.export_count == exports  # no re-export
    assert _files(warm_cache) == before  # nor a rewrite
    assert vec.shape == (1, 384)


def test_two_instances_share_one_loaded_model(warm_cache: Path, fresh_process: None) -> None:
    a, b = MiniLMEmbedder(cache_dir=warm_cache), MiniLMEmbedder(cache_dir=warm_cache)
    a.embed(["x"])
    b.embed(["y"])
    assert a._backend is b._backend
    assert (a.runtime, b.runtime) == ("onnx-cached", "onnx-shared")


def test_instances_share_the_model_across_threads(warm_cache: Path, fresh_process: None) -> None:
    from concurrent.futures import ThreadPoolExecutor

    embedders = [MiniLMEmbedder(cache_dir=warm_cache) for _ in range(4)]
    with ThreadPoolExecutor(4) as pool:
        mats = list(pool.map(lambda e: e.embed(["the same text", "another one"]), embedders))
    assert len({id(e._backend) for e in embedders}) == 1
    assert all(np.allclose(m, mats[0], atol=1e-6) for m in mats)


def _damaged_copy(warm_cache: Path, into: Path, damage: str) -> None:
    for f in warm_cache.glob("minilm-*"):
        (into / f.name).write_bytes(f.read_bytes())
    graph = next(into.glob("*.onnx"))
    meta = next(into.glob("*.json"))
    if damage == "flip-bytes":  # same size, different weights: only the hash can tell
        data = bytearray(graph.read_bytes())
        data[len(data) // 2 : len(data) // 2 + 64] = bytes(64)
        graph.write_bytes(bytes(data))
    elif damage == "truncate":
        graph.write_bytes(graph.read_bytes()[:1000])
    elif damage == "wrong-probes":  # the file is intact but its outputs disagree with the recorded vectors
        m = json.loads(meta.read_text())
        m["probes"] = (-np.asarray(m["probes"])).tolist()
        meta.write_text(json.dumps(m))
    else:
        meta.write_text("{not json")


@pytest.mark.parametrize("damage", ["flip-bytes", "truncate", "wrong-probes", "bad-json"])
def test_a_corrupted_cache_is_not_used(warm_cache: Path, tmp_path: Path, damage: str) -> None:
    from goodmemory.embeddings import _onnx

    model = MiniLMEmbedder(cache_dir=warm_cache, prefetch=False).model_path
    assert _onnx.load_cached(model, warm_cache, threads=1, batch_size=8) is not None  # the intact copy loads
    _damaged_copy(warm_cache, tmp_path, damage)
    assert _onnx.load_cached(model, tmp_path, threads=1, batch_size=8) is None


def test_a_corrupted_cache_is_rebuilt(warm_cache: Path, tmp_path: Path, fresh_process: None) -> None:
    _damaged_copy(warm_cache, tmp_path, "flip-bytes")
    exports = minilm.export_count
    e = MiniLMEmbedder(cache_dir=tmp_path)
    got = e.embed(["I moved to Porto"])
    assert e.runtime == "onnx-exported" and minilm.export_count == exports + 1
    good = MiniLMEmbedder(cache_dir=warm_cache)
    minilm._SHARED.clear()
    assert float(got[0] @ good.embed(["I moved to Porto"])[0]) >= 0.9999
    # and the rebuilt files verify: a next "process" reads them without exporting
    minilm._SHARED.clear()
    again = MiniLMEmbedder(cache_dir=tmp_path)
    again.embed(["x"])
    assert again.runtime == "onnx-cached"


def test_a_new_process_with_a_warm_cache_does_not_export_or_import_torch(warm_cache: Path) -> None:
    code = textwrap.dedent("""
        import sys
        from goodmemory import create_good_memory
        from goodmemory.embeddings import minilm
        m = create_good_memory("sqlite://")
        m.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u")
        ctx = m.build_context("where do I live?", user_id="u")
        inner = m.embedder.inner
        print(inner.runtime, minilm.export_count, "torch" in sys.modules, "Lisbon" in ctx.text)
    """)
    env = {**os.environ, "PYTHONPATH": str(SRC), "GOODMEMORY_CACHE_DIR": str(warm_cache)}
    env.pop("GOODMEMORY_EMBED_RUNTIME", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["onnx-cached", "0", "False", "True"]


def test_a_warm_cache_is_opened_in_the_background_at_construction(warm_cache: Path, tmp_path: Path,
                                                                  fresh_process: None) -> None:
    import threading

    e = MiniLMEmbedder(cache_dir=warm_cache)
    for t in threading.enumerate():
        if t.name == "goodmemory-embedder-load":
            t.join(timeout=120)
    assert e._backend is not None and e.runtime == "onnx-cached"  # loaded before any embed()
    assert e.embed(["x"]).shape == (1, 384)
    cold = MiniLMEmbedder(cache_dir=tmp_path)  # nothing cached there: no thread, nothing loaded
    assert cold._backend is None and not any(t.name == "goodmemory-embedder-load" for t in threading.enumerate())
