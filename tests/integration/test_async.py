"""AsyncGoodMemory: the same results as the sync core, and per-user write order under concurrency."""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from conftest import SCRIPT, T0  # the scripted life the sync facade tests use
from goodmemory import (
    AsyncGoodMemory,
    GoodMemory,
    InvalidInputError,
    MemoryNotFoundError,
    create_async_good_memory,
    create_good_memory,
    models,
)
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor

TURNS = [
    ("I live in Lisbon.", "s1"),
    ("I prefer a window seat.", "s1"),
    ("My Honda Civic plate is ABC-1234.", "s2"),
    ("I moved to Porto.", "s3"),
]


def _make(path: Path, *, async_: bool) -> Any:
    kw: dict[str, Any] = {"embedder": FakeEmbedder(), "extractor": ScriptedExtractor(SCRIPT),
                          "clock": FrozenClock(T0)}
    url = f"sqlite:///{path}"
    return create_async_good_memory(url, **kw) if async_ else create_good_memory(url, **kw)


def _strip(obj: Any) -> Any:
    """Results without timings (wall-clock), for comparing two runs."""
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in ("timings_ms", "total_ms")}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def _run_sync(mem: GoodMemory) -> list[Any]:
    out: list[Any] = []
    for text, sid in TURNS:
        out.append(mem.remember([{"role": "user", "content": text}], user_id="u1", session_id=sid))
    out.append(mem.recall("where do I live", user_id="u1"))
    ctx = mem.build_context("Book me a hotel near home", user_id="u1", max_tokens=300)
    out.append(ctx)
    city = next(r for r in mem.list(user_id="u1") if r.key == "profile.home_city")
    out.append(mem.get(city.id, user_id="u1"))
    out.append(mem.history(city.id, user_id="u1"))
    out.append(mem.feedback(city.id, "confirm", user_id="u1"))
    out.append(mem.list(user_id="u1", include_history=True))
    exp = mem.export(user_id="u1")
    out.append(exp)
    out.append(mem.import_(exp, user_id="u1-copy"))
    out.append(mem.maintain(user_id="u1"))
    out.append(mem.forget(user_id="u1", key="vehicle.honda_civic.plate", dry_run=True))
    out.append(mem.forget(user_id="u1", key="vehicle.honda_civic.plate"))
    out.append(mem.list(user_id="u1"))
    return out


async def _run_async(mem: AsyncGoodMemory) -> list[Any]:
    out: list[Any] = []
    for text, sid in TURNS:
        out.append(await mem.remember([{"role": "user", "content": text}], user_id="u1", session_id=sid))
    out.append(await mem.recall("where do I live", user_id="u1"))
    out.append(await mem.build_context("Book me a hotel near home", user_id="u1", max_tokens=300))
    city = next(r for r in await mem.list(user_id="u1") if r.key == "profile.home_city")
    out.append(await mem.get(city.id, user_id="u1"))
    out.append(await mem.history(city.id, user_id="u1"))
    out.append(await mem.feedback(city.id, "confirm", user_id="u1"))
    out.append(await mem.list(user_id="u1", include_history=True))
    exp = await mem.export(user_id="u1")
    out.append(exp)
    out.append(await mem.import_(exp, user_id="u1-copy"))
    out.append(await mem.maintain(user_id="u1"))
    out.append(await mem.forget(user_id="u1", key="vehicle.honda_civic.plate", dry_run=True))
    out.append(await mem.forget(user_id="u1", key="vehicle.honda_civic.plate"))
    out.append(await mem.list(user_id="u1"))
    return out


def _dump(results: list[Any]) -> list[Any]:
    return [_strip([r.model_dump(mode="json") for r in x] if isinstance(x, list) else x.model_dump(mode="json"))
            for x in results]


