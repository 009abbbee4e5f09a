"""The extractor contract shared by the rule and LLM extractors."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from ..models import Candidate, Message

__all__ = ["ExtractionContext", "Extractor"]


class ExtractionContext(BaseModel):
    """What an extractor knows besides the messages.

    ``messages`` handed to an extractor always carry an ``id`` and a ``timestamp``
    (the facade fills them in). ``existing`` maps slot keys already active for
    the user to their current values, so an extractor can mark updates.
    """

    model_config = ConfigDict(extra="forbid")

    user_id: str
    session_id: str | None = None
    agent_id: str | None = None
    domain: str | None = None
    at: datetime
    existing: dict[str, str] = Field(default_factory=dict)


@runtime_checkable
class Extractor(Protocol):
    """Turns messages into candidate memories. Must be deterministic for rules.

    Raise :class:`goodmemory.errors.ExtractionError` on failure; never write.
    """

    name: str

    def extract(self, messages: Sequence[Message], ctx: ExtractionContext) -> list[Candidate]: ...
