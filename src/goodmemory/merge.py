"""The write policy: what happens to one candidate, given what is stored (pure).

``decide(candidate, view, now, policy)`` returns a :class:`Plan`: the decision
(ADD / MERGE / SUPERSEDE / REJECT with a reason) and the records to insert or
update. It does no I/O; the facade gathers the :class:`SlotView` and applies
the plan in one transaction.

Rules, in order:
1. REJECT empty text, low confidence, unconfirmed assistant statements (identifiers the
   assistant issued, such as a confirmation number, are facts, not speculation),
   secrets (unless allowed), echoes of text GoodMemory injected, and
   anything the user rejected before from the same source turns.
2. MERGE an equal value in the same slot (or an identical text anywhere):
   provenance and confidence grow, no new row. Re-sending the same turns
   changes nothing at all (idempotent replay).
3. SUPERSEDE a different value in the same slot when the candidate is newer
   (or a correction at the same time): the old row gets ``valid_to`` and
   ``superseded_by`` and stays as history; nothing is deleted.
4. An older statement than the current value becomes history, never the
   current value (replays out of order are safe).
5. Two different values stated at the same instant without a correction are a
   conflict: both are kept and cross-linked so the context can show
   "conflict: A vs B".
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ._change_words import _CHANGE as _CHANGE  # _replaced reads it here
from ._change_words import LENGTH, adds, changes, one_more, weakly_changes
from ._value_words import _NAME_WORD, _WHEN_SORTS, _named_by_name, _sort, _values_in
from .keys import in_slot, slot_of
from .models import (
    Candidate,
    MemoryKind,
    MemoryRecord,
    MemorySource,
    MemoryStatus,
    WriteAction,
    WriteDecision,
    content_hash,
    new_id,
)
from .taxonomy import (
    STOPWORDS,
    KeyFamily,
    content_words,
    default_transferable,
    normalize_key,
    slot_key,
    volatility_for,
)

__all__ = ["ABOUT_HELD_PERSON", "Earlier", "Plan", "SlotView", "WritePolicy", "adds", "attribute_slot", "replaced_values", "changes", "decide", "names_in", "normalize_value",
           "new_family_key", "record_from_candidate"]


@dataclass(frozen=True)
class WritePolicy:
    min_confidence: float = 0.35
    allow_secrets: bool = False
    merge_confidence_gain: float = 0.5  # share of the remaining doubt a repeat removes
    min_attribute_similarity: float = 0.3  # a change in a multi-valued family replaces the most alike statement


@dataclass
class SlotView:
    """What the store holds that bears on one candidate."""

    active: list[MemoryRecord] = field(default_factory=list)  # active records of the slot
    same_text: MemoryRecord | None = None  # an active record with the same content hash
    retracted: list[MemoryRecord] = field(default_factory=list)  # rejected records of the slot
    history: list[MemoryRecord] = field(default_factory=list)  # superseded records of the slot
    injected_texts: frozenset[str] = frozenset()  # normalised texts GoodMemory put in context
    is_echo: bool = False  # the source turns quote text GoodMemory injected
    has_secret: bool = False


@dataclass
class Plan:
    decision: WriteDecision
    inserts: list[MemoryRecord] = field(default_factory=list)
    updates: list[MemoryRecord] = field(default_factory=list)


def normalize_value(value: str) -> str:
    return " ".join(value.lower().replace(",", " ").split()).strip(" .!")


def _norm_text(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .!")


def record_from_candidate(
    c: Candidate, *, user_id: str, agent_id: str | None, session_id: str | None, now: datetime
) -> MemoryRecord:
    key = normalize_key(c.key)
    transferable = default_transferable(c.kind, key) if c.transferable is None else c.transferable
    when = c.timestamp or now
    return MemoryRecord(
        id=new_id(), user_id=user_id, agent_id=agent_id, domain=c.domain, kind=c.kind, key=key, value=c.value,
        text=c.text.strip(), confidence=c.confidence, importance=c.importance, transferable=transferable,
        valid_from=when,
        source=MemorySource(
            session_id=session_id, message_ids=list(c.message_ids), timestamp=when, role=c.role, extractor=c.extractor
        ),
        created_at=now, updated_at=now, last_confirmed_at=when if c.confirmed_by_user or c.is_correction else None,
        volatility=volatility_for(c.kind, key), keywords=c.keywords, metadata=dict(c.metadata),
    )


_PRONOUNS = frozenset(["it", "that", "this", "those", "these", "them", "one", "there", "something", "anything", "stuff"])
_FILLER = frozenset(["a", "an", "the", "to", "for", "of", "with", "in", "on", "at", "by", "do", "get", "use", "used", "make", "remember", "anyway", "really", "just"])


def _vague(c: Candidate) -> bool:
    """True when a task, a preference or the user's own words are about "it"/"that" and little else
    ("remember to use that", "I prefer that.")."""
    if c.kind not in (MemoryKind.OPEN_LOOP, MemoryKind.PREFERENCE, MemoryKind.PROCEDURE) \
            and not c.metadata.get("statement") or c.closes:
        return False
    if c.keywords and c.metadata.get("statement") and any(w[:1].isupper() for w in c.value.split()[1:]):
        return False  # an answer's "one" is the question's thing ("Which passport?" - "My Canadian one")
    words = [w.strip(".,!?;:'\"").lower() for w in (c.metadata.get("task") or c.value or c.text).split()]
    content = [w for w in words if w and w not in _PRONOUNS and w not in _FILLER]
    return any(w in _PRONOUNS for w in words) and len(content) < 3


def _reject(c: Candidate, reason: str) -> Plan:
    return Plan(WriteDecision(action=WriteAction.REJECT, reason=reason, candidate=c))


def decide(
    c: Candidate,
    view: SlotView,
    *,
    user_id: str,
    agent_id: str | None,
    session_id: str | None,
    now: datetime,
    policy: WritePolicy = WritePolicy(),
) -> Plan:
    if not c.text.strip() or not (c.value.strip() or c.kind in (MemoryKind.EPISODE, MemoryKind.PROCEDURE)):
        return _reject(c, "empty: no text or value")
    if c.confidence < policy.min_confidence:
        return _reject(c, f"low confidence {c.confidence:.2f} < {policy.min_confidence:.2f}")
    if c.role == "assistant" and not c.confirmed_by_user and not c.metadata.get("issued_by_assistant"):
        return _reject(c, "assistant speculation not confirmed by the user")
    if _vague(c):
        return _reject(c, "not self-contained: the value leans on a pronoun with no referent")
    if view.has_secret and not policy.allow_secrets:
        return _reject(c, "secret: not stored by policy (allow_secrets=False)")
    if view.is_echo or _norm_text(c.text) in view.injected_texts:
        return _reject(c, "echo of context that GoodMemory itself injected")
    src = set(c.message_ids)
    new_hash = content_hash(c.kind.value, normalize_key(c.key), c.text.strip())
    for r in view.retracted:
        if (src and src & set(r.source.message_ids)) or r.content_hash == new_hash:
            return _reject(c, f"the user rejected this memory before ({r.id})")

    new = record_from_candidate(c, user_id=user_id, agent_id=agent_id, session_id=session_id, now=now)
    when = new.event_time

    # These very turns already gave this value (active or history): a replay changes nothing.
    if src:
        for r in [*view.active, *view.history]:
            if src <= set(r.source.message_ids) and normalize_value(r.value) == normalize_value(new.value):
                return Plan(WriteDecision(action=WriteAction.MERGE, memory_id=r.id, candidate=c,
                                          reason="already remembered from the same turns"))

    slot_active = [r for r in view.active if in_slot(r.key, new.key)]
    # (an older restatement merged into a value sets its last_confirmed_at before its event_time: the later of the two)
    if len(slot_active) > 1 and when > max(max(r.event_time, r.last_confirmed_at or r.event_time) for r in slot_active):
        # a newer statement settles an open conflict: every conflicting value becomes history
        slot_active.sort(key=lambda r: (r.key != new.key, r.created_at, r.id))
        return _supersede(slot_active, new, c, now, reason="newer statement resolves a conflict")

    # Same text already active (any slot): merge provenance.
    same = view.same_text
    if same is None:
        same = next((r for r in view.active if normalize_value(r.value) == normalize_value(new.value)), None)
    if same is not None:
        return _merge(same, new, c, now, policy)

    current = [r for r in view.active if in_slot(r.key, new.key)]
    if not current:
        older_history = next(
            (h for h in view.history if normalize_value(h.value) == normalize_value(new.value)
             and src <= set(h.source.message_ids)),
            None,
        )
        if older_history is not None:
            return Plan(WriteDecision(action=WriteAction.MERGE, memory_id=older_history.id,
                                      reason="already in history from the same turns", candidate=c))
        return Plan(WriteDecision(action=WriteAction.ADD, memory_id=new.id, reason="new slot", candidate=c),
                    inserts=[new])

    current.sort(key=lambda r: (r.key != new.key, r.created_at, r.id))
    old = current[0]
    # the value's latest statement or confirmation, not only when it was first said
    old_time = max(r.last_confirmed_at or r.event_time for r in current)
    old_time = max(old_time, *(r.event_time for r in current))
    # A value already recorded as history from these very turns: replay, nothing to do.
    for h in view.history:
        if normalize_value(h.value) == normalize_value(new.value) and src and src <= set(h.source.message_ids):
            return Plan(WriteDecision(action=WriteAction.MERGE, memory_id=h.id,
                                      reason="already in history from the same turns", candidate=c))
    if c.metadata.get("ends") and (when > old_time or (when == old_time and c.is_correction)):
        # "we split up": the value ended and nothing took its place; the ending is history, not a current value
        new.status, new.valid_to = MemoryStatus.EXPIRED, when
        return _supersede(current, new, c, now, reason="the value ended")
    if when > old_time or (when == old_time and c.is_correction):
        return _supersede(current, new, c, now, reason="correction" if c.is_correction else "newer value for the slot")
    if when < old_time:
        new.status = MemoryStatus.SUPERSEDED
        new.valid_to = old_time
        new.superseded_by = old.id
        return Plan(
            WriteDecision(action=WriteAction.ADD, memory_id=new.id, candidate=c,
                          reason=f"older than the current value ({old.id}); stored as history"),
            inserts=[new],
        )
    # Same instant, no correction: keep both, mark the conflict.
    new.key = f"{new.key}~{new.id[:8]}"
    new.conflicts_with = [old.id]
    old_u = old.model_copy(deep=True)
    old_u.conflicts_with = sorted({*old_u.conflicts_with, new.id})
    old_u.updated_at = now
    return Plan(
        WriteDecision(action=WriteAction.ADD, memory_id=new.id, candidate=c,
                      reason=f"conflicts with {old.id} said at the same time; both kept and marked"),
        inserts=[new],
        updates=[old_u],
    )


def _merge(target: MemoryRecord, new: MemoryRecord, c: Candidate, now: datetime, policy: WritePolicy) -> Plan:
    have = set(target.source.message_ids)
    if set(c.message_ids) <= have:
        return Plan(WriteDecision(action=WriteAction.MERGE, memory_id=target.id, candidate=c,
                                  reason="already remembered from the same turns"))
    t = target.model_copy(deep=True)
    t.source.message_ids = [*t.source.message_ids, *[m for m in c.message_ids if m not in have]]
    t.confidence = round(min(0.99, t.confidence + (1 - t.confidence) * policy.merge_confidence_gain * new.confidence), 4)
    t.importance = max(t.importance, new.importance)
    t.last_confirmed_at = max(filter(None, [t.last_confirmed_at, new.event_time]))
    if new.keywords and new.keywords not in t.keywords:
        t.keywords = f"{t.keywords} {new.keywords}".strip()
    t.updated_at = now
    return Plan(WriteDecision(action=WriteAction.MERGE, memory_id=t.id, candidate=c,
                              reason="duplicate: provenance and confidence grow"), updates=[t])


def _supersede(olds: list[MemoryRecord], new: MemoryRecord, c: Candidate, now: datetime, *, reason: str) -> Plan:
    """Retire the slot's active value and any conflicting siblings; the new value takes the slot."""
    updates: list[MemoryRecord] = []
    for old in olds:
        o = old.model_copy(deep=True)
        o.status = MemoryStatus.SUPERSEDED
        o.valid_to = new.event_time
        o.superseded_by = new.id
        o.updated_at = now
        updates.append(o)
    new.supersedes = olds[0].id
    return Plan(
        WriteDecision(action=WriteAction.SUPERSEDE, memory_id=new.id, supersedes=olds[0].id, candidate=c,
                      reason=f"{reason}: replaces " + " and ".join(repr(o.value) for o in olds)),
        inserts=[new],
        updates=updates,
    )


