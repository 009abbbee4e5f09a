"""The HTTP side of the scripted OpenAI-compatible server: the threaded loopback server, the request
handler (chat completions, embeddings, models, error replies, streaming) and the deterministic
embedding. :class:`~goodmemory.testing.openai_server.ScriptedOpenAIServer` owns the script and the state.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import logging
import math
import socket
import struct
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

__all__ = ["RecordedRequest", "hash_embedding"]

log = logging.getLogger(__name__)

_STATUS_ERROR_TYPES: dict[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    408: "timeout",
    409: "conflict",
    422: "invalid_request_error",
    429: "rate_limit_exceeded",
}


def hash_embedding(text: str, dim: int) -> list[float]:
    """A deterministic unit vector of ``dim`` floats derived from ``text``.

    Equal texts give equal vectors; different texts give (almost surely)
    different ones. Not semantic -- only for tests.
    """
    if dim <= 0:
        raise ValueError("dim must be positive")
    values: list[float] = []
    counter = 0
    seed = text.encode("utf-8", "surrogatepass")
    while len(values) < dim:
        block = hashlib.sha256(seed + b"\x00" + counter.to_bytes(4, "big")).digest()
        for i in range(0, len(block), 4):
            (n,) = struct.unpack(">I", block[i : i + 4])
            values.append(n / 0xFFFFFFFF * 2.0 - 1.0)
        counter += 1
    values = values[:dim]
    norm = math.sqrt(sum(v * v for v in values)) or 1.0
    return [v / norm for v in values]


def _count_tokens(text: str) -> int:
    return len(text.split())


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received (``body`` is the parsed JSON)."""

    method: str
    path: str
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    received_at: float = 0.0


