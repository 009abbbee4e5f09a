"""GoodMemory for the OpenAI Agents SDK (``goodmemory[openai-agents]``).

Three pieces, use any of them:

- :class:`GoodMemorySession` implements the SDK's ``Session`` protocol by
  wrapping an inner session that keeps the conversation history (by default
  the SDK's ``SQLiteSession`` in the memories' SQLite file, so history survives
  a restart; in memory when the memories are); every ``add_items`` also calls ``remember`` with the
  user and assistant messages among the items.
- :func:`memory_input_filter` returns a ``RunConfig.call_model_input_filter``
  that appends ``build_context`` for the latest user message to the
  instructions of every model call (the block never enters the history, so
  it is never remembered back).
- :func:`memory_tools` returns function tools ``recall_memory`` and
  ``forget_memory`` bound to one user (the model never chooses the user).

``user_id`` is a string or a callable taking the run context object (what
you pass as ``Runner.run(..., context=...)``) and returning the user id.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from ..aio import AsyncGoodMemory
from ..errors import GoodMemoryError
from ..memory import GoodMemory
from ._ids import full_memory_id
from ._persist import sqlite_file_of

try:
    from agents import FunctionTool, RunContextWrapper, function_tool
    from agents.items import TResponseInputItem
    from agents.memory import SessionABC, SessionSettings
    from agents.run_config import CallModelData, ModelInputData
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the OpenAI Agents SDK adapter needs openai-agents: pip install 'goodmemory[openai-agents]'"
    ) from exc

__all__ = ["GoodMemorySession", "items_to_messages", "memory_input_filter", "memory_tools"]

UserId = str | Callable[[Any], str]
REMEMBERED_ROLES = ("user", "assistant")


def _async(memory: GoodMemory | AsyncGoodMemory) -> AsyncGoodMemory:
    return memory if isinstance(memory, AsyncGoodMemory) else AsyncGoodMemory(memory)


def _text_of(content: Any) -> str:
    """Text of a Responses-API content value: a string or a list of text parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = []
        for part in content:
            if isinstance(part, Mapping):
                text = part.get("text")
                if isinstance(text, str) and part.get("type", "input_text") in ("input_text", "output_text", "text"):
                    parts.append(text)
        return "\n".join(parts)
    return ""


def _as_mapping(item: Any) -> Mapping[str, Any] | None:
    if isinstance(item, Mapping):
        return item
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        out = dump(exclude_unset=True)
        return out if isinstance(out, Mapping) else None
    return None


def items_to_messages(items: Sequence[Any], roles: Sequence[str] = REMEMBERED_ROLES) -> list[dict[str, str]]:
    """The ``{role, content}`` messages among Agents SDK items (tool calls and reasoning are skipped)."""
    out: list[dict[str, str]] = []
    for item in items:
        m = _as_mapping(item)
        if m is None or m.get("type", "message") != "message" or m.get("role") not in roles:
            continue
        text = _text_of(m.get("content")).strip()
        if text:
            out.append({"role": str(m["role"]), "content": text})
    return out


def _resolve_user(user_id: UserId, context: Any) -> str:
    if callable(user_id):
        ctx = context.context if isinstance(context, RunContextWrapper) else context
        return user_id(ctx)
    return user_id