# ---------------------------------------------------------------- same attribute, whatever the key
# A newer statement about an attribute replaces the older one even when no rule gave the two one key.
_GENERIC = frozenset(["every", "each", "week", "weeks", "month", "months", "year", "years", "day", "days", "morning", "mornings", "evening", "evenings", "night", "nights", "time", "times", "usually", "always", "never", "really", "like", "likes", "love", "loves", "work", "works", "take", "takes", "have", "has", "need", "needs", "user", "user's", "about", "around", "there", "here", "thing", "things", "stuff", "called", "named", "because", "which", "would", "could", "should", "still", "since", "after", "before", "again", "little", "great",
                     # when it was told names no thing: "at lunchtime" / "yesterday" in two unrelated errands
                     "today", "tonight", "tomorrow", "yesterday", "lunchtime", "lunch", "afternoon", "afternoons",
                     "weekend", "weekends", "earlier", "later", "lately", "recently", "finally", "somewhere"])


@dataclass(frozen=True)
class Earlier:
    """An active memory of the family the candidate belongs to, as the write path gathered it."""

    key: str
    value: str
    similarity: float  # of the two statements with their values masked (-1..1)
    at: datetime
    family_key: str = ""  # the family's own key parts, which name no particular value

    def names(self) -> set[str]:
        """What names this value: its distinct words and the parts of its key beyond the family's."""
        fam = set(self.family_key.replace("_", ".").split("."))
        tail = {w for w in slot_of(self.key).replace("_", ".").split(".") if w and w not in fam}
        # a short value that starts with a capital is a name from its first word ("Sam"); a sentence's only starts it
        first = _NAME_WORD.findall(self.value)[:1] if len(self.value.split()) <= 3 else []
        lead = {w.lower() for w in first if w[0].isupper() and len(w) >= 3 and w.lower() not in STOPWORDS}
        return _distinct_words(self.value) | lead | {w for w in tail if len(w) >= 4 and w not in _GENERIC and w not in STOPWORDS
                                                      and not w.isdigit() and not re.fullmatch(r"(?=[a-z]*\d)[0-9a-f]{6}", w)}


