"""``InMemoryStorage``: the reference adapter, a dict per user, no persistence.

It defines the semantics the SQL adapters must match (the conformance suite
runs against both) and is handy in tests.
"""

from __future__ import annotations

import builtins
import math
import os
import threading
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from ..errors import DimensionMismatchError, SlotConflictError, StorageError
from ..models import MemoryKind, MemoryRecord, MemoryStatus, new_id
from ..text import index_terms, stemmed_query_terms
from ._common import UserHasher, check_batch, check_new_turns, new_turn_keys
from ._common import tombstone as _tombstone
from ._text import search_body
from .base import (
    DeleteCounts,
    MemoryEvent,
    MemoryFilter,
    StorageCapabilities,
    TextQuery,
    VectorQuery,
    WriteBatch,
    slot_scope,
)

__all__ = ["InMemoryStorage"]


class InMemoryStorage:
    capabilities = StorageCapabilities(enforces_unique_active_slot=True)

    def __init__(self) -> None:
        self._rows: dict[str, dict[str, MemoryRecord]] = {}
        self._vectors: dict[str, dict[str, np.ndarray]] = {}
        self._events: dict[str, list[MemoryEvent]] = {}
        self._tombstones: list[dict[str, Any]] = []
        self._dim: int | None = None
        self._user_hash = UserHasher(os.urandom(32))
        self._lock = threading.RLock()
        self._closed = False

    @property
    def dim(self) -> int | None:
        return self._dim

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("storage is closed")

    # -- writes ---------------------------------------------------------
    def write(self, user_id: str, batch: WriteBatch) -> None:
        with self._lock:
            self._check_open()
            arrays, dim = check_batch(user_id, batch, self._dim)
            rows = dict(self._rows.get(user_id, {}))
            turn_keys = set(new_turn_keys(batch))
            if turn_keys:
                check_new_turns([r.key for r in rows.values() if r.kind == MemoryKind.EPISODE and r.key in turn_keys])
            for r in batch.inserts:
                if r.id in rows or any(r.id in u for u in self._rows.values()):
                    raise StorageError(f"duplicate memory id {r.id}")
                rows[r.id] = r.model_copy(deep=True)
            for r in batch.updates:
                if r.id not in rows:
                    raise SlotConflictError(
                        f"update of unknown memory {r.id}: it changed or was deleted since this write was planned")
                rows[r.id] = r.model_copy(deep=True)
            self._check_unique_slots(rows.values())
            unknown = [mid for mid in arrays if mid not in rows]
            if unknown:
                raise StorageError(f"vector for unknown memory {unknown[0]}")
            vectors = {**self._vectors.get(user_id, {}), **arrays}
            # commit: swap in the new state only after every check passed
            self._rows[user_id] = rows
            self._vectors[user_id] = vectors
            kept = self._events.get(user_id, [])
            if batch.reset_history:
                reset = set(batch.reset_history)
                kept = [e for e in kept if e.memory_id not in reset]
            self._events[user_id] = [*kept, *batch.events]
            self._dim = dim

    @staticmethod
    def _check_unique_slots(records: Any) -> None:
        seen: set[tuple[str | None, str, str]] = set()
        for r in records:
            if r.status != MemoryStatus.ACTIVE or r.kind == MemoryKind.EPISODE:
                continue
            slot = (r.agent_id, slot_scope(r), r.key)
            if slot in seen:
                raise StorageError(f"two active memories for slot {r.key!r}")
            seen.add(slot)

    def mark_recalled(self, user_id: str, memory_ids: Sequence[str], at: datetime) -> None:
        with self._lock:
            rows = self._rows.get(user_id, {})
            for mid in memory_ids:
                r = rows.get(mid)
                if r is not None:
                    r.recall_count += 1
                    r.last_recalled_at = at

    # -- reads ----------------------------------------------------------
    def get(self, user_id: str, memory_id: str) -> MemoryRecord | None:
        with self._lock:
            self._check_open()
            r = self._rows.get(user_id, {}).get(memory_id)
            return r.model_copy(deep=True) if r else None

    def list(self, user_id: str, flt: MemoryFilter | None = None, *, limit: int | None = None) -> list[MemoryRecord]:
        flt = flt or MemoryFilter(statuses=None)
        with self._lock:
            self._check_open()
            out = [r for r in self._rows.get(user_id, {}).values() if flt.matches(r)]
        out.sort(key=flt.sort_key(), reverse=flt.newest_first)
        if limit is not None:
            out = out[:limit]
        return [r.model_copy(deep=True) for r in out]

    def count(self, user_id: str, flt: MemoryFilter | None = None) -> int:
        flt = flt or MemoryFilter(statuses=None)
        with self._lock:
            return sum(1 for r in self._rows.get(user_id, {}).values() if flt.matches(r))

    def search_text(self, user_id: str, query: TextQuery) -> builtins.list[tuple[str, float]]:
        q = set(stemmed_query_terms(query.text))
        if not q:
            return []
        with self._lock:
            self._check_open()
            docs = [(r.id, index_terms(search_body(r))) for r in self._rows.get(user_id, {}).values()
                    if query.filter.matches(r)]
            all_docs = list(self._rows.get(user_id, {}).values())
        if not docs:
            return []
        # BM25 with document frequencies over the user's whole corpus.
        n = len(all_docs)
        df: Counter[str] = Counter()
        bodies = {r.id: index_terms(search_body(r)) for r in all_docs}
        for toks in bodies.values():
            df.update(set(toks) & q)
        avgdl = sum(len(t) for t in bodies.values()) / max(1, n)
        scored: builtins.list[tuple[str, float]] = []
        for mid, toks in docs:
            tf = Counter(toks)
            score = 0.0
            for t in q:
                if tf[t]:
                    idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                    score += idf * tf[t] * 2.2 / (tf[t] + 1.2 * (0.25 + 0.75 * len(toks) / max(avgdl, 1e-9)))
            if score > 0:
                scored.append((mid, score))
        scored.sort(key=lambda x: (-x[1], x[0]))
        return scored[: query.limit]

    def search_vector(self, user_id: str, query: VectorQuery) -> builtins.list[tuple[str, float]]:
        vec = np.asarray(query.vector, dtype=np.float32).reshape(-1)
        with self._lock:
            self._check_open()
            if self._dim is not None and vec.shape[0] != self._dim:
                raise DimensionMismatchError(f"query vector has dimension {vec.shape[0]}, store has {self._dim}")
            rows = self._rows.get(user_id, {})
            items = [(mid, v) for mid, v in self._vectors.get(user_id, {}).items()
                     if mid in rows and query.filter.matches(rows[mid])]
        if not items:
            return []
        mat = np.stack([v for _, v in items])
        sims = mat @ vec
        order = np.argsort(-sims, kind="stable")[: query.limit]
        return [(items[i][0], float(sims[i])) for i in order]

    def events(self, user_id: str, memory_id: str) -> builtins.list[MemoryEvent]:
        with self._lock:
            return [e for e in self._events.get(user_id, []) if e.memory_id == memory_id]

    # -- deletes --------------------------------------------------------
    def delete(self, user_id: str, memory_ids: Sequence[str], *, reason: str,
               at: datetime | None = None) -> DeleteCounts:
        with self._lock:
            self._check_open()
            rows = self._rows.get(user_id, {})
            vectors = self._vectors.get(user_id, {})
            ids = [m for m in dict.fromkeys(memory_ids) if m in rows]
            counts = DeleteCounts(memory_ids=ids)
            idset = set(ids)
            for mid in ids:
                del rows[mid]
                counts.rows += 1
                counts.full_text += 1
                if vectors.pop(mid, None) is not None:
                    counts.vectors += 1
            events = self._events.get(user_id, [])
            kept = [e for e in events if e.memory_id not in idset]
            counts.history = len(events) - len(kept)
            self._events[user_id] = kept
            counts.tombstone_id = new_id()
            self._tombstones.append(_tombstone(counts, self._user_hash(user_id), reason, at))
            return counts

    def tombstones(self, user_id: str) -> builtins.list[dict[str, Any]]:
        h = self._user_hash(user_id)
        with self._lock:
            return [dict(t) for t in self._tombstones if t["user_hash"] == h]

    def user_ids(self) -> builtins.list[str]:
        with self._lock:
            return sorted(u for u, rows in self._rows.items() if rows)

    def close(self) -> None:
        self._closed = True
