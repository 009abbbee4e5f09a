"""Schema v10 rewrites stored metadata into the typed form of ``_meta.MemoryMeta``: a v9 store (SQLite file or
PostgreSQL schema) holding legacy values opens, its readable values come back canonical, an unreadable end stays as
stored (and is reported, and never expires anything), unknown keys and every other row keep their bytes."""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from _shared import in_transaction, sqlite_at_version, sqlite_schema
from sqlalchemy import text

from goodmemory import create_good_memory
from goodmemory.models import MemoryKind, MemoryStatus
from goodmemory.storage import _schema as S
from goodmemory.testing import FakeEmbedder, FrozenClock

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
# stored before v10: a day for a moment, a naive moment, an unreadable end, a caller's own key
LEGACY = [{"expires_at": "2025-02-01", "crm": {"id": [1, "x"], "at": "2020-01-01"}},
          {"expires_at": "2025-02-01T12:00:00"},
          {"expires_at": "soon", "seq": "3"}]
CANONICAL = [{"expires_at": "2025-02-01T00:00:00+00:00", "crm": {"id": [1, "x"], "at": "2020-01-01"}},
             {"expires_at": "2025-02-01T12:00:00+00:00"},
             {"expires_at": "soon", "seq": "3"}]


def _open(url: Any) -> Any:
    return create_good_memory(url, embedder=FakeEmbedder(), clock=FrozenClock(T0))


def _fill(mem: Any) -> None:
    for i, line in enumerate(["I live in Lisbon.", "My Honda Civic plate is ABC-1234.", "I prefer a window seat.",
                              "My dentist appointment is on 12 March."]):
        mem.remember([{"role": "user", "content": line}], user_id="u1", session_id=f"s{i}")
    mem.remember([{"role": "user", "content": "I live in Oslo."}], user_id="u2", session_id="s9")


def _rows(conn: Any) -> dict[str, str]:
    return dict(conn.execute(text("SELECT id, data FROM gm_memories ORDER BY id")).all())


def _make_v9_with_legacy_metadata(conn: Any) -> tuple[list[str], dict[str, str]]:
    """What a v9 store with those values is: v10 adds no table, column or index, only rewrites ``data``; v11
    adds one index."""
    conn.execute(text("DROP INDEX gm_mem_user_kind_domain"))
    rows = _rows(conn)
    facts = sorted(mid for mid, data in rows.items()
                   if json.loads(data)["kind"] != MemoryKind.EPISODE and json.loads(data)["user_id"] == "u1")
    assert len(facts) >= len(LEGACY)
    picked = facts[: len(LEGACY)]
    for mid, extra in zip(picked, LEGACY, strict=True):
        rec = json.loads(rows[mid])
        rec["metadata"] = {**rec["metadata"], **extra}
        conn.execute(text("UPDATE gm_memories SET data = :d WHERE id = :i"), {"d": json.dumps(rec), "i": mid})
    conn.execute(text("UPDATE gm_meta SET value = '9' WHERE name = 'schema_version'"))
    return picked, _rows(conn)


def _check_migrated(conn: Any, picked: list[str], before: dict[str, str], caplog: pytest.LogCaptureFixture) -> None:
    after = _rows(conn)
    assert set(after) == set(before)
    for mid, old, new in zip(picked, LEGACY, CANONICAL, strict=True):
        md = json.loads(after[mid])["metadata"]
        assert {k: md[k] for k in new} == new
        assert {k: v for k, v in md.items() if k not in new} == \
            {k: v for k, v in json.loads(before[mid])["metadata"].items() if k not in old}
    assert after[picked[2]] == before[picked[2]]  # nothing readable to rewrite: the row keeps its bytes
    assert all(after[m] == before[m] for m in set(before) - set(picked))  # rows already canonical are not touched
    warned = [r.getMessage() for r in caplog.records if r.name == "goodmemory.storage"]
    assert len(warned) == 1 and f"{picked[2]} (expires_at, seq)" in warned[0]
    assert picked[0] not in warned[0]


def _check_expiry(mem: Any, picked: list[str]) -> None:
    report = mem.maintain(user_id="u1")
    assert report.expired == 2
    assert report.details == [f"{picked[2]}: expires_at 'soon' is not an ISO 8601 moment; kept, not expired"]
    status = {r.id: r.status for r in mem.list(user_id="u1", include_history=True)}
    assert [status[m] for m in picked] == [MemoryStatus.EXPIRED, MemoryStatus.EXPIRED, MemoryStatus.ACTIVE]


def test_a_v9_sqlite_file_migrates_its_metadata_to_the_typed_form(tmp_path: Path,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    fresh9 = sqlite_at_version(tmp_path / "fresh9.db", 9)
    db = tmp_path / "gm.db"
    with _open(f"sqlite:///{db}") as mem:
        _fill(mem)
    picked, before = in_transaction(f"sqlite:///{db}", _make_v9_with_legacy_metadata)
    assert sqlite_schema(db) == sqlite_schema(fresh9)

    caplog.set_level(logging.WARNING, logger="goodmemory.storage")
    with _open(f"sqlite:///{db}") as mem:
        with mem.storage.engine.connect() as conn:
            assert S.current_version(conn) == S.SCHEMA_VERSION == 11
            _check_migrated(conn, picked, before, caplog)
        _check_expiry(mem, picked)


def test_a_v9_postgres_schema_migrates_its_metadata_to_the_typed_form(pg_schema: str,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    from goodmemory.storage.postgres import PostgresStorage

    url = str(os.environ["GOODMEMORY_TEST_POSTGRES_URL"])
    store = PostgresStorage(url, schema=pg_schema)
    with _open(store) as mem:
        _fill(mem)
    store.close()
    picked, before = in_transaction(url, _make_v9_with_legacy_metadata, schema=pg_schema)
    caplog.set_level(logging.WARNING, logger="goodmemory.storage")
    store = PostgresStorage(url, schema=pg_schema)
    with _open(store) as mem:

        def migrated(conn: Any) -> None:
            assert S.current_version(conn) == 11
            _check_migrated(conn, picked, before, caplog)

        in_transaction(url, migrated, schema=pg_schema)
        _check_expiry(mem, picked)
    store.close()
