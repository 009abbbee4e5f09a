"""ScriptedOpenAIServer: a real loopback server speaking the OpenAI protocol."""

from __future__ import annotations

import base64
import http.client
import json
import socket
import struct
import threading
import time
from collections.abc import Iterator
from typing import Any

import openai
import pytest

from goodmemory.testing.openai_server import ScriptedOpenAIServer, hash_embedding

pytestmark = pytest.mark.unit


def _post(
    srv: ScriptedOpenAIServer, path: str, body: Any, timeout: float = 5.0
) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=timeout)
    try:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        conn.request("POST", path, body=raw, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        data = resp.read()
        try:
            parsed = json.loads(data) if data else {}
        except ValueError:
            parsed = {"_raw": data.decode()}
        return resp.status, parsed
    finally:
        conn.close()


def _chat(srv: ScriptedOpenAIServer, content: str = "hi", **extra: Any) -> tuple[int, dict[str, Any]]:
    return _post(
        srv,
        "/v1/chat/completions",
        {"model": "m1", "messages": [{"role": "user", "content": content}], **extra},
    )


@pytest.fixture
def oai() -> Iterator[tuple[ScriptedOpenAIServer, openai.OpenAI]]:
    with ScriptedOpenAIServer(replies=["hello there"], dim=16) as srv:
        client = openai.OpenAI(base_url=srv.base_url, api_key="test", max_retries=0, timeout=5)
        try:
            yield srv, client
        finally:
            client.close()


def test_base_url_is_loopback_with_ephemeral_port() -> None:
    with ScriptedOpenAIServer() as srv:
        assert srv.base_url == f"http://127.0.0.1:{srv.port}/v1"
        assert srv.port > 0


def test_chat_completion_has_the_exact_openai_shape() -> None:
    with ScriptedOpenAIServer(replies=["hello there"]) as srv:
        status, body = _chat(srv, "say hi")
    assert status == 200
    assert set(body) == {"id", "object", "created", "model", "choices", "usage"}
    assert body["object"] == "chat.completion"
    assert body["id"].startswith("chatcmpl-")
    assert isinstance(body["created"], int)
    assert body["model"] == "m1"
    (choice,) = body["choices"]
    assert choice["index"] == 0
    assert choice["message"] == {"role": "assistant", "content": "hello there"}
    assert choice["finish_reason"] == "stop"
    usage = body["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_the_real_openai_client_parses_chat_replies(oai: tuple[ScriptedOpenAIServer, openai.OpenAI]) -> None:
    srv, client = oai
    resp = client.chat.completions.create(model="m1", messages=[{"role": "user", "content": "hi"}])
    assert resp.choices[0].message.content == "hello there"
    assert resp.object == "chat.completion"
    assert srv.requests[0]["messages"] == [{"role": "user", "content": "hi"}]
    assert srv.prompt_text() == "hi"


def test_replies_are_consumed_in_order_then_the_last_repeats() -> None:
    with ScriptedOpenAIServer(replies=["one", "two"]) as srv:
        got = [_chat(srv)[1]["choices"][0]["message"]["content"] for _ in range(4)]
        assert srv.remaining == 0
    assert got == ["one", "two", "two", "two"]


def test_default_answers_once_the_script_is_exhausted() -> None:
    def echo(req: dict[str, Any]) -> str:
        return "echo:" + req["messages"][-1]["content"]

    with ScriptedOpenAIServer(replies=["first"], default=echo) as srv:
        assert _chat(srv, "a")[1]["choices"][0]["message"]["content"] == "first"
        assert _chat(srv, "b")[1]["choices"][0]["message"]["content"] == "echo:b"
        assert _chat(srv, "c")[1]["choices"][0]["message"]["content"] == "echo:c"


def test_callable_replies_see_the_request_json() -> None:
    with ScriptedOpenAIServer(replies=[lambda req: f"model={req['model']}"]) as srv:
        assert _chat(srv)[1]["choices"][0]["message"]["content"] == "model=m1"


def test_a_callable_may_return_an_error_reply() -> None:
    with ScriptedOpenAIServer(replies=[lambda req: {"status": 503}]) as srv:
        assert _chat(srv)[0] == 503


def test_status_replies_send_openai_style_errors() -> None:
    with ScriptedOpenAIServer(
        replies=[{"status": 429}, {"status": 500, "body": {"error": {"message": "boom"}}}]
    ) as srv:
        status, body = _chat(srv)
        assert status == 429
        assert body["error"]["type"] == "rate_limit_exceeded"
        status, body = _chat(srv)
        assert status == 500
        assert body == {"error": {"message": "boom"}}
        assert len(srv.requests) == 2


def test_status_replies_surface_as_openai_errors() -> None:
    with ScriptedOpenAIServer(replies=[{"status": 429}, {"status": 502}]) as srv:
        client = openai.OpenAI(base_url=srv.base_url, api_key="test", max_retries=0, timeout=5)
        try:
            with pytest.raises(openai.RateLimitError):
                client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
            with pytest.raises(openai.InternalServerError):
                client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
        finally:
            client.close()


def test_status_200_with_raw_body_simulates_a_broken_response() -> None:
    with ScriptedOpenAIServer(replies=[{"status": 200, "body": "not json"}]) as srv:
        status, body = _chat(srv)
    assert status == 200
    assert body == {"_raw": "not json"}


def test_content_dict_sets_the_finish_reason() -> None:
    with ScriptedOpenAIServer(replies=[{"content": "cut", "finish_reason": "length"}]) as srv:
        choice = _chat(srv)[1]["choices"][0]
    assert choice["message"]["content"] == "cut"
    assert choice["finish_reason"] == "length"


def test_hang_delays_the_answer_then_replies() -> None:
    with ScriptedOpenAIServer(replies=[{"hang": 0.3, "reply": "late"}]) as srv:
        start = time.monotonic()
        status, body = _chat(srv)
        elapsed = time.monotonic() - start
    assert status == 200
    assert body["choices"][0]["message"]["content"] == "late"
    assert elapsed >= 0.3


def test_hang_makes_clients_time_out_and_shutdown_stays_fast() -> None:
    srv = ScriptedOpenAIServer(replies=[{"hang": 30}])
    srv.start()
    try:
        client = openai.OpenAI(base_url=srv.base_url, api_key="test", max_retries=0, timeout=0.3)
        try:
            with pytest.raises(openai.APITimeoutError):
                client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
        finally:
            client.close()
    finally:
        start = time.monotonic()
        srv.stop()
    assert time.monotonic() - start < 3


def test_embeddings_are_deterministic_unit_vectors(oai: tuple[ScriptedOpenAIServer, openai.OpenAI]) -> None:
    srv, client = oai
    first = client.embeddings.create(model="emb", input=["alpha", "beta"])
    again = client.embeddings.create(model="emb", input="alpha")
    assert first.object == "list"
    assert first.model == "emb"
    assert [d.index for d in first.data] == [0, 1]
    assert all(d.object == "embedding" for d in first.data)
    a, b = first.data[0].embedding, first.data[1].embedding
    assert len(a) == 16
    assert a == again.data[0].embedding
    assert a != b
    assert sum(x * x for x in a) == pytest.approx(1.0)
    assert a == pytest.approx(hash_embedding("alpha", 16))
    assert len(srv.embedding_requests) == 2
    assert srv.chat_requests == []


def test_embeddings_honour_dimensions_and_base64() -> None:
    with ScriptedOpenAIServer(dim=8) as srv:
        status, body = _post(srv, "/v1/embeddings", {"model": "e", "input": "x", "dimensions": 4})
        assert status == 200
        assert len(body["data"][0]["embedding"]) == 4
        status, body = _post(srv, "/v1/embeddings", {"model": "e", "input": "x", "encoding_format": "base64"})
        raw = base64.b64decode(body["data"][0]["embedding"])
        assert list(struct.unpack("<8f", raw)) == pytest.approx(hash_embedding("x", 8), abs=1e-6)
        assert body["usage"] == {"prompt_tokens": 1, "total_tokens": 1}


def test_embedding_failures_are_scripted_separately() -> None:
    with ScriptedOpenAIServer(embedding_failures=[{"status": 429}, None]) as srv:
        assert _post(srv, "/v1/embeddings", {"model": "e", "input": "x"})[0] == 429
        assert _post(srv, "/v1/embeddings", {"model": "e", "input": "x"})[0] == 200
        assert _post(srv, "/v1/embeddings", {"model": "e", "input": "x"})[0] == 200


def test_unknown_paths_and_bad_json_get_errors() -> None:
    with ScriptedOpenAIServer() as srv:
        assert _post(srv, "/v1/nope", {})[0] == 404
        status, body = _post(srv, "/v1/chat/completions", b"{not json")
        assert status == 400
        assert "error" in body
        assert srv.requests[-1] == {"_invalid_json": True}


def test_models_endpoint_lists_the_model() -> None:
    with ScriptedOpenAIServer(model="tiny") as srv:
        client = openai.OpenAI(base_url=srv.base_url, api_key="test", max_retries=0, timeout=5)
        try:
            assert [m.id for m in client.models.list()] == ["tiny"]
        finally:
            client.close()


def test_requests_are_recorded_thread_safely() -> None:
    with ScriptedOpenAIServer(default=lambda req: req["messages"][0]["content"]) as srv:
        results: list[str] = []
        lock = threading.Lock()

        def worker(i: int) -> None:
            status, body = _chat(srv, f"m{i}")
            assert status == 200
            with lock:
                results.append(body["choices"][0]["message"]["content"])

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == sorted(f"m{i}" for i in range(20))
        assert sorted(r["messages"][0]["content"] for r in srv.requests) == sorted(results)
        snapshot = srv.requests
        snapshot.clear()
        assert len(srv.requests) == 20
        srv.clear()
        assert srv.requests == []


def test_stop_closes_the_port_and_is_idempotent() -> None:
    srv = ScriptedOpenAIServer()
    with srv:
        port = srv.port
        assert _chat(srv)[0] == 200
    srv.stop()
    with pytest.raises(RuntimeError):
        _ = srv.base_url
    with socket.socket() as s:
        s.settimeout(1)
        assert s.connect_ex(("127.0.0.1", port)) != 0


def test_keep_alive_connections_do_not_block_shutdown(
    oai: tuple[ScriptedOpenAIServer, openai.OpenAI],
) -> None:
    srv, client = oai
    client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
    start = time.monotonic()
    srv.stop()  # the client still holds a pooled connection
    assert time.monotonic() - start < 2
