"""The write pipeline behind ``remember``: messages -> candidates -> policy -> one transaction."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import cast

from ._apply import Pending, events_at
from ._attributes import AttributeIndex
from ._marks import notes_of_people_gone, outdate_sources
from .config import GoodMemoryConfig
from .context import CLOSE, OPEN, PREAMBLE
from .digest import build_digest, density, digest_record
from .embeddings import Embedder
from .errors import ExtractionError, GoodMemoryError, SlotConflictError, StorageError
from .extraction._statements import STATEMENT_KEY
from .extraction.base import ExtractionContext, Extractor
from .keys import episode_key, episode_keys, in_slot, is_digest, slot_of, slot_prefix
from .lifecycle import plan_write, write_events
from .merge import SlotView, WritePolicy, normalize_value
from .models import (
    Candidate,
    MemoryKind,
    MemoryRecord,
    MemorySource,
    MemoryStatus,
    Message,
    WriteAction,
    WriteDecision,
    WriteResult,
    content_hash,
)
from .secrets import find_secrets, redact
from .storage.base import MemoryFilter, Storage, WriteBatch, borrowed_reads, list_many, slot_scope
from .taxonomy import default_transferable, normalize_key, volatility_for

__all__ = ["WriteContext", "outdate_sources", "prepare_messages", "run_remember", "strip_injected"]

_BLOCK = re.compile(re.escape(OPEN) + r".*?" + re.escape(CLOSE), re.S)
# an unclosed block: the tag, then only lines shaped like a rendered block (preamble, headers, cited items)
_UNCLOSED = re.compile(re.escape(OPEN) + r"(?:[ \t]*\n(?:" + re.escape(PREAMBLE[:20]) + r"[^\n]*|#{2,3} [^\n]*|- \[[^\n]*)"
                       r"(?=\n|\Z))*\n?")


def strip_injected(text: str) -> str:
    """Remove context blocks that GoodMemory rendered, so they are never re-learned; an unclosed tag
    takes only the rendered lines after it (a user quoting the tag keeps the rest of the message)."""
    if OPEN not in text:
        return text
    return _UNCLOSED.sub(" ", _BLOCK.sub(" ", text)).strip()


@dataclass
class WriteContext:
    storage: Storage
    embedder: Embedder
    extractor: Extractor
    config: GoodMemoryConfig
    injected: frozenset[str] = frozenset()
    warnings: list[str] = field(default_factory=list)


def prepare_messages(
    messages: Sequence[Message], *, session_id: str | None, at: datetime, max_chars: int
) -> tuple[list[Message], list[str]]:
    """Give every message an id and a timestamp; truncate over-long ones."""
    warnings: list[str] = []
    if session_id is None:
        h = hashlib.sha256()
        for m in messages:
            h.update(f"{m.role}\x1f{m.content}\x1e".encode("utf-8", "replace"))
        prefix = "m-" + h.hexdigest()[:12]
    else:
        prefix = session_id
    out: list[Message] = []
    for i, m in enumerate(messages):
        content = m.content
        if len(content) > max_chars:
            warnings.append(f"message {i} truncated from {len(content)} to {max_chars} characters")
            content = content[:max_chars]
        out.append(m.model_copy(update={
            # with a session id, ids are assigned against the stored session (see assign_ids)
            "id": m.id or (None if session_id is not None else f"{prefix}:{i}"),
            "timestamp": m.timestamp or at,
            "content": content,
        }))
    return out, warnings


def turn_hash(m: Message) -> str:
    return hashlib.sha256(f"{m.role}\x1f{m.content}".encode("utf-8", "replace")).hexdigest()[:20]


def assign_ids(storage: Storage, user_id: str, session_id: str, messages: list[Message], *,
               with_content: bool = False) -> list[Message]:
    """Ids ``"{session_id}:{index}"`` that continue across calls and stay stable under replay.

    A turn already stored in this session (same role and content) gets its stored id back, so
    remembering the same turns again changes nothing; a new turn takes its position in the call if
    that index is free, else the next free index of the session. ``with_content`` (after another
    writer took the planned id) appends the turn's hash, ``"{session_id}:{index}.{hash}"``, so
    writers racing in one session cannot plan the same id for different turns again.
    """
    if all(m.id for m in messages):
        return messages
    stored = storage.list(user_id, MemoryFilter(statuses=None, kinds=(MemoryKind.EPISODE,), session_id=session_id))
    by_hash: dict[str, list[str]] = {}
    used: set[str] = set()
    for r in sorted(stored, key=lambda r: r.key):
        if r.source.message_ids and not is_digest(r.key):
            used.add(r.source.message_ids[0])
            by_hash.setdefault(str(r.metadata.get("turn_hash", "")), []).append(r.source.message_ids[0])
    used.update(m.id for m in messages if m.id)
    claimed: set[str] = set()
    prefix = f"{session_id}:"

    def index(mid: str) -> int:
        tail = mid[len(prefix):].split(".", 1)[0] if mid.startswith(prefix) else ""
        return int(tail) if tail.isdigit() else -1

    next_free = max([index(u) for u in used] + [-1]) + 1
    out: list[Message] = []
    for i, m in enumerate(messages):
        if m.id:
            out.append(m)
            continue
        mid = next((x for x in by_hash.get(turn_hash(m), []) if x not in claimed), None)
        if mid is None:
            mid = f"{prefix}{i}"
            if mid in used or mid in claimed:
                mid = f"{prefix}{next_free}"
                next_free += 1
            else:
                next_free = max(next_free, i + 1)
            if with_content:
                mid = f"{mid}.{turn_hash(m)[:10]}"
        claimed.add(mid)
        out.append(m.model_copy(update={"id": mid}))
    return out


_REPLY_WORDS = 12


def reply_keywords(previous: str) -> str:
    """What a reply is about: the content words of the turn it answers, when that turn asks something.

    "This has been great for my mental health" answers "How is the running going?": indexing the
    reply with "running" lets "What does she say running has been great for?" find it lexically
    (search_body includes keywords; the text shown and embedded stays the turn's own). Measured on
    LoCoMo at 1,000 tokens: 0.835 -> 0.857 on the tuning conversations, 0.770 -> 0.791 held out;
    indexing every reply with its previous turn, asked or not, gained no more (0.856).
    """
    if "?" not in previous:
        return ""
    from .text import query_terms

    return " ".join(query_terms(previous, max_terms=_REPLY_WORDS))


def _episode(m: Message, text: str, *, user_id: str, agent_id: str | None, domain: str | None,
             session_id: str | None, now: datetime) -> MemoryRecord:
    assert m.id is not None and m.timestamp is not None
    speaker = m.name or m.role
    return MemoryRecord(
        user_id=user_id, agent_id=agent_id, domain=domain, kind=MemoryKind.EPISODE,
        key=episode_key(m.id), value="", text=f"{speaker}: {text}" if not text.startswith(f"{speaker}:") else text,
        confidence=1.0, importance=0.3, transferable=default_transferable(MemoryKind.EPISODE, "episode"),
        valid_from=m.timestamp,
        source=MemorySource(session_id=session_id, message_ids=[m.id], timestamp=m.timestamp, role=m.role,
                            extractor="raw"),
        created_at=now, updated_at=now, volatility=volatility_for(MemoryKind.EPISODE, "episode"),
        metadata={"role": m.role, "density": density(text)},
    )


def _digest(turns: list[tuple[str, str, str]], *, user_id: str, agent_id: str | None, domain: str | None,
            session_id: str | None, at: datetime, now: datetime) -> MemoryRecord | None:
    lines = build_digest(turns)
    if not lines:
        return None
    return digest_record(lines, first_message_id=turns[0][0], user_id=user_id, agent_id=agent_id, domain=domain, session_id=session_id, at=at,
                         now=now, volatility=volatility_for(MemoryKind.EPISODE, "episode"))


def eviction_order(records: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """Who goes first when a user is over the cap: history before current values, then the least
    important and oldest; open tasks and user-confirmed facts only after everything else."""
    def protected(r: MemoryRecord) -> bool:
        return ((r.kind == MemoryKind.OPEN_LOOP and r.metadata.get("state", "open") == "open"
                 and r.status == MemoryStatus.ACTIVE) or r.last_confirmed_at is not None)

    return sorted(records, key=lambda r: (protected(r), r.status == MemoryStatus.ACTIVE, r.importance,
                                          r.event_time, r.id))


def enforce_cap(storage: Storage, user_id: str, cap: int, *, keep: set[str]) -> list[str]:
    """Delete the first records in eviction order until the user holds at most ``cap``."""
    total = storage.count(user_id)
    if total <= cap:
        return []
    victims = [r for r in eviction_order(storage.list(user_id)) if r.id not in keep][: total - cap]
    if not victims:
        return []
    storage.delete(user_id, [r.id for r in victims], reason="cap eviction")
    return [r.id for r in victims]


def run_remember(
    wc: WriteContext,
    messages: list[Message],
    *,
    user_id: str,
    session_id: str | None,
    agent_id: str | None,
    domain: str | None,
    now: datetime,
    at: datetime,
    content_turn_ids: bool = False,
    tags: tuple[str, ...] = (),
) -> WriteResult:
    cfg = wc.config
    storage = wc.storage
    given = {m.id for m in messages if m.id}
    if session_id is not None:
        messages = assign_ids(storage, user_id, session_id, messages, with_content=content_turn_ids)
    hashes = {m.id: turn_hash(m) for m in messages}
    cleaned = [m.model_copy(update={"content": strip_injected(m.content)}) for m in messages]

    # 1. raw turns as episodes (secrets redacted), idempotent by message id
    ep_keys = episode_keys(str(m.id) for m in cleaned)
    existing_eps = {r.key: r for r in storage.list(user_id, MemoryFilter(statuses=None, keys=ep_keys))} if ep_keys else {}
    batch = WriteBatch()
    decisions: list[WriteDecision] = []
    episodes_by_msg: dict[str, MemoryRecord] = {}
    previous = ""
    for seq, m in enumerate(cleaned):
        if m.role not in cfg.keep_roles or not m.content.strip():
            continue
        text = redact(m.content)[0] if cfg.redact_secrets_in_episodes else m.content
        ep = _episode(m, text, user_id=user_id, agent_id=agent_id, domain=domain, session_id=session_id, now=now)
        ep.keywords = reply_keywords(previous)
        ep.metadata["seq"] = seq  # conversation order among turns that share a timestamp
        previous = text
        ep.metadata["turn_hash"] = hashes.get(m.id, "")
        old = existing_eps.get(ep.key)
        if old is not None and m.id not in given and old.metadata.get("turn_hash", ep.metadata["turn_hash"]) != \
                ep.metadata["turn_hash"]:
            # another writer in this session took the id we planned for a different turn: plan again
            raise SlotConflictError(f"turn id {m.id!r} was taken by another writer since this write was planned")
        if old is not None:
            decisions.append(WriteDecision(action=WriteAction.MERGE, memory_id=old.id,
                                           reason="turn already kept as episode evidence"))
            continue
        batch.inserts.append(ep)
        episodes_by_msg[m.id or ""] = ep
        decisions.append(WriteDecision(action=WriteAction.ADD, memory_id=ep.id, reason="raw turn kept as episode"))

    digest = _digest([(e.source.message_ids[0], e.source.role or "", e.text) for e in batch.inserts],
                     user_id=user_id, agent_id=agent_id, domain=domain, session_id=session_id, at=at, now=now)
    if digest is not None and not storage.list(user_id, MemoryFilter(statuses=None, keys=(digest.key,))):
        batch.inserts.append(digest)
        decisions.append(WriteDecision(action=WriteAction.ADD, memory_id=digest.id,
                                       reason=f"session digest of {len(digest.source.message_ids)} turns"))
    # the turns' and digest's vectors are the bulk of a call's model time: they start on the embedding worker
    # now and are ready (cached) by step 4, while extraction and the write policy run on this thread
    turns_embedded = _prefetch(wc.embedder, [r.text for r in batch.inserts])

    # 2. extraction (never writes; failures abort the whole call)
    # only read (slot values for the extractor, vectors and families for placing candidates): borrowed, not copied
    with borrowed_reads():
        existing_records = storage.list(
            user_id, MemoryFilter(exclude_kinds=(MemoryKind.EPISODE,), agent_id=agent_id, newest_first=True), limit=500)
    existing_slots = {r.key: r.value for r in existing_records}
    ctx = ExtractionContext(user_id=user_id, session_id=session_id, agent_id=agent_id, domain=domain, at=at,
                            existing=existing_slots)
    try:
        candidates = wc.extractor.extract(cleaned, ctx)
    except GoodMemoryError:
        raise
    except Exception as exc:
        raise ExtractionError(f"extractor {getattr(wc.extractor, 'name', '?')} failed: {exc}") from exc

    # a statement finds its attribute by meaning: with an embedder that hashes words (the fallback without the
    # local extra, the test double) any two sentences may look alike, so statements are not kept at all
    if not getattr(wc.embedder, "semantic", True):
        decisions.extend(WriteDecision(action=WriteAction.REJECT, candidate=c,
                                       reason="statement needs a semantic embedder to find its attribute")
                         for c in candidates if c.key == STATEMENT_KEY)
        candidates = [c for c in candidates if c.key != STATEMENT_KEY]

    # 3. write policy, candidate by candidate, over a view that includes this batch's changes
    policy = WritePolicy(min_confidence=cfg.min_confidence, allow_secrets=cfg.allow_secrets)
    attributes = AttributeIndex(wc.embedder, [r for r in existing_records if r.status == MemoryStatus.ACTIVE],
                                candidates, min_family_score=cfg.min_family_score,
                                min_similarity=policy.min_attribute_similarity,
                                same_attribute_similarity=cfg.same_attribute_similarity,
                                same_topic_similarity=cfg.same_topic_similarity,
                                min_change_family_score=cfg.min_change_family_score,
                                restatement_similarity=cfg.restatement_similarity,
                                strong_family_score=cfg.strong_family_score)
    keys = tuple({normalize_key(c.closes or c.key) for c in candidates if c.key != STATEMENT_KEY})
    slot_records = _slot_records(storage, user_id, keys)
    msg_text = {m.id: m.content for m in cleaned}
    injected_long = [t for t in wc.injected if len(t) >= 16]
    facts = Pending()  # the records the decisions add and change, in their latest state
    for c0 in candidates:
        placed = attributes.place(c0, str(c0.metadata.get("said") or ""))
        if placed.candidate is None:
            decisions.append(WriteDecision(action=WriteAction.REJECT, reason=placed.reason, candidate=c0))
            continue
        c = _normalise(placed.candidate, domain)
        if not any(in_slot(r.key, c.key) for r in slot_records.values()):
            slot_records.update(_slot_records(storage, user_id, (c.key,)))
        if c.closes:
            # a task is closed wherever it was opened, even from another domain's session
            opened = next((r for r in slot_records.values() if r.key == c.key and r.status == MemoryStatus.ACTIVE
                           and r.agent_id == agent_id), None)
            if opened is not None:
                c = c.model_copy(update={"domain": opened.domain, "transferable": opened.transferable})
        probe = MemoryRecord(user_id=user_id, agent_id=agent_id, domain=c.domain, kind=c.kind, key=c.key,
                             text=c.text or "-", transferable=bool(c.transferable))
        scope = slot_scope(probe)
        # a change found by meaning retires the memory it replaces in whichever domain that was said
        replaces = c.metadata.get("replaces")
        if replaces and replaces not in slot_records:
            hit = storage.get(user_id, str(replaces))
            if hit is not None:
                slot_records[hit.id] = hit
        same_slot = [r for r in slot_records.values()
                     if in_slot(r.key, c.key)
                     and (slot_scope(r) == scope or (r.id == replaces and r.status == MemoryStatus.ACTIVE))
                     and r.agent_id == agent_id]
        view = SlotView(
            active=[r for r in same_slot if r.status == MemoryStatus.ACTIVE],
            retracted=[r for r in same_slot if r.status == MemoryStatus.RETRACTED],
            history=[r for r in same_slot if r.status == MemoryStatus.SUPERSEDED],
            # an echo is a turn that quotes what GoodMemory injected, not a user restating a fact
            is_echo=any(t in src_text for t in injected_long
                        for src_text in [" ".join(msg_text.get(mid, "").lower().split()) for mid in c.message_ids]),
            has_secret=bool(c.metadata.get("secret_kinds") or find_secrets(c.text) or find_secrets(c.value)),
        )
        plan = plan_write(c, view, user_id=user_id, agent_id=agent_id, session_id=session_id, now=now, policy=policy)
        assert plan.decision is not None
        decisions.append(plan.decision)
        facts.apply(plan, now)
        slot_records.update((r.id, r) for r in [*plan.updates, *plan.inserts])
        for r in plan.updates:
            if r.status == MemoryStatus.SUPERSEDED and r.superseded_by in slot_records:
                attributes.retire(r, slot_records[r.superseded_by].value)
        for r in plan.inserts:
            # fact-augmented keys: a memory is also found by the words of its turns
            turns = " ".join(msg_text.get(mid, "") for mid in r.source.message_ids)
            r.keywords = " ".join(p for p in (r.keywords, redact(turns)[0][:400]) if p)
            if r.status == MemoryStatus.ACTIVE:
                attributes.add(r, c0)
            for mid in r.source.message_ids:
                turn = episodes_by_msg.get(mid)
                if turn is not None and r.status == MemoryStatus.ACTIVE:
                    turn.keywords = f"{turn.keywords} {r.key.replace('.', ' ').replace('_', ' ')} {r.text}".strip()

    superseded = [(r, slot_records[r.superseded_by]) for r in [*facts.updates.values(), *facts.inserts.values()]
                  if r.status == MemoryStatus.SUPERSEDED and r.superseded_by in slot_records
                  and slot_of(r.key) == slot_of(slot_records[r.superseded_by].key)]
    for ep in outdate_sources(cast(Storage, _ListedOnce(storage)), user_id, superseded, episodes_by_msg):
        facts.update(ep)
    for note in notes_of_people_gone(storage, user_id, superseded, now):
        facts.update(note)
    facts.into(batch)
    if tags:
        # what this call stores carries its tags; a memory it merged into carries them too (the call said it)
        merged = {d.memory_id for d in decisions if d.action == WriteAction.MERGE}
        for r in [*batch.inserts, *(u for u in batch.updates if u.id in merged)]:
            r.tags = list(dict.fromkeys([*r.tags, *tags]))
    for r in batch.inserts:
        r.content_hash = content_hash(r.kind.value, r.key, r.text)
    batch.events.extend(events_at(write_events(batch.inserts, batch.updates), now))

    # 4. embeddings: one batched call for everything new
    turns_embedded()
    if batch.inserts:
        mat = wc.embedder.embed([r.text for r in batch.inserts])
        batch.vectors = {r.id: mat[i] for i, r in enumerate(batch.inserts)}
    if batch:
        try:
            storage.write(user_id, batch)
        except GoodMemoryError:
            raise
        except Exception as exc:  # pragma: no cover - adapters map their own errors
            raise StorageError(f"write failed: {exc}") from exc
    if cfg.max_memories_per_user is not None and batch.inserts:
        evicted = enforce_cap(storage, user_id, cfg.max_memories_per_user, keep={r.id for r in batch.inserts})
        if evicted:
            wc.warnings.append(
                f"memory cap of {cfg.max_memories_per_user} per user reached: evicted {len(evicted)} "
                "least important, oldest memories (open tasks and confirmed facts last)")
    memories = [*batch.inserts, *batch.updates]
    return WriteResult(memories=memories, decisions=decisions, warnings=list(wc.warnings))


class _ListedOnce:
    """The storage as the outdated marks of one call read it: a list asked for again (the restatement search
    reads the newest turns of a domain once per replaced value: ~4 times a call at 10k memories, 300-400 turns
    each) is answered from its first answer. Nothing is written before the call's batch, so no answer can
    change meanwhile. The records are shared between the answers, and borrowed from the adapter
    (``borrowed_reads``: not copied, ~60% of such a list's cost): ``outdate_sources`` changes only copies
    (``model_copy(deep=True)``) and the call's own pending turns."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._lists: dict[tuple[str, MemoryFilter | None, int | None], list[MemoryRecord]] = {}

    def list(self, user_id: str, flt: MemoryFilter | None = None, *, limit: int | None = None) -> list[MemoryRecord]:
        key = (user_id, flt, limit)
        if key not in self._lists:
            with borrowed_reads():
                self._lists[key] = self._storage.list(user_id, flt, limit=limit)
        return list(self._lists[key])

    def __getattr__(self, name: str) -> object:
        return getattr(self._storage, name)


def _slot_records(storage: Storage, user_id: str, keys: Sequence[str]) -> dict[str, MemoryRecord]:
    """The records of the slots ``keys``, any status, by id: the keys themselves, then per key its conflict
    siblings (``"<key>~<id>"``), in one round trip where the adapter answers several lists at once."""
    if not keys:
        return {}
    found = list_many(storage, user_id, [(MemoryFilter(statuses=None, keys=tuple(keys)), None),
                                         *((MemoryFilter(statuses=None, key_prefix=slot_prefix(k)), None) for k in keys)])
    return {r.id: r for records in found for r in records}


def _prefetch(embedder: Embedder, texts: list[str]) -> Callable[[], None]:
    start = getattr(embedder, "prefetch", None)
    return start(texts) if start is not None else (lambda: None)


def _normalise(c: Candidate, domain: str | None) -> Candidate:
    key = normalize_key(c.closes or c.key)
    transferable = default_transferable(c.kind, key) if c.transferable is None else c.transferable
    update: dict[str, object] = {"key": key, "transferable": transferable,
                                 "domain": c.domain if c.domain is not None else domain}
    if c.closes:
        update["metadata"] = {**c.metadata, "state": "closed"}
        update["value"] = c.value or "closed"
    return c.model_copy(update=update)


_ = normalize_value
