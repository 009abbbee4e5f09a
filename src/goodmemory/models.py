"""The data model: pydantic v2 models only, no I/O.

Everything that crosses the public API is one of these models, so every
result is JSON-serialisable with ``model_dump_json()`` and round-trips with
``model_validate_json()``.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "Candidate",
    "Context",
    "ContextItem",
    "DroppedItem",
    "FeedbackResult",
    "FeedbackSignal",
    "ForgetReceipt",
    "HistoryEntry",
    "MaintenanceReport",
    "MemoryKind",
    "MemoryRecord",
    "MemorySource",
    "MemoryStatus",
    "Message",
    "RecallHit",
    "RecallResult",
    "UserExport",
    "WriteAction",
    "WriteDecision",
    "WriteResult",
    "content_hash",
    "new_id",
    "utcnow",
]


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_id() -> str:
    return uuid.uuid4().hex


def content_hash(*parts: str) -> str:
    """A stable hash of normalised text (case and whitespace folded)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(" ".join(part.lower().split()).encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.hexdigest()[:32]


def _aware(value: datetime | None) -> datetime | None:
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


class MemoryKind(StrEnum):
    PROFILE = "profile"
    PREFERENCE = "preference"
    FACT = "fact"
    PROCEDURE = "procedure"
    OPEN_LOOP = "open_loop"
    EPISODE = "episode"


class MemoryStatus(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    RETRACTED = "retracted"
    EXPIRED = "expired"


class WriteAction(StrEnum):
    ADD = "add"
    MERGE = "merge"
    SUPERSEDE = "supersede"
    REJECT = "reject"


class FeedbackSignal(StrEnum):
    CONFIRM = "confirm"
    REJECT = "reject"
    CORRECT = "correct"
    HELPFUL = "helpful"
    NOT_HELPFUL = "not_helpful"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Message(_Model):
    """One conversation turn handed to ``remember``."""

    role: Literal["user", "assistant", "system", "tool"]
    content: str
    id: str | None = None
    timestamp: datetime | None = None
    name: str | None = None

    @field_validator("timestamp")
    @classmethod
    def _tz(cls, v: datetime | None) -> datetime | None:
        return _aware(v)


class MemorySource(_Model):
    """Where a memory came from: provenance that survives merges."""

    session_id: str | None = None
    message_ids: list[str] = Field(default_factory=list)
    timestamp: datetime | None = None
    role: str | None = None
    extractor: str | None = None


class MemoryRecord(_Model):
    """One memory. Scope is (``user_id``, ``agent_id``, ``domain``)."""

    id: str = Field(default_factory=new_id)
    user_id: str
    agent_id: str | None = None
    domain: str | None = None
    kind: MemoryKind
    key: str
    value: str = ""
    text: str
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    transferable: bool = False
    status: MemoryStatus = MemoryStatus.ACTIVE
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    source: MemorySource = Field(default_factory=MemorySource)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    last_confirmed_at: datetime | None = None
    recall_count: int = 0
    last_recalled_at: datetime | None = None
    volatility: float = Field(default=0.1, ge=0.0, le=1.0)
    # Internal but exported: search augmentation, feedback prior, conflicts.
    keywords: str = ""
    feedback_score: float = 0.0
    conflicts_with: list[str] = Field(default_factory=list)
    content_hash: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)
    # labels the caller gave remember() (a project, a ticket, a source); filters select by them
    tags: list[str] = Field(default_factory=list)

    @field_validator(
        "valid_from", "valid_to", "created_at", "updated_at", "last_confirmed_at", "last_recalled_at"
    )
    @classmethod
    def _tz(cls, v: datetime | None) -> datetime | None:
        return _aware(v)

    def model_post_init(self, __context: Any) -> None:
        if not self.content_hash:
            self.content_hash = content_hash(self.kind.value, self.key, self.text)

    @property
    def session_id(self) -> str | None:
        return self.source.session_id

    @property
    def event_time(self) -> datetime:
        """When the remembered thing was said (falls back to creation)."""
        return self.valid_from or self.source.timestamp or self.created_at


class Candidate(_Model):
    """What an extractor proposes; the write policy decides what happens to it."""

    kind: MemoryKind
    key: str
    value: str = ""
    text: str
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    transferable: bool | None = None
    domain: str | None = None
    message_ids: list[str] = Field(default_factory=list)
    role: str = "user"
    timestamp: datetime | None = None
    is_correction: bool = False
    confirmed_by_user: bool = False
    closes: str | None = None  # key of an open loop this candidate closes
    extractor: str = "rules"
    keywords: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("timestamp")
    @classmethod
    def _tz(cls, v: datetime | None) -> datetime | None:
        return _aware(v)


class WriteDecision(_Model):
    action: WriteAction
    memory_id: str | None = None
    reason: str
    candidate: Candidate | None = None
    supersedes: str | None = None


class WriteResult(_Model):
    memories: list[MemoryRecord] = Field(default_factory=list)
    decisions: list[WriteDecision] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)

    def actions(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for d in self.decisions:
            out[d.action.value] = out.get(d.action.value, 0) + 1
        return out


class RecallHit(_Model):
    memory: MemoryRecord
    score: float
    reasons: list[str] = Field(default_factory=list)


class RecallResult(_Model):
    query: str
    hits: list[RecallHit] = Field(default_factory=list)
    plan: dict[str, Any] = Field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.hits)


class ContextItem(_Model):
    memory_id: str
    kind: MemoryKind
    section: str
    text: str
    tokens: int
    source_message_ids: list[str] = Field(default_factory=list)
    date: str | None = None
    flags: list[str] = Field(default_factory=list)


class DroppedItem(_Model):
    memory_id: str
    section: str
    reason: str
    tokens: int = 0


class Context(_Model):
    text: str
    items: list[ContextItem] = Field(default_factory=list)
    tokens: int
    max_tokens: int
    dropped: list[DroppedItem] = Field(default_factory=list)
    trace: dict[str, Any] = Field(default_factory=dict)

    @property
    def source_message_ids(self) -> list[str]:
        seen: dict[str, None] = {}
        for item in self.items:
            for mid in item.source_message_ids:
                seen.setdefault(mid, None)
        return list(seen)


class FeedbackResult(_Model):
    memory_id: str
    signal: FeedbackSignal
    changed: dict[str, Any] = Field(default_factory=dict)
    new_memory_id: str | None = None
    memory: MemoryRecord | None = None


class ForgetReceipt(_Model):
    user_id: str
    deleted: dict[str, int] = Field(default_factory=dict)
    memory_ids: list[str] = Field(default_factory=list)
    tombstone_id: str | None = None
    dry_run: bool = False
    # records kept but rewritten because they repeated a forgotten value ("[forgotten]" in its place)
    rewritten: int = 0
    # deleted from every index, but the bytes are not yet overwritten on disk (another connection held the
    # database); the next forget (or opening the store) completes it
    pending_scrub: bool = False

    @property
    def total(self) -> int:
        return self.deleted.get("rows", 0)


class HistoryEntry(_Model):
    memory: MemoryRecord
    valid_from: datetime | None
    valid_to: datetime | None


class UserExport(_Model):
    format_version: int = 1
    user_id: str
    exported_at: datetime = Field(default_factory=utcnow)
    memories: list[MemoryRecord] = Field(default_factory=list)


class MaintenanceReport(_Model):
    user_ids: list[str] = Field(default_factory=list)
    decayed: int = 0
    marked_stale: int = 0
    consolidated: int = 0
    compacted: int = 0
    expired: int = 0
    purged: int = 0
    details: list[str] = Field(default_factory=list)
