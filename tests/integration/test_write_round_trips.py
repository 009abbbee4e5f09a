"""SQLite writes: one statement per table whatever the batch size, and an update of an unknown record still
fails the whole transaction by name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import event

from goodmemory.errors import SlotConflictError, StorageError
from goodmemory.models import MemoryStatus
from goodmemory.storage.base import WriteBatch
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing.conformance import make_record


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLStorage]:
    s = SQLStorage(f"sqlite:///{tmp_path / 'gm.db'}")
    yield s
    s.close()


def _statements(store: SQLStorage) -> list[str]:
    seen: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *a: seen.append(a[2].split()[0].upper()))
    return seen


def _vec(i: int) -> np.ndarray:
    v = np.random.default_rng(i).standard_normal(8).astype(np.float32)
    return v / np.linalg.norm(v)


@pytest.mark.parametrize("n", [1, 12])
def test_statements_per_write_do_not_grow_with_the_batch(store: SQLStorage, n: int) -> None:
    old = [make_record("u", f"old fact number {i}", minutes=i) for i in range(n)]
    store.write("u", WriteBatch(inserts=old, vectors={r.id: _vec(i) for i, r in enumerate(old)}))
    new = [make_record("u", f"new fact number {i}", minutes=100 + i) for i in range(n)]
    seen = _statements(store)
    updates = [r.model_copy(update={"status": MemoryStatus.SUPERSEDED, "superseded_by": n.id}) for r, n in zip(old, new, strict=True)]
    store.write("u", WriteBatch(inserts=new, updates=updates, vectors={r.id: _vec(50 + i) for i, r in enumerate(new)}))
    # BEGIN, UPDATE, DELETE(fts), DELETE(tags of the updated rows), INSERT rows, INSERT fts, INSERT vectors,
    # user version, COMMIT: one statement per table, the same for 1 record and for 12
    assert len(seen) <= 9, seen
    for u in updates:  # every row and its full-text entry were rewritten
        assert store.get("u", u.id).status == MemoryStatus.SUPERSEDED  # type: ignore[union-attr]
    assert {r.id for r in new} <= {r.id for r in store.list("u")}


def test_an_update_of_an_unknown_record_rolls_the_write_back(store: SQLStorage) -> None:
    known = make_record("u", "I live in Lisbon", minutes=1)
    store.write("u", WriteBatch(inserts=[known]))
    ghost = make_record("u", "never stored", minutes=2)
    fresh = make_record("u", "I moved to Porto", minutes=3)
    batch = WriteBatch(inserts=[fresh], updates=[known.model_copy(update={"text": "changed"}), ghost])
    with pytest.raises(SlotConflictError, match=ghost.id):
        store.write("u", batch)
    assert store.get("u", fresh.id) is None  # nothing of the batch stayed
    assert store.get("u", known.id).text == "I live in Lisbon"  # type: ignore[union-attr]


def test_a_vector_for_a_record_not_in_the_store_is_refused(store: SQLStorage) -> None:
    ghost = make_record("u", "never stored")
    with pytest.raises(StorageError, match="vector for unknown memory"):
        store.write("u", WriteBatch(vectors={ghost.id: _vec(1)}))
