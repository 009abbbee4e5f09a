"""The facade: ``create_good_memory`` and ``GoodMemory``.

The facade validates arguments, takes the clock, and orchestrates the
pipelines (``_write``, ``_read``) and the storage; it holds no policy of its
own. Every public method is keyword-scoped by ``user_id``.
"""

from __future__ import annotations

import builtins
import hashlib
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from . import _validate as V
from ._feedback import check_feedback_text, run_feedback
from ._forget import plan_forget, restatements, slot_history_to_forget
from ._read import ReadContext, run_build_context, run_recall
from ._write import WriteContext, prepare_messages, run_remember
from .config import GoodMemoryConfig, default_storage_url
from .embeddings import CachedEmbedder, Embedder, default_embedder
from .errors import ConfigurationError, InvalidInputError, MemoryNotFoundError, SlotConflictError
from .extraction.base import Extractor
from .keys import episode_keys, in_slot, slot_of, slot_prefix
from .maintenance import run_maintain
from .models import (
    Context,
    FeedbackResult,
    FeedbackSignal,
    ForgetReceipt,
    HistoryEntry,
    MaintenanceReport,
    MemoryKind,
    MemoryRecord,
    MemoryStatus,
    Message,
    RecallResult,
    UserExport,
    WriteAction,
    WriteDecision,
    WriteResult,
)
from .secrets import redact_replies
from .storage._open import open_storage
from .storage.base import MemoryEvent, MemoryFilter, Storage, WriteBatch, write_new
from .tokens import TokenCounter, default_token_counter

__all__ = ["GoodMemory", "create_good_memory"]

Clock = Callable[[], datetime]

# planning happens outside the write transaction; 4 processes superseding one fact needed more than 3 tries
# (3 of 800 calls failed with 3); with 12 and backoff none did (tests/integration/test_races.py)
_WRITE_ATTEMPTS = 12


def _utc_clock() -> datetime:
    return datetime.now(UTC)


