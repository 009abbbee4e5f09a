"""The feedback pipeline behind ``feedback``: one signal -> one planned change -> one transaction.

Corrections and notes are user text like any turn: they pass the same secret policy as
``remember`` (a correction holding a secret is refused unless secrets are allowed; a note is
stored redacted), so no secret reaches a memory, its keywords, the outdated flags or the history
through this path.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ._write import outdate_sources
from .config import GoodMemoryConfig
from .embeddings import Embedder
from .errors import InvalidInputError
from .extraction.base import ExtractionContext, Extractor
from .models import FeedbackResult, FeedbackSignal, MemoryRecord, MemorySource, MemoryStatus, Message, new_id
from .secrets import find_secrets, redact
from .storage.base import MemoryEvent, Storage, WriteBatch

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
    upd = rec.model_copy(deep=True)
    upd.updated_at = now
    changed: dict[str, Any] = {}
    batch = WriteBatch()
    new_id_: str | None = None
    if sig == FeedbackSignal.CONFIRM:
        upd.confidence = round(min(0.99, rec.confidence + (1 - rec.confidence) * 0.5), 4)
        upd.last_confirmed_at = now
        changed = {"confidence": [rec.confidence, upd.confidence], "last_confirmed_at": now.isoformat()}
    elif sig == FeedbackSignal.REJECT:
        upd.status = MemoryStatus.RETRACTED
        upd.valid_to = now
        changed = {"status": [rec.status.value, "retracted"]}
    elif sig in (FeedbackSignal.HELPFUL, FeedbackSignal.NOT_HELPFUL):
        delta = 1.0 if sig == FeedbackSignal.HELPFUL else -1.0
        upd.feedback_score = max(-3.0, min(3.0, rec.feedback_score + delta))
        changed = {"feedback_score": [rec.feedback_score, upd.feedback_score]}
    else:
        assert correction is not None
        new = _correction_record(extractor, rec, correction, user_id=user_id, now=now)
        upd.status = MemoryStatus.SUPERSEDED
        upd.valid_to = now
        upd.superseded_by = new.id
        batch.inserts.append(new)
        batch.vectors[new.id] = embedder.embed([new.text])[0]
        batch.events.append(MemoryEvent(new.id, "add", now, {"text": new.text, "via": "user correction"}))
        new_id_ = new.id
        batch.updates.extend(outdate_sources(storage, user_id, [(rec, new)], trusted=True))
        changed = {"status": [rec.status.value, "superseded"], "superseded_by": new.id, "value": new.value}
    batch.updates.append(upd)
    batch.events.append(MemoryEvent(rec.id, f"feedback:{sig.value}", now, {"note": note or "", **{
        k: v for k, v in changed.items() if k != "value"}}))
    storage.write(user_id, batch)
    return FeedbackResult(memory_id=rec.id, signal=sig, changed=changed, new_memory_id=new_id_,
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
    return rec.model_copy(update={
        "id": new_id(), "value": value, "text": text, "confidence": 0.95, "status": MemoryStatus.ACTIVE,
        "valid_from": now, "valid_to": None, "supersedes": rec.id, "superseded_by": None,
        "source": MemorySource(session_id=rec.source.session_id, message_ids=[msg.id or ""], timestamp=now,
                               role="user", extractor="user correction"),
        "created_at": now, "updated_at": now, "last_confirmed_at": now, "recall_count": 0,
        "last_recalled_at": None, "conflicts_with": [], "content_hash": "", "keywords": correction,
    }, deep=True)
