"""The "outdated" marks the write path puts on raw turns once a value they state is replaced.

Which pairs mark and what a mark hides is pure policy (``_outdated``); this module finds the turns (the old
value's own, those that restate it, and, when a thing ended, those that speak of it) and writes the marks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ._outdated import Outdating, about_ended, outdating, said_in
from ._value_words import _values_in
from .keys import episode_keys, slot_of
from .merge import _ENDED, replaced_values
from .models import MemoryKind, MemoryRecord, MemoryStatus
from .storage.base import MemoryFilter, Storage

__all__ = ["notes_of_people_gone", "outdate_sources", "retract_sources"]

_ECHO_TURNS = 400  # the newest turns of a domain searched for restatements of a replaced value
_ECHO_MIN_CHARS = 3  # "14" of "14 months left" is too common to look for in other turns
_CHAIN = 6  # values followed back from a replaced one to those it replaced in turn
_SESSION_TURNS = 400  # the newest turns of the old value's session searched for the reply to its turn


@dataclass(frozen=True)
class _Want:
    old: MemoryRecord
    new: MemoryRecord
    change: Outdating
    said: str
    echo: tuple[str, ...] = ()  # for a turn that restates the old value: the hidden phrases it names
    restates: bool = False  # a turn other than the old value's own


def outdate_sources(
    storage: Storage,
    user_id: str,
    pairs: Sequence[tuple[MemoryRecord, MemoryRecord]],
    pending: dict[str, MemoryRecord] | None = None,
    *,
    trusted: bool = False,
) -> list[MemoryRecord]:
    """Mark the raw turns behind superseded values as outdated (old -> new), so history shows the change.

    ``pairs`` are (old, new) records; ``pending`` maps message ids to episodes not yet stored. A pair marks only
    on the evidence ``_outdated.outdating`` asks for (``trusted``: a user's own correction through feedback needs
    none); a mark lists the phrases the context hides (``"hide"``) and where (``"within"``), and a new memory
    that denies a phrase keeps the phrases in ``metadata["denies"]``. Returns stored episodes that need an
    update; pending ones are changed in place.
    """
    pending = pending or {}
    want: dict[str, list[_Want]] = {}
    for old, new, first in _with_unmarked_predecessors(storage, user_id, pairs):
        turn = " ".join(pending[m].text for m in new.source.message_ids if m in pending)
        said = said_in(turn, new.value) if turn else new.value
        # a value further down the chain was replaced by a wrong link: it is outdated on this one's evidence alone
        structured = first and (trusted or new.metadata.get("rule") != "statement")
        change = outdating(old.value, new.value, said, structured=structured)
        if not change.marks:
            continue
        if change.denied:
            new.metadata["denies"] = sorted(set(new.metadata.get("denies", [])) | set(change.denied))
        for mid in old.source.message_ids:
            if mid not in new.source.message_ids:
                want.setdefault(mid, []).append(_Want(old, new, change, said))
        for mid, echo in _echoes(storage, user_id, old, new, pending, change):
            want.setdefault(mid, []).append(_Want(old, new, change, said, echo, restates=True))
        for mid in _replies(storage, user_id, old, new, pending):
            want.setdefault(mid, []).append(_Want(old, new, change, said, restates=True))
    if not want:
        return []
    stored_keys = episode_keys(m for m in want if m not in pending)
    stored = {r.source.message_ids[0]: r for r in
              (storage.list(user_id, MemoryFilter(statuses=None, keys=stored_keys)) if stored_keys else [])
              if r.source.message_ids}
    updates: list[MemoryRecord] = []
    for mid, wants in want.items():
        ep = pending.get(mid)
        in_batch = ep is not None
        if ep is None:
            base = stored.get(mid)
            if base is None:
                continue
            ep = base.model_copy(deep=True)
        marks = list(ep.metadata.get("outdated", []))
        for w in wants:
            mark = _mark(ep.text, w)
            if mark is not None and not any(_same(m, mark) for m in marks):
                marks.append(mark)
        ep.metadata["outdated"] = marks
        if not in_batch:
            updates.append(ep)
    return updates


def _with_unmarked_predecessors(storage: Storage, user_id: str, pairs: Sequence[tuple[MemoryRecord, MemoryRecord]]
                                ) -> list[tuple[MemoryRecord, MemoryRecord, bool]]:
    """The pairs, each followed by (older value, new) for the values the old one replaced whose turns its own
    replacement did not mark (``False``: not the pair the write decided).

    A supersede by meaning is sometimes wrong ("the pottery class is on Tuesdays at 18:30" replaced by "I bought
    running shoes"); its pair marks nothing, for want of evidence, and the first value's turns were left looking
    current when a later statement ("the pottery class moved to Thursdays") replaced the wrong link. That
    statement may outdate them, on its own evidence.
    """
    out: list[tuple[MemoryRecord, MemoryRecord, bool]] = []
    for old, new in pairs:
        out.append((old, new, True))
        seen, prev = {old.id, new.id}, old.supersedes
        for _ in range(_CHAIN):
            rec = storage.get(user_id, prev) if prev and prev not in seen else None
            if rec is None or rec.status != MemoryStatus.SUPERSEDED:
                break
            seen.add(rec.id)
            if not _marked_by_successor(storage, user_id, rec):
                out.append((rec, new, False))
            prev = rec.supersedes
    return out


def _marked_by_successor(storage: Storage, user_id: str, rec: MemoryRecord) -> bool:
    keys = episode_keys(rec.source.message_ids)
    turns = storage.list(user_id, MemoryFilter(statuses=None, kinds=(MemoryKind.EPISODE,), keys=keys)) if keys else []
    return any(m.get("old") == rec.value for t in turns for m in t.metadata.get("outdated", []))


def _mark(text: str, w: _Want) -> dict[str, object] | None:
    mark: dict[str, object] = {"key": w.old.key, "old": w.old.value, "new": w.new.value, "by": w.new.id}
    hide, within = list(w.echo or w.change.hide), []
    if w.change.ended:
        # a thing that ended: what this turn says of it is over, wherever in the turn it is said
        spans, gone = about_ended(text, w.change.ended, w.said)
        hide = sorted(set(hide) | set(gone))
        within = [*spans, w.old.value] if w.old.value in text else list(spans)
        if w.restates and not gone and not w.echo:
            return None  # it names the thing but says nothing of it that is over
    if hide:
        mark["hide"] = hide
    if within:
        mark["within"] = within
    return mark


def _same(a: dict[str, object], b: dict[str, object]) -> bool:
    return all(a.get(k) == b.get(k) for k in ("key", "old", "new", "by"))


def _echoes(storage: Storage, user_id: str, old: MemoryRecord, new: MemoryRecord, pending: dict[str, MemoryRecord],
            change: Outdating) -> list[tuple[str, tuple[str, ...]]]:
    """The other turns between the two statements that restate what changed ("So 40 per firing ..." after
    the fee became 48), or that speak of a thing that ended, each with the hidden phrases it names:
    they are as outdated as the turn the old value was read from. Only turns of the old value's domain: a mark
    carries the new value's words, which stay where they may be shown."""
    hide = change.hide
    # the new memory's text keeps what its value dropped ("switched him from X to Y"): what it denies is gone
    gone = {h.lower() for h in hide if len(h) >= _ECHO_MIN_CHARS} if hide else \
        replaced_values(old.value, f"{new.value}. {new.text}")
    # an ended thing is looked for by a name or by two words ("the Vespa", "the car loan"), not "the car"
    names = {v.removesuffix("'s") for v in _values_in(" x " + old.value)}
    ended = [t for t in change.ended if len(t.split()) > 1 or t in names]
    if not gone and not ended:
        return []
    # a thing that ended is also looked for where its end was said, whose words the mark carries
    where = {old.domain or ""} | ({new.domain or ""} if ended else set())
    turns = [*(r for d in sorted(where) for r in storage.list(
        user_id, MemoryFilter(kinds=(MemoryKind.EPISODE,), domain=d, newest_first=True), limit=_ECHO_TURNS)),
             *(e for e in pending.values() if (e.domain or "") in where)]
    out, seen = [], set()
    for ep in turns:
        if ep.id in seen:
            continue
        seen.add(ep.id)
        # a thing that ended was spoken of before the old value too; a value only from when it was said
        if not ep.source.message_ids or ep.metadata.get("digest") or ep.event_time > new.event_time \
                or (ep.event_time < old.event_time and not ended):
            continue
        mid = ep.source.message_ids[0]
        if mid in old.source.message_ids or mid in new.source.message_ids:
            continue
        named = tuple(h for h in hide if h.lower() in gone and _names_any(ep.text, {h.lower()}))
        if ep.event_time < old.event_time:
            named = ()  # before the old value: only what it says of the thing that ended
        if named or (not hide and ep.event_time >= old.event_time and _names_any(ep.text, gone)) \
                or (ended and _names_any(ep.text, set(ended))):
            out.append((mid, named))
    return out


def _replies(storage: Storage, user_id: str, old: MemoryRecord, new: MemoryRecord,
             pending: dict[str, MemoryRecord]) -> list[str]:
    """The assistant turns that answer a turn of the old value and repeat one of its names or figures ("Noted —
    drills with Mateo on Friday"): an acknowledgement restates the old value as much as the turn it answers
    does, but shares none of the words a changed value drops when the new value names the same person ("Mateo
    moved up, our new goalkeeper is Bruno"), so ``_echoes`` does not find it."""
    values = {v.removesuffix("'s") for v in _values_in(" x " + old.value)}
    if not values or not old.source.message_ids:
        return []
    turns = [*storage.list(user_id, MemoryFilter(kinds=(MemoryKind.EPISODE,), session_id=old.source.session_id,
                                                 newest_first=True), limit=_SESSION_TURNS),
             *(e for e in pending.values() if e.source.session_id == old.source.session_id)]
    turns = [t for t in turns if t.source.message_ids and not t.metadata.get("digest") and "seq" in t.metadata]
    # one remember call wrote a turn and its reply: same session, same write time, the next position
    answered = {(t.created_at, int(t.metadata["seq"]) + 1) for t in turns
                if t.source.message_ids[0] in old.source.message_ids}
    return [t.source.message_ids[0] for t in turns
            if (t.created_at, int(t.metadata["seq"])) in answered and t.source.role == "assistant"
            and t.source.message_ids[0] not in new.source.message_ids and _names_any(t.text, values)]


def retract_sources(storage: Storage, user_id: str, rec: MemoryRecord) -> list[MemoryRecord]:
    """Mark the raw turns a rejected memory was read from as retracted: the context then hides the memory's
    value where a turn says it word for word and flags the turn, so what the user took back is not read
    again from the turn. Returns the episodes to update."""
    if rec.kind == MemoryKind.EPISODE or not rec.source.message_ids:
        return []
    keys = episode_keys(rec.source.message_ids)
    out = []
    for ep in storage.list(user_id, MemoryFilter(statuses=None, kinds=(MemoryKind.EPISODE,), keys=keys)):
        ep = ep.model_copy(deep=True)
        mark: dict[str, object] = {"key": rec.key, "old": rec.value, "by": rec.id, "retracted": True}
        if rec.value and rec.value in ep.text:
            mark["hide"] = [rec.value]
        marks = list(ep.metadata.get("outdated", []))
        if not any(m.get("by") == rec.id and m.get("retracted") for m in marks):
            ep.metadata["outdated"] = [*marks, mark]
            out.append(ep)
    return out


def _names_any(text: str, values: set[str]) -> bool:
    low = text.lower()
    return any(re.search(r"(?<![\w.,])" + re.escape(v) + r"(?![\w]|[.,]\d)", low) for v in values)


def notes_of_people_gone(storage: Storage, user_id: str, superseded: Sequence[tuple[MemoryRecord, MemoryRecord]],
                         now: datetime) -> list[MemoryRecord]:
    """The user's notes about a person whose place in their life ended in this call ("Jake and I called it quits"
    ends "boyfriend: Jake"), retired with it: "Jake's birthday is next week, he's into vinyl" is no current fact of
    the user's world once he has left it. Only notes told of another person that name them, not the user's own."""
    gone = [(old, new) for old, new in superseded if old.key.startswith("relation.")
            and (new.status == MemoryStatus.EXPIRED or _ENDED.search(new.value)
                 # another person took their role ("Fatima has taken over our team")
                 or str(new.metadata.get("slot_reason", "")).startswith("names who has the role"))
            and len(old.value.split()) <= 3 and old.value[:1].isupper()]
    # a vehicle replaced takes with it what was filed under its name ("finance.toyota_auris": the old car's premium)
    cars = [(old, new) for old, new in superseded if old.key.startswith("vehicle.") and old.key.count(".") >= 1]
    out: dict[str, MemoryRecord] = {}
    if cars:
        mine = storage.list(user_id, MemoryFilter())
        for old, new in cars:
            tail = slot_of(old.key).rsplit(".", 1)[-1]
            for n in mine:
                if n.id not in out and n.id != new.id and not n.key.startswith("vehicle.") \
                        and n.kind != MemoryKind.EPISODE and slot_of(n.key).rsplit(".", 1)[-1] == tail:
                    u = n.model_copy(deep=True)
                    u.status, u.superseded_by, u.valid_to, u.updated_at = MemoryStatus.SUPERSEDED, new.id, now, now
                    out[n.id] = u
    if not gone:
        return list(out.values())
    # notes told of them, and plans the user made with them ("My girlfriend Priya and I are going to Lisbon in spring")
    notes = [*storage.list(user_id, MemoryFilter(key_prefix="fact.note.")),
             *(r for p in ("fact.event.", "travel.", "appointment.") for r in storage.list(user_id, MemoryFilter(key_prefix=p))
               if r.metadata.get("statement"))]
    for old, new in gone:
        name = re.compile(rf"\b{re.escape(old.value.strip())}\b")
        for n in notes:
            if n.id not in out and (n.metadata.get("other_subject") or not n.key.startswith("fact.note.")) \
                    and name.search(n.value):
                u = n.model_copy(deep=True)
                u.status, u.superseded_by, u.valid_to, u.updated_at = MemoryStatus.SUPERSEDED, new.id, now, now
                out[n.id] = u
    return list(out.values())
