"""Schema v11 adds one index, memories by (user, kind, domain, status, created_at, id): a v10 store (SQLite file or
PostgreSQL schema) opens, migrates forward, keeps every record, and its lists answer as before."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from _shared import in_transaction, open_scripted, sqlite_at_version, sqlite_schema
from sqlalchemy import text

from goodmemory.models import MemoryKind
from goodmemory.storage import _schema as S
from goodmemory.storage.base import MemoryFilter

INDEX = "gm_mem_user_kind_domain"
LINES = ["I live in Lisbon.", "My Honda Civic plate is ABC-1234.", "I moved to Porto.", "I prefer a window seat."]


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


def test_a_v10_sqlite_file_migrates_to_v11_with_nothing_lost(tmp_path: Path) -> None:
    fresh10 = sqlite_at_version(tmp_path / "fresh10.db", 10)
    assert INDEX not in {name for _t, name, _s in sqlite_schema(fresh10)}

    db = tmp_path / "gm.db"
    with open_scripted(f"sqlite:///{db}") as mem:
        _fill(mem)
        before = _state(mem)
    in_transaction(f"sqlite:///{db}", _downgrade_to_v10)
    assert sqlite_schema(db) == sqlite_schema(fresh10)  # a real v10 file, table for table, index for index

    with open_scripted(f"sqlite:///{db}") as mem:
        with mem.storage.engine.connect() as conn:
            assert S.current_version(conn) == S.SCHEMA_VERSION == 11
        assert _state(mem) == before
        assert before["travel"] and before["home"]
    assert INDEX in {name for _t, name, _s in sqlite_schema(db)}


def test_a_v10_postgres_schema_migrates_to_v11_with_nothing_lost(pg_schema: str) -> None:
    from goodmemory.storage.postgres import PostgresStorage

    url = str(os.environ["GOODMEMORY_TEST_POSTGRES_URL"])
    store = PostgresStorage(url, schema=pg_schema)
    with open_scripted(store) as mem:
        _fill(mem)
        before = _state(mem)
    store.close()

    def indexes() -> set[str]:
        return in_transaction(url, lambda conn: {r[0] for r in conn.execute(
            text("SELECT indexname FROM pg_indexes WHERE schemaname = :s"), {"s": pg_schema})})

    in_transaction(url, _downgrade_to_v10, schema=pg_schema)
    assert INDEX not in indexes()
    store = PostgresStorage(url, schema=pg_schema)
    with open_scripted(store) as mem:
        assert _state(mem) == before
    store.close()
    assert in_transaction(url, S.current_version, schema=pg_schema) == 11
    assert INDEX in indexes()