def _distinct_words(value: str) -> set[str]:
    """The words of a value that name a thing: names, numbers, and longer uncommon words."""
    out = set()
    for i, w in enumerate(_NAME_WORD.findall(value)):
        lw = w.lower().strip(".,")
        if lw in STOPWORDS or lw in _GENERIC or (len(lw) < 3 and not lw.isdigit()):
            continue  # a two-digit number names ("the 86 bus"), a two-letter word does not
        if (w[0].isupper() and (i > 0 or w[1:] != w[1:].lower())) or any(ch.isdigit() for ch in w) or len(lw) >= 5:
            out.add(lw)
    return out


_DENIED = re.compile(r"\b(?:not|instead of|rather than|no longer|before that it was|from)\s+[^,;]*", re.I)


def replaced_values(old: str, new: str) -> set[str]:
    """The names and numbers of ``old`` that ``new`` no longer holds (a value ``new`` only denies,
    "15,000 words now, not 18,000", counts as gone)."""
    values = {v.removesuffix("'s") for v in _values_in(old)}
    # a value the new statement denies ("from warfarin to ...", "not quarterly") is gone, name or not
    denied = {w.removesuffix("'s") for m in _DENIED.finditer(new) for w in _words(m.group(0))} \
        & (values | _distinct_words(old))
    if denied:
        return denied
    kept = {w.removesuffix("'s") for w in _words(_DENIED.sub(" ", new))}
    gone = {v for v in values if v not in kept}
    # of what ``new`` leaves out, what it gives a new value of the same sort for (a time for a time, a month
    # for a month): "moved the ceremony to 18:00" replaces 16:30, not the venue
    brought = {_sort(v) for v in {w.removesuffix("'s") for w in _values_in(new)} - values} - {None}
    return {v for v in gone if _sort(v) in brought}


