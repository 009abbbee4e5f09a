"""What ``forget`` deletes and rewrites (planning only; the facade applies the plan).

Forgetting one memory (``forget(memory_id)``) forgets its value:
- the memory and the older values it replaced (its supersede history); a newer value that replaced
  it is a memory of its own and stays (forgetting an outdated value never deletes the current one);
- the raw turns those records came from, and the session digests quoting those turns;
- every other mention of the value in the user's raw turns (assistant echoes included), digests and
  search keywords: the value is replaced by ``[forgotten]`` (the rest of the turn stays) and the
  rewritten records are re-embedded, their history rewritten the same way; "outdated: A -> now B"
  marks naming the value go.
Values that are a common word ("window", "short") are removed with the memory and its turns but not
replaced in every other turn: only distinctive values are (see :func:`distinctive`). A memory read from
the same turns that restates the value (the rules' fact and the user's own words filed under another
family) is the same memory and goes too (:func:`restatements`); other memories that mention the value in
their own text (another slot, said elsewhere) are memories of their own and stay.

Forgetting a raw turn (an episode id) forgets that turn. ``forget(user_id=..., key/session_id/domain)``
deletes what matches, with the same clean-up of borrowed keywords and marks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .lifecycle import (
    FORGOTTEN,
    ScrubPlan,
    distinctive,
    restatements,
    scrub_detail,
    scrub_plan,
    slot_history_to_forget,
)
from .models import MemoryRecord
from .storage.base import MemoryEvent, MemoryFilter, Storage, WriteBatch

__all__ = ["FORGOTTEN", "ForgetPlan", "distinctive", "plan_forget", "restatements", "slot_history_to_forget"]


@dataclass
class ForgetPlan(ScrubPlan):
    def batch(self, embed: Callable[[Sequence[str]], np.ndarray], events: Callable[[str], list[MemoryEvent]],
              pattern: re.Pattern[str] | None) -> WriteBatch:
        batch = WriteBatch(updates=self.updates)
        if self.reembed:
            mat = embed([r.text for r in self.reembed])
            batch.vectors = {r.id: mat[i] for i, r in enumerate(self.reembed)}
            # the history of a rewritten record held the value too: rewrite it the same way
            for r in self.reembed:
                batch.reset_history.append(r.id)
                batch.events.extend(MemoryEvent(e.memory_id, e.action, e.at, scrub_detail(e.detail, pattern))
                                    for e in events(r.id))
        return batch


def plan_forget(storage: Storage, user_id: str, targets: list[MemoryRecord], *,
                forget_values: bool) -> tuple[ForgetPlan, re.Pattern[str] | None]:
    """The rewrites that keep what is left from pointing at, or repeating, what ``targets`` held
    (``lifecycle.scrub_plan`` over every record of the user)."""
    everything = storage.list(user_id, MemoryFilter(statuses=None)) if targets else []
    plan = scrub_plan(targets, everything, forget_values=forget_values)
    return ForgetPlan(**vars(plan)), plan.pattern
