"""How lifecycle plans (``lifecycle.Plan``) become one write batch: one applier for every pipeline (remember,
feedback, maintain), so a plan means the same wherever it is applied."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from .lifecycle import Event, Plan
from .models import MemoryRecord
from .storage.base import MemoryEvent, WriteBatch

__all__ = ["Pending", "events_at"]


def events_at(events: list[Event], now: datetime) -> list[MemoryEvent]:
    return [MemoryEvent(mid, action, now, detail) for mid, action, detail in events]


@dataclass
class Pending:
    """The records a call will write, in their latest planned state (by id, in the order first planned)."""

    inserts: dict[str, MemoryRecord] = field(default_factory=dict)
    updates: dict[str, MemoryRecord] = field(default_factory=dict)
    events: list[MemoryEvent] = field(default_factory=list)

    def apply(self, plan: Plan, now: datetime) -> None:
        """Adds ``plan``: a record this call inserts stays an insert in its new state; one it already updates is
        updated once, to the latest state; the plan's events are recorded at ``now``."""
        for r in plan.inserts:
            self.inserts[r.id] = r
        for r in plan.updates:
            self.update(r)
        self.events.extend(events_at(plan.events, now))

    def update(self, record: MemoryRecord) -> None:
        (self.inserts if record.id in self.inserts else self.updates)[record.id] = record

    def get(self, memory_id: str) -> MemoryRecord | None:
        return self.inserts.get(memory_id) or self.updates.get(memory_id)

    def into(self, batch: WriteBatch) -> WriteBatch:
        batch.inserts.extend(self.inserts.values())
        batch.updates.extend(self.updates.values())
        batch.events.extend(self.events)
        return batch
