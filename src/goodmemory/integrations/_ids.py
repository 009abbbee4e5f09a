"""A memory id as the integrations' callers give it: the full id, or the short id a context cites."""

from __future__ import annotations

from .._short_ids import resolve_id_async
from ..aio import AsyncGoodMemory

__all__ = ["full_memory_id"]


async def full_memory_id(amem: AsyncGoodMemory, memory_id: str, user_id: str) -> str:
    """``memory_id``, or the one id of ``user_id``'s memories that starts with it (a model passes on the
    ``[3fa9c1 profile]`` a context shows); only that user's ids are looked at."""
    async def ids() -> list[str]:
        return [r.id for r in await amem.list(user_id=user_id, include_history=True)]
    return await resolve_id_async(memory_id, ids)
