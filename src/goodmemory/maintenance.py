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

from .digest import build_digest, digest_record
from .lifecycle import expires_at
from .models import MaintenanceReport, MemoryKind, MemoryRecord, MemoryStatus
from .storage.base import MemoryEvent, MemoryFilter, Storage, WriteBatch
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
        if r.key.startswith("episode.digest."):
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
        changed: dict[str, MemoryRecord] = {}
        active = storage.list(user_id, MemoryFilter())
        digests = _digests(active, now)
        if digests:
            batch.inserts.extend(digests)
            if embed is not None:
                mat = embed([d.text for d in digests])
                batch.vectors = {d.id: mat[i] for i, d in enumerate(digests)}
            report.compacted += len(digests)
        for r in active:
            expires = expires_at(r)
            if expires is not None and expires <= now:
                u = r.model_copy(deep=True)
                u.status, u.valid_to, u.updated_at = MemoryStatus.EXPIRED, now, now
                changed[u.id] = u
                batch.events.append(MemoryEvent(u.id, "expired", now, {"ended": expires.isoformat()}))
                report.expired += 1
                continue
            if r.kind == MemoryKind.EPISODE:
                target = _episode_importance(r, now)
                if target != r.importance and target < r.importance:
                    u = r.model_copy(deep=True)
                    u.importance = target
                    changed[u.id] = u
                    report.decayed += 1
                continue
            verdict = assess(r, now, staleness).verdict
            stale = verdict in (Verdict.VERIFY, Verdict.SUPPRESS)
            if stale != bool(r.metadata.get("stale")):
                u = r.model_copy(deep=True)
                u.metadata["stale"] = stale
                changed[u.id] = u
                report.marked_stale += int(stale)
        # consolidation: the same text active under two ids -> keep the oldest, supersede the rest
        by_hash: dict[str, list[MemoryRecord]] = {}
        for r in active:
            if r.kind != MemoryKind.EPISODE and r.id not in changed or (
                r.id in changed and changed[r.id].status == MemoryStatus.ACTIVE and r.kind != MemoryKind.EPISODE
            ):
                by_hash.setdefault(r.content_hash, []).append(changed.get(r.id, r))
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
                changed[d.id] = d
                batch.events.append(MemoryEvent(d.id, "consolidated", now, {"into": keep.id}))
                report.consolidated += 1
            changed[keep.id] = keep
        if changed:
            batch.updates = list(changed.values())
        if batch:
            storage.write(user_id, batch)
    return report
