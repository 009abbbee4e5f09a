"""Schema v11 adds one index, memories by (user, kind, domain, status, created_at, id): a v10 store (SQLite file or
PostgreSQL schema) opens, migrates forward, keeps every record, and its lists answer as before."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from conftest import SCRIPT, T0  # the scripted life the facade tests use
from goodmemory import create_good_memory
from goodmemory.models import MemoryKind
from goodmemory.storage import _schema as S
from goodmemory.storage.base import MemoryFilter
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor

INDEX = "gm_mem_user_kind_domain"
LINES = ["I live in Lisbon.", "My Honda Civic plate is ABC-1234.", "I moved to Porto.", "I prefer a window seat."]


def _open(url: Any) -> Any:
    return create_good_memory(url, embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT), clock=FrozenClock(T0))


def _fill(mem: Any) -> None:
    for i, line in enumerate(LINES):
        mem.remember([{"role": "user", "content": line}, {"role": "assistant", "content": f"Noted ({i})."}],
                     user_id="u1", session_id=f"s{i}", domain=("travel", "home")[i % 2])
    mem.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u2", session_id="s9", domain="travel")


def _state(mem: Any) -> dict[str, Any]:
    """Everything a user holds, and the domain lists the restatement search reads."""
    out: dict[str, Any] = {u: mem.export(user_id=u).model_dump(mode="json", exclude={"exported_at"}) for u in ("u1", "u2")}
    for d in ("travel", "home"):
        flt = MemoryFilter(kinds=(MemoryKind.EPISODE,), domain=d, newest_first=True)
        out[d] = [r.id for r in mem.storage.list("u1", flt, limit=400)]
    return out


def _downgrade_to_v10(conn: Any) -> None:
    """What a v10 store is: v11 minus its index (v11 adds nothing else)."""
    conn.execute(text(f"DROP INDEX {INDEX}"))
    conn.execute(text("UPDATE gm_meta SET value = '10' WHERE name = 'schema_version'"))


def _sqlite_schema(db: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
                            "ORDER BY name").fetchall()
    finally:
        conn.close()


def test_a_v10_sqlite_file_migrates_to_v11_with_nothing_lost(tmp_path: Path) -> None:
    fresh10 = tmp_path / "fresh10.db"
    engine = create_engine(f"sqlite:///{fresh10}")
    with engine.begin() as conn:
        S.migrate(conn, "fts5", target=10)
    engine.dispose()
    assert INDEX not in {name for _t, name, _s in _sqlite_schema(fresh10)}

    db = tmp_path / "gm.db"
    with _open(f"sqlite:///{db}") as mem:
        _fill(mem)
        before = _state(mem)
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        _downgrade_to_v10(conn)
    engine.dispose()
    assert _sqlite_schema(db) == _sqlite_schema(fresh10)  # a real v10 file, table for table, index for index

    with _open(f"sqlite:///{db}") as mem:
        with mem.storage.engine.connect() as conn:
            assert S.current_version(conn) == S.SCHEMA_VERSION == 11
        assert _state(mem) == before
        assert before["travel"] and before["home"]
    assert INDEX in {name for _t, name, _s in _sqlite_schema(db)}


def test_a_v10_postgres_schema_migrates_to_v11_with_nothing_lost(pg_schema: str) -> None:
    from goodmemory.storage.postgres import PostgresStorage

    url = str(os.environ["GOODMEMORY_TEST_POSTGRES_URL"])
    store = PostgresStorage(url, schema=pg_schema)
    with _open(store) as mem:
        _fill(mem)
        before = _state(mem)
    store.close()
    engine = create_engine(url)

    def indexes() -> set[str]:
        with engine.begin() as conn:
            return {r[0] for r in conn.execute(text("SELECT indexname FROM pg_indexes WHERE schemaname = :s"),
                                               {"s": pg_schema})}

    with engine.begin() as conn:
        conn.execute(text(f'SET LOCAL search_path TO "{pg_schema}"'))
        _downgrade_to_v10(conn)
    assert INDEX not in indexes()
    store = PostgresStorage(url, schema=pg_schema)
    with _open(store) as mem:
        assert _state(mem) == before
    store.close()
    with engine.begin() as conn:
        conn.execute(text(f'SET LOCAL search_path TO "{pg_schema}"'))
        assert conn.execute(text("SELECT value FROM gm_meta WHERE name = 'schema_version'")).scalar() == "11"
    assert INDEX in indexes()
    engine.dispose()
