"""A new SQLite file after the first of the process gets its schema by replaying the first migration's SQL:
the result is the schema the migration path makes, and nothing per store (the store key) is copied."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from goodmemory import create_good_memory
from goodmemory.storage import _schema
from goodmemory.testing import FakeEmbedder


def _schema_of(db: Path) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    with sqlite3.connect(db) as con:
        master = con.execute("SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name").fetchall()
        meta = con.execute("SELECT name, value FROM gm_meta WHERE name != 'user_hash_key' ORDER BY name").fetchall()
    return master, meta


def _key(db: Path) -> object:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT name, value FROM gm_meta ORDER BY name").fetchall()


def test_replayed_schema_equals_the_migrated_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_schema, "_FRESH_SQLITE", {})
    executed: list[str] = []
    real = _schema.migrate

    def counting(conn, fts, *, target=None):  # type: ignore[no-untyped-def]
        executed.append("replay" if _schema._FRESH_SQLITE.get((fts, target or _schema.SCHEMA_VERSION)) else "steps")
        return real(conn, fts, target=target)

    monkeypatch.setattr(_schema, "migrate", counting)
    for name in ("a", "b", "c"):
        mem = create_good_memory(f"sqlite:///{tmp_path / name}.db", embedder=FakeEmbedder())
        mem.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u", session_id="s")
        assert "Lisbon" in mem.build_context("where do I live?", user_id="u").text
        mem.close()
    assert executed == ["steps", "replay", "replay"]
    assert _schema_of(tmp_path / "a.db") == _schema_of(tmp_path / "b.db") == _schema_of(tmp_path / "c.db")
    assert _key(tmp_path / "a.db") != _key(tmp_path / "b.db")  # each store made its own key
    # a replayed file opens again as a current one
    mem = create_good_memory(f"sqlite:///{tmp_path / 'b'}.db", embedder=FakeEmbedder())
    assert "Lisbon" in mem.build_context("where do I live?", user_id="u").text
    mem.close()