class _Owner(Protocol):
    """What the handler asks of the server's owner (``ScriptedOpenAIServer``; named here, not imported,
    so the two modules do not import each other)."""

    model: str
    dim: int
    _stopping: threading.Event

    def _record(self, method: str, path: str, body: dict[str, Any], headers: dict[str, str]) -> None: ...
    def _next_reply(self, body: dict[str, Any]) -> Any: ...
    def _next_embedding_failure(self) -> dict[str, Any] | None: ...
    def _wait(self, seconds: float) -> None: ...
    def _completion(self, content: str, body: dict[str, Any], finish_reason: str = "stop") -> dict[str, Any]: ...


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128  # the default (5) resets bursts of parallel clients
    owner: _Owner

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(address, handler)
        self._conn_lock = threading.Lock()
        self._conns: set[socket.socket] = set()

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        with self._conn_lock:
            self._conns.add(request)
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._conn_lock:
                self._conns.discard(request)

    def close_connections(self) -> None:
        """Shut down open keep-alive connections so their threads end now."""
        with self._conn_lock:
            conns = list(self._conns)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients that time out close the socket mid-reply; that is expected here.
        log.debug("scripted OpenAI server: error while serving %s", client_address, exc_info=True)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    timeout = 60  # idle keep-alive connections end after this many seconds
    server_version = "ScriptedOpenAI/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("scripted OpenAI server: " + format, *args)

    # -- plumbing ---------------------------------------------------------
    def _read_body(self) -> dict[str, Any] | None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return {}
        try:
            parsed = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            return None
        return parsed if isinstance(parsed, dict) else {"_json": parsed}

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            content_type = "application/json"
            for name, value in (headers or {}).items():
                if name.lower() == "content-type":
                    content_type = value
                else:
                    self.send_header(name, value)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            log.debug("scripted OpenAI server: client went away before the reply")
            self.close_connection = True

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(payload).encode("utf-8"), headers)

    def _send_error(self, status: int, message: str) -> None:
        self._send_json(status, _error_body(status, message))

    # -- routes -------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        owner = self.server.owner
        path = self.path.split("?", 1)[0].rstrip("/")
        owner._record("GET", path, {}, dict(self.headers))
        if path.endswith("/models"):
            self._send_json(
                200,
                {
                    "object": "list",
                    "data": [{"id": owner.model, "object": "model", "created": 0, "owned_by": "goodmemory"}],
                },
            )
        else:
            self._send_error(404, f"unknown path {path}")

    def do_POST(self) -> None:  # noqa: N802 - http.server naming
        owner = self.server.owner
        path = self.path.split("?", 1)[0].rstrip("/")
        body = self._read_body()
        owner._record("POST", path, body if body is not None else {"_invalid_json": True}, dict(self.headers))
        if body is None:
            self._send_error(400, "request body is not valid JSON")
            return
        if path.endswith("/chat/completions"):
            self._chat(body)
        elif path.endswith("/embeddings"):
            self._embeddings(body)
        else:
            self._send_error(404, f"unknown path {path}")

    def _chat(self, body: dict[str, Any]) -> None:
        owner = self.server.owner
        reply = owner._next_reply(body)
        if body.get("stream"):
            self._send_error(400, "the scripted server does not stream; send stream=false")
            return
        self._answer(reply, body, depth=0)

    def _answer(self, reply: Any, body: dict[str, Any], depth: int) -> None:
        owner = self.server.owner
        if depth > 8:
            self._send_error(500, "scripted reply nests too deeply")
            return
        if callable(reply):
            try:
                reply = reply(body)
            except Exception as exc:  # a broken test callable -> visible 500
                log.exception("scripted OpenAI server: reply callable failed")
                self._send_error(500, f"scripted reply callable raised {exc!r}")
                return
            self._answer(reply, body, depth + 1)
            return
        if isinstance(reply, str):
            self._send_json(200, owner._completion(reply, body))
            return
        if isinstance(reply, dict):
            if "hang" in reply:
                owner._wait(float(reply["hang"]))
                if owner._stopping.is_set():
                    self.close_connection = True
                    return
                self._answer(reply.get("reply", ""), body, depth + 1)
                return
            if "status" in reply:
                status = int(reply["status"])
                headers = {str(k): str(v) for k, v in dict(reply.get("headers") or {}).items()}
                raw = reply.get("body")
                if raw is None:
                    payload: bytes = json.dumps(_error_body(status, f"scripted status {status}")).encode()
                elif isinstance(raw, bytes):
                    payload = raw
                elif isinstance(raw, str):
                    payload = raw.encode("utf-8")
                else:
                    payload = json.dumps(raw).encode("utf-8")
                self._send(status, payload, headers)
                return
            if "content" in reply:
                self._send_json(
                    200,
                    owner._completion(
                        str(reply["content"]), body, finish_reason=str(reply.get("finish_reason", "stop"))
                    ),
                )
                return
        self._send_error(500, f"unsupported scripted reply {reply!r}")

    def _embeddings(self, body: dict[str, Any]) -> None:
        owner = self.server.owner
        failure = owner._next_embedding_failure()
        if failure is not None:
            if "hang" in failure:
                owner._wait(float(failure["hang"]))
                if owner._stopping.is_set():
                    self.close_connection = True
                    return
                if "status" not in failure:
                    failure = None
            if failure is not None:
                self._answer(failure, body, depth=0)
                return
        raw_input = body.get("input")
        if raw_input is None:
            self._send_error(400, "missing 'input'")
            return
        texts = _embedding_inputs(raw_input)
        dim = body.get("dimensions") or owner.dim
        try:
            dim = int(dim)
        except (TypeError, ValueError):
            self._send_error(400, "'dimensions' must be an integer")
            return
        if dim <= 0:
            self._send_error(400, "'dimensions' must be positive")
            return
        as_base64 = body.get("encoding_format") == "base64"
        data: list[dict[str, Any]] = []
        for index, text in enumerate(texts):
            vector = hash_embedding(text, dim)
            embedding: Any = (
                base64.b64encode(struct.pack(f"<{dim}f", *vector)).decode("ascii") if as_base64 else vector
            )
            data.append({"object": "embedding", "index": index, "embedding": embedding})
        tokens = sum(_count_tokens(t) for t in texts)
        self._send_json(
            200,
            {
                "object": "list",
                "data": data,
                "model": str(body.get("model") or owner.model),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )


def _error_body(status: int, message: str) -> dict[str, Any]:
    return {
        "error": {
            "message": message,
            "type": _STATUS_ERROR_TYPES.get(
                status, "server_error" if status >= 500 else "invalid_request_error"
            ),
            "param": None,
            "code": str(status),
        }
    }


def _embedding_inputs(raw: Any) -> list[str]:
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, list):
        if raw and all(isinstance(x, int) for x in raw):  # one tokenised input
            return [" ".join(str(x) for x in raw)]
        return [x if isinstance(x, str) else json.dumps(x) for x in raw]
    return [json.dumps(raw)]


def _message_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""
