"""remember embeds its turns on the embedding worker while extraction runs (CachedEmbedder.prefetch): the vectors
stored are those of the model's own call, embedders that do not say they are thread-safe never leave the caller's
thread, and the caller finishes whatever the worker has not started."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from goodmemory import create_good_memory
from goodmemory.embeddings import CachedEmbedder, HashingEmbedder, MiniLMEmbedder, packaged_model_path
from goodmemory.errors import EmbeddingError

TURNS = [
    {"role": "user", "content": "I moved to Porto in 2021 and I still commute to Braga twice a week."},
    {"role": "assistant", "content": "Noted. Anything else I can help with?"},
    {"role": "user", "content": "My dentist appointment is next Tuesday at 3pm."},
    {"role": "user", "content": "I can't stand spicy food."},
    {"role": "assistant", "content": "Got it, I'll keep that in mind when I suggest restaurants."},
    {"role": "user", "content": "Remind me to cancel the gym membership."},
]


class Threads(HashingEmbedder):
    """Records the thread of every call; ``thread_safe`` as told."""

    def __init__(self, thread_safe: bool) -> None:
        super().__init__(32)
        self.thread_safe = thread_safe
        self.threads: list[str] = []
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.threads.append(threading.current_thread().name)
        self.texts.extend(texts)
        return super().embed(texts)


def _stored(db: Path) -> dict[str, np.ndarray]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT m.data, v.vec FROM gm_memories m JOIN gm_vectors v ON v.memory_id = m.id").fetchall()
    return {json.loads(d)["text"]: np.frombuffer(v, dtype=np.float32) for d, v in rows}


@pytest.mark.skipif(packaged_model_path() is None, reason="the packaged MiniLM is not installed")
def test_remember_stores_the_vectors_each_text_gets_alone(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mem = create_good_memory(f"sqlite:///{db}")
    assert mem.embedder.thread_safe  # the packaged model takes the worker path
    mem.remember(TURNS, user_id="u", session_id="s")
    mem.close()
    stored = _stored(db)
    assert len(stored) >= len(TURNS) + 2  # the turns, the digest, the memories
    alone = MiniLMEmbedder()
    for text, vec in stored.items():
        ref = alone.embed([text])[0]  # one text, no batch: the plain model call
        assert float(vec @ ref) / float(np.linalg.norm(vec) * np.linalg.norm(ref)) >= 0.99999, text


def test_turns_are_embedded_on_the_worker_when_the_embedder_allows(tmp_path: Path) -> None:
    inner = Threads(thread_safe=True)
    mem = create_good_memory(f"sqlite:///{tmp_path / 'a.db'}", embedder=inner)
    mem.remember(TURNS, user_id="u", session_id="s")
    mem.close()
    assert any(t.startswith("goodmemory-embed") for t in inner.threads)
    assert len(inner.texts) == len(set(inner.texts))  # what the worker embedded was not embedded again


def test_the_worker_can_be_switched_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOODMEMORY_EMBED_WORKER", "0")
    inner = Threads(thread_safe=True)
    mem = create_good_memory(f"sqlite:///{tmp_path / 'c.db'}", embedder=inner)
    mem.remember(TURNS, user_id="u", session_id="s")
    mem.close()
    assert inner.threads and set(inner.threads) == {threading.current_thread().name}


def test_an_embedder_not_declared_thread_safe_stays_on_the_callers_thread(tmp_path: Path) -> None:
    inner = Threads(thread_safe=False)
    mem = create_good_memory(f"sqlite:///{tmp_path / 'b.db'}", embedder=inner)
    mem.remember(TURNS, user_id="u", session_id="s")
    mem.close()
    assert inner.threads and set(inner.threads) == {threading.current_thread().name}


def test_the_caller_embeds_what_the_busy_worker_has_not_started() -> None:
    from goodmemory.embeddings import _pool

    release = threading.Event()
    blocker = _pool().submit(release.wait, 10)  # another call's job holds the only worker
    try:
        inner = Threads(thread_safe=True)
        emb = CachedEmbedder(inner)
        texts = [f"text number {i}" for i in range(20)]
        emb.prefetch(texts)()  # returns without the worker: no deadlock
        assert set(inner.threads) == {threading.current_thread().name}
        assert sorted(inner.texts) == sorted(texts)
        n = len(inner.texts)
        emb.embed(texts)
        assert len(inner.texts) == n  # all cached
    finally:
        release.set()
        blocker.result(timeout=10)


def test_a_failure_on_the_worker_is_raised_by_finish() -> None:
    class Broken(Threads):
        def embed(self, texts: Sequence[str]) -> np.ndarray:
            raise RuntimeError("model crashed")

    finish = CachedEmbedder(Broken(thread_safe=True)).prefetch(["a", "b"])
    with pytest.raises(EmbeddingError, match="model crashed"):
        finish()