def _words(text: str) -> set[str]:
    return {w.lower().strip(".,") for w in _NAME_WORD.findall(text)}


def without_possessives(text: str) -> str:
    """``text`` with each possessive "'s" dropped ("Dr. Ortega's clinic" -> "Dr. Ortega clinic")."""
    return re.sub(r"(\w)['\u2019]s\b", r"\1", text)


def names_in(e: Earlier, family: KeyFamily, said: str) -> set[str]:
    """The words of ``said`` that name the earlier value ``e`` (words the family uses for any of its
    values, such as "called" or "appointment", name none of them)."""
    generic = _words(" ".join((family.description, *family.examples, family.name.replace("_", " "))))
    return e.names() & (_words(said) - generic)


def new_family_key(family: KeyFamily, value: str) -> str:
    """The key of a value that starts its own slot: the family key, plus (for several values) what names it."""
    if not family.multi:
        return family.key
    if family.name == "communication" and LENGTH.search(value):
        return f"{family.key}.length"  # "one-liners please", then "detailed answers": one length, the newer holds
    # a weekday or a month names when, not which value ("a choir on Tuesday nights" / "the Tuesday market")
    named = [w for i, w in enumerate(_NAME_WORD.findall(value)) if i > 0 and w[0].isupper() and w.lower() not in STOPWORDS
             and _sort(w.lower()) not in _WHEN_SORTS]
    words = named[:3] or [w for w in content_words(value) if not any(ch.isdigit() for ch in w)][:4]
    return normalize_key(f"{family.key}.{slot_key(' '.join(words))}") if words else family.key


