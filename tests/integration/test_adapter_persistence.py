"""The adapters' own state outlives the process when the memories do: a LangGraph store's items and an Agents
SDK session's history sit in the memories' SQLite file by default. Each test writes in one process and reads
in a new one (a real restart), and checks that an in-memory store stays in memory."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from goodmemory import create_good_memory
from goodmemory.integrations._persist import sqlite_file_of
from goodmemory.testing import FakeEmbedder


def _run(code: str, db: Path) -> str:
    prelude = f"""
from goodmemory import create_good_memory
from goodmemory.testing import FakeEmbedder
memory = create_good_memory({f"sqlite:///{db}"!r}, embedder=FakeEmbedder())
"""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(prelude) + textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_sqlite_file_of(tmp_path: Path) -> None:
    on_file = create_good_memory(f"sqlite:///{tmp_path / 'a.db'}", embedder=FakeEmbedder())
    in_memory = create_good_memory("sqlite://", embedder=FakeEmbedder())
    try:
        assert sqlite_file_of(on_file) == str(tmp_path / "a.db")
        assert sqlite_file_of(in_memory) is None
    finally:
        on_file.close()
        in_memory.close()


def test_langgraph_items_survive_a_restart(tmp_path: Path) -> None:
    pytest.importorskip("langgraph.store.sqlite", reason="needs the langgraph extra")
    db = tmp_path / "gm.db"
    _run("""
from goodmemory.integrations.langgraph import GoodMemoryStore
store = GoodMemoryStore(memory)
store.put(("memories", "u1"), "home", {"content": "I live in Lisbon."})
store.put(("memories", "u2"), "pet", {"content": "My dog is called Rex."})
memory.close()
""", db)
    out = _run("""
import json
from goodmemory.integrations.langgraph import GoodMemoryStore
store = GoodMemoryStore(memory)
item = store.get(("memories", "u1"), "home")
listed = [i.key for i in store.search(("memories", "u1"))]
found = [i.key for i in store.search(("memories", "u1"), query="where do I live")]
print(json.dumps({"value": item.value if item else None, "listed": listed, "found": found,
                  "namespaces": sorted(map(list, store.list_namespaces()))}))
""", db)
    got = json.loads(out)
    assert got["value"] == {"content": "I live in Lisbon."}
    assert got["listed"] == ["home"]  # u2's item is not in u1's namespace
    assert "home" in got["found"]
    assert got["namespaces"] == [["memories", "u1"], ["memories", "u2"]]


def test_langgraph_on_an_in_memory_store_stays_in_memory() -> None:
    pytest.importorskip("langgraph", reason="needs the langgraph extra")
    from langgraph.store.memory import InMemoryStore

    from goodmemory.integrations.langgraph import GoodMemoryStore

    memory = create_good_memory("sqlite://", embedder=FakeEmbedder())
    try:
        assert isinstance(GoodMemoryStore(memory).inner, InMemoryStore)
    finally:
        memory.close()


def test_agents_session_history_survives_a_restart(tmp_path: Path) -> None:
    pytest.importorskip("agents", reason="needs the openai-agents extra")
    db = tmp_path / "gm.db"
    _run("""
import asyncio
from goodmemory.integrations.openai_agents import GoodMemorySession
session = GoodMemorySession(memory, user_id="u1", session_id="chat-1")
asyncio.run(session.add_items([{"role": "user", "content": "I live in Lisbon."},
                               {"role": "assistant", "content": "Noted."}]))
other = GoodMemorySession(memory, user_id="u2", session_id="chat-2")
asyncio.run(other.add_items([{"role": "user", "content": "My dog is called Rex."}]))
memory.close()
""", db)
    out = _run("""
import asyncio, json
from goodmemory.integrations.openai_agents import GoodMemorySession
session = GoodMemorySession(memory, user_id="u1", session_id="chat-1")
items = asyncio.run(session.get_items())
print(json.dumps({"items": [i["content"] for i in items],
                  "recalled": [h.memory.text for h in memory.recall("where do I live", user_id="u1").hits]}))
""", db)
    got = json.loads(out)
    assert got["items"] == ["I live in Lisbon.", "Noted."]
    assert any("Lisbon" in t for t in got["recalled"])
