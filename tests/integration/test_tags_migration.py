"""Schema v9 adds ``gm_memory_tags``: a v8 store (SQLite file or PostgreSQL schema) opens, migrates forward and
keeps every record, vector, full-text entry and event; tags work on it afterwards."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from _shared import in_transaction, open_scripted, sqlite_at_version, sqlite_schema
from sqlalchemy import text

from goodmemory.storage import _schema as S


def _sqlite_tables(db: Path) -> set[str]:
    return {name for kind, name, _sql in sqlite_schema(db) if kind in ("table", "index")}


def _fill(mem: Any) -> dict[str, Any]:
    for i, line in enumerate(["I live in Lisbon.", "My Honda Civic plate is ABC-1234.", "I moved to Porto."]):
        mem.remember([{"role": "user", "content": line}], user_id="u1", session_id=f"s{i}")
    mem.remember([{"role": "user", "content": "I prefer a window seat."}], user_id="u2", session_id="s9")
    return {u: mem.export(user_id=u).model_dump(mode="json", exclude={"exported_at"}) for u in ("u1", "u2")}


def _check_after(mem: Any, before: dict[str, Any]) -> None:
    after = {u: mem.export(user_id=u).model_dump(mode="json", exclude={"exported_at"}) for u in ("u1", "u2")}
    assert after == before
    assert mem.recall("Porto", user_id="u1").hits[0].memory.value == "Porto"
    res = mem.remember([{"role": "user", "content": "Keep answers short please."}], user_id="u1", tags=["new"])
    assert {r.id for r in mem.list(user_id="u1", tags=["new"])} == {r.id for r in res.memories}


def _downgrade_to_v8(conn: Any) -> None:
    """What a v8 store is: v9 minus the tag table (v9 adds nothing else, v10 no table or index), minus v11's index."""
    conn.execute(text("DROP TABLE gm_memory_tags"))
    conn.execute(text("DROP INDEX gm_mem_user_kind_domain"))
    conn.execute(text("UPDATE gm_meta SET value = '8' WHERE name = 'schema_version'"))


def test_a_v8_sqlite_file_migrates_with_nothing_lost(tmp_path: Path) -> None:
    fresh8 = sqlite_at_version(tmp_path / "fresh8.db", 8)
    assert "gm_memory_tags" not in _sqlite_tables(fresh8)  # v1's create_all leaves v9's table to v9

    db = tmp_path / "gm.db"
    with open_scripted(f"sqlite:///{db}") as mem:
        before = _fill(mem)
    in_transaction(f"sqlite:///{db}", _downgrade_to_v8)
    assert _sqlite_tables(db) == _sqlite_tables(fresh8)

    with open_scripted(f"sqlite:///{db}") as mem:
        with mem.storage.engine.connect() as conn:
            assert S.current_version(conn) == S.SCHEMA_VERSION
        _check_after(mem, before)
    assert {"gm_memory_tags", "gm_tags_mem"} <= _sqlite_tables(db)


def test_a_v8_postgres_schema_migrates_with_nothing_lost(pg_schema: str) -> None:
    from goodmemory.storage.postgres import PostgresStorage

    url = str(os.environ["GOODMEMORY_TEST_POSTGRES_URL"])
    store = PostgresStorage(url, schema=pg_schema)
    with open_scripted(store) as mem:
        before = _fill(mem)
    store.close()
    in_transaction(url, _downgrade_to_v8, schema=pg_schema)
    store = PostgresStorage(url, schema=pg_schema)
    with open_scripted(store) as mem:
        _check_after(mem, before)
    store.close()
    assert in_transaction(url, S.current_version, schema=pg_schema) == S.SCHEMA_VERSION
    assert in_transaction(url, lambda conn: conn.execute(text("SELECT count(*) FROM gm_memory_tags")).scalar(),
                          schema=pg_schema) > 0