# a change told only by weak evidence ("now", "since May") replaces one of several values at this resemblance
WEAK_CHANGE_SIMILARITY = 0.4
# a change naming an earlier value only by a common word (no name, no number) replaces it at this resemblance
NAMED_WORD_SIMILARITY = 0.4
# a change that names nothing of an earlier note replaces the most alike note at this resemblance
NOTE_CHANGE_SIMILARITY = 0.5
ABOUT_HELD_PERSON = "about the person a slot holds, not a new value of it"  # "Eleni wants a new sofa"


def attribute_slot(said: str, family: KeyFamily, own_key: str, earlier: Sequence[Earlier], *,
                   statement: bool, has_value: bool, min_similarity: float = 0.3,
                   corrects: bool = False) -> tuple[str | None, str]:
    """The slot a candidate of ``family`` goes to, given the family's active memories (pure).

    ``said`` is what the candidate says (the user's words); ``has_value`` whether it names a value
    (a name, a number). Returns ``(key, why)``; key None means the candidate should not be stored (a statement of a
    single-valued family that names no value and says nothing changed would overwrite a real value
    with chatter).

    - one value at a time (``single``): the family's current slot, whatever key it was written under;
    - several values (``multi``): an addition ("also", "a second") starts its own slot; a statement
      that names an earlier value ("I sold the Mazda") takes that value's slot; a change ("switched",
      "instead", "no longer") takes the slot of the most alike earlier statement; anything else its own.
    """
    changed = changes(said)
    if not family.multi:
        if earlier:
            latest = max(earlier, key=lambda e: (e.at, e.key))
            if statement and not changed and not has_value:
                return None, "statement names no value and no change"
            if statement and one_more(said) and not changed:
                # "I also opened a Chase savings account" beside "I bank with Starling": one more, not the new one
                return f"{own_key}.{hashlib.sha256(said.encode()).hexdigest()[:6]}", \
                    "an addition beside the single value: a slot of its own"
            return slot_of(latest.key), "same single-valued attribute"
        return (family.key if statement else own_key), "first value of the attribute"
    if adds(said):
        if any(slot_of(e.key) == own_key for e in earlier):  # "also the flight back from Berlin": a slot of its own
            own_key = f"{own_key}.{hashlib.sha256(said.encode()).hexdigest()[:6]}"
        return own_key, "an addition to a multi-valued attribute"
    # a slot whose value is a name ("Eleni"), not a sentence about someone ("Mia is in Year 3")
    about = next((e for e in earlier if len(e.value.split()) <= 3 and e.value[:1].isupper()
                  and _only_subject(said, names_in(e, family, said))),
                 None)
    if about is not None:
        # "Eleni wants a new sofa": the person the slot holds is the one acting, not a new value of the slot
        return own_key, f"{ABOUT_HELD_PERSON} ({about.value!r} is its subject)"
    # a statement naming an earlier value replaces it only when it says so ("we bought a used X, registration
    # due in March" names the other car's registration, and changes nothing of it)
    # a rule naming two attributes apart ("my policy number is X and the claim number is Y"): no new policy number
    # a note (the user's own words no family names) holds a sentence, not a value of an attribute: another
    # sentence naming some of its words with another weekday or place ("I popped into the bank on Friday, it was
    # heaving" / "... the library on Tuesday ...") is another thing said, never its new value unless it says so
    # or corrects it (``corrects``: "ok put it on 60 then" accepts the figure offered for the one said before)
    implied = family.name != "note" or corrects
    named = [e for e in earlier if names_in(e, family, said) and e.key != own_key
             and (changed or not statement or (implied and (replaced_values(e.value, said) or _ENDED.search(said))))
             and (statement or family.key in (slot_of(e.key), slot_of(own_key)) or slot_of(e.key) == slot_of(own_key))]
    if named:
        # the value the statement puts another in place of first, then the one it names most
        best = max(named, key=lambda e: (bool(replaced_values(e.value, said)), len(names_in(e, family, said)),
                                         e.similarity, e.at))
        if not _named_by_name(names_in(best, family, said), best.value, said) and not corrects \
                and not replaced_values(best.value, said) and best.similarity < NAMED_WORD_SIMILARITY:
            # a common word both say ("my favourite biscuits" / "Thai food is my favourite", "the black cat" / "old
            # black-and-white films") names no value: unless it corrects that value or puts a number or name of its
            # sort in its place ("cutoff at 20%" / "set the cutoff to 30%"), the two must also be alike in meaning
            named = []
    if named:
        return slot_of(best.key), "names an earlier value of the attribute"
    if changed and not statement and any(slot_of(e.key) == slot_of(own_key) for e in earlier):
        # a rule's change of a slot the user gave before ("X is my boss now" after "I report to Y") is that slot's
        return own_key, "a change of the slot the rule keys"
    if changed and earlier:
        best = max(earlier, key=lambda e: (e.similarity, e.at))
        floor = max(min_similarity, WEAK_CHANGE_SIMILARITY) if weakly_changes(said) else min_similarity
        if family.name == "note":
            # a note holds a sentence: unrelated chatter told with a change word ("I dropped my keys ...", "we had a
            # power cut") reads 0.3-0.4 alike another sentence, values masked; a note's change must read as alike
            # as a change found by meaning (AttributeIndex.same_attribute_similarity)
            floor = max(floor, NOTE_CHANGE_SIMILARITY)
        if best.similarity >= floor:
            return slot_of(best.key), f"a change, most alike earlier statement ({best.similarity:.2f})"
    if statement and any(slot_of(e.key) == own_key and normalize_value(e.value) != normalize_value(said)
                         and not _named_by_name(names_in(e, family, said), e.value, said) for e in earlier):
        # a key made of a statement's words met another value's by chance: its own slot, never that one's
        own_key = f"{own_key}.{hashlib.sha256(said.encode()).hexdigest()[:6]}"
    return own_key, "its own value of a multi-valued attribute"


