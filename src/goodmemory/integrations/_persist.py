"""Where an adapter keeps its own state (LangGraph items, Agents SDK session history) by default.

The adapters' own state lives in the same database file as the memories, so it survives a restart exactly
when the memories do: a SQLite file store gives its path; an in-memory store (``sqlite://``, ``InMemoryStorage``)
gives ``None`` and the adapters stay in memory, as the memories do.
"""

from __future__ import annotations

from typing import Any

__all__ = ["sqlite_file_of"]


def sqlite_file_of(memory: Any) -> str | None:
    """The SQLite file behind ``memory`` (a ``GoodMemory`` or ``AsyncGoodMemory``), or ``None``."""
    core = getattr(memory, "sync", memory)
    url = getattr(getattr(core, "storage", None), "url", None)
    if not isinstance(url, str) or not url.startswith("sqlite"):
        return None
    from sqlalchemy.engine import make_url

    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file::memory:"):
        return None
    return database
