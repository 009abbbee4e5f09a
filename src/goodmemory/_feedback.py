"""The feedback pipeline behind ``feedback``: one signal -> one plan (``lifecycle.feedback_plan``) -> one transaction.

Corrections and notes are user text like any turn: they pass the same secret policy as
``remember`` (a correction holding a secret is refused unless secrets are allowed; a note is
stored redacted), so no secret reaches a memory, its keywords, the outdated flags or the history
through this path.
"""

from __future__ import annotations

from datetime import datetime

from ._apply import Pending
from ._marks import retract_sources
from ._outdated import ends_in
from ._write import outdate_sources
from .config import GoodMemoryConfig
from .embeddings import Embedder
from .errors import InvalidInputError
from .extraction.base import ExtractionContext, Extractor
from .lifecycle import feedback_plan
from .models import FeedbackResult, FeedbackSignal, MemoryRecord, MemorySource, MemoryStatus, Message, new_id
from .secrets import find_secrets, redact
from .storage.base import Storage, WriteBatch

__all__ = ["check_feedback_text", "run_feedback"]


def check_feedback_text(correction: str | None, note: str | None, config: GoodMemoryConfig) -> str | None:
    """Refuse a secret-bearing correction; return the note as it may be stored (redacted)."""
    if config.allow_secrets:
        return note
    if correction is not None:
        kinds = list(dict.fromkeys(s.kind for s in find_secrets(correction)))
        if kinds:
            raise InvalidInputError(
                f"the correction holds a secret ({', '.join(kinds)}): GoodMemory does not store secrets "
                "(config allow_secrets=True to allow them); give the correction without it or reject the memory")
    return redact(note)[0] if note else note


def run_feedback(storage: Storage, embedder: Embedder, extractor: Extractor, rec: MemoryRecord,
                 sig: FeedbackSignal, *, user_id: str, correction: str | None, note: str | None,
                 now: datetime) -> FeedbackResult:
    new: MemoryRecord | None = None
    outdated: list[MemoryRecord] = []
    if sig == FeedbackSignal.CORRECT:
        assert correction is not None
        new = _correction_record(extractor, rec, correction, user_id=user_id, now=now)
        outdated = outdate_sources(storage, user_id, [(rec, new)], trusted=True)
    elif sig == FeedbackSignal.REJECT:
        outdated = retract_sources(storage, user_id, rec)
    plan = feedback_plan(rec, sig, now, note=note or "", correction=new)
    pending = Pending()
    for ep in outdated:
        pending.update(ep)
    pending.apply(plan, now)
    batch = pending.into(WriteBatch())
    if new is not None:
        batch.vectors[new.id] = embedder.embed([new.text])[0]
    storage.write(user_id, batch)
    new_id_ = new.id if new is not None else None
    return FeedbackResult(memory_id=rec.id, signal=sig, changed=plan.changed, new_memory_id=new_id_,
                          memory=storage.get(user_id, new_id_ or rec.id))


def _correction_record(extractor: Extractor, rec: MemoryRecord, correction: str, *, user_id: str,
                       now: datetime) -> MemoryRecord:
    msg = Message(role="user", content=correction, id=f"correction:{new_id()[:12]}", timestamp=now)
    ctx = ExtractionContext(user_id=user_id, session_id=rec.source.session_id, agent_id=rec.agent_id,
                            domain=rec.domain, at=now, existing={rec.key: rec.value})
    try:
        cands = [c for c in extractor.extract([msg], ctx) if c.key == rec.key]
    except Exception:  # the correction still counts without extraction
        cands = []
    value = cands[0].value if cands else correction.strip()
    text = cands[0].text if cands else correction.strip()
    # "I left the choir when I moved" gives no new value: the thing is over, and its ending is history (as
    # a remembered "we sold the van" is, merge.decide), not a current memory naming the thing
    ended = not cands and bool(ends_in(rec.text, correction))
    # the marks of a corrected turn are about the words it said, which the correction no longer holds
    metadata = {k: v for k, v in rec.metadata.items() if k != "outdated"}
    return rec.model_copy(update={
        "metadata": metadata,
        "id": new_id(), "value": value, "text": text, "confidence": 0.95,
        "status": MemoryStatus.EXPIRED if ended else MemoryStatus.ACTIVE,
        "valid_from": now, "valid_to": now if ended else None, "supersedes": rec.id, "superseded_by": None,
        "source": MemorySource(session_id=rec.source.session_id, message_ids=[msg.id or ""], timestamp=now,
                               role="user", extractor="user correction"),
        "created_at": now, "updated_at": now, "last_confirmed_at": now, "recall_count": 0,
        "last_recalled_at": None, "conflicts_with": [], "content_hash": "", "keywords": correction,
    }, deep=True)