def _only_subject(said: str, names: set[str]) -> bool:
    """Whether ``said`` names ``names`` only as the subject of its clauses ("Tomasz is thinking about a new car",
    "Tomasz's job ...") and no such clause says they went away."""
    if not names:
        return False
    clauses = re.split(r"[,;.!?]\s*|\s+(?:but|so|since|because|after|when|while)\s+", said)
    if not _words(clauses[0]) & names and (_COMES.search(clauses[0]) or changes(clauses[0])):
        return False  # "Registered with X now, Fernbank said we were out of their catchment": the user's change first
    mentions = [p for p in clauses if _words(p) & names]
    lead = lambda p: (_NAME_WORD.findall(p)[:1] or [""])[0].lower().removesuffix("'s")  # noqa: E731
    # whatever says a value went away or ended ("Noor left", "Rex was rehomed", "Peanut isn't with us any more")
    return bool(mentions) and all(lead(p) in names and not _AWAY.search(p) and not _ENDED.search(p) for p in mentions)


# "I dropped A and joined B": a verb by which a value comes starts a clause of its own, "I" or not
_COMES = re.compile(r"(?:joined|switched|started|signed up|went over|took up|enrolled|bought|picked up|adopted|leased|registered|"
                    r"settled|went for|opted for|chose|"
                    r"put me on|pay for|paying for)\b", re.I)
