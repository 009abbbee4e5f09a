"""A scripted, OpenAI-compatible HTTP server on loopback, for tests.

This module owns :class:`ScriptedOpenAIServer`: a real ``http.server``
listening on ``127.0.0.1`` with an ephemeral port, run in a background
thread. It speaks the subset of the OpenAI REST protocol GoodMemory uses,
so the real ``openai`` client (or any HTTP client) can be tested end to end
without a network, a key, or mocks::

    with ScriptedOpenAIServer(replies=['{"memories": []}', {"status": 429}]) as srv:
        client = openai.OpenAI(base_url=srv.base_url, api_key="test")
        ...
        assert len(srv.requests) == 1

Endpoints:

* ``POST /v1/chat/completions`` answers, in order, with the scripted replies
  (non-streaming ``chat.completion`` objects in the exact OpenAI shape).
* ``POST /v1/embeddings`` answers with deterministic unit vectors derived from
  a hash of each input (``dim`` floats, or the request's ``dimensions``;
  ``encoding_format`` ``float`` and ``base64`` are both honoured).
* ``GET /v1/models`` lists the configured model name.

A scripted reply is one of:

* ``str`` -- the assistant message content;
* ``{"status": 429}`` / ``{"status": 500, "body": ...}`` -- an HTTP error
  (``body`` may be a string or a JSON-able object; it defaults to an
  OpenAI-style ``{"error": {...}}``). ``{"status": 200, "body": ...}`` sends
  a raw body, e.g. to simulate a malformed response. Optional ``headers``;
* ``{"hang": seconds}`` -- sleep before answering, to trigger client
  timeouts; then answer with ``reply`` if given (any reply), else ``""``;
* ``{"content": str, "finish_reason": str}`` -- content with a chosen finish reason;
* a callable ``(request_json) -> str`` (or returning any of the above) for
  dynamic replies.

When the script runs out the last reply is repeated, unless ``default`` (a
callable or a reply) is given, which then answers every further request.
Every request body is recorded in :attr:`ScriptedOpenAIServer.requests`.
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
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast

__all__ = ["RecordedRequest", "Reply", "ScriptedOpenAIServer", "hash_embedding"]

log = logging.getLogger(__name__)

#: One scripted answer (see the module docstring).
Reply = str | dict[str, Any] | Callable[[dict[str, Any]], Any]

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


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128  # the default (5) resets bursts of parallel clients
    owner: ScriptedOpenAIServer

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


class ScriptedOpenAIServer:
    """A real loopback HTTP server answering OpenAI-style requests from a script.

    Args:
        replies: the chat-completion script, consumed in order.
        default: what answers once the script is exhausted (a reply or a
            callable). Without it the last scripted reply repeats; with no
            replies at all the answer is ``'{}'``.
        dim: embedding dimension (a request's ``dimensions`` overrides it).
        model: model name echoed in responses when the request names none.
        embedding_failures: an optional script for ``/v1/embeddings``: each
            entry is ``None`` (answer normally) or a ``{"status": ...}`` /
            ``{"hang": ...}`` dict; once exhausted, embeddings answer normally.
        host, port: where to listen (defaults: loopback, ephemeral port).

    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    """

    def __init__(
        self,
        replies: Sequence[Reply] | None = None,
        *,
        default: Reply | None = None,
        dim: int = 64,
        model: str = "scripted-model",
        embedding_failures: Iterable[dict[str, Any] | None] | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        if dim <= 0:
            raise ValueError("dim must be positive")
        self.dim = dim
        self.model = model
        self.host = host
        self._requested_port = port
        self._replies: list[Reply] = list(replies or [])
        self._default = default
        self._embedding_failures: list[dict[str, Any] | None] = list(embedding_failures or [])
        self._cursor = 0
        self._last: Reply | None = None
        self._lock = threading.Lock()
        self._recorded: list[RecordedRequest] = []
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ------------------------------------------------------------
    def start(self) -> ScriptedOpenAIServer:
        """Bind and start serving in a daemon thread (idempotent)."""
        if self._server is not None:
            return self
        self._stopping.clear()
        server = _Server((self.host, self._requested_port), _Handler)
        server.owner = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"ScriptedOpenAIServer:{server.server_address[1]}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, wake hanging handlers and close the socket (idempotent)."""
        server, thread = self._server, self._thread
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        server.server_close()
        server.close_connections()
        if thread is not None:
            thread.join(timeout=5)
        self._server = None
        self._thread = None

    close = stop

    def __enter__(self) -> ScriptedOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- addresses --------------------------------------------------------------
    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the server is not running; use it as a context manager or call start()")
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (no path)."""
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """The OpenAI base URL: ``http://127.0.0.1:PORT/v1``."""
        return f"{self.url}/v1"

    # -- script -------------------------------------------------------------------
    def add_replies(self, *replies: Reply) -> None:
        """Append replies to the chat script."""
        with self._lock:
            self._replies.extend(replies)

    @property
    def remaining(self) -> int:
        """How many scripted chat replies have not been used yet."""
        with self._lock:
            return max(0, len(self._replies) - self._cursor)

    # -- recording ----------------------------------------------------------------
    @property
    def recorded(self) -> list[RecordedRequest]:
        """Every request received (method, path, body, headers), oldest first."""
        with self._lock:
            return list(self._recorded)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Every POST body received (all endpoints), oldest first (a snapshot)."""
        with self._lock:
            return [r.body for r in self._recorded if r.method == "POST"]

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """The bodies sent to ``/chat/completions``."""
        with self._lock:
            return [r.body for r in self._recorded if r.path.endswith("/chat/completions")]

    @property
    def embedding_requests(self) -> list[dict[str, Any]]:
        """The bodies sent to ``/embeddings``."""
        with self._lock:
            return [r.body for r in self._recorded if r.path.endswith("/embeddings")]

    def prompt_text(self, index: int = -1) -> str:
        """All message contents of one chat request joined by newlines (for asserts)."""
        body = self.chat_requests[index]
        messages = cast(list[dict[str, Any]], body.get("messages") or [])
        return "\n".join(_message_text(m.get("content")) for m in messages if isinstance(m, dict))

    def clear(self) -> None:
        """Forget the recorded requests (the script position is kept)."""
        with self._lock:
            self._recorded.clear()

    # -- internals used by the handler ----------------------------------------------
    def _record(self, method: str, path: str, body: dict[str, Any], headers: dict[str, str]) -> None:
        with self._lock:
            self._recorded.append(RecordedRequest(method, path, body, headers, time.time()))

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self._cursor < len(self._replies):
                reply = self._replies[self._cursor]
                self._cursor += 1
                self._last = reply
                return reply
            if self._default is not None:
                return self._default
            if self._last is not None:
                return self._last
            return "{}"

    def _next_embedding_failure(self) -> dict[str, Any] | None:
        with self._lock:
            if self._embedding_failures:
                return self._embedding_failures.pop(0)
            return None

    def _wait(self, seconds: float) -> None:
        self._stopping.wait(max(0.0, seconds))

    def _completion(self, content: str, body: dict[str, Any], finish_reason: str = "stop") -> dict[str, Any]:
        messages = body.get("messages") or []
        prompt_tokens = sum(
            _count_tokens(_message_text(m.get("content"))) for m in messages if isinstance(m, dict)
        )
        completion_tokens = _count_tokens(content)
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": str(body.get("model") or self.model),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "logprobs": None,
                    "finish_reason": finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
