"""A list of one kind in one status, newest first, walks (user, kind, status, created_at) and stops at its
limit, on a store SQLite has no statistics for yet (a new file never closed): the restatement search of
every remember reads a domain's newest turns this way. Same records, same order, as the reference filter."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import event

from goodmemory.models import MemoryKind, MemoryStatus
from goodmemory.storage.base import MemoryFilter, WriteBatch
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing.conformance import make_record


def test_a_kinds_newest_records_walk_the_kind_index(tmp_path: Path) -> None:
    db = tmp_path / "plans.db"
    store = SQLStorage(f"sqlite:///{db}")
    records = [make_record("u", f"turn {i} about the {('ferry', 'garden', 'budget')[i % 3]}", key=f"episode.s:{i}",
                           kind=MemoryKind.EPISODE, domain=("travel", "home", "money")[i % 3], minutes=i,
                           status=MemoryStatus.SUPERSEDED if i % 7 == 0 else MemoryStatus.ACTIVE)
               for i in range(300)]
    records += [make_record("u", f"fact {i}", domain="travel", minutes=1000 + i) for i in range(40)]
    store.write("u", WriteBatch(inserts=records))
    seen: list[tuple[str, Any]] = []
    event.listen(store.engine, "before_cursor_execute", lambda *a: seen.append((a[2], a[3])))
    flt = MemoryFilter(kinds=(MemoryKind.EPISODE,), domain="travel", newest_first=True)
    got = store.list("u", flt, limit=25)
    store.close()

    want = sorted((r for r in records if flt.matches(r)), key=flt.sort_key(), reverse=True)[:25]
    assert [r.id for r in got] == [r.id for r in want]
    sql, params = next((s, p) for s, p in seen if s.lstrip().upper().startswith("SELECT"))
    raw = sqlite3.connect(db)
    if raw.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone():
        raw.execute("DELETE FROM sqlite_stat1")  # close() ran PRAGMA optimize: plan as a never-closed store does
    plan = " | ".join(row[3] for row in raw.execute("EXPLAIN QUERY PLAN " + sql, params))
    raw.close()
    assert "gm_mem_user_kind" in plan and "TEMP B-TREE FOR ORDER BY" not in plan, plan