_CLAUSES = re.compile(rf"(?<!\b(?:Dr|Mr|Ms|St))(?<!\bMrs)[.!?]\s+(?=[A-Z\d])|(?<!\d),\s*(?:and |but |so |now )?|,(?!\d{{3}}\b)\s*(?:and |but |so |now )?|;\s*|\s+(?:and|but|so)\s+(?=(?:(?:i|i'm|i've|we|we're|my|our|now|he|she|they|he's|she's|they're|it's)\b|(?:the|his|her|their) \w+ (?:has|have|is|are|got|gets)\b|"
                      rf"{_COMES.pattern}))", re.I)


# the verbs by which a value goes away: _AWAY (it left, something may take its place) and _ENDED (it is over)
# share them and differ only in their own words
_GONE_VERBS = (r"quit|left|sold|ditched|dumped|binned|traded (?:[\w']+ ){0,3}in|traded|part[- ]exchanged|scrapped|stopped|gave up|broke up|"
               r"cancell?ed|closed|got rid of|gave away|passed away|retired|lost|died|"
               r"gave (?:[\w']+ ){1,3}to|(?:was|been|got|had (?:her|him|it)) put (?:to sleep|down)|went to live (?:with|in)|(?:is|are|'s) over|"
               r"re-?homed|took me off|taken me off|came off|come off|written off|escaped|ran away|went missing|"
               r"(?:got|was|been) (?:stolen|nicked)|lapsed?|(?:didn'?t|did not|won'?t|not) renew(?:ing)?|ended (?:things|it)|"
               r"called it quits|broke it off|(?:was|is) the end of (?:it|her|him|that)")
_AWAY = re.compile(rf"\b(?:{_GONE_VERBS}|dropped|finished|moved|traded)\b", re.I)


# what says a value ended with nothing in its place ("we split up", "I sold the van", "cancelled my gym")
_ENDED = re.compile(rf"\b(?:{_GONE_VERBS}|split up|separated|divorced|died|moved out|turned off|unsubscribed|"
                    r"no longer|(?:not|never)\b[^,.;]*\b(?:anymore|any more))\b|n't\b[^,.;]*\b(?:anymore|any more)\b", re.I)


def _new_values(clause: str, names: set[str]) -> set[str]:
    """The names and numbers of ``clause`` beyond ``names``, without when it happened (a month, a day, a year)."""
    return {v for v in _values_in(clause) - names
            if _sort(v) not in _WHEN_SORTS and not re.fullmatch(r"(?:19|20)\d\d", v)}
