"""The storage contract: a ``typing.Protocol`` and the query objects it takes.

Every method takes the ``user_id`` first; there is no unscoped read, write or
delete. Adapters declare what they can do in :class:`StorageCapabilities`;
core code reads capabilities and never asks which database it is on.

Scores returned by searches follow one rule: higher is better. Text scores
are positive BM25-style relevance; vector scores are cosine similarity.
"""

from __future__ import annotations

import builtins
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, cast, runtime_checkable

import numpy as np

from ..models import MemoryKind, MemoryRecord, MemoryStatus

__all__ = [
    "ACTIVE_ONLY",
    "BulkLoadStorage",
    "DeleteCounts",
    "ListManyStorage",
    "ListRequest",
    "MemoryEvent",
    "MemoryFilter",
    "Storage",
    "StorageCapabilities",
    "TextQuery",
    "VectorQuery",
    "WriteBatch",
    "borrowed_reads",
    "list_many",
    "slot_scope",
    "write_new",
]

ACTIVE_ONLY: tuple[MemoryStatus, ...] = (MemoryStatus.ACTIVE,)


def slot_scope(record: MemoryRecord) -> str:
    """The part of the scope that a slot key is unique within.

    Transferable memories (identity, stable preferences) belong to the user,
    not to the domain they were said in; domain-bound ones are per domain.
    """
    if record.transferable or record.domain is None:
        return ""
    return record.domain


@dataclass(frozen=True)
class StorageCapabilities:
    full_text: bool = True
    vector_search: bool = True
    exact_vectors: bool = True  # False for approximate indexes (HNSW)
    persistent: bool = False
    secure_delete: bool = False  # deleted bytes are overwritten on disk
    multi_process: bool = False
    enforces_unique_active_slot: bool = False  # in the database, not only in Python
    bulk_load: bool = False  # has ``write_bulk`` (see :class:`BulkLoadStorage`)
    list_many: bool = False  # has ``list_many`` (see :class:`ListManyStorage`)


@dataclass(frozen=True)
class MemoryFilter:
    """Which records of one user a read or delete touches. ``None`` = no constraint."""

    statuses: tuple[MemoryStatus, ...] | None = ACTIVE_ONLY
    kinds: tuple[MemoryKind, ...] | None = None
    exclude_kinds: tuple[MemoryKind, ...] | None = None
    # Domain rule for reads: records of this domain, domain-less ones, and transferable ones.
    visible_in_domain: str | None = None
    # Exact domain match (for forget(domain=...)); use "" for domain-less records.
    domain: str | None = None
    keys: tuple[str, ...] | None = None
    key_prefix: str | None = None
    session_id: str | None = None
    agent_id: str | None = None
    memory_ids: tuple[str, ...] | None = None
    # any-of: records carrying at least one of these tags (exact, case-sensitive); inside the query, so a
    # top-k is the top-k of the tagged records
    tags: tuple[str, ...] | None = None
    newest_first: bool = False  # order for list(): created_at descending (with a limit: the newest N)
    # order for list(): importance, then confidence, descending; then id (with a limit: the N most important)
    most_important_first: bool = False

    def __post_init__(self) -> None:
        if self.newest_first and self.most_important_first:
            raise ValueError("a list has one order: newest_first or most_important_first, not both")

    def sort_key(self) -> Callable[[MemoryRecord], Any]:
        """Reference order of ``list()`` for this filter, ascending (``reverse=self.newest_first``)."""
        if self.most_important_first:
            return lambda r: (-r.importance, -r.confidence, r.id)
        return lambda r: (r.created_at, r.id)

    def matches(self, r: MemoryRecord) -> bool:
        """Reference semantics, used by the in-memory adapter and the conformance suite."""
        if self.statuses is not None and r.status not in self.statuses:
            return False
        if self.kinds is not None and r.kind not in self.kinds:
            return False
        if self.exclude_kinds is not None and r.kind in self.exclude_kinds:
            return False
        if self.visible_in_domain is not None and not (
            r.domain is None or r.domain == self.visible_in_domain or r.transferable
        ):
            return False
        if self.domain is not None and (r.domain or "") != self.domain:
            return False
        if self.keys is not None and r.key not in self.keys:
            return False
        if self.key_prefix is not None and not r.key.startswith(self.key_prefix):
            return False
        if self.session_id is not None and r.source.session_id != self.session_id:
            return False
        if self.agent_id is not None and r.agent_id != self.agent_id:
            return False
        if self.tags is not None and not set(self.tags).intersection(r.tags):
            return False
        return not (self.memory_ids is not None and r.id not in self.memory_ids)


@dataclass(frozen=True)
class TextQuery:
    text: str
    limit: int = 50
    filter: MemoryFilter = field(default_factory=MemoryFilter)


@dataclass(frozen=True)
class VectorQuery:
    vector: np.ndarray
    limit: int = 50
    filter: MemoryFilter = field(default_factory=MemoryFilter)


@dataclass(frozen=True)
class MemoryEvent:
    """An entry of a memory's change history (same user scope as the memory)."""

    memory_id: str
    action: str
    at: datetime
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class WriteBatch:
    """Everything one ``remember()``/``feedback()`` writes; applied in one transaction."""

    inserts: list[MemoryRecord] = field(default_factory=list)
    updates: list[MemoryRecord] = field(default_factory=list)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    events: list[MemoryEvent] = field(default_factory=list)
    # memories whose history is replaced by this batch's events for them (forget rewrites a turn that
    # repeated a forgotten value, and its history with it); their old events are deleted first
    reset_history: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.inserts or self.updates or self.events or self.reset_history)


