"""The storage conformance suite's records and vectors, and its tests of ``write_bulk``.

``BulkLoadConformance`` holds the tests of ``write_bulk`` alone (``StorageConformance`` includes
them), for adapters with more than one bulk strategy to run each.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, cast

import numpy as np
import pytest

from ..errors import DimensionMismatchError, GoodMemoryError, InvalidInputError, StorageError
from ..models import MemoryKind, MemoryRecord, MemorySource, MemoryStatus
from ..storage.base import (
    BulkLoadStorage,
    MemoryEvent,
    MemoryFilter,
    Storage,
    TextQuery,
    VectorQuery,
    WriteBatch,
)

__all__ = ["DIM", "T0", "BulkLoadConformance", "make_record", "vec"]

T0 = datetime(2025, 1, 1, tzinfo=UTC)
DIM = 16


def make_record(user_id: str, text: str, *, key: str | None = None, kind: MemoryKind = MemoryKind.FACT,
                domain: str | None = None, transferable: bool = False, status: MemoryStatus = MemoryStatus.ACTIVE,
                session_id: str = "s1", minutes: int = 0, **kw: Any) -> MemoryRecord:
    return MemoryRecord(
        user_id=user_id, kind=kind, key=key or f"fact.{abs(hash(text)) % 10**8}", value=text.split()[-1],
        text=text, domain=domain, transferable=transferable, status=status,
        source=MemorySource(session_id=session_id, message_ids=[f"{session_id}:{minutes}"]),
        created_at=T0 + timedelta(minutes=minutes), updated_at=T0 + timedelta(minutes=minutes), **kw,
    )


def vec(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def _bulk_batch(user_id: str, n: int = 120, *, first: int = 0) -> WriteBatch:
    """New records of every shape the write path produces, with vectors and one event each."""
    kinds = [MemoryKind.FACT, MemoryKind.PROFILE, MemoryKind.PREFERENCE, MemoryKind.EPISODE]
    recs = []
    for i in range(first, first + n):
        kind = kinds[i % 4]
        recs.append(make_record(
            user_id, f"bulk note {i} about topic{i % 7} and zebra{i}", key=f"{kind.value}.bulk_n{i}", kind=kind,
            domain=["travel", "cooking", None][i % 3], transferable=i % 5 == 0, minutes=i,
            status=MemoryStatus.SUPERSEDED if i % 11 == 0 else MemoryStatus.ACTIVE, session_id=f"s{i % 4}",
            keywords=f"extra{i}", metadata={"i": i}))
    return WriteBatch(inserts=recs, vectors={r.id: vec(10_000 + i) for i, r in enumerate(recs, first)},
                      events=[MemoryEvent(r.id, "import", T0, {"n": i}) for i, r in enumerate(recs, first)])


class BulkLoadConformance:
    """``write_bulk``: the same result as ``write``, all or nothing. Skipped unless ``bulk_load``."""

    @staticmethod
    def _bulk(storage: Storage) -> BulkLoadStorage:
        if not storage.capabilities.bulk_load:
            pytest.skip("adapter declares no bulk load")
        return cast(BulkLoadStorage, storage)

    @staticmethod
    def _nothing_of(storage: Storage, user_id: str, batch: WriteBatch, before: int) -> None:
        assert storage.count(user_id) == before
        ids = {r.id for r in batch.inserts}
        assert not [r for r in storage.list(user_id) if r.id in ids]
        every = MemoryFilter(statuses=None)
        assert not ids & {m for m, _ in storage.search_text(user_id, TextQuery(batch.inserts[-1].text, filter=every))}
        for r in batch.inserts[:: max(1, len(batch.inserts) // 5)]:
            assert storage.events(user_id, r.id) == []
            assert r.id not in {m for m, _ in storage.search_vector(
                user_id, VectorQuery(batch.vectors[r.id], limit=5, filter=every))}

    def test_bulk_load_matches_write(self, storage: Storage) -> None:
        bulk = self._bulk(storage)
        plain, loaded = _bulk_batch("plain"), _bulk_batch("bulk")
        storage.write("plain", plain)
        bulk.write_bulk("bulk", loaded)
        assert storage.dim == DIM

        def same(records: list[MemoryRecord]) -> list[dict[str, Any]]:
            return [r.model_dump(exclude={"id", "user_id"}) for r in records]

        every = MemoryFilter(statuses=None)
        assert same(storage.list("bulk", every)) == same(storage.list("plain", every))
        for r in loaded.inserts[:10]:
            got = storage.get("bulk", r.id)
            assert got is not None and got.model_dump() == r.model_dump()
        for flt in (MemoryFilter(), MemoryFilter(visible_in_domain="travel"), MemoryFilter(kinds=(MemoryKind.PROFILE,))):
            assert storage.count("bulk", flt) == storage.count("plain", flt) > 0
        pos = {u: {r.id: i for i, r in enumerate(b.inserts)} for u, b in (("plain", plain), ("bulk", loaded))}
        for q in ("zebra17", "topic3 note", "extra42"):
            # ties are ordered by id, which differs between the twins: compare as sorted lists
            found = {u: sorted((pos[u][m], round(s, 4)) for m, s in storage.search_text(u, TextQuery(q, limit=200)))
                     for u in pos}
            assert found["bulk"] == found["plain"] and found["bulk"], q
        for i in (1, 2, 50, 119):
            hits = storage.search_vector("bulk", VectorQuery(vec(10_000 + i), limit=5))
            assert hits[0][0] == loaded.inserts[i].id and hits[0][1] == pytest.approx(1.0, abs=1e-3)
            if storage.capabilities.exact_vectors:
                twin = storage.search_vector("plain", VectorQuery(vec(10_000 + i), limit=5))
                assert [pos["bulk"][m] for m, _ in hits] == [pos["plain"][m] for m, _ in twin]
        for i, r in enumerate(loaded.inserts[:5]):
            assert [(e.action, e.detail) for e in storage.events("bulk", r.id)] == [("import", {"n": i})]
        assert storage.user_ids() == ["bulk", "plain"]

    def test_bulk_load_failing_mid_load_leaves_nothing(self, storage: Storage) -> None:
        bulk = self._bulk(storage)
        held = make_record("u", "home is Lisbon", key="profile.home_city", kind=MemoryKind.PROFILE, transferable=True)
        storage.write("u", WriteBatch(inserts=[held], vectors={held.id: vec(1)}))
        # the middle record takes an active slot that is already held: the database refuses it
        batch = _bulk_batch("u", 400)
        batch.inserts[200] = make_record("u", "home is Porto", key="profile.home_city", kind=MemoryKind.PROFILE,
                                         transferable=True, minutes=200)
        batch.vectors = {r.id: vec(20_000 + i) for i, r in enumerate(batch.inserts)}
        with pytest.raises(StorageError):
            bulk.write_bulk("u", batch)
        self._nothing_of(storage, "u", batch, 1)
        # the middle record reuses an existing id
        batch = _bulk_batch("u", 400, first=1000)
        batch.inserts[200] = held.model_copy(update={"key": "fact.other", "text": "duplicate id"})
        with pytest.raises(StorageError):
            bulk.write_bulk("u", batch)
        batch.inserts[200] = make_record("u", "placeholder")
        self._nothing_of(storage, "u", batch, 1)
        # two records of the batch take one active slot
        batch = _bulk_batch("u", 300, first=2000)
        batch.inserts[299] = batch.inserts[299].model_copy(update={"key": batch.inserts[1].key, "status":
                                                                   batch.inserts[1].status, "domain":
                                                                   batch.inserts[1].domain, "kind":
                                                                   batch.inserts[1].kind, "transferable":
                                                                   batch.inserts[1].transferable})
        with pytest.raises(StorageError):
            bulk.write_bulk("u", batch)
        self._nothing_of(storage, "u", batch, 1)
        got = storage.get("u", held.id)
        assert got is not None and got.text == "home is Lisbon"
        assert [m for m, _ in storage.search_vector("u", VectorQuery(vec(1), limit=1))] == [held.id]

    def test_bulk_load_refuses_what_write_refuses(self, storage: Storage) -> None:
        bulk = self._bulk(storage)
        storage.write("u", WriteBatch(inserts=[make_record("u", "first")], vectors={}))
        base = _bulk_batch("u", 20)
        cases: list[tuple[WriteBatch, type[Exception]]] = [
            (WriteBatch(inserts=base.inserts, updates=[make_record("u", "an update")]), InvalidInputError),
            (WriteBatch(inserts=[*base.inserts, make_record("other", "not yours")]), GoodMemoryError),
            (WriteBatch(inserts=base.inserts, vectors={**base.vectors, "no-such-memory": vec(3)}), StorageError),
            (WriteBatch(inserts=base.inserts, vectors={**base.vectors, base.inserts[7].id:
                                                       np.full(DIM, np.nan, dtype=np.float32)}), InvalidInputError),
            (WriteBatch(inserts=base.inserts, vectors={**base.vectors, base.inserts[7].id:
                                                       np.ones(DIM + 2, dtype=np.float32)}), DimensionMismatchError),
        ]
        for batch, error in cases:
            with pytest.raises(error):
                bulk.write_bulk("u", batch)
            self._nothing_of(storage, "u", base, 1)
        assert storage.count("other") == 0
        bulk.write_bulk("u", WriteBatch())  # nothing to do

    def test_bulk_loaded_slots_stay_unique(self, storage: Storage) -> None:
        bulk = self._bulk(storage)
        a = make_record("u", "home is Lisbon", key="profile.home_city", kind=MemoryKind.PROFILE, transferable=True)
        bulk.write_bulk("u", WriteBatch(inserts=[a], vectors={a.id: vec(1)}))
        b = make_record("u", "home is Porto", key="profile.home_city", kind=MemoryKind.PROFILE, transferable=True,
                        minutes=1)
        if storage.capabilities.enforces_unique_active_slot:
            with pytest.raises(StorageError):
                storage.write("u", WriteBatch(inserts=[b]))
        a2 = a.model_copy(update={"status": MemoryStatus.SUPERSEDED, "superseded_by": b.id})
        storage.write("u", WriteBatch(inserts=[b], updates=[a2], vectors={b.id: vec(2)}))
        assert [r.text for r in storage.list("u", MemoryFilter())] == ["home is Porto"]
        assert storage.search_vector("u", VectorQuery(vec(2), limit=1))[0][0] == b.id
