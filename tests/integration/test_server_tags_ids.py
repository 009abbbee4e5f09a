"""goodmemory-server under a real uvicorn on loopback: tags in every body and query that selects memories,
and the CLI's short ids (unique prefixes) wherever a path takes a memory id, resolved in the key's user only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="needs the server extra: pip install 'goodmemory[server]'")
import httpx  # noqa: E402
from test_server import serving  # noqa: E402

from conftest import SCRIPT, T0  # noqa: E402
from goodmemory import GoodMemory, create_good_memory  # noqa: E402
from goodmemory.integrations.server import create_app  # noqa: E402
from goodmemory.storage.base import WriteBatch  # noqa: E402
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor  # noqa: E402
from goodmemory.testing.conformance import make_record  # noqa: E402

KEYS = {"key-ana-0123456789abcdef": "ana", "key-ben-0123456789abcdef": "ben"}
ANA, BEN = list(KEYS)


@pytest.fixture
def served(tmp_path: Any) -> Iterator[tuple[str, GoodMemory]]:
    memory = create_good_memory(f"sqlite:///{tmp_path / 'gm.db'}", embedder=FakeEmbedder(),
                                extractor=ScriptedExtractor(SCRIPT), clock=FrozenClock(T0))
    with serving(create_app(memory, api_keys=KEYS)) as url:
        yield url, memory
    memory.close()


def _client(base: str, key: str) -> httpx.Client:
    return httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60)


def _ok(r: httpx.Response) -> Any:
    assert r.status_code == 200, r.text
    return r.json()


def test_tags_through_the_rest_api(served: tuple[str, GoodMemory]) -> None:
    base, _ = served
    with _client(base, ANA) as a, _client(base, BEN) as b:
        said = _ok(a.post("/v1/remember", json={"messages": [{"role": "user", "content": "I live in Lisbon."}],
                                                 "tags": ["home"]}))
        _ok(a.post("/v1/remember", json={"messages": [{"role": "user", "content": "My Honda Civic plate is ABC-1234."}]}))
        _ok(b.post("/v1/remember", json={"messages": [{"role": "user", "content": "I live in Lisbon."}],
                                          "tags": ["home"]}))
        ids = {m["id"] for m in said["memories"]}
        assert ids and all(m["tags"] == ["home"] for m in said["memories"])
        assert {m["id"] for m in _ok(a.get("/v1/memories", params={"tag": ["home"]}))} == ids
        hits = _ok(a.post("/v1/recall", json={"query": "Lisbon plate", "tags": ["home"]}))["hits"]
        assert hits and {h["memory"]["id"] for h in hits} <= ids
        ctx = _ok(a.post("/v1/context", json={"query": "what is my plate", "tags": ["home"]}))
        assert "ABC-1234" not in ctx["text"]
        assert {m["id"] for m in _ok(a.get("/v1/export", params={"tag": "home"}))["memories"]} == ids
        bad = a.post("/v1/recall", json={"query": "x", "tags": ["x" * 100]})
        assert bad.status_code == 422 and "tag" in bad.json()["detail"]
        gone = _ok(a.post("/v1/forget", json={"tags": ["home"]}))
        assert set(gone["memory_ids"]) == ids
        assert _ok(a.get("/v1/memories", params={"tag": "home"})) == []
        assert len(_ok(b.get("/v1/memories", params={"tag": "home"}))) == len(ids)  # ben's stay


def test_short_ids_on_every_id_path_scoped_to_the_keys_user(served: tuple[str, GoodMemory]) -> None:
    base, memory = served
    ana1, ana2 = (make_record("ana", f"Ana note {i}", key=f"fact.note{i}", id=f"abcdef{i:02d}" + "0" * 24)
                  for i in (1, 2))
    ben3 = make_record("ben", "Ben note", key="fact.note3", id="abcdef03" + "0" * 24)
    lone = make_record("ana", "Ana lone note", key="fact.lone", id="123456789" + "0" * 23)
    memory.storage.write("ana", WriteBatch(inserts=[ana1, ana2, lone]))
    memory.storage.write("ben", WriteBatch(inserts=[ben3]))
    with _client(base, ANA) as a, _client(base, BEN) as b:
        amb = a.get("/v1/memories/abcdef")
        assert amb.status_code == 422
        assert ana1.id in amb.json()["detail"] and ana2.id in amb.json()["detail"]
        assert ben3.id not in amb.json()["detail"]  # a prefix never matches another user's ids
        assert a.get("/v1/memories/abcdef03").status_code == 404
        assert _ok(b.get("/v1/memories/abcdef"))["id"] == ben3.id  # ben has one: unique for him
        assert a.get("/v1/memories/abc").status_code == 422  # too short to be a context's short id
        assert _ok(a.get("/v1/memories/abcdef01"))["id"] == ana1.id
        assert _ok(a.get("/v1/memories/1234567/history"))[-1]["memory"]["id"] == lone.id
        fb = _ok(a.post("/v1/memories/abcdef02/feedback", json={"signal": "confirm"}))
        assert fb["memory_id"] == ana2.id
        assert _ok(a.delete("/v1/memories/1234567"))["memory_ids"] == [lone.id]
        assert b.delete("/v1/memories/abcdef01").status_code == 404  # ana's, not ben's to delete
        assert memory.get(ana1.id, user_id="ana").id == ana1.id
