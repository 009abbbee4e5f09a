"""How many texts one remember sends through the model: each needed text once, and no masked statement that no
decision reads (an open loop's, a task's or a procedure's: ``AttributeIndex.place`` decides those by their key)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from goodmemory import create_good_memory
from goodmemory.embeddings import HashingEmbedder
from goodmemory.embeddings._deferred import DeferredVectors

TURNS = [
    {"role": "user", "content": "Remind me to renew my passport before the 12th of May."},
    {"role": "user", "content": "My dentist appointment is next Tuesday at 3pm."},
    {"role": "user", "content": "To reset the router, hold the button for 10 seconds, then wait for the green light."},
    {"role": "user", "content": "I can't stand spicy food."},
]


class Counting(HashingEmbedder):
    """Every text that reaches the model, in order; semantic, so statements are placed (not dropped)."""

    semantic = True

    def __init__(self) -> None:
        super().__init__(64)
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        return super().embed(texts)


def test_one_remember_sends_each_text_once_and_no_unread_statement(tmp_path: Path) -> None:
    inner = Counting()
    mem = create_good_memory(f"sqlite:///{tmp_path / 'a.db'}", embedder=inner)
    # the key families' example statements are embedded once per embedder: not this call's texts
    mem.remember([{"role": "user", "content": "To descale the kettle, boil vinegar in it twice."}], user_id="w")
    before = len(inner.texts)
    result = mem.remember(TURNS, user_id="u", session_id="s")
    mem.close()
    sent = inner.texts[before:]
    stored = {m.text for m in result.memories}
    assert any(m.kind.value == "open_loop" and "passport" in m.text for m in result.memories)
    assert len(sent) == len(set(sent))
    assert stored <= set(sent)
    extra = set(sent) - stored  # the masked statements the placement decisions read
    # the task is placed by its key: its masked sentence ("... before the X of X") never reaches the model
    assert not any("passport" in t for t in extra), extra
    assert len(extra) == 3, extra  # the dentist, the router, the food: one masked sentence each
    assert len(sent) == len(stored) + 3


def test_a_deferred_vector_is_embedded_when_first_read_and_equals_the_direct_one() -> None:
    inner = Counting()
    vecs = DeferredVectors(inner, {"a": np.ones(64, np.float32)})
    vecs.defer("b", "the text of b")
    other = DeferredVectors(inner, {})
    vecs.copy_to("b", other, "rec-b")
    vecs.copy_to("a", other, "rec-a")
    assert "b" in vecs and "rec-b" in other and "rec-a" in other and "c" not in vecs
    assert inner.texts == []  # nothing embedded until a vector is read
    got = other["rec-b"]
    assert inner.texts == ["the text of b"]
    ref = HashingEmbedder(64).embed(["the text of b"])[0]
    assert np.allclose(got, ref / np.linalg.norm(ref))
    assert vecs.get("c") is None
    vecs["b"] = np.zeros(64, np.float32)  # a set replaces the deferred text: never embedded again
    assert np.array_equal(vecs["b"], np.zeros(64, np.float32)) and inner.texts == ["the text of b"]