def _seed_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deterministic memory ids, so two runs can be compared field by field."""
    rng = random.Random(42)
    monkeypatch.setattr(models.uuid, "uuid4", lambda: uuid.UUID(int=rng.getrandbits(128)))


def test_async_results_equal_sync_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _seed_ids(monkeypatch)
    sync_mem = _make(tmp_path / "sync.db", async_=False)
    try:
        expected = _dump(_run_sync(sync_mem))
    finally:
        sync_mem.close()

    _seed_ids(monkeypatch)

    async def main() -> list[Any]:
        async with _make(tmp_path / "async.db", async_=True) as amem:
            assert isinstance(amem, AsyncGoodMemory)
            return await _run_async(amem)

    got = _dump(asyncio.run(main()))
    assert len(got) == len(expected) == 16
    for i, (a, b) in enumerate(zip(got, expected, strict=True)):
        assert a == b, f"result {i} differs"


def test_fifty_concurrent_remembers_for_one_user_land_in_issue_order(tmp_path: Path) -> None:
    mem = create_good_memory(f"sqlite:///{tmp_path / 'order.db'}", embedder=FakeEmbedder())
    order: list[str] = []
    lock = threading.Lock()
    inner = mem.remember

    def recording_remember(messages: Any, **kw: Any) -> Any:
        # vary the work so a naive thread pool would finish out of order
        text = messages[0]["content"]
        n = int(text.split()[-1])
        time.sleep(0.002 * ((n * 7) % 5))
        if kw["user_id"] == "u1":
            with lock:
                order.append(text)
        return inner(messages, **kw)

    mem.remember = recording_remember  # type: ignore[method-assign]
    amem = AsyncGoodMemory(mem, executor=ThreadPoolExecutor(max_workers=8))
    texts = [f"note number {i}" for i in range(50)]

    async def main() -> list[Any]:
        tasks = [asyncio.create_task(amem.remember([{"role": "user", "content": t}], user_id="u1",
                                                   session_id="s"))
                 for t in texts]
        # another user is not blocked behind u1's queue
        other = await amem.remember([{"role": "user", "content": "note number 0"}], user_id="u2")
        results = await asyncio.gather(*tasks)
        return [other, *results]

    try:
        results = asyncio.run(main())
    finally:
        mem.close()
    assert order == texts
    assert len(results) == 51


def test_stored_order_matches_issue_order(tmp_path: Path) -> None:
    """The episodes of one session come back in the order the remember() calls were issued."""
    amem = create_async_good_memory(f"sqlite:///{tmp_path / 'o.db'}", embedder=FakeEmbedder())  # wall clock
    texts = [f"step {i} of the plan" for i in range(50)]

    async def main() -> list[str]:
        await asyncio.gather(*(amem.remember([{"role": "user", "content": t}], user_id="u1", session_id="s")
                               for t in texts))
        recs = await amem.list(user_id="u1", kinds=["episode"])
        await amem.close()
        return [r.text for r in sorted(recs, key=lambda r: r.created_at)
                if not r.key.startswith("episode.digest.")]

    stored = asyncio.run(main())
    assert [t.split(": ", 1)[-1] for t in stored] == texts


def test_errors_and_lifecycle() -> None:
    async def main() -> None:
        amem = create_async_good_memory("sqlite://", embedder=FakeEmbedder())
        with pytest.raises(MemoryNotFoundError):
            await amem.get("nope", user_id="u1")
        with pytest.raises(InvalidInputError):
            await amem.remember([{"role": "user", "content": "hi"}], user_id="")
        with pytest.raises(InvalidInputError):
            await amem.recall("x", user_id=123)  # type: ignore[arg-type]
        assert (await amem.maintain()).model_dump() is not None
        await amem.close()
        with pytest.raises(InvalidInputError, match="closed"):
            await amem.recall("x", user_id="u1")

    asyncio.run(main())
    with pytest.raises(InvalidInputError):
        AsyncGoodMemory("not a memory")  # type: ignore[arg-type]
