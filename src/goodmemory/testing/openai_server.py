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

import threading
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from ._openai_http import RecordedRequest, _count_tokens, _Handler, _message_text, _Server, hash_embedding

__all__ = ["RecordedRequest", "Reply", "ScriptedOpenAIServer", "hash_embedding"]

#: One scripted answer (see the module docstring).
Reply = str | dict[str, Any] | Callable[[dict[str, Any]], Any]


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
