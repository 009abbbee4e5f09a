"""The MCP server, driven by real MCP client sessions against the server process (stdio and
streamable HTTP), plus the HTTP app's user binding in-process."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="needs the mcp extra: pip install 'goodmemory[mcp]'")

from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

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


# -- streamable HTTP: the user comes from the URL path ----------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_listening(proc: subprocess.Popen[bytes], port: int, log: Path, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"server did not listen on {port} within {timeout} s:\n{log.read_text(errors='replace')}")


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A real ``goodmemory-mcp --transport streamable-http`` process on a free 127.0.0.1 port, no user bound."""
    db = tmp_path / "http.db"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "GOODMEMORY_USER_ID"}
    env.update({"GOODMEMORY_URL": f"sqlite:///{db}", "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)})
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "goodmemory.integrations.mcp_server",
                                 "--transport", "streamable-http", "--host", "127.0.0.1", "--port", str(port)],
                                env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        try:
            _wait_listening(proc, port, log)
            yield f"http://127.0.0.1:{port}", db
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=20)


@asynccontextmanager
async def _http_session(url: str) -> AsyncIterator[ClientSession]:
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def test_http_binds_the_user_from_the_url_path(http_server: tuple[str, Path]) -> None:
    """Two real streamable-HTTP client sessions on one server process: /users/alice/mcp and /users/bob/mcp."""
    base, db = http_server
    out: dict[str, Any] = {}

    async def run() -> None:
        async with _http_session(f"{base}/users/alice/mcp") as alice, \
                _http_session(f"{base}/users/bob/mcp") as bob:
            out["tools"] = (await bob.list_tools()).tools
            out["remember"] = await alice.call_tool("remember", {"messages": [
                {"role": "user", "content": "I live in Lisbon and I work as a nurse."},
                {"role": "assistant", "content": "Noted."}]})
            out["bob_recall"] = await bob.call_tool("recall", {"query": "Lisbon nurse"})
            out["bob_context"] = await bob.call_tool("build_context", {"query": "Book a hotel near home"})
            out["smuggled"] = await bob.call_tool("recall", {"query": "Lisbon", "user_id": "alice"})
            out["alice_recall"] = await alice.call_tool("recall", {"query": "where does the user live"})
            out["alice_context"] = await alice.call_tool("build_context", {"query": "Book a hotel near home",
                                                                           "max_tokens": 300})
            out["bob_remember"] = await bob.call_tool("remember", {"messages": [
                {"role": "user", "content": "I live in Oslo."}]})
            out["alice_after"] = await alice.call_tool("recall", {"query": "Oslo"})

    anyio.run(run)

    for tool in out["tools"]:
        assert "user_id" not in json.dumps(tool.input_schema), tool.name
    assert not out["remember"].is_error, _text(out["remember"])
    for key in ("bob_recall", "bob_context", "smuggled"):
        assert not out[key].is_error, _text(out[key])
        assert "Lisbon" not in _text(out[key]) and "nurse" not in _text(out[key]), key
    assert "Lisbon" in _text(out["alice_recall"])
    assert "Lisbon" in _text(out["alice_context"]) and "<memory-context>" in _text(out["alice_context"])
    assert not out["bob_remember"].is_error
    assert "Oslo" not in _text(out["alice_after"])
    # the rows are stored under the user ids named by the URL paths
    with sqlite3.connect(db) as conn:
        owners = {r[0]: r[1] for r in conn.execute("SELECT user_id, group_concat(data) FROM gm_memories "
                                                   "GROUP BY user_id")}
    assert set(owners) == {"alice", "bob"}
    assert "Lisbon" in owners["alice"] and "Lisbon" not in owners["bob"] and "Oslo" in owners["bob"]


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def _post_all(app: Any, paths: list[str]) -> list[tuple[int, str]]:
    import httpx2

    out: list[tuple[int, str]] = []

    async def run() -> None:
        async with app.router.lifespan_context(app), httpx2.AsyncClient(
                transport=httpx2.ASGITransport(app=app), base_url="http://127.0.0.1:8000") as client:
            for path in paths:
                r = await client.post(path, json=INIT, headers=HEADERS)
                out.append((r.status_code, r.text))

    anyio.run(run)
    return out


def test_http_user_pinned_by_flag_or_env_refuses_other_users_in_the_url() -> None:
    from goodmemory import create_good_memory
    from goodmemory.integrations.mcp_server import create_http_app
    from goodmemory.testing import FakeEmbedder

    with create_good_memory("sqlite://", embedder=FakeEmbedder()) as memory:
        app = create_http_app(memory, user_id="alice")
        (bob, alice, plain, bad) = _post_all(app, ["/users/bob/mcp", "/users/alice/mcp", "/mcp", "/users/%20/mcp"])
    assert bob[0] == 403 and "alice" not in bob[1] and "bound" in bob[1]
    assert alice[0] == 200 and "serverInfo" in alice[1]
    assert plain[0] == 200 and "serverInfo" in plain[1]  # the pinned user is also served at the plain path
    assert bad[0] == 403


def test_http_without_a_bound_user_needs_one_in_the_url() -> None:
    from goodmemory import create_good_memory
    from goodmemory.integrations.mcp_server import create_http_app
    from goodmemory.testing import FakeEmbedder

    with create_good_memory("sqlite://", embedder=FakeEmbedder()) as memory:
        app = create_http_app(memory)
        (plain, blank, ok) = _post_all(app, ["/mcp", "/users/%20/mcp", "/users/carol/mcp"])
    assert plain[0] == 404 and "/users/<user_id>/mcp" in plain[1]
    assert blank[0] == 400 and "user_id" in blank[1]
    assert ok[0] == 200 and "serverInfo" in ok[1]

