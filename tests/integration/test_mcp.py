"""The MCP server, driven by real MCP client sessions against the server process: over stdio (the user from
the flag or environment) and over streamable HTTP (the user from the bearer token, two tokens on one process)."""

from __future__ import annotations

import json
import os
import re
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


# -- streamable HTTP: the user comes from the bearer token ---------------------------------------
TOKEN_A = "alice-token-0123456789abcdef"
TOKEN_B = "bob-token-0123456789abcdef00"


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
    """A real ``goodmemory-mcp --http 127.0.0.1:PORT --keys tokens.json`` process: two tokens, two users."""
    db = tmp_path / "http.db"
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({TOKEN_A: "alice", TOKEN_B: "bob"}))
    port = _free_port()
    # a user id in the environment must not bind anybody over HTTP: the token does
    env = {**os.environ, "GOODMEMORY_USER_ID": "alice", "GOODMEMORY_URL": f"sqlite:///{db}",
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    env.pop("GOODMEMORY_API_KEYS", None)
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "goodmemory.integrations.mcp_server",
                                 "--http", f"127.0.0.1:{port}", "--keys", str(tokens)],
                                env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        try:
            _wait_listening(proc, port, log)
            yield f"http://127.0.0.1:{port}/mcp", db
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=20)


@asynccontextmanager
async def _http_session(url: str, token: str | None) -> AsyncIterator[ClientSession]:
    import httpx2

    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http, \
            streamable_http_client(url, http_client=http) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def _owners(db: Path) -> dict[str, str]:
    with sqlite3.connect(db) as conn:
        return {r[0]: r[1] for r in conn.execute("SELECT user_id, group_concat(data) FROM gm_memories "
                                                 "GROUP BY user_id")}


def test_http_binds_the_user_from_the_bearer_token(http_server: tuple[str, Path]) -> None:
    """Two real streamable-HTTP client sessions on one server process, one per token: no cross-reads."""
    url, db = http_server
    out: dict[str, Any] = {}

    async def run() -> None:
        async with _http_session(url, TOKEN_A) as alice, _http_session(url, TOKEN_B) as bob:
            out["tools"] = (await bob.list_tools()).tools
            out["remember"] = await alice.call_tool("remember", {"messages": [
                {"role": "user", "content": "I live in Lisbon and I work as a nurse."},
                {"role": "assistant", "content": "Noted."}]})
            out["bob_remember"] = await bob.call_tool("remember", {"messages": [
                {"role": "user", "content": "I live in Oslo and I work as a welder."}]})
            # a user_id argument is no part of any tool: it cannot redirect bob's calls to alice
            out["smuggled_write"] = await bob.call_tool("remember", {"user_id": "alice", "messages": [
                {"role": "user", "content": "My favourite colour is teal."}]})
            for who, session in (("alice", alice), ("bob", bob)):
                out[f"{who}_recall"] = await session.call_tool("recall", {"query": "where do I live, what job"})
                out[f"{who}_context"] = await session.call_tool("build_context", {
                    "query": "Book a hotel near home", "max_tokens": 300})
            out["smuggled"] = await bob.call_tool("recall", {"query": "Lisbon nurse", "user_id": "alice"})
            hits = out["alice_recall"].structured_content["hits"]
            lisbon = next(h["memory_id"] for h in hits if "Lisbon" in h["text"])
            out["bob_fb"] = await bob.call_tool("feedback", {"memory_id": lisbon, "signal": "reject"})
            out["bob_forget_hers"] = await bob.call_tool("forget", {"memory_id": lisbon})
            # the short id the context cites works for its own user only
            short = re.search(r"\[([0-9a-f]{6,})[^\]]*\] \S*\"?[^\n]*Lisbon", _text(out["alice_context"]))
            out["short"] = short.group(1) if short else ""
            out["bob_fb_short"] = await bob.call_tool("feedback", {"memory_id": out["short"], "signal": "reject"})
            out["alice_fb_short"] = await alice.call_tool("feedback", {"memory_id": out["short"],
                                                                       "signal": "confirm"})
            out["bob_forget_all"] = await bob.call_tool("forget", {"everything": True, "user_id": "alice"})
            out["alice_after"] = await alice.call_tool("recall", {"query": "where do I live"})
            out["bob_after"] = await bob.call_tool("recall", {"query": "where do I live"})

    anyio.run(run)

    for tool in out["tools"]:
        assert "user_id" not in json.dumps(tool.input_schema), tool.name
        assert "ctx" not in tool.input_schema.get("properties", {}), tool.name
    assert {t.name for t in out["tools"]} >= set(EXPECTED)
    for key in ("remember", "bob_remember", "smuggled_write", "bob_forget_all"):
        assert not out[key].is_error, _text(out[key])
    assert "Lisbon" in _text(out["alice_recall"]) and "Oslo" not in _text(out["alice_recall"])
    assert "Lisbon" in _text(out["alice_context"]) and "<memory-context>" in _text(out["alice_context"])
    assert "Oslo" not in _text(out["alice_context"]) and "teal" not in _text(out["alice_context"])
    for key in ("bob_recall", "bob_context", "smuggled"):
        assert "Lisbon" not in _text(out[key]) and "nurse" not in _text(out[key]), key
    assert "Oslo" in _text(out["bob_recall"])
    # bob cannot act on alice's memory by its id, nor forget it all with a user_id argument
    assert out["bob_fb"].is_error and "no memory" in _text(out["bob_fb"])
    assert out["bob_forget_hers"].is_error and "no memory" in _text(out["bob_forget_hers"])
    assert len(out["short"]) == 6, _text(out["alice_context"])
    assert out["bob_fb_short"].is_error and "no memory" in _text(out["bob_fb_short"])
    assert not out["alice_fb_short"].is_error, _text(out["alice_fb_short"])
    assert out["alice_fb_short"].structured_content["memory_id"].startswith(out["short"])
    assert "Lisbon" in _text(out["alice_after"])
    assert "Oslo" not in _text(out["bob_after"])  # bob's forget(everything) took bob's memory only
    owners = _owners(db)
    assert "Lisbon" in owners["alice"] and "teal" not in owners["alice"] and "Oslo" not in owners["alice"]
    assert "Lisbon" not in owners.get("bob", "")


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
CALL = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "remember", "arguments": {
    "messages": [{"role": "user", "content": "My locker code is in drawer seven."}]}}}


