"""Embedders: the packaged MiniLM, the OpenAI-compatible one (against a loopback server), caching."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from goodmemory import EmbeddingError, create_good_memory
from goodmemory.embeddings import CachedEmbedder, HashingEmbedder, MiniLMEmbedder, OpenAIEmbedder, minilm
from goodmemory.errors import ConfigurationError, DimensionMismatchError
from goodmemory.testing.openai_server import ScriptedOpenAIServer


def test_minilm_is_packaged_and_semantic() -> None:
    e = MiniLMEmbedder()
    m = e.embed(["I live in Porto", "My home city is Porto", "I like cats"])
    assert m.shape == (3, 384) and m.dtype == np.float32
    assert np.allclose(np.linalg.norm(m, axis=1), 1.0, atol=1e-4)
    assert m[0] @ m[1] > m[0] @ m[2] + 0.3  # meaning, not only shared words


_TEXTS = [
    "hi",
    "When is my dentist appointment?",
    "What did Caroline do for the LGBTQ support group the week before last, and who came along?",
    " ".join(["long"] * 400),  # over max_seq_length: truncated the same way
    "Ünïcode — naïve café 東京 🚗",
]


def test_minilm_onnx_runtime_matches_sentence_transformers_batched_and_single() -> None:
    """Documents (batched, padded) and queries (one text) both run on ONNX Runtime; the vectors are the
    regular sentence-transformers path's at every length, including texts the model truncates.
    (The default cache: one export per machine for the whole suite.)"""
    e = MiniLMEmbedder()
    batched = e.embed(_TEXTS)
    single = np.vstack([e.embed([t]) for t in _TEXTS])
    assert e.runtime.startswith("onnx")
    reference = minilm._sentence_transformer(e.model_path).encode(
        _TEXTS, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
    for got in (batched, single):
        assert got.shape == (5, 384) and got.dtype == np.float32
        assert float(np.min(np.sum(got * reference, axis=1))) >= 0.9999


def test_minilm_torch_runtime_on_request(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GOODMEMORY_EMBED_RUNTIME", "torch")
    e = MiniLMEmbedder(cache_dir=tmp_path)
    m = e.embed(["When is my dentist appointment?", "hi"])
    assert e.runtime == "torch" and m.shape == (2, 384)
    assert not list(tmp_path.glob("*.onnx"))  # nothing exported


def test_minilm_from_a_missing_folder_is_a_configuration_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigurationError):
        MiniLMEmbedder(tmp_path / "nope").embed(["x"])


def test_openai_embedder_against_loopback_server() -> None:
    with ScriptedOpenAIServer(dim=32) as srv:
        e = OpenAIEmbedder("emb-model", dim=32, base_url=srv.base_url, api_key="k", batch_size=2)
        m = e.embed(["a", "b", "c"])
        assert m.shape == (3, 32) and np.allclose(np.linalg.norm(m, axis=1), 1.0, atol=1e-5)
        assert len(srv.embedding_requests) == 2  # batched by 2
        again = e.embed(["a"])
        assert np.allclose(again[0], m[0])


def test_openai_embedder_wrong_dimension_and_failure() -> None:
    with ScriptedOpenAIServer(dim=16) as srv, pytest.raises(EmbeddingError):
        OpenAIEmbedder("emb", dim=32, base_url=srv.base_url, api_key="k").embed(["a"])
    with pytest.raises(EmbeddingError):  # nothing listens there
        OpenAIEmbedder("emb", dim=8, base_url="http://127.0.0.1:9/v1", api_key="k", timeout_s=1).embed(["a"])


def test_cache_batches_misses_once_per_call() -> None:
    class Counting(HashingEmbedder):
        calls: list[int] = []

        def embed(self, texts):  # type: ignore[no-untyped-def]
            self.calls.append(len(texts))
            return super().embed(texts)

    inner = Counting(16)
    c = CachedEmbedder(inner)
    c.embed(["a", "b", "a"])
    c.embed(["a", "b", "c"])
    assert inner.calls == [2, 1]


def test_store_refuses_vectors_of_another_dimension(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / 'gm.db'}"
    with create_good_memory(url, embedder=HashingEmbedder(16)) as m:
        m.remember([{"role": "user", "content": "hello there"}], user_id="u")
    with pytest.raises(ConfigurationError, match="16-dimensional"):
        create_good_memory(url, embedder=HashingEmbedder(32))
    from goodmemory.storage.base import WriteBatch
    from goodmemory.storage.sql import SQLStorage
    from goodmemory.testing.conformance import make_record

    s = SQLStorage(url)
    r = make_record("u", "x")
    with pytest.raises(DimensionMismatchError):
        s.write("u", WriteBatch(inserts=[r], vectors={r.id: np.ones(32, dtype=np.float32)}))
    s.close()


def test_onnx_batches_cut_where_padding_would_be_wasted() -> None:
    from goodmemory.embeddings._onnx import _batches

    lengths = [11, 13, 13, 14, 18, 18, 18, 19, 20, 107, 110, 256]
    batches = list(_batches(list(range(len(lengths))), lengths, size=64))
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    for b in batches:  # padded tokens stay within 30% (+32) of the real ones
        assert len(b) * max(lengths[i] for i in b) <= 1.3 * sum(lengths[i] for i in b) + 32
    assert len(batches) < len(lengths)  # and similar lengths still share a run
    assert [len(b) for b in _batches(list(range(100)), [5] * 100, size=64)] == [64, 36]
