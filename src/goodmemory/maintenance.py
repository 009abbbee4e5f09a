"""maintain(): expiry, staleness marking, decay of old episodes, duplicate consolidation, and
compaction of sessions into extractive digests (for agents that remember turn by turn, whose
sessions never arrive in one call).

Every step computes its target state from the record and ``now``, so running
it twice changes nothing the second time (idempotent).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime

import numpy as np

from ._apply import Pending
from ._meta import read_meta
from .digest import build_digest, digest_record
from .keys import is_digest
from .lifecycle import consolidate, expire
from .models import MaintenanceReport, MemoryKind, MemoryRecord
from .storage.base import MemoryFilter, Storage, WriteBatch
from .verification import StalenessConfig, Verdict, assess

__all__ = ["run_maintain"]

EPISODE_BASE_IMPORTANCE = 0.3
EPISODE_HALF_LIFE_DAYS = 180.0


def _episode_importance(r: MemoryRecord, now: datetime) -> float:
    age = max(0.0, (now - r.event_time).total_seconds() / 86400.0)
    return round(max(0.02, EPISODE_BASE_IMPORTANCE * math.pow(0.5, age / EPISODE_HALF_LIFE_DAYS)), 3)


def _digests(active: list[MemoryRecord], now: datetime) -> list[MemoryRecord]:
    """Digests for sessions that have none yet (deterministic key: same result when run again)."""
    sessions: dict[str, list[MemoryRecord]] = {}
    have: set[str] = set()
    for r in active:
        if r.kind != MemoryKind.EPISODE or not r.source.session_id:
            continue
        if is_digest(r.key):
            have.add(r.source.session_id)
        else:
            sessions.setdefault(r.source.session_id, []).append(r)
    out: list[MemoryRecord] = []
    for sid, eps in sorted(sessions.items()):
        if sid in have:
            continue
        eps.sort(key=lambda r: (r.event_time, r.key))
        lines = build_digest([(r.source.message_ids[0], r.source.role or "", r.text) for r in eps if r.source.message_ids])
        if not lines:
            continue
        first = eps[0]
        out.append(digest_record(lines, first_message_id=first.source.message_ids[0], user_id=first.user_id, agent_id=first.agent_id, domain=first.domain,
                                 session_id=sid, at=first.event_time, now=now, volatility=first.volatility))
    return out


def run_maintain(storage: Storage, users: list[str], *, now: datetime, staleness: StalenessConfig,
                 embed: Callable[[Sequence[str]], np.ndarray] | None = None) -> MaintenanceReport:
    report = MaintenanceReport(user_ids=list(users))
    for user_id in users:
        batch = WriteBatch()
        pending = Pending()
        active = storage.list(user_id, MemoryFilter())
        digests = _digests(active, now)
        if digests:
            batch.inserts.extend(digests)
            if embed is not None:
                mat = embed([d.text for d in digests])
                batch.vectors = {d.id: mat[i] for i, d in enumerate(digests)}
            report.compacted += len(digests)
        for r in active:
            ended = expire(r, now)
            if ended is not None:
                pending.apply(ended, now)
                report.expired += 1
                continue
            raw = read_meta(r.metadata).unreadable.get("expires_at") if "expires_at" in r.metadata else None
            if raw:  # said, so reported; unreadable, so never guessed (an empty one says no end, as before)
                report.details.append(f"{r.id}: expires_at {raw!r} is not an ISO 8601 moment; kept, not expired")
            if r.kind == MemoryKind.EPISODE:
                target = _episode_importance(r, now)
                if target != r.importance and target < r.importance:
                    u = r.model_copy(deep=True)
                    u.importance = target
                    pending.update(u)
                    report.decayed += 1
                continue
            verdict = assess(r, now, staleness).verdict
            stale = verdict in (Verdict.VERIFY, Verdict.SUPPRESS)
            if stale != bool(r.metadata.get("stale")):
                u = r.model_copy(deep=True)
                u.metadata["stale"] = stale
                pending.update(u)
                report.marked_stale += int(stale)
        # consolidation: the same text active under two ids -> keep the oldest, supersede the rest
        merged = consolidate([pending.get(r.id) or r for r in active], now)
        pending.apply(merged, now)
        report.consolidated += len(merged.events)
        pending.into(batch)
        if batch:
            storage.write(user_id, batch)
    return report