def test_http_without_a_known_token_gets_401_and_runs_no_tool(http_server: tuple[str, Path]) -> None:
    """Raw requests: no token, an unknown token, or another token on alice's open session run nothing."""
    import httpx2

    url, db = http_server
    out: dict[str, Any] = {}

    async def run() -> None:
        async with httpx2.AsyncClient(timeout=60) as http:
            out["none"] = await http.post(url, json=INIT, headers=HEADERS)
            out["unknown"] = await http.post(url, json=INIT, headers={**HEADERS, "authorization": "Bearer nope"})
            out["not_bearer"] = await http.post(url, json=INIT, headers={**HEADERS, "authorization": TOKEN_A})
            ok = await http.post(url, json=INIT, headers={**HEADERS, "authorization": f"Bearer {TOKEN_A}"})
            out["init"] = ok
            sid = ok.headers["mcp-session-id"]
            session = {**HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18"}
            await http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                            headers={**session, "authorization": f"Bearer {TOKEN_A}"})
            out["call_none"] = await http.post(url, json=CALL, headers=session)
            out["call_unknown"] = await http.post(url, json=CALL, headers={**session, "authorization": "Bearer x"})
            out["call_bob"] = await http.post(url, json=CALL, headers={**session, "authorization": f"Bearer {TOKEN_B}"})

    anyio.run(run)
    assert out["init"].status_code == 200 and "serverInfo" in out["init"].text
    for key in ("none", "unknown", "not_bearer", "call_none", "call_unknown"):
        assert out[key].status_code == 401, (key, out[key].status_code, out[key].text)
        assert out[key].headers["www-authenticate"].startswith("Bearer")
    # bob's valid token on alice's session: the SDK answers as if the session did not exist
    assert out["call_bob"].status_code == 404
    assert "drawer" not in "".join(_owners(db).values())


def test_http_refuses_to_start_without_tokens_or_with_a_user_flag(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("GOODMEMORY_API_KEYS", "GOODMEMORY_USER_ID")}
    env.update({"GOODMEMORY_URL": f"sqlite:///{tmp_path / 'x.db'}",
                "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)})
    tokens = tmp_path / "t.json"
    tokens.write_text(json.dumps({TOKEN_A: "alice"}))
    cmd = [sys.executable, "-m", "goodmemory.integrations.mcp_server"]
    runs = {
        "no_tokens": cmd + ["--http", "127.0.0.1:0"],
        "user_flag": cmd + ["--http", "127.0.0.1:0", "--keys", str(tokens), "--user-id", "bob"],
        "bad_address": cmd + ["--http", "localhost", "--keys", str(tokens)],
        "short_token": cmd + ["--http", "127.0.0.1:0"],
    }
    out = {}
    for name, argv in runs.items():
        e = {**env, "GOODMEMORY_API_KEYS": "short=bob"} if name == "short_token" else env
        out[name] = subprocess.run(argv, env=e, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    for name, proc in out.items():
        assert proc.returncode == 2, (name, proc.returncode, proc.stderr)
        assert "Traceback" not in proc.stderr, name
    assert "--keys" in out["no_tokens"].stderr and "GOODMEMORY_API_KEYS" in out["no_tokens"].stderr
    assert "bearer token" in out["user_flag"].stderr
    assert "HOST:PORT" in out["bad_address"].stderr
    assert "16 characters" in out["short_token"].stderr
