"""The MCP stdio server answers every line it is sent: a JSON-RPC batch array and a request holding a lone
surrogate get an error reply (they got none: the client waited forever), and the server keeps serving."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")


def _start(tmp_path: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "GOODMEMORY_URL": f"sqlite:///{tmp_path / 'mcp.db'}", "GOODMEMORY_USER_ID": "alice",
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    return subprocess.Popen([sys.executable, "-m", "goodmemory.integrations.mcp_server"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def _reader(proc: subprocess.Popen[bytes], out: list[Any]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        try:
            out.append(json.loads(line))
        except ValueError:
            out.append({"unparsable": line.decode("utf-8", "replace")})


def _wait(out: list[Any], pred: Any, timeout: float) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        hit = next((m for m in list(out) if isinstance(m, dict) and pred(m)), None)
        if hit is not None:
            return hit
        time.sleep(0.05)
    return None


def test_batch_arrays_and_lone_surrogates_get_an_error_reply(tmp_path: Path) -> None:
    proc = _start(tmp_path)
    out: list[Any] = []
    threading.Thread(target=_reader, args=(proc, out), daemon=True).start()
    assert proc.stdin is not None

    def send(raw: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(raw.encode("utf-8") + b"\n")
        proc.stdin.flush()

    try:
        send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}))
        assert _wait(out, lambda m: m.get("id") == 1, 120) is not None
        send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        send(json.dumps([{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}]))
        send('{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "recall", '
             '"arguments": {"query": "bees \\udcff"}}}')
        send(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping"}))
        assert _wait(out, lambda m: m.get("id") == 9, 60) is not None, out  # still serving
        batch = _wait(out, lambda m: "error" in m and m.get("id") in (7, None), 5)
        assert batch is not None, f"no reply to the batch array: {out}"
        surrogate = _wait(out, lambda m: m.get("id") == 8, 5)
        assert surrogate is not None, f"no reply to the lone-surrogate request: {out}"
        assert "error" in surrogate or surrogate.get("result", {}).get("isError"), surrogate
    finally:
        proc.kill()
        proc.wait(timeout=30)
        for f in (proc.stdin, proc.stdout):
            if f is not None:
                f.close()
