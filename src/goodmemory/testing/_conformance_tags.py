"""Conformance tests of tag filters (``MemoryFilter.tags``, any-of), mixed into ``StorageConformance``.

A tag filter is part of the scope of a query: it narrows list, count, text and vector searches inside the
store, so a tagged record among many untagged near-duplicates still makes a small top-k; it never widens a
user's scope; writes keep it in step with the records (updates replace tags, deletes remove them).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, cast

import numpy as np
import pytest

from ..models import MemoryKind, MemoryRecord, MemorySource
from ..storage.base import (
    BulkLoadStorage,
    MemoryFilter,
    Storage,
    TextQuery,
    VectorQuery,
    WriteBatch,
    list_many,
)

__all__ = ["TagConformance"]

_T0 = datetime(2025, 1, 1, tzinfo=UTC)
_DIM = 16


def _rec(user_id: str, text: str, key: str, *, tags: list[str] | None = None, minutes: int = 0,
         kind: MemoryKind = MemoryKind.FACT) -> MemoryRecord:
    at = _T0 + timedelta(minutes=minutes)
    return MemoryRecord(user_id=user_id, kind=kind, key=key, value=text.split()[-1], text=text, tags=tags or [],
                        source=MemorySource(session_id="s1", message_ids=[f"s1:{minutes}"]), created_at=at,
                        updated_at=at)


def _unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v)).astype(np.float32)


def _ids(hits: list[tuple[str, float]]) -> list[str]:
    return [m for m, _ in hits]


class TagConformance:
    """Tag filters: any-of, exact, inside every query of the adapter."""

    def test_tag_filter_in_list_and_count(self, storage: Storage) -> None:
        a = _rec("u", "Project Atlas ships in May", "fact.atlas", tags=["atlas", "work"], minutes=1)
        b = _rec("u", "Project Borealis is on hold", "fact.borealis", tags=["borealis", "work"], minutes=2)
        c = _rec("u", "The cat is called Miso", "fact.cat", minutes=3)
        storage.write("u", WriteBatch(inserts=[a, b, c]))
        def listed(*tags: str) -> list[str]:
            return [r.id for r in storage.list("u", MemoryFilter(tags=tags))]
        assert listed("atlas") == [a.id]
        assert listed("work") == [a.id, b.id]
        assert listed("atlas", "borealis") == [a.id, b.id]  # any of them
        assert listed("Atlas") == [] and listed("nope") == []  # exact, case-sensitive
        assert storage.count("u", MemoryFilter(tags=("work",))) == 2
        assert storage.get("u", a.id).tags == ["atlas", "work"]  # type: ignore[union-attr]
        assert [r.id for r in storage.list("u", MemoryFilter(tags=("work",), newest_first=True), limit=1)] == [b.id]
        got = list_many(storage, "u", [(MemoryFilter(tags=("borealis",)), None), (MemoryFilter(), None)])
        assert [[r.id for r in g] for g in got] == [[b.id], [a.id, b.id, c.id]]

    def test_text_search_filters_tags_inside_the_query(self, storage: Storage) -> None:
        if not storage.capabilities.full_text:
            pytest.skip("adapter declares no full-text search")
        dupes = [_rec("u", "lisbon hotel lisbon hotel lisbon hotel booking", f"fact.dupe{i}", minutes=i)
                 for i in range(60)]
        tagged = _rec("u", "a lisbon hotel near the river, booked for the conference trip with colleagues",
                      "fact.tagged", tags=["trip"], minutes=100)
        storage.write("u", WriteBatch(inserts=[*dupes, tagged]))
        assert tagged.id not in _ids(storage.search_text("u", TextQuery("lisbon hotel", limit=5)))
        assert _ids(storage.search_text("u", TextQuery("lisbon hotel", limit=5,
                                                       filter=MemoryFilter(tags=("trip",))))) == [tagged.id]
        assert storage.search_text("u", TextQuery("lisbon", limit=5, filter=MemoryFilter(tags=("other",)))) == []

    def test_vector_search_filters_tags_inside_the_query(self, storage: Storage) -> None:
        if not storage.capabilities.vector_search:
            pytest.skip("adapter declares no vector search")
        rng = np.random.default_rng(7)
        q = _unit(rng.standard_normal(_DIM))
        dupes = [_rec("u", f"near duplicate {i}", f"fact.near{i}", minutes=i) for i in range(80)]
        tagged = _rec("u", "the tagged one", "fact.far", tags=["trip"], minutes=200)
        vecs = {r.id: _unit(q + 0.05 * rng.standard_normal(_DIM)) for r in dupes}
        vecs[tagged.id] = _unit(q + 1.5 * rng.standard_normal(_DIM))  # far behind every duplicate
        storage.write("u", WriteBatch(inserts=[*dupes, tagged], vectors=vecs))
        assert tagged.id not in _ids(storage.search_vector("u", VectorQuery(q, limit=5)))
        found = storage.search_vector("u", VectorQuery(q, limit=5, filter=MemoryFilter(tags=("trip",))))
        assert _ids(found) == [tagged.id]
        assert storage.search_vector("u", VectorQuery(q, limit=5, filter=MemoryFilter(tags=("none",)))) == []

    def test_updates_replace_tags_and_deletes_remove_them(self, storage: Storage) -> None:
        r = _rec("u", "Standup moved to 10am", "fact.standup", tags=["old"])
        storage.write("u", WriteBatch(inserts=[r], vectors={r.id: _unit(np.ones(_DIM))}))
        storage.write("u", WriteBatch(updates=[r.model_copy(update={"tags": ["new", "team"]})]))
        assert storage.list("u", MemoryFilter(tags=("old",))) == []
        assert [x.id for x in storage.list("u", MemoryFilter(tags=("new",)))] == [r.id]
        storage.write("u", WriteBatch(updates=[r.model_copy(update={"tags": []})]))
        assert storage.count("u", MemoryFilter(tags=("new", "team"))) == 0
        storage.write("u", WriteBatch(updates=[r.model_copy(update={"tags": ["team"]})]))
        storage.delete("u", [r.id], reason="test")
        # the same id again, untagged (an import restoring it): a tag row left by the delete would match it
        storage.write("u", WriteBatch(inserts=[r.model_copy(update={"tags": []})]))
        assert storage.list("u", MemoryFilter(tags=("team",))) == []

    def test_tag_filter_never_widens_scope(self, storage: Storage) -> None:
        mine = _rec("u", "my secret project plan", "fact.plan", tags=["shared-tag"])
        theirs = _rec("v", "their secret project plan", "fact.plan", tags=["shared-tag"])
        vec = _unit(np.arange(1, _DIM + 1, dtype=np.float32))
        storage.write("u", WriteBatch(inserts=[mine], vectors={mine.id: vec}))
        storage.write("v", WriteBatch(inserts=[theirs], vectors={theirs.id: vec}))
        flt = MemoryFilter(tags=("shared-tag",))
        assert [r.id for r in storage.list("u", flt)] == [mine.id]
        assert storage.count("v", flt) == 1
        if storage.capabilities.full_text:
            assert _ids(storage.search_text("u", TextQuery("secret project", filter=flt))) == [mine.id]
        if storage.capabilities.vector_search:
            assert _ids(storage.search_vector("u", VectorQuery(vec, filter=flt))) == [mine.id]
        storage.delete("u", [theirs.id, mine.id], reason="test")  # theirs is not u's to delete
        assert [r.id for r in storage.list("v", flt)] == [theirs.id]
        assert storage.list("u", flt) == []

    def test_bulk_load_keeps_tags(self, storage: Storage) -> None:
        if not storage.capabilities.bulk_load:
            pytest.skip("adapter declares no bulk load")
        recs = [_rec("u", f"imported note {i}", f"fact.imp{i}", tags=["import"] if i % 3 == 0 else [], minutes=i)
                for i in range(30)]
        cast(BulkLoadStorage, storage).write_bulk("u", WriteBatch(inserts=recs))
        want: list[Any] = [r.id for r in recs if r.tags]
        assert [r.id for r in storage.list("u", MemoryFilter(tags=("import",)))] == want