class GoodMemorySession(SessionABC):
    """A ``Session`` that keeps history in ``inner`` and long-term memory in GoodMemory.

    The SDK saves the user's input before the model call and the answer after
    it. With ``remember_on="turn"`` (the default) the user messages wait until
    the assistant's answer arrives and the whole turn is remembered at once, so
    the memory context of a model call never echoes the input it answers; call
    :meth:`flush` to remember a pending input without an answer.
    ``remember_on="items"`` remembers every ``add_items`` call at once.

    ``clear_session`` and ``pop_item`` act on the history only; use
    ``memory.forget(...)`` to delete long-term memory.
    """

    def __init__(
        self,
        memory: GoodMemory | AsyncGoodMemory,
        *,
        user_id: str,
        inner: Any = None,
        session_id: str | None = None,
        domain: str | None = None,
        agent_id: str | None = None,
        roles: Sequence[str] = REMEMBERED_ROLES,
        remember_on: Literal["turn", "items"] = "turn",
    ) -> None:
        if inner is None:
            from agents import SQLiteSession

            if session_id is None:
                raise ValueError("GoodMemorySession needs a session_id or an inner session")
            # the history lives beside the memories: in their SQLite file (its own agent_* tables) when there
            # is one, so a restarted process gets the session back; else in memory, as the memories are
            path = sqlite_file_of(memory)
            inner = SQLiteSession(session_id, path) if path else SQLiteSession(session_id)
        self.inner = inner
        self.memory = _async(memory)
        self.user_id = user_id
        self.domain = domain
        self.agent_id = agent_id
        self.roles = tuple(roles)
        if remember_on not in ("turn", "items"):
            raise ValueError("remember_on is 'turn' or 'items'")
        self.remember_on = remember_on
        self._pending: list[dict[str, str]] = []
        self.session_id: str = session_id or inner.session_id
        self.session_settings: SessionSettings | None = getattr(inner, "session_settings", None)
        self.last_write: Any = None  # the WriteResult of the latest add_items, for inspection

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        items: list[TResponseInputItem] = await self.inner.get_items(limit)
        return items

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        await self.inner.add_items(items)
        messages = items_to_messages(items, self.roles)
        self._pending.extend(messages)
        if self.remember_on == "items" or any(m["role"] != "user" for m in messages):
            await self.flush()

    async def flush(self) -> None:
        """Remember the messages still waiting for the end of their turn."""
        messages, self._pending = self._pending, []
        if messages:
            self.last_write = await self.memory.remember(messages, user_id=self.user_id, session_id=self.session_id,
                                                         agent_id=self.agent_id, domain=self.domain)

    async def pop_item(self) -> TResponseInputItem | None:
        item: TResponseInputItem | None = await self.inner.pop_item()
        return item

    async def clear_session(self) -> None:
        self._pending.clear()
        await self.inner.clear_session()


def _latest_user_text(items: Sequence[Any]) -> str:
    for item in reversed(list(items)):
        msgs = items_to_messages([item], ("user",))
        if msgs:
            return msgs[0]["content"]
    return ""


def memory_input_filter(
    memory: GoodMemory | AsyncGoodMemory,
    *,
    user_id: UserId,
    domain: str | None = None,
    max_tokens: int = 800,
) -> Callable[[CallModelData[Any]], Any]:
    """A ``call_model_input_filter`` that adds the user's memory context to the instructions.

    The query is the latest user message in the model input; with none, the
    input passes unchanged.
    """
    amem = _async(memory)

    async def _filter(data: CallModelData[Any]) -> ModelInputData:
        md = data.model_data
        query = _latest_user_text(md.input)
        if not query:
            return md
        ctx = await amem.build_context(query, user_id=_resolve_user(user_id, data.context), domain=domain,
                                       max_tokens=max_tokens)
        if not ctx.items:
            return md
        instructions = f"{md.instructions}\n\n{ctx.text}" if md.instructions else ctx.text
        return ModelInputData(input=md.input, instructions=instructions)

    return _filter


def memory_tools(
    memory: GoodMemory | AsyncGoodMemory,
    *,
    user_id: UserId,
    domain: str | None = None,
    include_forget: bool = True,
) -> list[FunctionTool]:
    """Function tools ``recall_memory`` (and ``forget_memory``) acting on one user's memory."""
    amem = _async(memory)

    async def recall_memory(ctx: RunContextWrapper[Any], query: str) -> str:
        """Search what is remembered about the user.

        Args:
            query: what to look for, in plain words.
        """
        try:
            res = await amem.recall(query, user_id=_resolve_user(user_id, ctx), domain=domain, limit=8)
        except GoodMemoryError as exc:
            return f"error: {exc}"
        return json.dumps([{"memory_id": h.memory.id, "kind": h.memory.kind.value, "text": h.memory.text}
                           for h in res.hits], ensure_ascii=False)

    async def forget_memory(ctx: RunContextWrapper[Any], memory_id: str) -> str:
        """Permanently delete one remembered item (with its history) when the user asks to.

        Args:
            memory_id: the id of the memory, as shown by recall_memory or in the memory context.
        """
        try:
            user = _resolve_user(user_id, ctx)
            res = await amem.forget(await full_memory_id(amem, memory_id, user), user_id=user)
        except GoodMemoryError as exc:
            return f"error: {exc}"
        return f"deleted {res.deleted.get('rows', 0)} records"

    tools = [function_tool(recall_memory)]
    if include_forget:
        tools.append(function_tool(forget_memory))
    return tools
