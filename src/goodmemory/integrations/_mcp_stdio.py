"""The stdio transport of ``goodmemory-mcp``: the SDK's, behind a screen that answers what it would drop.

The SDK reads one JSON-RPC message per line and silently drops what it cannot validate: a batch array
(batches left MCP in 2025-06-18) or a request holding a lone surrogate (``"\\udcff"``, valid JSON, not
valid text) got no reply, so the client waited forever. The screen answers those lines itself with a
JSON-RPC error and passes every other line through unchanged.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import AsyncIterator
from io import TextIOWrapper
from typing import Any, cast

import anyio

__all__ = ["screen", "serve_stdio"]


def screen(line: str) -> tuple[str | None, dict[str, Any] | None]:
    """``(line to pass on, None)`` or ``(None, error reply)``; ``(None, None)`` drops a blank line."""
    if not line.strip():
        return None, None
    try:
        msg = json.loads(line)
    except ValueError:
        return None, _error(None, -32700, "parse error: send one JSON-RPC message per line")
    if isinstance(msg, list):
        return None, _error(None, -32600, "batch requests are not supported: send one JSON-RPC message per line")
    try:
        json.dumps(msg, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        mid = msg.get("id") if isinstance(msg, dict) else None
        if isinstance(msg, dict) and "method" in msg and mid is None:
            return None, None  # a notification gets no reply
        return None, _error(mid if isinstance(mid, (int, str)) else None, -32602,
                            "invalid text in the request (a lone surrogate): send valid UTF-8 text")
    return line, None


def _error(mid: int | str | None, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": mid, "error": {"code": code, "message": message}}


class _Wire:
    """The protocol's stdout: whole lines under a lock (the screen and the SDK's writer share it)."""

    def __init__(self, fd: int) -> None:
        self._out = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            n = self._out.write(text)
            self._out.flush()
            return n

    def flush(self) -> None:
        with self._lock:
            self._out.flush()


async def serve_stdio(server: Any) -> None:
    """Run ``server`` (an ``MCPServer``) over stdin/stdout with the screen in front of the SDK's reader."""
    from mcp.server.stdio import stdio_server

    wire = _Wire(os.dup(1))
    os.dup2(2, 1)  # stray prints of libraries go to stderr, never into the protocol
    stdin = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    out = anyio.wrap_file(cast(Any, wire))

    class _Screened:
        def __aiter__(self) -> AsyncIterator[str]:
            return self._lines()

        async def _lines(self) -> AsyncIterator[str]:
            async for line in stdin:
                passed, reply = screen(line)
                if reply is not None:
                    await out.write(json.dumps(reply) + "\n")
                if passed is not None:
                    yield passed

    low = server._lowlevel_server  # the SDK's own run_stdio_async does the same
    async with stdio_server(cast(Any, _Screened()), out) as (read_stream, write_stream):
        await low.run(read_stream, write_stream, low.create_initialization_options())
