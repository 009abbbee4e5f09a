"""Every status change of a memory after it is written, as a plan (pure: records and inputs in, a plan out).

The pipelines gather the inputs (records read from storage, a correction's new record, ``now``) and
apply the plan in one transaction; what a change *is* lives here once:

- feedback (``feedback_plan``): confirm raises the confidence halfway to 1 (at most 0.99), helpful /
  not helpful move the score by one within [-3, 3], reject retracts, a correction supersedes the
  record with the new one;
- maintenance: ``expire`` ends what :func:`expires_at` says is over, ``consolidate`` keeps the oldest
  of active records with the same text and supersedes the others into it;
- forgetting: ``slot_history_to_forget`` and ``restatements`` say what goes with a memory,
  ``scrub_plan`` what the rest of the user's records must lose so nothing points at or repeats it.

- writing: ``plan_write`` is the decision for one candidate (add / merge / supersede / reject, the rules of
  ``merge.decide``) as a plan; ``write_events`` the history a write call records for what it stores.

When a memory stops being current on its own: ``maintain()`` expires what :func:`expires_at` says
has ended; the write path and the facade only store the structured values it reads. Two sources,
the first that applies wins:

- ``metadata["expires_at"]``: an explicit end (ISO 8601) set by a caller, an import or an extractor;
- a dated event: a memory of a family whose value *is* an event on a day (an appointment, a
  booking, a reservation), with the ``metadata["date"]`` the write path already records. Once that
  day is over everywhere on Earth the event is past: it is expired, not deleted (history and
  ``include_history`` still show it, recall and context stop presenting it as current).

A deadline or a document's expiry date is *not* an end of the memory: an overdue task is still
open, and "my passport expired on ..." stays true after the day.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from typing import Any

from ._meta import read_meta
from .keys import is_digest, slot_of
from .merge import SlotView, WritePolicy, decide
from .models import Candidate, FeedbackSignal, MemoryKind, MemoryRecord, MemoryStatus, WriteDecision

__all__ = ["EVENT_FAMILIES", "FORGOTTEN", "Event", "Plan", "ScrubPlan", "consolidate", "distinctive", "expire",
           "expires_at", "feedback_plan", "plan_write", "restatements", "scrub", "scrub_plan", "slot_history_to_forget",
           "write_events"]

FORGOTTEN = "[forgotten]"
# (memory id, action, detail): a history event to write with the plan
Event = tuple[str, str, dict[str, Any]]


@dataclass
class Plan:
    """What to write: records in their new state, new records, history events; ``changed`` says what changed,
    ``decision`` what a write decided (``plan_write`` only)."""

    updates: list[MemoryRecord] = field(default_factory=list)
    inserts: list[MemoryRecord] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    changed: dict[str, Any] = field(default_factory=dict)
    decision: WriteDecision | None = None


def plan_write(c: Candidate, view: SlotView, *, user_id: str, agent_id: str | None, session_id: str | None,
               now: datetime, policy: WritePolicy | None = None) -> Plan:
    """The write decision for one candidate over what its slot holds (``view``), as a plan: the records it adds
    and the ones it changes, in their new state. No events: a write call records the history of what it finally
    stores once (``write_events``), since a later candidate of the call may change a record an earlier one added."""
    d = decide(c, view, user_id=user_id, agent_id=agent_id, session_id=session_id, now=now,
               policy=policy or WritePolicy())
    return Plan(updates=list(d.updates), inserts=list(d.inserts), decision=d.decision)


def write_events(inserts: Sequence[MemoryRecord], updates: Sequence[MemoryRecord]) -> list[Event]:
    """The history a write call records: what it added (active, or straight into history) and what it changed."""
    return [*((r.id, "add" if r.status == MemoryStatus.ACTIVE else "add_history", {"text": r.text, "value": r.value})
              for r in inserts),
            *((r.id, "update", {"status": r.status.value}) for r in updates)]

# the registry families whose value is a dated event (_key_families.py names them; a registry field
# "ends_at_date" would let the registry say so itself)
EVENT_FAMILIES = frozenset({"appointment", "booking", "reservation"})
# the last time zone (UTC-12) finishes a day 12 hours after UTC does
_DAY_OVER_EVERYWHERE = timedelta(days=1, hours=12)


def expires_at(record: MemoryRecord) -> datetime | None:
    """The moment ``record`` stops being current, or None when nothing says it ends."""
    if "expires_at" not in record.metadata and "date" not in record.metadata:
        return None  # most records (every turn): no typed reading needed
    meta = read_meta(record.metadata)
    if meta.expires_at is not None:
        return meta.expires_at
    if record.metadata.get("expires_at"):
        return None  # an unreadable end is no end: expiring on a guess would hide a live memory
    if meta.family in EVENT_FAMILIES and meta.date is not None:
        return datetime.combine(meta.date, time(0), tzinfo=UTC) + _DAY_OVER_EVERYWHERE
    return None


def expire(record: MemoryRecord, now: datetime) -> Plan | None:
    """The record expired at ``now`` when its end is due, else None."""
    ends = expires_at(record)
    if ends is None or ends > now:
        return None
    u = record.model_copy(deep=True)
    u.status, u.valid_to, u.updated_at = MemoryStatus.EXPIRED, now, now
    return Plan(updates=[u], events=[(u.id, "expired", {"ended": ends.isoformat()})])


def consolidate(records: Iterable[MemoryRecord], now: datetime) -> Plan:
    """Active non-episode records with the same text: the oldest keeps the others' sources, they are superseded."""
    by_hash: dict[str, list[MemoryRecord]] = {}
    for r in records:
        if r.kind != MemoryKind.EPISODE and r.status == MemoryStatus.ACTIVE:
            by_hash.setdefault(r.content_hash, []).append(r)
    plan = Plan()
    for group in by_hash.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda r: (r.created_at, r.id))
        keep = group[0].model_copy(deep=True)
        for dup in group[1:]:
            keep.source.message_ids = [*keep.source.message_ids,
                                       *[m for m in dup.source.message_ids if m not in keep.source.message_ids]]
            keep.tags = list(dict.fromkeys([*keep.tags, *dup.tags]))  # a tag filter still finds it
            d = dup.model_copy(deep=True)
            d.status, d.superseded_by, d.valid_to, d.updated_at = MemoryStatus.SUPERSEDED, keep.id, now, now
            plan.updates.append(d)
            plan.events.append((d.id, "consolidated", {"into": keep.id}))
        plan.updates.append(keep)
    return plan


