"""Schemas of the eval fixtures: personas, scenarios and probes (pydantic, no I/O).

These fields serve the evaluation only; none of them is part of the public API.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = [
    "DOMAINS",
    "DriftEvent",
    "FeedbackStep",
    "MemoryRisk",
    "Persona",
    "Probe",
    "Relationship",
    "Scenario",
    "Session",
    "Turn",
    "UpdateExpectation",
]

Lifecycle = Literal["medium", "medium_complex", "long"]

DOMAINS = frozenset({
    "work", "travel", "health", "finance", "cooking", "shopping", "learning", "home", "fitness", "legal",
    "parenting", "tech_support",
})
NonEmptyList = list[str]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _non_empty(v: object, name: str) -> object:
    if v is None or (isinstance(v, (str, list, dict)) and len(v) == 0):
        raise ValueError(f"{name} must not be empty")
    if isinstance(v, list) and any(isinstance(x, str) and not x.strip() for x in v):
        raise ValueError(f"{name} has an empty entry")
    return v


class Relationship(_Strict):
    name: str = Field(min_length=1)
    relation: str = Field(min_length=1)
    notes: str = ""


class MemoryRisk(_Strict):
    type: Literal["conflict", "drift", "forgetting", "verification"]
    description: str = Field(min_length=1)


class DriftEvent(_Strict):
    session_id: str = Field(min_length=1)
    attribute: str = Field(min_length=1)
    old: str = Field(min_length=1)
    new: str = Field(min_length=1)
    description: str = ""


class Persona(_Strict):
    persona_id: str = Field(pattern=r"^p\d{2}_[a-z0-9_]+$")
    name: str = Field(min_length=1)
    lifecycle: Lifecycle
    age_range: str = Field(min_length=1)
    locale: str = Field(min_length=2)
    profession: str = Field(min_length=1)
    expertise: NonEmptyList
    background: str = Field(min_length=20)
    communication_preferences: NonEmptyList
    work_style_preferences: NonEmptyList
    long_term_goals: NonEmptyList
    current_projects: NonEmptyList
    growth_path: NonEmptyList
    known_relationships: list[Relationship]
    memory_risks: list[MemoryRisk]
    domains: NonEmptyList
    stable_preferences: NonEmptyList
    domain_specific_preferences: dict[str, NonEmptyList]
    drift_events: list[DriftEvent]
    negative_personalization_risks: NonEmptyList

    @model_validator(mode="after")
    def _complete(self) -> Persona:
        for name in Persona.model_fields:
            _non_empty(getattr(self, name), name)
        unknown = set(self.domain_specific_preferences) - set(self.domains)
        if unknown:
            raise ValueError(f"domain_specific_preferences names unknown domains {sorted(unknown)}")
        return self


class Turn(_Strict):
    role: Literal["user", "assistant"]
    content: str = Field(min_length=1)


class Session(_Strict):
    session_id: str = Field(min_length=1)
    domain: str = Field(min_length=1)
    at: datetime
    turns: list[Turn] = Field(min_length=1)


class FeedbackStep(_Strict):
    """Feedback the user gives after the replay, on the memory whose text contains ``match``."""

    match: str = Field(min_length=1)
    signal: Literal["confirm", "reject", "correct", "helpful", "not_helpful"]
    correction: str | None = None
    domain: str | None = None


class UpdateExpectation(_Strict):
    new: str = Field(min_length=1)
    old: str = Field(min_length=1)


class Probe(_Strict):
    probe_id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    at: datetime
    layer: Literal["retrieval", "personalization", "governance"]
    task_family: Literal[
        "identity", "background", "preference", "task_continuation", "open_question",
        "update", "cross_domain", "stale", "fact_lookup", "governance",
    ]
    domain: str = Field(min_length=1)
    memory_source_domains: NonEmptyList
    evaluation_setting: Literal["in_domain", "cross_domain", "update", "stale", "governance"]
    expected_transfer_signals: list[str] = Field(default_factory=list)
    expected_non_transfer_signals: list[str] = Field(default_factory=list)
    expected_update_wins: list[UpdateExpectation] = Field(default_factory=list)
    expected_stale_suppression: list[str] = Field(default_factory=list)
    wrong_personalization_signals: list[str] = Field(default_factory=list)
    user_satisfaction_hypothesis: str = Field(min_length=1)

    @field_validator(
        "expected_transfer_signals", "expected_non_transfer_signals",
        "expected_stale_suppression", "wrong_personalization_signals",
    )
    @classmethod
    def _entries(cls, v: list[str]) -> list[str]:
        if any(not s.strip() for s in v):
            raise ValueError("signal entries must not be blank")
        return v

    @model_validator(mode="after")
    def _has_expectation(self) -> Probe:
        if not (self.expected_transfer_signals or self.expected_update_wins or self.expected_stale_suppression
                or self.expected_non_transfer_signals):
            raise ValueError(f"probe {self.probe_id} expects nothing checkable")
        return self


class Scenario(_Strict):
    persona_id: str
    sessions: list[Session] = Field(min_length=1)
    feedback: list[FeedbackStep] = Field(default_factory=list)
    probes: list[Probe] = Field(min_length=1)

    @property
    def turn_count(self) -> int:
        return sum(len(s.turns) for s in self.sessions)

    @model_validator(mode="after")
    def _ordered(self) -> Scenario:
        times = [s.at for s in self.sessions]
        if times != sorted(times):
            raise ValueError(f"{self.persona_id}: sessions must be in time order")
        ids = [s.session_id for s in self.sessions]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{self.persona_id}: duplicate session ids")
        last = times[-1]
        for p in self.probes:
            if p.at < last:
                raise ValueError(f"{p.probe_id}: probe is asked before the last session")
        return self
