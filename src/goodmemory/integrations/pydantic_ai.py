"""GoodMemory for Pydantic AI agents (``goodmemory[pydantic-ai]``).

:class:`GoodMemoryCapability` is a Pydantic AI capability bound to one user:

- its instructions are ``build_context`` for the run's prompt, resolved on every model request (the block quotes
  memories as data, with ids and dates);
- its toolset gives the agent ``recall_memory`` and ``forget_memory`` (this user only: the tools take no user);
- after a run it remembers the prompt and the final output as one turn (``remember=False`` turns that off).

:func:`memory_toolset` is the toolset alone, for agents that manage context themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..aio import AsyncGoodMemory
from ..errors import GoodMemoryError
from ..memory import GoodMemory
from ._ids import full_memory_id

try:
    from pydantic_ai import RunContext
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.toolsets import FunctionToolset
except ImportError as exc:  # pragma: no cover - exercised by the extras-isolation test
    raise ImportError("the Pydantic AI adapter needs pydantic-ai: pip install 'goodmemory[pydantic-ai]'") from exc

__all__ = ["GoodMemoryCapability", "memory_toolset"]


def _async(memory: GoodMemory | AsyncGoodMemory) -> AsyncGoodMemory:
    return memory if isinstance(memory, AsyncGoodMemory) else AsyncGoodMemory(memory)


def _prompt_text(prompt: str | Sequence[Any] | None) -> str:
    if prompt is None:
        return ""
    if isinstance(prompt, str):
        return prompt
    return " ".join(p for p in prompt if isinstance(p, str))  # text parts; images and files are not memory


def memory_toolset(memory: GoodMemory | AsyncGoodMemory, *, user_id: str, domain: str | None = None,
                   limit: int = 5) -> FunctionToolset[Any]:
    """``recall_memory(query)`` and ``forget_memory(memory_id)`` for one user."""
    amem = _async(memory)
    toolset: FunctionToolset[Any] = FunctionToolset()

    @toolset.tool_plain
    async def recall_memory(query: str) -> list[dict[str, Any]]:
        """Search what is remembered about the user. Returns memories with their ids, kinds and dates."""
        result = await amem.recall(query, user_id=user_id, domain=domain, limit=limit)
        return [{"id": h.memory.id, "kind": str(h.memory.kind), "text": h.memory.text,
                 "date": h.memory.event_time.date().isoformat()} for h in result.hits]

    @toolset.tool_plain
    async def forget_memory(memory_id: str) -> str:
        """Delete one memory by id, when the user asks to forget it."""
        try:
            receipt = await amem.forget(await full_memory_id(amem, memory_id, user_id), user_id=user_id)
        except GoodMemoryError as exc:
            return f"not forgotten: {exc}"
        return f"forgotten ({sum(receipt.deleted.values())} records removed)"

    return toolset


@dataclass(init=False)
class GoodMemoryCapability(AbstractCapability[Any]):
    """Memory context in the instructions, memory tools, and remembering each run, for one user."""

    def __init__(self, memory: GoodMemory | AsyncGoodMemory, *, user_id: str, domain: str | None = None,
                 max_tokens: int = 800, session_id: str | None = None, tools: bool = True,
                 remember: bool = True) -> None:
        self.memory = _async(memory)
        self.user_id = user_id
        self.domain = domain
        self.max_tokens = max_tokens
        self.session_id = session_id
        self.remember = remember
        self._toolset = memory_toolset(self.memory, user_id=user_id, domain=domain) if tools else None
        self.last_write: Any = None  # the WriteResult of the latest run, for inspection

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # holds a live GoodMemory: not spec-serializable

    def get_instructions(self) -> Any:
        async def memory_context(ctx: RunContext[Any]) -> str:
            query = _prompt_text(ctx.prompt)
            if not query.strip():
                return ""
            ctx_block = await self.memory.build_context(query, user_id=self.user_id, domain=self.domain,
                                                        max_tokens=self.max_tokens)
            return ctx_block.text if ctx_block.items else ""

        return memory_context

    def get_toolset(self) -> Any:
        return self._toolset

    async def after_run(self, ctx: RunContext[Any], *, result: Any) -> Any:
        if self.remember:
            messages = [{"role": "user", "content": _prompt_text(ctx.prompt)}]
            if isinstance(result.output, str) and result.output.strip():
                messages.append({"role": "assistant", "content": result.output})
            if messages[0]["content"].strip():
                self.last_write = await self.memory.remember(messages, user_id=self.user_id,
                                                             session_id=self.session_id, domain=self.domain)
        return result
