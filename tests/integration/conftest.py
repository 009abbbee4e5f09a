from __future__ import annotations

import asyncio
import os
import uuid
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from goodmemory import Candidate, GoodMemory, MemoryKind, create_good_memory
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)

SCRIPT = {
    "I live in Lisbon.": [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value="Lisbon",
                                    text="User's home city is Lisbon.", confidence=0.9)],
    "I moved to Porto.": [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value="Porto",
                                    text="User's home city is Porto.", confidence=0.9, is_correction=True)],
    "I prefer a window seat.": [Candidate(kind=MemoryKind.PREFERENCE, key="preference.travel.seat", value="window",
                                          text="User prefers a window seat on flights.", transferable=False,
                                          confidence=0.85)],
    "My Honda Civic plate is ABC-1234.": [Candidate(kind=MemoryKind.FACT, key="vehicle.honda_civic.plate",
                                                    value="ABC-1234", text="User's Honda Civic plate is ABC-1234.",
                                                    confidence=0.9)],
    "Keep answers short please.": [Candidate(kind=MemoryKind.PREFERENCE, key="preference.communication.length",
                                             value="short", text="User wants short answers.", confidence=0.9)],
}


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema name per test, dropped afterwards (skips without a test server)."""
    url = os.environ.get("GOODMEMORY_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("GOODMEMORY_TEST_POSTGRES_URL is not set")
    from sqlalchemy import create_engine, text

    name = f"gm_test_{uuid.uuid4().hex[:12]}"
    yield name
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
    engine.dispose()


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(T0)


@pytest.fixture(params=["sqlite-memory", "sqlite-file", "in-memory"])
def mem(request: pytest.FixtureRequest, tmp_path: Path, clock: FrozenClock) -> Iterator[GoodMemory]:
    from goodmemory.storage.memory import InMemoryStorage

    storage: object
    if request.param == "sqlite-memory":
        storage = "sqlite://"
    elif request.param == "sqlite-file":
        storage = f"sqlite:///{tmp_path / 'gm.db'}"
    else:
        storage = InMemoryStorage()
    m = create_good_memory(storage, embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT),  # type: ignore[arg-type]
                           clock=clock)
    yield m
    m.close()


def close_thread_event_loop() -> None:
    """Close the event loop a library left set (and open) on this thread: Runner.run_sync and LlamaIndex's sync
    calls do. Left alone, it is freed and reported as unclosed whenever a later test replaces the thread's loop."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            loop = asyncio.get_event_loop_policy().get_event_loop()
        except RuntimeError:
            return
    if not loop.is_running():
        loop.close()
        asyncio.set_event_loop(None)
