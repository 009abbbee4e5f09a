"""goodmemory-server: the REST app under a real uvicorn on loopback, driven with httpx.

The default parts (rule extractor, packaged MiniLM, a SQLite file); two API keys for two users; every route, the
errors a client can cause, and a soak of 50 concurrent clients checking that no response ever carries another
user's memory.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="needs the server extra: pip install 'goodmemory[server]'")
import httpx  # noqa: E402
import uvicorn  # noqa: E402

from goodmemory import create_good_memory  # noqa: E402
from goodmemory.errors import ConfigurationError  # noqa: E402
from goodmemory.integrations.server import create_app, load_api_keys  # noqa: E402

KEY_A = "key-ana-0123456789abcdef"
KEY_B = "key-ben-0123456789abcdef"
SOAK_SECONDS = float(os.environ.get("GOODMEMORY_SERVER_SOAK_SECONDS", "30"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` under a real uvicorn on a free loopback port; yields its base URL."""
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("server") / "gm.db"
    memory = create_good_memory(f"sqlite:///{db}")
    with serving(create_app(memory, api_keys={KEY_A: "ana", KEY_B: "ben"})) as url:
        yield url
    memory.close()


def _client(base_url: str, key: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.Client(base_url=base_url, headers=headers, timeout=60)


def _remember(c: httpx.Client, text: str, session: str = "s1") -> dict:
    r = c.post("/v1/remember", json={"messages": [{"role": "user", "content": text}], "session_id": session})
    assert r.status_code == 200, r.text
    return r.json()


def test_health_and_openapi_need_no_key(base_url: str) -> None:
    with _client(base_url, None) as c:
        assert c.get("/v1/health").json()["status"] == "ok"
        paths = c.get("/openapi.json").json()["paths"]
    for path in ("/v1/remember", "/v1/recall", "/v1/context", "/v1/memories/{memory_id}/feedback",
                 "/v1/forget", "/v1/export", "/v1/import", "/v1/memories/{memory_id}/history"):
        assert path in paths


@pytest.mark.parametrize("key", [None, "not-a-key-0123456789", KEY_A + "x"], ids=["none", "unknown", "longer"])
def test_every_memory_route_refuses_a_missing_or_unknown_key(base_url: str, key: str | None) -> None:
    with _client(base_url, key) as c:
        calls = [c.post("/v1/remember", json={"messages": [{"role": "user", "content": "I live in Oslo."}]}),
                 c.post("/v1/recall", json={"query": "home"}), c.post("/v1/context", json={"query": "home"}),
                 c.get("/v1/memories"), c.get("/v1/export"), c.post("/v1/forget", json={"all": True})]
    assert [r.status_code for r in calls] == [401] * len(calls)
    assert all(r.json()["error"] == "_Unauthorized" or "API key" in r.json()["detail"] for r in calls)
    assert calls[0].headers["www-authenticate"] == "Bearer"


def test_the_key_names_the_user_and_a_body_cannot(base_url: str) -> None:
    with _client(base_url, KEY_A) as ana, _client(base_url, KEY_B) as ben:
        wrote = _remember(ana, "I live in Tromsø and I work as a ferry pilot.")
        assert any(d["action"] == "add" for d in wrote["decisions"])
        # a user_id in the body is refused, not obeyed
        r = ben.post("/v1/recall", json={"query": "where do I live", "user_id": "ana"})
        assert r.status_code == 422 and "user_id" in r.json()["detail"]
        assert "Tromsø" in ana.post("/v1/context", json={"query": "where do I live?"}).json()["text"]
        assert "Tromsø" not in ben.post("/v1/context", json={"query": "where do I live?"}).text
        assert "Tromsø" not in ben.get("/v1/export").text
        # ana's ids are not ben's: get, history, feedback and delete all say 404, and nothing of ana's changes
        ana_ids = [m["id"] for m in ana.get("/v1/memories").json()]
        assert ana_ids
        for mid in ana_ids:
            assert ben.get(f"/v1/memories/{mid}").status_code == 404
            assert ben.get(f"/v1/memories/{mid}/history").status_code == 404
            assert ben.post(f"/v1/memories/{mid}/feedback", json={"signal": "reject"}).status_code == 404
            assert ben.delete(f"/v1/memories/{mid}").status_code == 404
        assert sorted(m["id"] for m in ana.get("/v1/memories").json()) == sorted(ana_ids)


def test_recall_feedback_history_and_forget_one(base_url: str) -> None:
    with _client(base_url, KEY_A) as ana:
        _remember(ana, "My dentist is Dr. Kowalczyk.", session="s2")
        hits = ana.post("/v1/recall", json={"query": "who is my dentist", "limit": 5}).json()["hits"]
        hit = next(h for h in hits if "Kowalczyk" in h["memory"]["text"])
        mid = hit["memory"]["id"]
        assert hit["reasons"]
        fb = ana.post(f"/v1/memories/{mid}/feedback", json={"signal": "confirm"})
        assert fb.status_code == 200, fb.text
        assert ana.get(f"/v1/memories/{mid}/history").json()[-1]["memory"]["id"] == mid
        receipt = ana.delete(f"/v1/memories/{mid}")
        assert receipt.status_code == 200 and sum(receipt.json()["deleted"].values()) >= 1
        assert ana.get(f"/v1/memories/{mid}").status_code == 404
        assert "Kowalczyk" not in ana.post("/v1/context", json={"query": "who is my dentist"}).json()["text"]


@pytest.mark.parametrize(
    ("route", "body", "needle"),
    [
        ("/v1/remember", {"messages": [{"role": "user", "content": 5}]}, "content"),
        ("/v1/remember", {"messages": "I live in Oslo"}, "messages"),
        ("/v1/remember", {"messages": [{"role": "wizard", "content": "hi"}]}, "role"),
        ("/v1/recall", {"query": "x", "limit": 0}, "limit"),
        ("/v1/context", {"query": "x", "max_tokens": -5}, "max_tokens"),
        ("/v1/recall", {"query": "x", "kinds": ["nonsense"]}, "kinds"),
        ("/v1/forget", {}, "all="),
    ],
    ids=["content-not-text", "messages-not-a-list", "bad-role", "limit-0", "negative-budget", "bad-kind", "forget-all"],
)
def test_bad_input_is_a_4xx_with_the_reason_and_no_trace(base_url: str, route: str, body: dict, needle: str) -> None:
    with _client(base_url, KEY_B) as ben:
        before = ben.get("/v1/export").json()["memories"]
        r = ben.post(route, json=body)
        after = ben.get("/v1/export").json()["memories"]
    assert r.status_code == 422, r.text
    assert needle in r.json()["detail"]
    assert "Traceback" not in r.text and 'File "' not in r.text
    assert after == before


def test_malformed_json_and_unknown_memory(base_url: str) -> None:
    with _client(base_url, KEY_B) as ben:
        r = ben.post("/v1/recall", content=b"{not json", headers={"Content-Type": "application/json"})
        assert r.status_code == 422 and "Traceback" not in r.text
        missing = ben.get("/v1/memories/does-not-exist")
        assert missing.status_code == 404 and missing.json()["error"] == "MemoryNotFoundError"


def test_export_import_lands_in_the_callers_scope(base_url: str) -> None:
    with _client(base_url, KEY_A) as ana, _client(base_url, KEY_B) as ben:
        _remember(ana, "My cat is called Pixel.", session="s3")
        exported = ana.get("/v1/export").json()
        assert any("Pixel" in m["text"] for m in exported["memories"])
        r = ben.post("/v1/import", json=exported)
        assert r.status_code == 200, r.text
        assert any("Pixel" in m["text"] for m in ben.get("/v1/export").json()["memories"])
        # ana still has hers: the import copied into ben's scope, it did not move anything
        assert any("Pixel" in m["text"] for m in ana.get("/v1/export").json()["memories"])
        gone = ben.post("/v1/forget", json={"all": True})
        assert gone.status_code == 200
        assert ben.get("/v1/export").json()["memories"] == []
        assert any("Pixel" in m["text"] for m in ana.get("/v1/export").json()["memories"])


def test_api_keys_from_env_and_file(tmp_path: Path) -> None:
    assert load_api_keys(env={"GOODMEMORY_API_KEYS": f"{KEY_A}=ana, {KEY_B}=ben"}) == {KEY_A: "ana", KEY_B: "ben"}
    f = tmp_path / "keys.json"
    f.write_text(json.dumps({KEY_A: "ana"}))
    assert load_api_keys(f) == {KEY_A: "ana"}
    for env in ({}, {"GOODMEMORY_API_KEYS": "short=ana"}, {"GOODMEMORY_API_KEYS": "no-equals-sign-here-at-all"}):
        with pytest.raises(ConfigurationError):
            load_api_keys(env=env)


def test_the_command_fails_in_one_line_without_keys(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "GOODMEMORY_API_KEYS"}
    proc = subprocess.run([sys.executable, "-m", "goodmemory.integrations.server", "--url",
                           f"sqlite:///{tmp_path / 'x.db'}"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "API keys" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_fifty_concurrent_clients_no_errors_no_cross_user_reads(tmp_path: Path) -> None:
    """50 clients, 10 users, for SOAK_SECONDS: each writes its own marker word and reads its context back."""
    users = [f"user{i}" for i in range(10)]
    keys = {f"soak-key-{u}-0123456789": u for u in users}
    markers = {u: f"Zq{u}marker" for u in users}  # a made-up word no other user ever says
    memory = create_good_memory(f"sqlite:///{tmp_path / 'soak.db'}")
    app = create_app(memory, api_keys=keys)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    stats = {"requests": 0, "errors": [], "leaks": []}

    async def client(n: int) -> None:
        key, user = list(keys.items())[n % len(users)]
        others = [m for u, m in markers.items() if u != user]
        async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=120) as c:
            step = 0
            while time.monotonic() < stop:
                if step % 4 == 0:
                    body = {"messages": [{"role": "user", "content": f"My project codename is {markers[user]}."}],
                            "session_id": f"c{n}"}
                    r = await c.post("/v1/remember", json=body)
                elif step % 4 == 1:
                    r = await c.post("/v1/recall", json={"query": "project codename", "limit": 5})
                else:
                    r = await c.post("/v1/context", json={"query": "what is my project codename?",
                                                          "max_tokens": 300})
                stats["requests"] += 1
                if r.status_code != 200:
                    stats["errors"].append((r.status_code, r.text[:200]))
                elif any(m in r.text for m in others):
                    stats["leaks"].append((user, r.text[:200]))
                step += 1

    async def run() -> None:
        await asyncio.gather(*(client(n) for n in range(50)))

    stop = time.monotonic() + SOAK_SECONDS
    try:
        asyncio.run(run())
    finally:
        server.should_exit = True
        thread.join(timeout=60)
        memory.close()
    assert stats["errors"] == []
    assert stats["leaks"] == []
    assert stats["requests"] >= 50
    # every user's marker is stored and each user sees only their own
    check = create_good_memory(f"sqlite:///{tmp_path / 'soak.db'}")
    try:
        for u in users:
            texts = " ".join(m.text for m in check.list(user_id=u))
            assert markers[u] in texts
            assert not any(m in texts for v, m in markers.items() if v != u)
    finally:
        check.close()
