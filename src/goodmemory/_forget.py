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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .keys import is_digest, slot_of
from .models import MemoryKind, MemoryRecord, MemoryStatus
from .storage.base import MemoryEvent, MemoryFilter, Storage, WriteBatch

__all__ = ["ForgetPlan", "distinctive", "plan_forget", "restatements", "slot_history_to_forget"]

FORGOTTEN = "[forgotten]"


def distinctive(value: str) -> bool:
    """A value specific enough to be replaced wherever it was said: a name, a number, an identifier, a phrase."""
    v = value.strip()
    if len(v) < 3:
        return False
    return any(c.isdigit() for c in v) or any(c.isupper() for c in v) or len(v.split()) >= 2 or len(v) >= 8


def _pattern(values: Iterable[str]) -> re.Pattern[str] | None:
    vals = sorted({v.strip() for v in values if distinctive(v)}, key=len, reverse=True)
    if not vals:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(v) for v in vals) + r")(?!\w)", re.IGNORECASE)


def restatements(rec: MemoryRecord, source_ids: set[str], records: Iterable[MemoryRecord],
                 taken: set[str]) -> list[MemoryRecord]:
    """Memories other than ``taken`` read from the turns ``source_ids`` that hold ``rec``'s distinctive value,
    or, when ``rec`` is a raw turn, that quote its words (the user's own words kept as a memory)."""
    value = (rec.value or "").strip()
    if rec.kind == MemoryKind.EPISODE:
        role, sep, said = rec.text.partition(": ")
        value = (said if sep and role in ("user", "assistant") else rec.text).strip().rstrip(".!?")
    if not value or not distinctive(value):
        return []
    needle = value.casefold()
    return [r for r in records
            if r.id not in taken and r.kind != MemoryKind.EPISODE and set(r.source.message_ids) & source_ids
            and needle in r.text.casefold()]


def slot_history_to_forget(rec: MemoryRecord, slot: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """``rec`` and every older value it replaced, directly or through others; not the values that replaced it."""
    chosen = {rec.id: rec}
    grew = True
    while grew:
        grew = False
        for r in slot:
            if r.id in chosen:
                continue
            replaced = r.superseded_by in chosen or any(c.supersedes == r.id for c in chosen.values())
            if replaced and r.status == MemoryStatus.SUPERSEDED:
                chosen[r.id] = r
                grew = True
    return list(chosen.values())


@dataclass
class ForgetPlan:
    targets: list[MemoryRecord]
    updates: list[MemoryRecord] = field(default_factory=list)
    old_texts: list[str] = field(default_factory=list)  # texts of rewritten records (embedder cache)
    reembed: list[MemoryRecord] = field(default_factory=list)

    def batch(self, embed: Callable[[Sequence[str]], np.ndarray], events: Callable[[str], list[MemoryEvent]],
              pattern: re.Pattern[str] | None) -> WriteBatch:
        batch = WriteBatch(updates=self.updates)
        if self.reembed:
            mat = embed([r.text for r in self.reembed])
            batch.vectors = {r.id: mat[i] for i, r in enumerate(self.reembed)}
            # the history of a rewritten record held the value too: rewrite it the same way
            for r in self.reembed:
                batch.reset_history.append(r.id)
                batch.events.extend(MemoryEvent(e.memory_id, e.action, e.at, _scrub_detail(e.detail, pattern))
                                    for e in events(r.id))
        return batch


def _scrub(text: str, pattern: re.Pattern[str] | None) -> str:
    return pattern.sub(FORGOTTEN, text) if pattern is not None and text else text


def _scrub_detail(detail: dict[str, Any], pattern: re.Pattern[str] | None) -> dict[str, Any]:
    return {k: _scrub(v, pattern) if isinstance(v, str) else v for k, v in detail.items()}


def plan_forget(storage: Storage, user_id: str, targets: list[MemoryRecord], *,
                forget_values: bool) -> tuple[ForgetPlan, re.Pattern[str] | None]:
    """The rewrites that keep what is left from pointing at, or repeating, what ``targets`` held."""
    known = {r.id for r in targets}
    gone = {m for r in targets if r.kind == MemoryKind.EPISODE for m in r.source.message_ids}
    everything = storage.list(user_id, MemoryFilter(statuses=None)) if targets else []
    if gone:
        # digests quote the forgotten turns: they go too
        for r in everything:
            if (r.id not in known and r.kind == MemoryKind.EPISODE and is_digest(r.key)
                    and set(r.source.message_ids) & gone):
                targets.append(r)
                known.add(r.id)
    gone_values = {(slot_of(r.key), r.value) for r in targets if r.kind != MemoryKind.EPISODE}
    pattern = _pattern(v for _, v in gone_values) if forget_values else None
    plan = ForgetPlan(targets=targets)
    for r in everything:
        if r.id in known:
            continue
        update: dict[str, Any] = {}
        if gone and set(r.source.message_ids) & gone and r.keywords:
            update["keywords"] = ""  # it borrowed words from the forgotten turns
        marks = r.metadata.get("outdated")
        if marks:
            kept = [m for m in marks if m.get("by") not in known
                    and (m.get("key"), m.get("old")) not in gone_values
                    and (m.get("key"), m.get("new")) not in gone_values]
            if kept != marks:
                update["metadata"] = {**r.metadata, "outdated": kept}
        if r.supersedes in known:
            update["supersedes"] = None
        if r.superseded_by in known:
            update["superseded_by"] = None
        if any(c in known for c in r.conflicts_with):
            update["conflicts_with"] = [c for c in r.conflicts_with if c not in known]
        rewrite = pattern is not None and r.kind == MemoryKind.EPISODE and pattern.search(r.text) is not None
        if rewrite:
            update["text"] = _scrub(r.text, pattern)
        if pattern is not None and pattern.search(update.get("keywords", r.keywords) or ""):
            update["keywords"] = _scrub(r.keywords, pattern)
        if update:
            new = r.model_copy(update=update, deep=True)
            plan.updates.append(new)
            if rewrite:
                plan.old_texts.append(r.text)
                plan.reembed.append(new)
    return plan, pattern
