"""Staleness (pure): is a memory still safe to state as current?

A memory goes stale when the time since it was last said or confirmed
exceeds its horizon, which shrinks as volatility grows
(``horizon_days = base_days / volatility``). Superseded and retracted
records are never shown; stale volatile facts are shown with a verify
marker or suppressed, per config. An ``*.expiration`` fact (a passport, a
warranty) says when it has run out ("expired 2025-02-18") or soon will
("expires in 25 days").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from ._meta import read_meta
from .keys import is_expiration
from .models import MemoryKind, MemoryRecord, MemoryStatus

__all__ = ["Freshness", "StalenessConfig", "Verdict", "assess"]


class Verdict(StrEnum):
    FRESH = "fresh"
    VERIFY = "verify"  # show, marked "last confirmed YYYY-MM; verify"
    SUPPRESS = "suppress"  # do not show
    HIDDEN = "hidden"  # superseded/retracted/expired: never shown


@dataclass(frozen=True)
class StalenessConfig:
    base_days: float = 45.0
    suppress_stale: bool = False  # True: stale volatile facts are dropped instead of marked
    suppress_after_horizons: float = 4.0  # beyond this many horizons a volatile fact is dropped anyway
    volatile_threshold: float = 0.2


@dataclass(frozen=True)
class Freshness:
    verdict: Verdict
    age_days: float
    horizon_days: float
    marker: str | None

    @property
    def shown(self) -> bool:
        return self.verdict in (Verdict.FRESH, Verdict.VERIFY)


_EXPIRY_WARN_DAYS = 90  # an expiry this close is said next to the fact ("expires in 25 days")


def _expiry(record: MemoryRecord) -> date | None:
    """The date an ``*.expiration`` fact runs out, from its metadata; None for other records."""
    if not is_expiration(record.key):
        return None
    return read_meta(record.metadata).date  # None when absent or unreadable


def assess(record: MemoryRecord, now: datetime, config: StalenessConfig = StalenessConfig()) -> Freshness:
    if record.status != MemoryStatus.ACTIVE:
        return Freshness(Verdict.HIDDEN, 0.0, 0.0, None)
    anchor = max(filter(None, [record.last_confirmed_at, record.event_time]))
    age = max(0.0, (now - anchor).total_seconds() / 86400.0)
    vol = max(record.volatility, 1e-3)
    horizon = config.base_days / vol
    if record.kind == MemoryKind.EPISODE:
        return Freshness(Verdict.FRESH, age, horizon, None)
    if record.kind == MemoryKind.OPEN_LOOP and record.metadata.get("state", "open") == "open":
        return Freshness(Verdict.FRESH, age, horizon, None)
    runs_out = _expiry(record)
    if runs_out is not None:
        days = (runs_out - now.date()).days
        if days < 0:  # an expired passport is still worth saying, as expired
            return Freshness(Verdict.VERIFY, age, horizon, f"expired {runs_out.isoformat()}")
        if days <= _EXPIRY_WARN_DAYS and age <= horizon:
            return Freshness(Verdict.FRESH, age, horizon, f"expires in {days} days")
    if age <= horizon:
        return Freshness(Verdict.FRESH, age, horizon, None)
    marker = f"last confirmed {anchor.strftime('%Y-%m')}; verify"
    volatile = record.volatility >= config.volatile_threshold
    if volatile and (config.suppress_stale or age > horizon * config.suppress_after_horizons):
        return Freshness(Verdict.SUPPRESS, age, horizon, marker)
    return Freshness(Verdict.VERIFY, age, horizon, marker)
