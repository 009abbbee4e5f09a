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
