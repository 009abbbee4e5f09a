"""A list of one kind in one status, newest first, walks (user, kind, status, created_at) and stops at its
limit, on a store SQLite has no statistics for yet (a new file never closed): the restatement search of
every remember reads a domain's newest turns this way, on (user, kind, domain, status, created_at, id) (v11).
Lists by key or by session read those few rows through their own index, not a walk of every turn of the user.
Same records, same order, as the reference filter."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from goodmemory.models import MemoryKind, MemoryStatus
from goodmemory.storage.base import MemoryFilter, WriteBatch
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing.conformance import make_record


def _records() -> list[Any]:
    records = [make_record("u", f"turn {i} about the {('ferry', 'garden', 'budget')[i % 3]}", key=f"episode.s{i % 5}:{i}",
                           kind=MemoryKind.EPISODE, domain=("travel", "home", "money")[i % 3], minutes=i,
                           session_id=f"s{i % 5}",
                           status=MemoryStatus.SUPERSEDED if i % 7 == 0 else MemoryStatus.ACTIVE)
               for i in range(300)]
    return records + [make_record("u", f"fact {i}", domain="travel", minutes=1000 + i) for i in range(40)]


def _listed_with_plan(tmp_path: Path, flt: MemoryFilter, limit: int | None) -> tuple[list[str], list[str], str]:
    """The ids ``list`` answers, the reference filter's, and SQLite's plan for the statement it ran."""
    db = tmp_path / "plans.db"
    store = SQLStorage(f"sqlite:///{db}")
    records = _records()
    store.write("u", WriteBatch(inserts=records))
    seen: list[tuple[str, Any]] = []
    event.listen(store.engine, "before_cursor_execute", lambda *a: seen.append((a[2], a[3])))
    got = store.list("u", flt, limit=limit)
    store.close()

    want = sorted((r for r in records if flt.matches(r)), key=flt.sort_key(), reverse=flt.newest_first)[:limit]
    sql, params = next((s, p) for s, p in seen if s.lstrip().upper().startswith("SELECT"))
    raw = sqlite3.connect(db)
    if raw.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone():
        raw.execute("DELETE FROM sqlite_stat1")  # close() ran PRAGMA optimize: plan as a never-closed store does
    plan = " | ".join(row[3] for row in raw.execute("EXPLAIN QUERY PLAN " + sql, params))
    raw.close()
    return [r.id for r in got], [r.id for r in want], plan


def test_a_kinds_newest_records_walk_the_kind_index(tmp_path: Path) -> None:
    got, want, plan = _listed_with_plan(tmp_path, MemoryFilter(kinds=(MemoryKind.EPISODE,), newest_first=True), 25)
    assert got == want
    assert "INDEX gm_mem_user_kind " in plan and "TEMP B-TREE FOR ORDER BY" not in plan, plan


def test_a_domains_newest_turns_walk_the_domain_index(tmp_path: Path) -> None:
    flt = MemoryFilter(kinds=(MemoryKind.EPISODE,), domain="travel", newest_first=True)
    got, want, plan = _listed_with_plan(tmp_path, flt, 25)
    assert got == want
    assert "INDEX gm_mem_user_kind_domain " in plan and "TEMP B-TREE FOR ORDER BY" not in plan, plan


@pytest.mark.parametrize(("flt", "limit", "index"), [
    (MemoryFilter(kinds=(MemoryKind.EPISODE,), session_id="s2", newest_first=True), 400, "gm_mem_user_session"),
    (MemoryFilter(statuses=None, kinds=(MemoryKind.EPISODE,), session_id="s3"), None, "gm_mem_user_session"),
    (MemoryFilter(statuses=None, kinds=(MemoryKind.EPISODE,), keys=("episode.s1:6", "episode.s4:9", "episode.s0:0")),
     None, "gm_mem_user_key"),
    (MemoryFilter(statuses=None, key_prefix="episode.s1:"), None, "gm_mem_user_key"),
], ids=["session-newest", "session", "keys", "key-prefix"])
def test_a_few_rows_by_session_or_key_are_read_through_their_index(tmp_path: Path, flt: MemoryFilter,
                                                                   limit: int | None, index: str) -> None:
    got, want, plan = _listed_with_plan(tmp_path, flt, limit)
    assert got == want and got
    assert f"INDEX {index} " in plan, plan


def test_lists_by_key_and_prefix_of_one_shape_share_a_statement_and_answer_their_own_values(tmp_path: Path) -> None:
    store = SQLStorage(f"sqlite:///{tmp_path / 'bound.db'}")
    store.write("u", WriteBatch(inserts=_records()))
    seen: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *a: seen.append(a[2]))
    try:
        for keys, prefix in [(("episode.s1:6", "episode.s4:9"), "episode.s2:"), (("episode.s0:0", "episode.s3:13"),
                                                                                  "episode.s4:")]:
            requests = [(MemoryFilter(statuses=None, keys=keys), None),
                        (MemoryFilter(statuses=None, key_prefix=prefix), None)]
            got = store.list_many("u", requests)
            want = [store.list("u", f, limit=n) for f, n in requests]
            assert [[r.id for r in g] for g in got] == [[r.id for r in w] for w in want]
            assert got[0] and got[1] and all(r.key.startswith(prefix) for r in got[1])
    finally:
        store.close()
    unions = [s for s in seen if "UNION ALL" in s]
    assert len(unions) == 2 and unions[0] == unions[1]  # one statement, the values bound
