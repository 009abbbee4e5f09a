"""GoodMemory for LlamaIndex agents (``goodmemory[llama-index]``).

:class:`GoodMemoryBlock` is a LlamaIndex memory block (``llama_index.core.memory.BaseMemoryBlock``) for one user.
Put it in ``Memory.from_defaults(memory_blocks=[...])``: messages that the short-term memory flushes are remembered
by GoodMemory, and on every ``get`` the block is ``build_context`` for the latest user message (cited, token-budgeted,
quoted as data), which LlamaIndex inserts into the system message. Truncation asks for a smaller context.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, PrivateAttr

from ..aio import AsyncGoodMemory
from ..memory import GoodMemory
from ..tokens import count_tokens

try:
    from llama_index.core.base.llms.types import ChatMessage, MessageRole
    from llama_index.core.memory import BaseMemoryBlock
except ImportError as exc:  # pragma: no cover - exercised by the extras-isolation test
    raise ImportError("the LlamaIndex adapter needs llama-index-core: pip install 'goodmemory[llama-index]'") from exc

__all__ = ["GoodMemoryBlock"]

_ROLES = {MessageRole.USER: "user", MessageRole.ASSISTANT: "assistant"}


class GoodMemoryBlock(BaseMemoryBlock[str]):
    """Long-term memory of one user as a LlamaIndex memory block."""

    name: str = Field(default="goodmemory", description="The name of the memory block.")
    description: str | None = Field(default="What is remembered about the user, with citations.")
    memory: Any = Field(description="a GoodMemory or AsyncGoodMemory", exclude=True)
    user_id: str
    domain: str | None = None
    session_id: str | None = None
    max_tokens: int = Field(default=800, ge=1)
    _last_query: str = PrivateAttr(default="")

    def model_post_init(self, context: Any) -> None:
        if isinstance(self.memory, GoodMemory):
            self.memory = AsyncGoodMemory(self.memory)
        elif not isinstance(self.memory, AsyncGoodMemory):
            from ..errors import InvalidInputError

            raise InvalidInputError(f"GoodMemoryBlock needs a GoodMemory, got {type(self.memory).__name__}")

    async def _context(self, max_tokens: int) -> str:
        if not self._last_query.strip():
            return ""
        ctx = await self.memory.build_context(self._last_query, user_id=self.user_id, domain=self.domain,
                                              max_tokens=max_tokens)
        return ctx.text if ctx.items else ""

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        users = [m for m in messages or [] if m.role == MessageRole.USER and (m.content or "").strip()]
        self._last_query = (users[-1].content or "") if users else ""
        return await self._context(self.max_tokens)

    async def _aput(self, messages: list[ChatMessage]) -> None:
        turns = [{"role": _ROLES[m.role], "content": m.content} for m in messages
                 if m.role in _ROLES and (m.content or "").strip()]
        if turns:
            await self.memory.remember(turns, user_id=self.user_id, session_id=self.session_id,
                                       domain=self.domain)

    async def atruncate(self, content: str, tokens_to_truncate: int) -> str | None:
        smaller = min(self.max_tokens, count_tokens(content)) - tokens_to_truncate
        if smaller <= 0:
            return None
        return (await self._context(smaller)) or None