def feedback_plan(record: MemoryRecord, signal: FeedbackSignal, now: datetime, *, note: str = "",
                  correction: MemoryRecord | None = None) -> Plan:
    """One feedback signal on an active record; a correction (``FeedbackSignal.CORRECT``) brings the new record."""
    upd = record.model_copy(deep=True)
    upd.updated_at = now
    plan = Plan()
    if signal == FeedbackSignal.CONFIRM:
        upd.confidence = round(min(0.99, record.confidence + (1 - record.confidence) * 0.5), 4)
        upd.last_confirmed_at = now
        plan.changed = {"confidence": [record.confidence, upd.confidence], "last_confirmed_at": now.isoformat()}
    elif signal == FeedbackSignal.REJECT:
        upd.status, upd.valid_to = MemoryStatus.RETRACTED, now
        plan.changed = {"status": [record.status.value, "retracted"]}
    elif signal in (FeedbackSignal.HELPFUL, FeedbackSignal.NOT_HELPFUL):
        delta = 1.0 if signal == FeedbackSignal.HELPFUL else -1.0
        upd.feedback_score = max(-3.0, min(3.0, record.feedback_score + delta))
        plan.changed = {"feedback_score": [record.feedback_score, upd.feedback_score]}
    else:
        if correction is None:
            raise ValueError("a correction plan needs the corrected record")
        upd.status, upd.valid_to, upd.superseded_by = MemoryStatus.SUPERSEDED, now, correction.id
        plan.inserts.append(correction)
        plan.events.append((correction.id, "add", {"text": correction.text, "via": "user correction"}))
        plan.changed = {"status": [record.status.value, "superseded"], "superseded_by": correction.id,
                        "value": correction.value}
    plan.updates.append(upd)
    plan.events.append((record.id, f"feedback:{signal.value}", {"note": note, **{
        k: v for k, v in plan.changed.items() if k != "value"}}))
    return plan


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


def scrub(text: str, pattern: re.Pattern[str] | None) -> str:
    return pattern.sub(FORGOTTEN, text) if pattern is not None and text else text


def scrub_detail(detail: dict[str, Any], pattern: re.Pattern[str] | None) -> dict[str, Any]:
    return {k: scrub(v, pattern) if isinstance(v, str) else v for k, v in detail.items()}




@dataclass
class ScrubPlan:
    """What forgetting ``targets`` deletes, and how the rest of the user's records are rewritten."""

    targets: list[MemoryRecord]
    pattern: re.Pattern[str] | None = None  # the forgotten values, where they are replaced by FORGOTTEN
    updates: list[MemoryRecord] = field(default_factory=list)
    old_texts: list[str] = field(default_factory=list)  # texts of rewritten records (embedder cache)
    reembed: list[MemoryRecord] = field(default_factory=list)


def scrub_plan(targets: list[MemoryRecord], everything: Sequence[MemoryRecord], *, forget_values: bool) -> ScrubPlan:
    """The rewrites that keep what is left of ``everything`` (the user's records, any status) from pointing at,
    or repeating, what ``targets`` held; digests quoting a forgotten turn join the targets."""
    targets = list(targets)
    known = {r.id for r in targets}
    gone = {m for r in targets if r.kind == MemoryKind.EPISODE for m in r.source.message_ids}
    if gone:
        # digests quote the forgotten turns: they go too
        for r in everything:
            if (r.id not in known and r.kind == MemoryKind.EPISODE and is_digest(r.key)
                    and set(r.source.message_ids) & gone):
                targets.append(r)
                known.add(r.id)
    gone_values = {(slot_of(r.key), r.value) for r in targets if r.kind != MemoryKind.EPISODE}
    pattern = _pattern(v for _, v in gone_values) if forget_values else None
    plan = ScrubPlan(targets=targets, pattern=pattern)
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
            update["text"] = scrub(r.text, pattern)
        if pattern is not None and pattern.search(update.get("keywords", r.keywords) or ""):
            update["keywords"] = scrub(r.keywords, pattern)
        if update:
            new = r.model_copy(update=update, deep=True)
            plan.updates.append(new)
            if rewrite:
                plan.old_texts.append(r.text)
                plan.reembed.append(new)
    return plan
