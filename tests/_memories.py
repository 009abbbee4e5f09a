"""Helpers that tests of several tiers share (importable as ``_memories``: pytest puts ``tests/`` on the path for
its ``conftest.py``)."""

from __future__ import annotations

from typing import Literal

from goodmemory import GoodMemory, MemoryKind, MemoryStatus


def current_and_replaced(mem: GoodMemory, user_id: str, field: Literal["text", "value"] = "text") -> tuple[str, str]:
    """The ``field`` of ``user_id``'s active memories and of the ones a later value superseded, each joined by spaces
    (episodes left out): what a test of a change asserts the new and the old value in."""
    rows = [r for r in mem.list(user_id=user_id, include_history=True) if r.kind != MemoryKind.EPISODE]
    return (" ".join(getattr(r, field) for r in rows if r.status == MemoryStatus.ACTIVE),
            " ".join(getattr(r, field) for r in rows if r.status == MemoryStatus.SUPERSEDED))


def active_records_after(*sessions: str | list[str], days: int = 40,
                         kinds: list[str] | None = None) -> list[tuple[str, str]]:
    """The (key, value) of a fresh user's active memories (episodes left out) after ``sessions`` told ``days`` apart,
    each a user's turn or a list of turns (one starting "A: " is the assistant's), on a fresh in-memory SQLite store:
    what a test of where a value is filed asserts on."""
    from datetime import UTC, datetime, timedelta

    from goodmemory import create_good_memory
    from goodmemory.testing import FrozenClock

    t0 = datetime(2025, 1, 6, 9, tzinfo=UTC)
    mem = create_good_memory("sqlite://", clock=FrozenClock(t0 + timedelta(days=days * len(sessions) + 30)))
    for i, turns in enumerate(sessions):
        said = [turns] if isinstance(turns, str) else turns
        mem.remember([{"role": "assistant", "content": t[3:]} if t.startswith("A: ") else {"role": "user", "content": t}
                      for t in said], user_id="u", at=t0 + timedelta(days=days * i))
    out = [(r.key, r.value) for r in mem.list(user_id="u", kinds=kinds) if r.kind != MemoryKind.EPISODE]
    mem.close()
    return out


def active_after(*sessions: str | list[str], days: int = 40, kinds: list[str] | None = None) -> list[str]:
    """The values of :func:`active_records_after`: what a test of a change or of a value that must stay asserts on."""
    return [value for _, value in active_records_after(*sessions, days=days, kinds=kinds)]


def assert_holds(values: list[str], *words: str) -> None:
    """What a test of a value that must be kept asserts on ``values`` (from :func:`active_after`): each of ``words``
    is in some current memory."""
    for word in words:
        assert any(word in v for v in values), (word, values)


def assert_gone(values: list[str], *words: str) -> None:
    """What a test of a value that must have ended asserts on ``values``: none of ``words`` is in a current memory."""
    for word in words:
        assert not any(word in v for v in values), (word, values)


def assert_replaced(values: list[str], new: str, old: str) -> None:
    """What a test of a change asserts on ``values`` (from :func:`active_after`): a current memory holds ``new`` and
    none holds ``old`` any more."""
    assert any(new in v for v in values), values
    assert not any(old in v for v in values), values
