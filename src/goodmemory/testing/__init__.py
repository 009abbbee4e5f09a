"""Test helpers for GoodMemory users: a frozen clock, offline embedders and extractors,
a loopback OpenAI-compatible server, and the storage conformance suite."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from ..embeddings.hashing import HashingEmbedder
from ..extraction.base import ExtractionContext
from ..models import Candidate, Message

__all__ = ["FakeEmbedder", "FrozenClock", "NullExtractor", "ScriptedExtractor"]


class FrozenClock:
    """A clock that stands still until you move it: ``clock.advance(days=1)``."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
        if self.now.tzinfo is None:
            self.now = self.now.replace(tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> datetime:
        self.now = self.now + timedelta(**kwargs)
        return self.now

    def set(self, when: datetime) -> None:
        self.now = when if when.tzinfo else when.replace(tzinfo=UTC)


class FakeEmbedder(HashingEmbedder):
    """Deterministic, fast, offline: shares words, not meaning. For tests only."""

    def __init__(self, dim: int = 64) -> None:
        super().__init__(dim)
        self.calls = 0
        self.fail_next = False

    def embed(self, texts: Sequence[str]):  # type: ignore[no-untyped-def]
        if self.fail_next:
            from ..errors import EmbeddingError

            self.fail_next = False
            raise EmbeddingError("injected embedder failure")
        self.calls += 1
        return super().embed(texts)


class NullExtractor:
    """Extracts nothing: only raw turns are kept."""

    name = "null"

    def extract(self, messages: Sequence[Message], ctx: ExtractionContext) -> list[Candidate]:
        return []


class ScriptedExtractor:
    """Returns scripted candidates: ``{message content: [Candidate, ...]}``; ids are filled in."""

    name = "scripted"

    def __init__(self, script: dict[str, list[Candidate]] | None = None) -> None:
        self.script = script or {}
        self.fail_next = False

    def extract(self, messages: Sequence[Message], ctx: ExtractionContext) -> list[Candidate]:
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("injected extractor failure")
        out: list[Candidate] = []
        for m in messages:
            for c in self.script.get(m.content, []):
                out.append(c.model_copy(update={
                    "message_ids": c.message_ids or [m.id or ""],
                    "timestamp": c.timestamp or m.timestamp,
                    "role": m.role if c.role == "user" else c.role,
                }))
        return out
