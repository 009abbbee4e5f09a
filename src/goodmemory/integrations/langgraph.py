"""GoodMemory for LangGraph and LangChain agents (``goodmemory[langgraph]``).

:class:`GoodMemoryStore` is a LangGraph ``BaseStore``. Exact operations
(``put``/``get``/``delete``/``list_namespaces``, and ``search`` without a
query) are delegated to an inner store and behave exactly like it. By default the
inner store is LangGraph's ``SqliteStore`` in the same SQLite file as the memories
(its own ``store`` tables), so items outlive the process as the memories do; on
an in-memory store, or on PostgreSQL unless you pass ``inner=`` (for example
LangGraph's ``PostgresStore``), it is ``InMemoryStore``. Each put into a user's namespace is also remembered
by GoodMemory (one "session" per item), and ``search(..., query=...)`` in a
user's namespace is served by GoodMemory recall: hits map back to the stored
items, ranked by recall score; memories GoodMemory holds from elsewhere (for
example conversations remembered by :class:`GoodMemoryMiddleware`) are
returned as extra items keyed ``gm:<memory id>``. Deleting or overwriting an
item forgets what was remembered from it.

The user is read from the namespace: ``user_index`` (default ``1``, as in
``("memories", "<user_id>")``) picks the element; a namespace too short to
name a user is never searched with GoodMemory, so one search cannot span users.

:class:`GoodMemoryMiddleware` is a LangChain ``AgentMiddleware`` that adds
``build_context`` for the latest human message to the system prompt of each
model call and remembers the turn after the agent finishes (sync and async).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from ..aio import AsyncGoodMemory
from ..memory import GoodMemory
from ._persist import sqlite_file_of

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        Item,
        ListNamespacesOp,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
    )
    from langgraph.store.memory import InMemoryStore
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the LangGraph adapter needs langgraph: pip install 'goodmemory[langgraph]'") from exc

__all__ = ["GoodMemoryMiddleware", "GoodMemoryStore", "item_session_id"]

TEXT_FIELDS = ("content", "text", "memory", "data")
SESSION_PREFIX = "langgraph:"


def item_session_id(namespace: tuple[str, ...], key: str) -> str:
    """The GoodMemory session id under which the item at (namespace, key) is remembered."""
    return SESSION_PREFIX + json.dumps([*namespace, key], ensure_ascii=False, separators=(",", ":"))


def _parse_session_id(session_id: str | None) -> tuple[tuple[str, ...], str] | None:
    if not session_id or not session_id.startswith(SESSION_PREFIX):
        return None
    try:
        parts = json.loads(session_id[len(SESSION_PREFIX):])
    except ValueError:
        return None
    if not isinstance(parts, list) or len(parts) < 2 or not all(isinstance(p, str) for p in parts):
        return None
    return tuple(parts[:-1]), parts[-1]


def _value_text(value: dict[str, Any], index: Sequence[str] | None) -> str:
    if index:
        parts = [value[f] if isinstance(value.get(f), str) else json.dumps(value.get(f), ensure_ascii=False,
                                                                        default=str)
                 for f in index if f in value]
        return "\n".join(parts)
    for field in TEXT_FIELDS:
        if isinstance(value.get(field), str) and value[field].strip():
            return str(value[field])
    return json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)


def _matches(value: dict[str, Any], flt: dict[str, Any] | None) -> bool:
    return not flt or all(value.get(k) == v for k, v in flt.items())


def _default_inner(memory: GoodMemory) -> BaseStore:
    """LangGraph's SqliteStore in the memories' SQLite file, else an InMemoryStore."""
    path = sqlite_file_of(memory)
    if path is None:
        return InMemoryStore()
    import sqlite3

    from langgraph.store.sqlite import SqliteStore

    # autocommit, as SqliteStore.from_conn_string opens it; the busy timeout matches GoodMemory's writers
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
    store = SqliteStore(conn)
    store.setup()
    return store


class GoodMemoryStore(BaseStore):
    """A LangGraph store whose semantic search is GoodMemory recall; exact ops go to ``inner``."""

    def __init__(
        self,
        memory: GoodMemory,
        *,
        inner: BaseStore | None = None,
        user_index: int = 1,
        domain: str | None = None,
        include_memories: bool = True,
    ) -> None:
        self.memory = memory
        self.inner = inner if inner is not None else _default_inner(memory)
        self.user_index = user_index
        self.domain = domain
        self.include_memories = include_memories
        self.supports_ttl = getattr(self.inner, "supports_ttl", False)

    # -- helpers ----------------------------------------------------------
    def user_of(self, namespace: tuple[str, ...]) -> str | None:
        """The user a namespace belongs to, or ``None`` if it is too short to say."""
        i = self.user_index if self.user_index >= 0 else len(namespace) + self.user_index
        if 0 <= i < len(namespace) and namespace[i]:
            return namespace[i]
        return None

    def _index_put(self, op: PutOp) -> None:
        user = self.user_of(op.namespace)
        if user is None:
            return
        sid = item_session_id(op.namespace, op.key)
        # an overwrite or delete replaces what was remembered from the old value
        if self.memory.forget(user_id=user, session_id=sid, dry_run=True).memory_ids:
            self.memory.forget(user_id=user, session_id=sid)
        if op.value is None or op.index is False:
            return
        text = _value_text(dict(op.value), op.index if isinstance(op.index, list) else None)
        if text.strip():
            self.memory.remember([{"role": "user", "content": text}], user_id=user, session_id=sid,
                                 domain=self.domain)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        user = self.user_of(op.namespace_prefix)
        if not op.query or user is None:
            res: list[SearchItem] = self.inner.batch([op])[0]  # type: ignore[assignment]
            return res
        want = max(1, op.offset + op.limit)
        hits = self.memory.recall(op.query, user_id=user, domain=self.domain, limit=min(100, want * 4)).hits
        prefix = op.namespace_prefix
        out: list[SearchItem] = []
        seen: set[tuple[tuple[str, ...], str]] = set()
        for hit in hits:
            rec = hit.memory
            where = _parse_session_id(rec.source.session_id)
            if where is not None:
                ns, key = where
                if ns[:len(prefix)] != prefix or (ns, key) in seen:
                    continue
                seen.add((ns, key))
                got = self.inner.batch([GetOp(ns, key)])[0]
                if not isinstance(got, Item) or not _matches(got.value, op.filter):
                    continue
                out.append(SearchItem(namespace=got.namespace, key=got.key, value=got.value,
                                      created_at=got.created_at, updated_at=got.updated_at, score=hit.score))
            elif self.include_memories:
                value = {"text": rec.text, "kind": rec.kind.value, "key": rec.key, "memory_id": rec.id}
                if not _matches(value, op.filter):
                    continue
                out.append(SearchItem(namespace=prefix, key=f"gm:{rec.id}", value=value,
                                      created_at=rec.created_at, updated_at=rec.updated_at, score=hit.score))
        return out[op.offset:op.offset + op.limit]

    # -- BaseStore --------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, PutOp):
                self.inner.batch([op])
                self._index_put(op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, (GetOp, ListNamespacesOp)):
                results.append(self.inner.batch([op])[0])
            else:
                raise ValueError(f"unknown store operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))


# -- LangChain agent middleware ---------------------------------------------
try:
    from langchain.agents.middleware import AgentMiddleware, AgentState, ModelRequest, ModelResponse
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
except ImportError:  # pragma: no cover - langchain is part of the extra; LangGraph alone still works
    AgentMiddleware = None  # type: ignore[assignment,misc]

UserId = str | Callable[[Any], str]


def _message_text(msg: Any) -> str:
    text = getattr(msg, "text", None)
    if isinstance(text, str):  # a property in langchain-core 1.x (a str subclass)
        return str(text)
    if callable(text):  # older langchain-core: a method
        text = text()
        if isinstance(text, str):
            return text
    content = getattr(msg, "content", "")
    return content if isinstance(content, str) else ""


if AgentMiddleware is not None:

    class GoodMemoryMiddleware(AgentMiddleware):  # type: ignore[type-arg]
        """Adds the user's memory context to every model call and remembers each finished turn.

        ``user_id`` is a string or a callable taking the LangGraph ``Runtime``
        (so it can read ``runtime.context``) and returning the user id.
        """

        def __init__(self, memory: GoodMemory | AsyncGoodMemory, *, user_id: UserId, domain: str | None = None,
                     max_tokens: int = 800, remember: bool = True) -> None:
            super().__init__()
            self.amemory = memory if isinstance(memory, AsyncGoodMemory) else AsyncGoodMemory(memory)
            self.memory = self.amemory.sync
            self.user_id = user_id
            self.domain = domain
            self.max_tokens = max_tokens
            self.remember = remember

        def _user(self, runtime: Any) -> str:
            return self.user_id(runtime) if callable(self.user_id) else self.user_id

        @staticmethod
        def _query(messages: Sequence[Any]) -> str:
            for msg in reversed(list(messages)):
                if isinstance(msg, HumanMessage):
                    return _message_text(msg)
            return ""

        @staticmethod
        def _with_context(request: ModelRequest, text: str) -> ModelRequest:
            base = request.system_prompt
            prompt = f"{base}\n\n{text}" if base else text
            return request.override(system_message=SystemMessage(content=prompt))

        @staticmethod
        def _turn(messages: Sequence[BaseMessage]) -> list[dict[str, str]]:
            """The last human message and the AI text after it."""
            start = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=None)
            if start is None:
                return []
            out = []
            for msg in messages[start:]:
                role = "user" if isinstance(msg, HumanMessage) else "assistant" if isinstance(msg, AIMessage) else None
                text = _message_text(msg).strip()
                if role and text:
                    out.append({"role": role, "content": text})
            return out

        def wrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]) -> Any:
            query = self._query(request.messages)
            if query:
                ctx = self.memory.build_context(query, user_id=self._user(request.runtime), domain=self.domain,
                                                max_tokens=self.max_tokens)
                if ctx.items:
                    request = self._with_context(request, ctx.text)
            return handler(request)

        async def awrap_model_call(self, request: ModelRequest,
                                   handler: Callable[[ModelRequest], Awaitable[ModelResponse]]) -> Any:
            query = self._query(request.messages)
            if query:
                ctx = await self.amemory.build_context(query, user_id=self._user(request.runtime),
                                                       domain=self.domain, max_tokens=self.max_tokens)
                if ctx.items:
                    request = self._with_context(request, ctx.text)
            return await handler(request)

        def after_agent(self, state: AgentState, runtime: Any) -> dict[str, Any] | None:
            turn = self._turn(state.get("messages", []))
            if self.remember and turn:
                self.memory.remember(turn, user_id=self._user(runtime), domain=self.domain)
            return None

        async def aafter_agent(self, state: AgentState, runtime: Any) -> dict[str, Any] | None:
            turn = self._turn(state.get("messages", []))
            if self.remember and turn:
                await self.amemory.remember(turn, user_id=self._user(runtime), domain=self.domain)
            return None
