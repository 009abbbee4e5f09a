"""Tags of the SQL adapters: the ``gm_memory_tags`` rows a write keeps in step with its records, and the
condition a tag filter adds inside the list, text and vector queries (schema v9).

A filter is answered from the index, never by reading records and dropping the untagged ones afterwards:
a post-filter would let untagged near-duplicates fill a search's top-k and starve the tagged record out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, insert, select

from ..models import MemoryRecord
from . import _schema as S
from .base import WriteBatch

__all__ = ["delete_tags", "tag_condition", "tagged_ids", "write_tags"]

_T = S.memory_tags.c


def tag_condition(user_id: Any, tags: Sequence[str]) -> Any:
    """``gm_memories.id`` is one of the user's records carrying any of ``tags``."""
    return S.memories.c.id.in_(
        select(_T.memory_id).where(_T.user_id == user_id, _T.tag.in_(list(tags))))


def tagged_ids(conn: Any, user_id: str, tags: Sequence[str]) -> set[str]:
    """The user's memory ids carrying any of ``tags`` (for filters computed outside SQL: SQLite's vector mask)."""
    return {r[0] for r in conn.execute(select(_T.memory_id).where(_T.user_id == user_id, _T.tag.in_(list(tags))))}


def _rows(user_id: str, records: Sequence[MemoryRecord]) -> list[dict[str, Any]]:
    return [{"user_id": user_id, "tag": t, "memory_id": r.id} for r in records for t in dict.fromkeys(r.tags)]


def write_tags(conn: Any, user_id: str, batch: WriteBatch) -> None:
    """Inside the write's transaction: updated records' tag rows replaced, new records' added."""
    if batch.updates:
        conn.execute(delete(S.memory_tags).where(_T.user_id == user_id,
                                                 _T.memory_id.in_([r.id for r in batch.updates])))
    latest = {r.id: r for r in [*batch.updates, *batch.inserts]}  # a batch may update a record twice
    rows = _rows(user_id, list(latest.values()))
    if rows:
        conn.execute(insert(S.memory_tags), rows)


def delete_tags(conn: Any, user_id: str, memory_ids: Sequence[str]) -> None:
    conn.execute(delete(S.memory_tags).where(_T.user_id == user_id, _T.memory_id.in_(list(memory_ids))))
