"""The bulk path: ``GoodMemory.import_`` uses ``write_bulk`` where the store declares it, and on
PostgreSQL the index-rebuilding strategy keeps every guarantee of the row-by-row one.

The behaviour shared by every adapter (same rows as ``write``, all or nothing) is in
``goodmemory.testing.conformance.BulkLoadConformance``, run by test_storage_conformance.py;
here it runs once more on PostgreSQL with the rebuild forced for every load.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sqlalchemy import text

from goodmemory import create_good_memory
from goodmemory.errors import StorageError
from goodmemory.models import MemoryKind
from goodmemory.storage.base import MemoryFilter, TextQuery, VectorQuery, WriteBatch
from goodmemory.storage.memory import InMemoryStorage
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing import FakeEmbedder, NullExtractor
from goodmemory.testing.conformance import BulkLoadConformance, make_record

PG_URL = os.environ.get("GOODMEMORY_TEST_POSTGRES_URL")


def _vec(seed: int, dim: int = 16) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def _batch(user: str, n: int, first: int = 0) -> WriteBatch:
    recs = [make_record(user, f"bulk fact {i} about kiwi{i}", key=f"fact.k{i}", minutes=i) for i in range(first, first + n)]
    return WriteBatch(inserts=recs, vectors={r.id: _vec(i) for i, r in enumerate(recs, first)})


# -- the facade ----------------------------------------------------------------------------------
class _CountingSQLite(SQLStorage):
    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.calls: list[tuple[str, int]] = []

    def write(self, user_id: str, batch: WriteBatch) -> None:
        self.calls.append(("write", len(batch.inserts)))
        super().write(user_id, batch)

    def write_bulk(self, user_id: str, batch: WriteBatch) -> None:
        self.calls.append(("write_bulk", len(batch.inserts)))
        super().write_bulk(user_id, batch)


def _life(mem: Any) -> None:
    for i, line in enumerate(["I live in Lisbon.", "My dog is called Bolt.", "I prefer window seats."]):
        mem.remember([{"role": "user", "content": line}], user_id="u1", session_id=f"s{i}")


def test_import_uses_the_bulk_path_when_declared(tmp_path: Path) -> None:
    storage = _CountingSQLite(f"sqlite:///{tmp_path / 'gm.db'}")
    with create_good_memory(storage, embedder=FakeEmbedder(), extractor=NullExtractor()) as mem:
        _life(mem)
        exp = mem.export(user_id="u1")
        storage.calls.clear()
        res = mem.import_(exp, user_id="u2")
        assert storage.calls == [("write_bulk", len(exp.memories))]
        assert len(res.memories) == len(exp.memories)
        texts = sorted(r.text for r in mem.export(user_id="u2").memories)
        assert texts == sorted(r.text for r in exp.memories)
        hit = mem.recall("where does the user live", user_id="u2").hits
        assert hit and any("Lisbon" in h.memory.text for h in hit)
        copied = mem.export(user_id="u2").memories[0]
        assert [e.action for e in storage.events("u2", copied.id)] == ["import"]
        assert mem.import_(exp, user_id="u2").memories == []  # idempotent
        assert storage.calls == [("write_bulk", len(exp.memories))]
    storage.close()


def test_import_without_a_bulk_path_writes_one_batch() -> None:
    storage = InMemoryStorage()
    assert not storage.capabilities.bulk_load
    with create_good_memory(storage, embedder=FakeEmbedder(), extractor=NullExtractor()) as mem:
        _life(mem)
        exp = mem.export(user_id="u1")
        assert len(mem.import_(exp, user_id="u2").memories) == len(exp.memories)
        assert storage.count("u2") == len(exp.memories)


def test_a_failed_import_writes_nothing(tmp_path: Path) -> None:
    with create_good_memory(f"sqlite:///{tmp_path / 'gm.db'}", embedder=FakeEmbedder()) as mem:
        _life(mem)  # the rule extractor keeps the home city as a profile slot
        exp = mem.export(user_id="u1")
        # an export whose last record takes an active slot twice: the database refuses the whole load
        twin = next(r for r in exp.memories if r.kind != MemoryKind.EPISODE).model_copy(
            update={"id": "f" * 32, "text": "a conflicting twin"})
        bad = exp.model_copy(update={"memories": [*exp.memories, twin]})
        with pytest.raises(StorageError):
            mem.import_(bad, user_id="u3")
        assert mem.export(user_id="u3").memories == []


# -- PostgreSQL ---------------------------------------------------------------------------------
def _pg(schema: str, **kw: Any) -> Any:
    from goodmemory.storage.postgres import PostgresStorage

    return PostgresStorage(str(PG_URL), schema=schema, **kw)


@pytest.mark.postgres
class TestPostgresBulkWithIndexRebuild(BulkLoadConformance):
    """Every bulk load drops and rebuilds its partition's HNSW index: still the same result, and a
    failure leaves the index as it was."""

    @pytest.fixture
    def storage(self, pg_schema: str) -> Iterator[Any]:
        s = _pg(pg_schema, bulk_reindex_min_rows=1, bulk_reindex_fraction=0.0)
        yield s
        s.close()


def _indexes(storage: Any) -> dict[str, tuple[int, str]]:
    with storage.engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT c.relname, c.oid, pg_get_indexdef(c.oid) FROM pg_class c JOIN pg_namespace n ON "
            "n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relname LIKE 'gm_vec_hnsw_p%'")).all()
    return {r[0]: (int(r[1]), r[2]) for r in rows}


@pytest.mark.postgres
def test_postgres_rebuilds_only_when_the_load_is_large_for_its_partition(pg_schema: str) -> None:
    storage = _pg(pg_schema, bulk_reindex_min_rows=50, bulk_reindex_fraction=0.5)
    try:
        storage.write("u", WriteBatch(inserts=[make_record("u", "seed")], vectors={}))
        storage.write_bulk("u", _batch("u", 100))  # the first vectors: the empty partition is rebuilt
        plan = storage.last_bulk
        assert plan.rebuilt_index and plan.partition and plan.vectors == 100
        before = _indexes(storage)
        storage.write_bulk("u", _batch("u", 60, first=100))  # 60 < 0.5 * 160: inserted into the index
        assert not storage.last_bulk.rebuilt_index and _indexes(storage) == before
        storage.write_bulk("u", _batch("u", 30, first=160))  # below the minimum
        assert not storage.last_bulk.rebuilt_index and _indexes(storage) == before
        storage.write_bulk("u", _batch("u", 200, first=190))  # 200 >= 0.5 * 390: rebuilt
        after = _indexes(storage)
        part_index = "gm_vec_hnsw_" + storage.last_bulk.partition.rsplit("_", 1)[-1]
        assert storage.last_bulk.rebuilt_index and after[part_index][0] != before[part_index][0]
        assert after[part_index][1] == before[part_index][1]  # same definition (m, ef_construction)
        # the other partitions' indexes were not touched
        assert {k: v for k, v in after.items() if k != part_index} == {
            k: v for k, v in before.items() if k != part_index}
        assert storage.count("u") == 391
        for i in (0, 150, 389):
            assert storage.search_vector("u", VectorQuery(_vec(i), limit=1))[0][1] == pytest.approx(1, abs=1e-3)
        assert [m for m, _ in storage.search_text("u", TextQuery("kiwi250"))] != []
    finally:
        storage.close()


@pytest.mark.postgres
def test_postgres_failed_rebuild_load_keeps_the_index(pg_schema: str) -> None:
    storage = _pg(pg_schema, bulk_reindex_min_rows=1, bulk_reindex_fraction=0.0)
    try:
        storage.write_bulk("u", _batch("u", 50))
        before = _indexes(storage)
        bad = _batch("u", 80, first=50)
        bad.inserts[79] = bad.inserts[79].model_copy(update={"key": "fact.k3"})  # slot 3 is already active
        with pytest.raises(StorageError, match="slot"):
            storage.write_bulk("u", bad)
        assert _indexes(storage) == before  # the DROP INDEX was rolled back with the rows
        assert storage.count("u") == 50
        with storage.engine.connect() as conn:
            valid = conn.execute(text(
                "SELECT bool_and(i.indisvalid AND i.indisready) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
                "AND c.relname LIKE 'gm_vec_hnsw_p%'")).scalar_one()
        assert valid
    finally:
        storage.close()


@pytest.mark.postgres
def test_postgres_import_round_trip_through_copy(pg_schema: str) -> None:
    with create_good_memory(f"{PG_URL}?schema={pg_schema}", embedder=FakeEmbedder(16),
                            extractor=NullExtractor()) as mem:
        _life(mem)
        exp = mem.export(user_id="u1")
        res = mem.import_(exp, user_id="u2")
        assert len(res.memories) == len(exp.memories) and mem.storage.last_bulk.rows == len(exp.memories)  # type: ignore[attr-defined]
        again = mem.export(user_id="u2").memories
        assert sorted(r.model_dump_json(exclude={"id", "user_id", "supersedes", "superseded_by", "conflicts_with"})
                      for r in again) == sorted(r.model_dump_json(exclude={"id", "user_id", "supersedes",
                                                                            "superseded_by", "conflicts_with"})
                                                for r in exp.memories)
        storage: Any = mem.storage
        assert storage.count("u2", MemoryFilter(statuses=None)) == len(exp.memories)
        assert [m for m, _ in storage.search_text("u2", TextQuery("Bolt"))] != []
        assert mem.forget(user_id="u2", all=True).deleted["vectors"] == len(exp.memories)


@pytest.mark.postgres
def test_postgres_concurrent_bulk_loads_writes_and_searches_finish(pg_schema: str) -> None:
    """Rebuilding bulk loads into one partition, another partition's load, and a writer and searcher
    on that first partition at once: all finish (no deadlock), nothing lost."""
    import threading

    from goodmemory.storage._pg_vectors import user_partition

    storage = _pg(pg_schema, bulk_reindex_min_rows=1, bulk_reindex_fraction=0.0, pool_size=6)
    try:
        storage.write("seed", _batch("seed", 1))
        with storage.engine.connect() as conn:
            part = {f"user{i}": user_partition(conn, f"user{i}") for i in range(64)}
        first = "user0"
        same = [u for u in part if u != first and part[u] == part[first]][:2]
        other = next(u for u in part if part[u] != part[first])
        assert len(same) == 2
        errors: list[BaseException] = []

        def guarded(fn: Any, *a: Any) -> None:
            try:
                fn(*a)
            except BaseException as exc:  # reported below
                errors.append(exc)

        def writer(user: str) -> None:
            for i in range(15):
                rec = make_record(user, f"written {i}", key=f"fact.w{i}", minutes=i)
                storage.write(user, WriteBatch(inserts=[rec], vectors={rec.id: _vec(500 + i)}))
                storage.search_vector(user, VectorQuery(_vec(500 + i), limit=3))

        threads = [threading.Thread(target=guarded, args=(storage.write_bulk, u, _batch(u, 400)))
                   for u in (first, same[0], other)]
        threads.append(threading.Thread(target=guarded, args=(writer, same[1])))
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert not any(t.is_alive() for t in threads) and errors == []
        assert [storage.count(u) for u in (first, same[0], other, same[1])] == [400, 400, 400, 15]
        for u in (first, same[0], other):
            assert storage.search_vector(u, VectorQuery(_vec(123), limit=1))[0][1] == pytest.approx(1, abs=1e-3)
    finally:
        storage.close()
