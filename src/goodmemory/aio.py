"""The async API: :class:`AsyncGoodMemory` wraps one :class:`~goodmemory.GoodMemory`.

There is no second implementation: every method runs the sync core in a
worker thread (``asyncio.to_thread``, or the executor you pass), so results
are exactly the sync results. Calls that touch one user go through a
per-user :class:`asyncio.Lock`; the lock is FIFO, so writes issued
concurrently for one user (``asyncio.gather(remember(a), remember(b))``) are
applied in the order they were issued, and a read issued after a write sees
it. Different users run in parallel.
"""

from __future__ import annotations

import asyncio
import builtins
import contextvars
import functools
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from datetime import datetime
from typing import Any, TypeVar

from .config import GoodMemoryConfig
from .embeddings import Embedder
from .extraction.base import Extractor
from .memory import Clock, GoodMemory, create_good_memory
from .models import (
    Context,
    FeedbackResult,
    FeedbackSignal,
    ForgetReceipt,
    HistoryEntry,
    MaintenanceReport,
    MemoryKind,
    MemoryRecord,
    Message,
    RecallResult,
    UserExport,
    WriteResult,
)
from .storage.base import Storage

__all__ = ["AsyncGoodMemory", "create_async_good_memory"]

T = TypeVar("T")


class AsyncGoodMemory:
    """``GoodMemory`` for asyncio code. Create with :func:`create_async_good_memory`.

    ``executor`` runs the sync calls (default: the loop's default executor via
    ``asyncio.to_thread``). The wrapped core is :attr:`sync`.
    """

    def __init__(self, memory: GoodMemory, *, executor: Executor | None = None) -> None:
        if not isinstance(memory, GoodMemory):
            from .errors import InvalidInputError

            raise InvalidInputError(f"AsyncGoodMemory wraps a GoodMemory, got {type(memory).__name__}")
        self.sync = memory
        self._executor = executor
        # weak values: a user's lock lives while a call holds or waits for it
        self._locks: weakref.WeakValueDictionary[Any, asyncio.Lock] = weakref.WeakValueDictionary()

    # -- plumbing -------------------------------------------------------
    def _lock(self, user_id: object) -> asyncio.Lock:
        # invalid ids share one lock; the core rejects them with InvalidInputError
        key = user_id if isinstance(user_id, str) else None
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    async def _call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        if self._executor is None:
            return await asyncio.to_thread(fn, *args, **kwargs)
        ctx = contextvars.copy_context()  # keeps tracing context across the hop, like to_thread
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(ctx.run, fn, *args, **kwargs))

    async def _scoped(self, user_id: object, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        # no await before acquire(): the order of acquisition is the order of issue
        async with self._lock(user_id):
            return await self._call(fn, *args, **kwargs)

    # -- the API (same signatures as GoodMemory) --------------------------
    async def remember(
        self,
        messages: Sequence[Message | dict[str, Any]],
        *,
        user_id: str,
        session_id: str | None = None,
        agent_id: str | None = None,
        domain: str | None = None,
        at: datetime | None = None,
        tags: Sequence[str] | None = None,
    ) -> WriteResult:
        """See :meth:`GoodMemory.remember`."""
        return await self._scoped(user_id, self.sync.remember, messages, user_id=user_id, session_id=session_id,
                                  agent_id=agent_id, domain=domain, at=at, tags=tags)

    async def recall(
        self,
        query: str,
        *,
        user_id: str,
        domain: str | None = None,
        kinds: Sequence[MemoryKind | str] | None = None,
        limit: int = 10,
        include_history: bool = False,
        at: datetime | None = None,
        tags: Sequence[str] | None = None,
    ) -> RecallResult:
        """See :meth:`GoodMemory.recall`."""
        return await self._scoped(user_id, self.sync.recall, query, user_id=user_id, domain=domain, kinds=kinds,
                                  limit=limit, include_history=include_history, at=at, tags=tags)

    async def build_context(
        self,
        query: str,
        *,
        user_id: str,
        domain: str | None = None,
        max_tokens: int = 800,
        at: datetime | None = None,
        tags: Sequence[str] | None = None,
    ) -> Context:
        """See :meth:`GoodMemory.build_context`."""
        return await self._scoped(user_id, self.sync.build_context, query, user_id=user_id, domain=domain,
                                  max_tokens=max_tokens, at=at, tags=tags)

    async def feedback(
        self,
        memory_id: str,
        signal: FeedbackSignal | str,
        *,
        user_id: str,
        correction: str | None = None,
        note: str | None = None,
    ) -> FeedbackResult:
        """See :meth:`GoodMemory.feedback`."""
        return await self._scoped(user_id, self.sync.feedback, memory_id, signal, user_id=user_id,
                                  correction=correction, note=note)

    async def forget(
        self,
        memory_id: str | None = None,
        *,
        user_id: str,
        key: str | None = None,
        session_id: str | None = None,
        domain: str | None = None,
        dry_run: bool = False,
        all: bool = False,
        tags: Sequence[str] | None = None,
    ) -> ForgetReceipt:
        """See :meth:`GoodMemory.forget`."""
        return await self._scoped(user_id, self.sync.forget, memory_id, user_id=user_id, key=key,
                                  session_id=session_id, domain=domain, dry_run=dry_run, all=all, tags=tags)

    async def export(self, *, user_id: str, tags: Sequence[str] | None = None) -> UserExport:
        """See :meth:`GoodMemory.export`."""
        return await self._scoped(user_id, self.sync.export, user_id=user_id, tags=tags)

    async def import_(self, export: UserExport | dict[str, Any] | str, *, user_id: str | None = None) -> WriteResult:
        """See :meth:`GoodMemory.import_`. Serialised with the target user's other calls when it is known."""
        target: object = user_id
        if target is None:
            if isinstance(export, UserExport):
                target = export.user_id
            elif isinstance(export, dict):
                target = export.get("user_id")
        return await self._scoped(target, self.sync.import_, export, user_id=user_id)

    async def history(self, memory_id: str, *, user_id: str) -> list[HistoryEntry]:
        """See :meth:`GoodMemory.history`."""
        return await self._scoped(user_id, self.sync.history, memory_id, user_id=user_id)

    async def get(self, memory_id: str, *, user_id: str) -> MemoryRecord:
        """See :meth:`GoodMemory.get`."""
        return await self._scoped(user_id, self.sync.get, memory_id, user_id=user_id)

    async def list(self, *, user_id: str, kinds: Sequence[MemoryKind | str] | None = None,
                   include_history: bool = False, domain: str | None = None,
                   limit: int | None = None, tags: Sequence[str] | None = None) -> builtins.list[MemoryRecord]:
        """See :meth:`GoodMemory.list`."""
        return await self._scoped(user_id, self.sync.list, user_id=user_id, kinds=kinds,
                                  include_history=include_history, domain=domain, limit=limit, tags=tags)

    async def maintain(self, *, user_id: str | None = None, at: datetime | None = None) -> MaintenanceReport:
        """See :meth:`GoodMemory.maintain`. Without ``user_id`` it is not ordered against per-user calls."""
        if user_id is None:
            return await self._call(self.sync.maintain, user_id=None, at=at)
        return await self._scoped(user_id, self.sync.maintain, user_id=user_id, at=at)

    async def close(self) -> None:
        """Close the wrapped core (and its storage, if it owns it)."""
        await self._call(self.sync.close)

    async def __aenter__(self) -> AsyncGoodMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def create_async_good_memory(
    storage: str | Storage | None = None,
    /,
    *,
    config: GoodMemoryConfig | dict[str, Any] | None = None,
    embedder: Embedder | None = None,
    extractor: Extractor | None = None,
    llm: Any = None,
    clock: Clock | None = None,
) -> AsyncGoodMemory:
    """Create an :class:`AsyncGoodMemory`; the arguments are those of :func:`create_good_memory`.

    Opening the storage happens here, synchronously (it is quick and happens once).
    """
    return AsyncGoodMemory(create_good_memory(storage, config=config, embedder=embedder, extractor=extractor,
                                              llm=llm, clock=clock))
