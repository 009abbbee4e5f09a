"""SQLite engines of one process share compiled statements: a second instance on a new file compiles nothing
the first already did, and each still reads only its own file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event

from goodmemory import create_good_memory
from goodmemory.testing import FakeEmbedder

TURNS = [{"role": "user", "content": "I live in Lisbon and I prefer window seats."},
         {"role": "assistant", "content": "Noted."}]


def _misses(mem: Any, fn: Any) -> tuple[int, int]:
    engine = mem.storage.engine
    seen = {"miss": 0, "hit": 0}

    def count(_conn: Any, _cur: Any, _stmt: str, _params: Any, context: Any, _many: bool) -> None:
        hit = getattr(context, "cache_hit", None)
        if hit == engine.dialect.CACHE_MISS:
            seen["miss"] += 1
        elif hit == engine.dialect.CACHE_HIT:
            seen["hit"] += 1

    event.listen(engine, "after_cursor_execute", count)
    try:
        fn()
    finally:
        event.remove(engine, "after_cursor_execute", count)
    return seen["miss"], seen["hit"]


def test_a_second_instance_compiles_nothing_the_first_did(tmp_path: Path) -> None:
    a = create_good_memory(f"sqlite:///{tmp_path / 'a.db'}", embedder=FakeEmbedder())
    a.remember(TURNS, user_id="alice", session_id="s1")
    a.build_context("Book me a flight home", user_id="alice")
    b = create_good_memory(f"sqlite:///{tmp_path / 'b.db'}", embedder=FakeEmbedder())
    misses, hits = _misses(b, lambda: b.remember(TURNS, user_id="bob", session_id="s1"))
    assert hits > 10 and misses == 0
    misses, hits = _misses(b, lambda: b.build_context("Book me a flight home", user_id="bob"))
    assert hits > 3 and misses == 0
    # the same compiled SQL, each engine on its own file and user
    assert "Lisbon" in b.build_context("where do I live?", user_id="bob").text
    assert b.build_context("where do I live?", user_id="alice").text.count("Lisbon") == 0
    assert a.storage.count("bob") == 0 and b.storage.count("alice") == 0
    a.close()
    b.close()
