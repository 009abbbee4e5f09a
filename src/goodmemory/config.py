"""Configuration: one pydantic model with named retrieval recipes."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .ranking import RECIPES, RetrievalConfig
from .verification import StalenessConfig

__all__ = ["GoodMemoryConfig", "default_storage_url"]


class GoodMemoryConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # retrieval
    retrieval_recipe: str = "BALANCED"
    context_candidates: int = Field(default=40, ge=1, le=500)
    context_item_max_tokens: int = Field(default=90, ge=8)
    core_profile_items: int = Field(default=3, ge=0)
    track_recalls: bool = False  # write recall_count/last_recalled_at on every recall
    suppress_stale: bool = False  # drop stale volatile facts instead of marking them "verify"
    # write policy
    min_confidence: float = Field(default=0.35, ge=0.0, le=1.0)
    allow_secrets: bool = False
    redact_secrets_in_episodes: bool = True
    keep_roles: tuple[str, ...] = ("user", "assistant", "tool")
    # limits
    max_message_chars: int = Field(default=20_000, ge=100)  # longer messages are truncated (noted in warnings)
    hard_max_message_chars: int = Field(default=1_000_000, ge=1000)  # longer ones are refused
    max_messages_per_call: int = Field(default=10_000, ge=1)
    max_memories_per_user: int | None = Field(default=None, ge=10)

    @field_validator("retrieval_recipe")
    @classmethod
    def _known_recipe(cls, v: str) -> str:
        if v not in RECIPES:
            raise ValueError(f"unknown retrieval recipe {v!r}; choose one of {sorted(RECIPES)}")
        return v

    def retrieval(self) -> RetrievalConfig:
        base = RECIPES[self.retrieval_recipe]
        if self.suppress_stale != base.staleness.suppress_stale:
            from dataclasses import replace

            base = replace(base, staleness=StalenessConfig(suppress_stale=self.suppress_stale))
        return base


def default_storage_url() -> str:
    """``GOODMEMORY_URL`` if set, else a SQLite file in the user data directory."""
    env = os.environ.get("GOODMEMORY_URL")
    if env:
        return env
    try:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("goodmemory", appauthor=False))
    except ImportError:  # pragma: no cover
        folder = Path.home() / ".local" / "share" / "goodmemory"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'goodmemory.db'}"
