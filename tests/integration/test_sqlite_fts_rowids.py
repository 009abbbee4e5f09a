"""SQLite keeps each full-text row at the rowid its memory id hashes to (schema v7): a store written before is
renumbered on open, and search, update and delete find the rows after it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import create_engine, insert, text

from goodmemory.storage import _schema as S
from goodmemory.storage._common import memory_row
from goodmemory.storage.base import TextQuery, WriteBatch
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing.conformance import make_record


def _fts(db: Path) -> list[tuple[int, str]]:
    conn = sqlite3.connect(db)
    try:
        return sorted(conn.execute("SELECT rowid, memory_id FROM gm_fts").fetchall())
    finally:
        conn.close()


def test_a_v6_store_is_renumbered_and_its_rows_found_by_id(tmp_path: Path) -> None:
    db = tmp_path / "v6.db"
    recs = [make_record("u", f"Alice keeps bees number {i} in Porto", key=f"hobby.bees{i}", minutes=i)
            for i in range(1200)]  # more than one renumbering chunk
    other = make_record("v", "Bob keeps bees in Braga", key="hobby.bees")
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        S.migrate(conn, "fts5", target=6)
        for r in [*recs, other]:
            conn.execute(insert(S.memories), memory_row(r))
            conn.execute(text("INSERT INTO gm_fts(memory_id, user_id, body) VALUES (:m, :u, :b)"),
                         {"m": r.id, "u": r.user_id, "b": r.text})
    engine.dispose()
    assert [rowid for rowid, _ in _fts(db)] == list(range(1, 1202))  # what v6 wrote: rowids in insert order

    s = SQLStorage(f"sqlite:///{db}")
    try:
        assert sorted(_fts(db)) == sorted((S.fts_rowid(r.id), r.id) for r in [*recs, other])
        assert {m for m, _ in s.search_text("u", TextQuery("bees", limit=2000))} == {r.id for r in recs}
        changed = recs[0].model_copy(update={"text": "Alice keeps wasps in Porto"})
        s.write("u", WriteBatch(updates=[changed]))
        assert [m for m, _ in s.search_text("u", TextQuery("wasps"))] == [recs[0].id]
        counts = s.delete("u", [recs[1].id, recs[2].id, other.id], reason="test")  # v's id is not u's to delete
        assert (counts.rows, counts.full_text) == (2, 2)
        left = {m for _, m in _fts(db)}
        assert recs[1].id not in left and recs[2].id not in left and other.id in left and recs[0].id in left
        assert [m for m, _ in s.search_text("v", TextQuery("bees"))] == [other.id]
    finally:
        s.close()
    with create_engine(f"sqlite:///{db}").connect() as conn:
        assert S.current_version(conn) == S.SCHEMA_VERSION >= 7  # renumbered by v7, then every later step


def test_a_record_updated_twice_in_one_batch_keeps_one_entry_with_its_last_text(tmp_path: Path) -> None:
    db = tmp_path / "twice.db"
    s = SQLStorage(f"sqlite:///{db}")
    try:
        rec = make_record("u", "Alice keeps bees in Porto", key="hobby.insects")
        s.write("u", WriteBatch(inserts=[rec]))
        first = rec.model_copy(update={"text": "Alice keeps wasps in Porto"})
        last = rec.model_copy(update={"text": "Alice keeps ants in Porto"})
        s.write("u", WriteBatch(updates=[first, last]))
        assert _fts(db) == [(S.fts_rowid(rec.id), rec.id)]
        assert [m for m, _ in s.search_text("u", TextQuery("ants"))] == [rec.id]
        assert s.search_text("u", TextQuery("wasps")) == [] and s.search_text("u", TextQuery("bees")) == []
    finally:
        s.close()
