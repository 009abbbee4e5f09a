"""Instances of one process share what the packaged model computed: a second GoodMemory (one per request or
tenant) does not embed again what the first already did."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from goodmemory import create_good_memory
from goodmemory.embeddings import CachedEmbedder, HashingEmbedder, MiniLMEmbedder


class Counting(HashingEmbedder):
    def __init__(self, identity: object = None) -> None:
        super().__init__(32)
        self.texts: list[str] = []
        if identity is not None:
            self.cache_identity = identity

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        return super().embed(texts)


def count_minilm_calls(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The texts of every MiniLMEmbedder.embed call from now on, one list per call."""
    calls: list[list[str]] = []
    real = MiniLMEmbedder.embed

    def counting(self: MiniLMEmbedder, texts: Sequence[str]) -> np.ndarray:
        calls.append(list(texts))
        return real(self, texts)

    counting.__wrapped__ = real  # type: ignore[attr-defined]
    monkeypatch.setattr(MiniLMEmbedder, "embed", counting)
    return calls


def test_embedders_of_one_identity_share_vectors_and_forgetting() -> None:
    ident = ("test-model", object())  # unique to this test
    a, b = Counting(ident), Counting(ident)
    ca, cb = CachedEmbedder(a), CachedEmbedder(b)
    va = ca.embed(["I live in Porto", "hi"])
    vb = cb.embed(["hi", "I live in Porto"])
    assert b.texts == []  # every vector came from the first one's work
    assert np.array_equal(va[::-1], vb)
    assert cb.forget_texts(["I live in Porto"]) == 1
    ca.embed(["I live in Porto"])  # forgotten through the other instance: computed again
    assert a.texts == ["I live in Porto", "hi", "I live in Porto"]


def test_embedders_without_identity_keep_private_caches() -> None:
    a, b = Counting(), Counting()
    CachedEmbedder(a).embed(["x y"])
    CachedEmbedder(b).embed(["x y"])
    assert a.texts == ["x y"] and b.texts == ["x y"]


def test_a_second_instance_does_not_embed_again_what_the_first_did(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    seen = count_minilm_calls(monkeypatch)
    turns = [{"role": "user", "content": "My dentist is Dr. Silva on Friday."}]
    with create_good_memory(f"sqlite:///{tmp_path}/a.db", embedder=MiniLMEmbedder()) as first:
        first.remember(turns, user_id="u1")
        first.build_context("when is the dentist?", user_id="u1")
    first_texts = {t for call in seen for t in call}
    seen.clear()
    with create_good_memory(f"sqlite:///{tmp_path}/b.db", embedder=MiniLMEmbedder()) as second:
        second.remember(turns, user_id="u2")
        ctx = second.build_context("when is the dentist?", user_id="u2")
    assert "Silva" in ctx.text
    again = {t for call in seen for t in call} & first_texts
    assert again == set(), f"embedded again: {sorted(again)[:5]}"


def test_library_texts_are_kept_on_disk_per_model_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = count_minilm_calls(monkeypatch)
    real = MiniLMEmbedder.embed.__wrapped__  # type: ignore[attr-defined]
    texts = ["I live in X", "my favourite band is X"]
    first = MiniLMEmbedder(cache_dir=tmp_path).embed_fixed(texts)
    assert len(calls) == 1 and len(list(tmp_path.glob("fixed-*.npy"))) == 1
    again = MiniLMEmbedder(cache_dir=tmp_path).embed_fixed(texts)  # as a new process would: from the file
    assert len(calls) == 1 and np.array_equal(first, again)
    assert np.allclose(again, real(MiniLMEmbedder(cache_dir=tmp_path), texts), atol=1e-6)
    # other texts are another file; a damaged file is a miss, computed and written again
    MiniLMEmbedder(cache_dir=tmp_path).embed_fixed(texts[:1])
    assert len(calls) == 2
    for f in tmp_path.glob("fixed-*.npy"):
        f.write_bytes(b"not a numpy file")
    assert np.array_equal(CachedEmbedder(MiniLMEmbedder(cache_dir=tmp_path)).embed_fixed(texts), first)
    assert len(calls) == 3