def _norm(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .!")


def _check_llm(llm: Any, has_extractor: bool, mode: str) -> Any:
    """``llm=`` builds the ``llm``/``combined`` extractor; elsewhere it would sit unused while the caller thinks not."""
    if llm is None:
        return None
    from .llm.client import LLMClient, LLMConfig
    llm = LLMClient(llm) if isinstance(llm, LLMConfig) else llm
    if not isinstance(llm, LLMClient):
        raise ConfigurationError(f"llm= takes a goodmemory.llm.LLMClient or LLMConfig, got {type(llm).__name__}")
    if has_extractor or mode == "rules":
        raise ConfigurationError("llm= builds the extractor of extraction='llm' or 'combined'; "
                                 + ("an extractor was passed too: pass one of them (LLMExtractor(llm) for your own)"
                                    if has_extractor else "the config says 'rules': set extraction= or leave llm= out"))
    return llm


class GoodMemory:
    """Long-term memory of users for an LLM agent. Create with :func:`create_good_memory`."""

    def __init__(
        self,
        storage: Storage,
        *,
        config: GoodMemoryConfig | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        llm: Any = None,
        clock: Clock | None = None,
        token_counter: TokenCounter | None = None,
        owns_storage: bool = True,
    ) -> None:
        self.storage = storage
        self.config = config or GoodMemoryConfig()
        base_embedder = embedder if embedder is not None else default_embedder()
        self.embedder: CachedEmbedder = (
            base_embedder if isinstance(base_embedder, CachedEmbedder) else CachedEmbedder(base_embedder)
        )
        if storage.dim is not None and storage.dim != self.embedder.dim:
            raise ConfigurationError(
                f"the store holds {storage.dim}-dimensional vectors but the embedder {self.embedder.name} "
                f"makes {self.embedder.dim}: open it with the embedder it was created with"
            )
        llm = _check_llm(llm, extractor is not None, self.config.extraction)
        if extractor is None:
            from .extraction.combined import make_extractor

            extractor = make_extractor(self.config.extraction, llm)
        self.extractor = extractor
        self.llm = llm
        self.clock: Clock = clock or _utc_clock
        self.tokens = token_counter or default_token_counter()
        self._owns_storage = owns_storage
        self._injected: dict[str, OrderedDict[str, None]] = {}
        self._lock = threading.Lock()
        self._closed = False

    # -- helpers --------------------------------------------------------
    def _now(self, at: datetime | None = None) -> datetime:
        return at or self.clock()

    def _check_open(self) -> None:
        if self._closed:
            raise InvalidInputError("this GoodMemory is closed; create a new one")

    def _remember_injected(self, user_id: str, texts: Sequence[str]) -> None:
        with self._lock:
            seen = self._injected.setdefault(user_id, OrderedDict())
            for t in texts:
                seen[_norm(t)] = None
                seen.move_to_end(_norm(t))
            while len(seen) > 5000:
                seen.popitem(last=False)

    def _get(self, user_id: str, memory_id: Any) -> MemoryRecord:
        rec = self.storage.get(user_id, V.check_memory_id(memory_id))
        if rec is None:
            raise MemoryNotFoundError(f"no memory {memory_id!r} for user {user_id!r}")
        return rec

    # -- write ----------------------------------------------------------
    def remember(
        self,
        messages: Sequence[Message | dict[str, Any]],
        *,
        user_id: str,
        session_id: str | None = None,
        agent_id: str | None = None,
        domain: str | None = None,
        at: datetime | None = None,
        tags: Sequence[str] | None = None,
    ) -> WriteResult:
        """Extract memories from ``messages`` and store them with every raw turn as evidence.

        ``tags`` (at most 20, each 1-64 characters, case kept) label everything this call stores and the
        memories it merges into; ``recall``/``build_context``/``list``/``export``/``forget`` take ``tags=`` to
        select the memories carrying any of them."""
        self._check_open()
        user_id = V.check_user(user_id)
        session_id = V.check_opt_str(session_id, "session_id")
        agent_id = V.check_opt_str(agent_id, "agent_id")
        domain = V.check_opt_str(domain, "domain")
        at_ = V.check_at(at)
        tags_ = V.check_tags(tags) or ()
        cfg = self.config
        msgs = V.check_messages(messages, max_count=cfg.max_messages_per_call,
                                hard_max_chars=cfg.hard_max_message_chars)
        if not cfg.allow_secrets:
            # a credential given in reply to "what's the password?" never names itself: redact it before
            # extraction and the episode, where nothing else knows what was asked
            replies = redact_replies([(m.role, m.content) for m in msgs])
            msgs = [m if m.content == c else m.model_copy(update={"content": c}) for m, c in zip(msgs, replies, strict=True)]
        now = self.clock()
        event_at = at_ or now
        prepared, warnings = prepare_messages(msgs, session_id=session_id, at=event_at,
                                              max_chars=cfg.max_message_chars)
        with self._lock:
            injected = frozenset(self._injected.get(user_id, {}))
        for attempt in range(_WRITE_ATTEMPTS):
            wc = WriteContext(storage=self.storage, embedder=self.embedder, extractor=self.extractor, config=cfg,
                              injected=injected, warnings=list(warnings))
            try:
                return run_remember(wc, prepared, user_id=user_id, session_id=session_id, agent_id=agent_id,
                                    domain=domain, now=now, at=event_at, content_turn_ids=attempt > 0, tags=tags_)
            except SlotConflictError:
                # another writer changed a slot (or took a turn id) since we planned: plan again against what it
                # wrote, after a random pause so writers that collided once do not collide again in lockstep
                if attempt == _WRITE_ATTEMPTS - 1:
                    raise
                time.sleep(random.uniform(0, 0.002 * 2 ** min(attempt, 6)))
        raise AssertionError("unreachable")

    # -- read -----------------------------------------------------------
    def _rc(self) -> ReadContext:
        return ReadContext(storage=self.storage, embedder=self.embedder, config=self.config, tokens=self.tokens)

    def recall(
        self,
        query: str,
        *,
        user_id: str,
        domain: str | None = None,
        kinds: Sequence[MemoryKind | str] | None = None,
        limit: int = 10,
        include_history: bool = False,
        at: datetime | None = None,
        tags: Sequence[str] | None = None,
    ) -> RecallResult:
        """Ranked memories for ``query``; every hit says why it was found. ``tags``: only memories with any of them."""
        self._check_open()
        user_id = V.check_user(user_id)
        if not isinstance(query, str):
            raise InvalidInputError(f"query must be a string, got {type(query).__name__}")
        V.check_positive(limit, "limit")
        return run_recall(self._rc(), query, user_id=user_id, domain=V.check_opt_str(domain, "domain"),
                          kinds=V.check_kinds(kinds), limit=limit, include_history=bool(include_history),
                          now=self._now(V.check_at(at)), tags=V.check_tags(tags, selects=True))

    def build_context(
        self,
        query: str,
        *,
        user_id: str,
        domain: str | None = None,
        max_tokens: int = 800,
        at: datetime | None = None,
        tags: Sequence[str] | None = None,
    ) -> Context:
        """A cited, token-budgeted block of what matters for ``query``; safe to paste into a prompt.

        ``tags``: every section is built from the memories carrying any of them."""
        self._check_open()
        user_id = V.check_user(user_id)
        if not isinstance(query, str):
            raise InvalidInputError(f"query must be a string, got {type(query).__name__}")
        V.check_positive(max_tokens, "max_tokens")
        ctx, texts = run_build_context(self._rc(), query, user_id=user_id, domain=V.check_opt_str(domain, "domain"),
                                       max_tokens=max_tokens, now=self._now(V.check_at(at)),
                                       tags=V.check_tags(tags, selects=True))
        self._remember_injected(user_id, texts)
        return ctx

    def get(self, memory_id: str, *, user_id: str) -> MemoryRecord:
        self._check_open()
        return self._get(V.check_user(user_id), memory_id)

    def list(self, *, user_id: str, kinds: Sequence[MemoryKind | str] | None = None,
             include_history: bool = False, domain: str | None = None, limit: int | None = None,
             tags: Sequence[str] | None = None) -> builtins.list[MemoryRecord]:
        self._check_open()
        user_id = V.check_user(user_id)
        statuses = None if include_history else (MemoryStatus.ACTIVE,)
        return self.storage.list(user_id, MemoryFilter(statuses=statuses, kinds=V.check_kinds(kinds),
                                                       visible_in_domain=V.check_opt_str(domain, "domain"),
                                                       tags=V.check_tags(tags, selects=True)),
                                 limit=V.check_limit(limit))

    def history(self, memory_id: str, *, user_id: str) -> builtins.list[HistoryEntry]:
        """The supersede chain of a memory's slot, oldest first, with validity intervals."""
        self._check_open()
        user_id = V.check_user(user_id)
        rec = self._get(user_id, memory_id)
        base_key = slot_of(rec.key)
        found = [*self.storage.list(user_id, MemoryFilter(statuses=None, keys=(base_key,))),
                 *self.storage.list(user_id, MemoryFilter(statuses=None, key_prefix=slot_prefix(base_key)))]
        chain = {r.id: r for r in found if r.agent_id == rec.agent_id}
        chain[rec.id] = rec
        entries = sorted(chain.values(), key=lambda r: (r.event_time, r.created_at, r.id))
        return [HistoryEntry(memory=r, valid_from=r.valid_from, valid_to=r.valid_to) for r in entries]

    # -- feedback -------------------------------------------------------
    def feedback(
        self,
        memory_id: str,
        signal: FeedbackSignal | str,
        *,
        user_id: str,
        correction: str | None = None,
        note: str | None = None,
    ) -> FeedbackResult:
        """Learn from the user: confirm, reject, correct, helpful, not_helpful."""
        self._check_open()
        user_id = V.check_user(user_id)
        sig = V.check_signal(signal)
        if sig == FeedbackSignal.CORRECT and (not isinstance(correction, str) or not correction.strip()):
            raise InvalidInputError("feedback 'correct' needs correction='the right statement'")
        if correction is not None:
            if not isinstance(correction, str):
                raise InvalidInputError("correction must be a string")
            correction = V.clean_text(correction)
        if note is not None and not isinstance(note, str):
            raise InvalidInputError("note must be a string")
        note = check_feedback_text(correction, note, self.config)
        rec = self._get(user_id, memory_id)
        if rec.status != MemoryStatus.ACTIVE and sig != FeedbackSignal.REJECT:
            raise InvalidInputError(f"memory {memory_id} is {rec.status.value}; feedback applies to active memories")
        return run_feedback(self.storage, self.embedder, self.extractor, rec, sig, user_id=user_id,
                            correction=correction, note=note, now=self.clock())

    # -- forget ---------------------------------------------------------
    def forget(
        self,
        memory_id: str | None = None,
        *,
        user_id: str,
        key: str | None = None,
        session_id: str | None = None,
        domain: str | None = None,
        dry_run: bool = False,
        all: bool = False,
        tags: Sequence[str] | None = None,
    ) -> ForgetReceipt:
        """Hard-delete memories (rows, full-text, vectors, history); returns counts per index.

        ``all=True`` with no other filter: everything of that user (without it, a call that names no memory,
        key, session, domain or tags is refused, so a missing argument never wipes a user). ``memory_id`` forgets
        that memory's value: the memory, the older values it replaced, the raw turns they came from, and the value
        wherever else the user's turns repeat it (see ``goodmemory._forget`` and SECURITY.md). ``tags``: the
        memories carrying any of them (and within ``key``/``session_id``/``domain`` when given).
        """
        self._check_open()
        user_id = V.check_user(user_id)
        session_id = V.check_opt_str(session_id, "session_id")
        domain = V.check_opt_str(domain, "domain")
        key = V.check_opt_str(key, "key")
        tags_ = V.check_tags(tags, selects=True)
        if tags_ is not None and memory_id is not None:
            raise InvalidInputError("forget() takes memory_id or tags=, not both: a memory_id names one memory")
        everything = memory_id is None and key is None and session_id is None and domain is None and tags_ is None
        if everything and all is not True:
            raise InvalidInputError("forget() names no memory_id, key, session_id or domain: that deletes every "
                                    "memory of the user, so pass all=True to mean it")
        if all is True and not everything:
            raise InvalidInputError("all=True forgets everything of the user: it takes no memory_id, key, "
                                    "session_id, domain or tags")
        targets: builtins.list[MemoryRecord]
        if memory_id is not None:
            rec = self._get(user_id, memory_id)
            targets = slot_history_to_forget(rec, [h.memory for h in self.history(rec.id, user_id=user_id)])
            source_ids = {m for t in targets for m in t.source.message_ids}
            if rec.kind != MemoryKind.EPISODE and source_ids:
                eps = self.storage.list(user_id, MemoryFilter(statuses=None, kinds=(MemoryKind.EPISODE,),
                                                              keys=episode_keys(source_ids)))
                targets.extend(e for e in eps if e.id not in {t.id for t in targets})
            if source_ids:
                others = self.storage.list(user_id, MemoryFilter(statuses=None, kinds=tuple(
                    k for k in MemoryKind if k != MemoryKind.EPISODE)))
                targets.extend(restatements(rec, source_ids, others, {t.id for t in targets}))
        else:
            flt = MemoryFilter(statuses=None, session_id=session_id, domain=domain, tags=tags_)
            targets = self.storage.list(user_id, flt)
            if key is not None:
                targets = [r for r in targets if in_slot(r.key, key)]
        plan, pattern = plan_forget(self.storage, user_id, targets,
                                    forget_values=memory_id is not None or key is not None)
        ids = [r.id for r in plan.targets]
        if dry_run:
            return ForgetReceipt(user_id=user_id, deleted={"rows": len(ids)}, memory_ids=ids, dry_run=True)
        rewrite = plan.batch(self.embedder.embed, lambda mid: self.storage.events(user_id, mid), pattern)
        if rewrite:
            self.storage.write(user_id, rewrite)
        counts = self.storage.delete(user_id, ids, reason="forget", at=self.clock())
        cached = self.embedder.forget_texts([*(r.text for r in plan.targets), *plan.old_texts])
        with self._lock:
            inj = self._injected.get(user_id)
            if inj is not None:
                for t in [*(r.text for r in plan.targets), *plan.old_texts]:
                    inj.pop(_norm(t), None)
                if everything:
                    self._injected.pop(user_id, None)
        deleted = counts.as_dict()
        deleted["embedding_cache"] = cached
        return ForgetReceipt(user_id=user_id, deleted=deleted, memory_ids=counts.memory_ids,
                             tombstone_id=counts.tombstone_id, rewritten=len(plan.reembed),
                             pending_scrub=counts.pending_scrub)

    # -- export / import ------------------------------------------------
    def export(self, *, user_id: str, tags: Sequence[str] | None = None) -> UserExport:
        """Every memory of the user (``tags``: those carrying any of them), with history and provenance."""
        self._check_open()
        user_id = V.check_user(user_id)
        return UserExport(user_id=user_id, exported_at=self.clock(), memories=self.storage.list(
            user_id, MemoryFilter(statuses=None, tags=V.check_tags(tags, selects=True))))

    def import_(self, export: UserExport | dict[str, Any] | str, *, user_id: str | None = None) -> WriteResult:
        """Restore an export (into ``user_id`` if given), all or nothing; records the user holds are skipped.

        Any other record gets an id derived from (user, exported id), whether or not that id is someone
        else's: keeping free ids and renaming taken ones would tell the caller which ids exist."""
        self._check_open()
        from pydantic import ValidationError

        try:
            if isinstance(export, str):
                data = UserExport.model_validate_json(export)
            elif isinstance(export, dict):
                data = UserExport.model_validate(export)
            elif isinstance(export, UserExport):
                data = export
            else:
                raise InvalidInputError("import_ takes a UserExport, its dict or its JSON")
        except ValidationError as exc:
            raise InvalidInputError(f"not a GoodMemory export: {exc.errors()[0]['msg']}") from None
        V.check_export(data, max_chars=self.config.hard_max_message_chars)
        if len({r.id for r in data.memories}) != len(data.memories):
            raise InvalidInputError("the export holds one memory id twice; it was not written by GoodMemory")
        target = V.check_user(data.user_id if user_id is None else user_id)
        present = {r.id for r in self.storage.list(target, MemoryFilter(statuses=None))}

        def own(mid: str | None) -> str | None:
            minted = hashlib.sha256(f"{target}\x1f{mid}".encode()).hexdigest()[:32]
            return mid if mid is None or mid in present else minted

        origin = {own(r.id): r.id for r in data.memories if r.id not in present}
        records = [r.model_copy(update={"id": own(r.id), "user_id": target, "supersedes": own(r.supersedes),
                                        "superseded_by": own(r.superseded_by),
                                        "conflicts_with": [own(c) for c in r.conflicts_with]}, deep=True)
                   for r in data.memories if own(r.id) not in present]  # held: imported before
        now = self.clock()
        batch = WriteBatch(inserts=records, events=[
            MemoryEvent(r.id, "import", now, {"exported_at": data.exported_at.isoformat()}) for r in records])
        if records:
            mat = self.embedder.embed([r.text for r in records])
            batch.vectors = {r.id: mat[i] for i, r in enumerate(records)}
            # one transaction either way; adapters with a bulk path (COPY, executemany) load faster
            write_new(self.storage, target, batch)
        return WriteResult(memories=records, decisions=[
            WriteDecision(action=WriteAction.ADD, memory_id=r.id, reason=f"imported (exported as {origin[r.id]})")
            for r in records])

    # -- maintenance & lifecycle ---------------------------------------
    def maintain(self, *, user_id: str | None = None, at: datetime | None = None) -> MaintenanceReport:
        """Decay, staleness marking, duplicate consolidation, expiry, session digests. Idempotent."""
        self._check_open()
        users = [V.check_user(user_id)] if user_id is not None else self.storage.user_ids()
        return run_maintain(self.storage, users, now=self._now(V.check_at(at)),
                            staleness=self.config.retrieval().staleness, embed=self.embedder.embed)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._owns_storage:
                self.storage.close()

    def __enter__(self) -> GoodMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def create_good_memory(
    storage: str | Storage | None = None,
    /,
    *,
    config: GoodMemoryConfig | dict[str, Any] | None = None,
    embedder: Embedder | None = None,
    extractor: Extractor | None = None,
    llm: Any = None,
    clock: Clock | None = None,
) -> GoodMemory:
    """Create a GoodMemory.

    ``storage`` is a URL (``sqlite:///path.db``, ``sqlite://`` in memory) or a
    Storage object; by default ``GOODMEMORY_URL`` or a SQLite file in the
    user data directory.
    """
    if config is not None and not isinstance(config, (dict, GoodMemoryConfig)):
        raise ConfigurationError(f"config must be a GoodMemoryConfig or a dict, got {type(config).__name__}")
    if storage is not None and not isinstance(storage, str) and not isinstance(storage, Storage):
        raise InvalidInputError(f"storage must be a URL string or a Storage object, got {type(storage).__name__}")
    if isinstance(config, dict):
        from pydantic import ValidationError

        try:
            config = GoodMemoryConfig.model_validate(config)
        except ValidationError as exc:
            raise ConfigurationError(f"invalid config: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}") from None
    if storage is None or isinstance(storage, str):
        store, owns = open_storage(storage or default_storage_url(), config.storage if config else None), True
    else:
        store, owns = storage, False
    return GoodMemory(store, config=config, embedder=embedder, extractor=extractor, llm=llm, clock=clock,
                      owns_storage=owns)