@dataclass
class DeleteCounts:
    rows: int = 0
    full_text: int = 0
    vectors: int = 0
    history: int = 0
    memory_ids: list[str] = field(default_factory=list)
    tombstone_id: str | None = None
    # the rows are gone, but the adapter could not yet overwrite their bytes on disk (a reader held the
    # database); a later delete, open or close retries
    pending_scrub: bool = False

    def as_dict(self) -> dict[str, int]:
        return {"rows": self.rows, "full_text": self.full_text, "vectors": self.vectors, "history": self.history}


@runtime_checkable
class Storage(Protocol):
    """A scoped memory store.

    Contract (checked by ``goodmemory.testing.conformance``):
    - ``write`` applies a whole batch or nothing; on failure it raises a
      ``StorageError`` subclass and the store is as before.
    - No method ever reads, changes or deletes records of another ``user_id``.
    - ``search_text`` and ``search_vector`` return ``(memory_id, score)`` best
      first, filtered inside the query by ``query.filter``.
    - ``delete`` removes rows, full-text entries, vectors and history of the
      selected records in one transaction and records a content-free tombstone.
    """

    capabilities: StorageCapabilities

    @property
    def dim(self) -> int | None: ...

    def write(self, user_id: str, batch: WriteBatch) -> None: ...

    def get(self, user_id: str, memory_id: str) -> MemoryRecord | None: ...

    def list(
        self, user_id: str, flt: MemoryFilter | None = None, *, limit: int | None = None
    ) -> builtins.list[MemoryRecord]: ...

    def count(self, user_id: str, flt: MemoryFilter | None = None) -> int: ...

    def search_text(self, user_id: str, query: TextQuery) -> builtins.list[tuple[str, float]]: ...

    def search_vector(self, user_id: str, query: VectorQuery) -> builtins.list[tuple[str, float]]: ...

    def events(self, user_id: str, memory_id: str) -> builtins.list[MemoryEvent]: ...

    def mark_recalled(self, user_id: str, memory_ids: Sequence[str], at: datetime) -> None: ...

    def delete(self, user_id: str, memory_ids: Sequence[str], *, reason: str,
               at: datetime | None = None) -> DeleteCounts: ...

    def tombstones(self, user_id: str) -> builtins.list[dict[str, Any]]: ...

    def user_ids(self) -> builtins.list[str]: ...

    def close(self) -> None: ...


@runtime_checkable
class BulkLoadStorage(Storage, Protocol):
    """A store with a fast path for many new records (imports, migrations, benchmarks).

    Declared with ``capabilities.bulk_load``. ``write_bulk`` has the contract of
    ``write`` restricted to inserts (checked by the conformance suite): the batch
    holds new records (``updates`` must be empty), vectors only for those
    records, and any events; it is applied in one transaction, all or nothing,
    and leaves the same rows, full-text entries, vectors and events as ``write``
    would, with the same constraints (one active record per slot, no id twice).
    Adapters may trade concurrency for speed while it runs (PostgreSQL
    rebuilds the vector index of the partition it loads instead of inserting
    into it row by row when the load is large).
    """

    def write_bulk(self, user_id: str, batch: WriteBatch) -> None: ...


def write_new(storage: Storage, user_id: str, batch: WriteBatch) -> None:
    """Write a batch of new records through the bulk path where the adapter declares one."""
    if storage.capabilities.bulk_load:
        cast(BulkLoadStorage, storage).write_bulk(user_id, batch)
    else:
        storage.write(user_id, batch)


ListRequest = tuple[MemoryFilter, int | None]


@runtime_checkable
class ListManyStorage(Storage, Protocol):
    """A store that answers several ``list`` calls in one round trip (declared with
    ``capabilities.list_many``): the result is exactly ``[list(user_id, f, limit=n) for f, n in requests]``.
    Every read of ``build_context`` beyond the searches goes through it."""

    def list_many(self, user_id: str, requests: Sequence[ListRequest]) -> builtins.list[builtins.list[MemoryRecord]]: ...


def list_many(storage: Storage, user_id: str, requests: Sequence[ListRequest]) -> list[list[MemoryRecord]]:
    """Several lists of one user: in one round trip where the adapter can, else one ``list`` each."""
    if not requests:
        return []
    if storage.capabilities.list_many:
        return cast(ListManyStorage, storage).list_many(user_id, requests)
    return [storage.list(user_id, flt, limit=limit) for flt, limit in requests]


class _Borrowing(threading.local):
    on = False


BORROWING = _Borrowing()


@contextmanager
def borrowed_reads() -> Iterator[None]:
    """Reads on this thread, inside the block, may hand out records the adapter keeps (the SQL adapters' parsed
    rows) instead of a copy each: for a caller that only reads them and drops them before the block's data may
    change. Copying is most of what a list of raw turns costs (the restatement search of every ``remember`` reads
    a domain's 400 newest, ~1,400 records a call at 10k memories). Changing a borrowed record changes what later
    reads of its row return, in the whole process: copy (``model_copy(deep=True)``) before changing one."""
    before = BORROWING.on
    BORROWING.on = True
    try:
        yield
    finally:
        BORROWING.on = before
