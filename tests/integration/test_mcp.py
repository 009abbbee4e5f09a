"""The MCP server, driven by a real MCP client session over stdio against the server process."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="needs the mcp extra: pip install 'goodmemory[mcp]'")

from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

EXPECTED = {  # tool -> (read-only, destructive, idempotent)
    "remember": (False, False, True),
    "recall": (True, False, True),
    "build_context": (True, False, True),
    "feedback": (False, False, False),
    "forget": (False, True, True),
}


def _params(db: Path, user_id: str) -> StdioServerParameters:
    env = {"GOODMEMORY_URL": f"sqlite:///{db}", "GOODMEMORY_USER_ID": user_id,
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    return StdioServerParameters(command=sys.executable, args=["-m", "goodmemory.integrations.mcp_server"], env=env)


def _text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


@asynccontextmanager
async def _session(db: Path, user_id: str) -> AsyncIterator[ClientSession]:
    with open(os.devnull, "w") as errlog:
        async with stdio_client(_params(db, user_id), errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            yield session


def test_two_servers_over_stdio_tools_annotations_memory_and_isolation(tmp_path: Path) -> None:
    """Two server processes on one database, bound to alice and bob, driven by real client sessions."""
    db = tmp_path / "mcp.db"
    out: dict[str, Any] = {}

    async def run() -> None:
        async with _session(db, "alice") as alice, _session(db, "bob") as bob:
            out["tools"] = {t.name: t for t in (await alice.list_tools()).tools}
            out["remember"] = await alice.call_tool("remember", {"messages": [
                {"role": "user", "content": "I live in Lisbon and I work as a nurse."},
                {"role": "assistant", "content": "Noted."}]})
            out["context"] = await alice.call_tool("build_context", {"query": "Book a hotel near home",
                                                                     "max_tokens": 300})
            out["recall"] = await alice.call_tool("recall", {"query": "where does the user live"})
            out["forget_nothing"] = await alice.call_tool("forget", {})
            # the second server is bound to bob: alice's memory is invisible to it
            out["bob_context"] = await bob.call_tool("build_context", {"query": "Book a hotel near home"})
            out["bob_recall"] = await bob.call_tool("recall", {"query": "Lisbon nurse"})
            # a user_id argument is not part of any tool: it cannot redirect bob's server to alice
            out["smuggled"] = await bob.call_tool("recall", {"query": "Lisbon", "user_id": "alice"})

            hits = out["recall"].structured_content["hits"]
            city = next(h for h in hits if h["kind"] == "profile" and "Lisbon" in h["text"])
            out["fb"] = await alice.call_tool("feedback", {"memory_id": city["memory_id"], "signal": "correct",
                                                           "correction": "I live in Porto."})
            out["bob_fb"] = await bob.call_tool("feedback", {"memory_id": city["memory_id"], "signal": "reject"})
            out["after_fb"] = await alice.call_tool("build_context", {"query": "where do I live"})
            out["gone"] = await alice.call_tool("forget", {"everything": True})
            out["after"] = await alice.call_tool("build_context", {"query": "where do I live"})

    anyio.run(run)

    tools = out["tools"]
    assert set(EXPECTED) <= set(tools)
    for name, (ro, destructive, idem) in EXPECTED.items():
        ann = tools[name].annotations
        assert ann is not None, name
        assert (ann.read_only_hint, ann.destructive_hint, ann.idempotent_hint) == (ro, destructive, idem), name
    for tool in tools.values():
        assert "user_id" not in json.dumps(tool.input_schema), tool.name
    assert "messages" in tools["remember"].input_schema["properties"]

    assert not out["remember"].is_error, _text(out["remember"])
    ctx = _text(out["context"])
    assert "<memory-context>" in ctx and "Lisbon" in ctx
    assert "Lisbon" in _text(out["recall"])
    assert out["forget_nothing"].is_error and "say what to forget" in _text(out["forget_nothing"])

    for key in ("bob_context", "bob_recall", "smuggled"):
        assert "Lisbon" not in _text(out[key]) and "nurse" not in _text(out[key]), key
    assert out["bob_fb"].is_error and "no memory" in _text(out["bob_fb"])

    assert not out["fb"].is_error and out["fb"].structured_content["new_memory_id"]
    assert "Porto" in _text(out["after_fb"])
    assert out["gone"].structured_content["deleted"]["rows"] >= 3
    assert "Lisbon" not in _text(out["after"]) and "Porto" not in _text(out["after"])


def test_server_refuses_to_start_without_a_user(tmp_path: Path) -> None:
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "GOODMEMORY_USER_ID"}
    env["GOODMEMORY_URL"] = f"sqlite:///{tmp_path / 'x.db'}"
    proc = subprocess.run([sys.executable, "-m", "goodmemory.integrations.mcp_server"], env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert "--user-id" in proc.stderr
