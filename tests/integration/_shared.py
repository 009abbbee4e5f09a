"""Helpers that several integration modules share (import them like ``conftest``'s ``SCRIPT``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import create_engine, text

from conftest import SCRIPT, T0
from goodmemory import GoodMemory, MemoryRecord, MemoryStatus, create_good_memory
from goodmemory.storage import _schema as S
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor

R = TypeVar("R")


@pytest.fixture(name="mem", scope="module")
def module_mem(request: pytest.FixtureRequest) -> Iterator[GoodMemory]:
    """One real GoodMemory (MiniLM, rules, in-memory SQLite) shared by a test module, its clock frozen at the
    module's ``NOW``: for modules whose tests each use their own user ids. A module that imports it gets it as
    its ``mem``, in place of conftest's ``mem`` (which runs each test on three adapters)."""
    with create_good_memory("sqlite://", clock=FrozenClock(request.module.NOW)) as m:
        yield m


def say(mem: GoodMemory, user: str, at: datetime, *texts: str, **kw: Any) -> None:
    """The user says ``texts`` (one turn each, one remember call) at ``at``; ``kw`` goes to ``remember``."""
    mem.remember([{"role": "user", "content": t} for t in texts], user_id=user, at=at, **kw)


def current(mem: GoodMemory, user: str) -> list[MemoryRecord]:
    """The user's active memories other than raw turns, in export order."""
    return [r for r in mem.export(user_id=user).memories
            if r.status == MemoryStatus.ACTIVE and r.kind.value != "episode"]


# -- the migration tests: a store built at an older schema version, and the scripted life that fills it


def open_scripted(storage: Any, **kw: Any) -> GoodMemory:
    """A GoodMemory living conftest's scripted life (fake embedder, ``SCRIPT``, clock at ``T0``) on ``storage``."""
    return create_good_memory(storage, embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT),
                              clock=FrozenClock(T0), **kw)


def in_transaction(url: str, work: Callable[[Any], R], *, schema: str | None = None) -> R:
    """``work(conn)`` in one transaction on a new engine of ``url`` (in PostgreSQL schema ``schema``), then the
    engine is disposed."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            if schema is not None:
                conn.execute(text(f'SET LOCAL search_path TO "{schema}"'))
            return work(conn)
    finally:
        engine.dispose()


def sqlite_at_version(db: Path, version: int) -> Path:
    """A new SQLite file that the migrations built up to ``version``: what a store of that version is."""
    in_transaction(f"sqlite:///{db}", lambda conn: S.migrate(conn, "fts5", target=version))
    return db


def sqlite_schema(db: Path) -> list[tuple[str, str, str]]:
    """Every table and index of an SQLite file (type, name, SQL), SQLite's own left out."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
                            "ORDER BY name").fetchall()
    finally:
        conn.close()
