"""Staleness verdicts: fresh, verify, suppress, hidden by volatility and age."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goodmemory.models import MemoryKind, MemoryRecord, MemoryStatus
from goodmemory.verification import Freshness, StalenessConfig, Verdict, assess

NOW = datetime(2025, 3, 12, 12, 0, tzinfo=UTC)


def _rec(*, age_days: float, volatility: float, kind: MemoryKind = MemoryKind.FACT, **kw: Any) -> MemoryRecord:
    t = NOW - timedelta(days=age_days)
    return MemoryRecord(user_id="u1", kind=kind, key="k", text="t", valid_from=t, created_at=t, updated_at=t,
                        volatility=volatility, **kw)


@pytest.mark.parametrize(
    ("volatility", "age_days", "verdict"),
    [
        (0.1, 10, Verdict.FRESH),  # horizon 450 days
        (0.1, 449, Verdict.FRESH),
        (0.1, 451, Verdict.VERIFY),  # stable facts are never suppressed, only marked
        (0.1, 5000, Verdict.VERIFY),
        (0.0, 36500, Verdict.FRESH),  # volatility 0: practically never stale
        (1.0, 44, Verdict.FRESH),  # horizon 45 days
        (1.0, 46, Verdict.VERIFY),
        (1.0, 179, Verdict.VERIFY),  # up to 4 horizons: marked
        (1.0, 181, Verdict.SUPPRESS),  # beyond: dropped
        (0.5, 89, Verdict.FRESH),
        (0.5, 100, Verdict.VERIFY),
        (0.5, 361, Verdict.SUPPRESS),
        (0.19, 1000, Verdict.VERIFY),  # below the volatile threshold: never suppressed
        (0.2, 1000, Verdict.SUPPRESS),
    ],
)
def test_verdict_by_volatility_and_age(volatility: float, age_days: float, verdict: Verdict) -> None:
    f = assess(_rec(age_days=age_days, volatility=volatility), NOW)
    assert f.verdict == verdict
    assert f.age_days == pytest.approx(age_days)
    assert f.horizon_days == pytest.approx(45.0 / max(volatility, 1e-3))
    assert f.shown == (verdict in (Verdict.FRESH, Verdict.VERIFY))
    assert (f.marker is None) == (verdict == Verdict.FRESH)


@pytest.mark.parametrize("status", [MemoryStatus.SUPERSEDED, MemoryStatus.RETRACTED, MemoryStatus.EXPIRED])
def test_inactive_records_are_hidden(status: MemoryStatus) -> None:
    for age in (0, 1000):
        f = assess(_rec(age_days=age, volatility=0.1, status=status), NOW)
        assert f == Freshness(Verdict.HIDDEN, 0.0, 0.0, None)
        assert not f.shown


def test_open_loops_never_stale_while_open() -> None:
    for meta in ({}, {"state": "open"}):
        f = assess(_rec(age_days=5000, volatility=1.0, kind=MemoryKind.OPEN_LOOP, metadata=meta), NOW)
        assert f.verdict == Verdict.FRESH and f.marker is None
    closed = _rec(age_days=5000, volatility=1.0, kind=MemoryKind.OPEN_LOOP, metadata={"state": "closed"})
    assert assess(closed, NOW).verdict == Verdict.SUPPRESS


def test_episodes_never_stale() -> None:
    for vol in (0.0, 0.5, 1.0):
        f = assess(_rec(age_days=10_000, volatility=vol, kind=MemoryKind.EPISODE), NOW)
        assert f.verdict == Verdict.FRESH and f.marker is None
    cfg = StalenessConfig(suppress_stale=True)
    assert assess(_rec(age_days=10_000, volatility=1.0, kind=MemoryKind.EPISODE), NOW, cfg).verdict == Verdict.FRESH


def test_last_confirmed_at_resets_the_clock() -> None:
    old = _rec(age_days=400, volatility=1.0)
    assert assess(old, NOW).verdict == Verdict.SUPPRESS
    confirmed = old.model_copy(update={"last_confirmed_at": NOW - timedelta(days=3)})
    f = assess(confirmed, NOW)
    assert f.verdict == Verdict.FRESH and f.age_days == pytest.approx(3)
    # confirmed a while ago: the marker dates from the confirmation, not the statement
    half = old.model_copy(update={"last_confirmed_at": datetime(2025, 1, 2, tzinfo=UTC)})
    f = assess(half, NOW)
    assert f.verdict == Verdict.VERIFY and f.marker == "last confirmed 2025-01; verify"
    # a confirmation older than the statement does not age it
    earlier = old.model_copy(update={"last_confirmed_at": NOW - timedelta(days=900)})
    assert assess(earlier, NOW).age_days == pytest.approx(400)


def test_suppress_stale_suppresses_volatile_ones() -> None:
    cfg = StalenessConfig(suppress_stale=True)
    assert assess(_rec(age_days=46, volatility=1.0), NOW, cfg).verdict == Verdict.SUPPRESS
    assert assess(_rec(age_days=44, volatility=1.0), NOW, cfg).verdict == Verdict.FRESH
    # stable facts are still only marked
    assert assess(_rec(age_days=1000, volatility=0.1), NOW, cfg).verdict == Verdict.VERIFY


def test_config_knobs() -> None:
    r = _rec(age_days=100, volatility=1.0)
    assert assess(r, NOW, StalenessConfig(base_days=200)).verdict == Verdict.FRESH
    assert assess(r, NOW, StalenessConfig(suppress_after_horizons=10)).verdict == Verdict.VERIFY
    assert assess(_rec(age_days=1000, volatility=0.3), NOW,
                  StalenessConfig(volatile_threshold=0.5)).verdict == Verdict.VERIFY


def test_marker_text_format() -> None:
    r = _rec(age_days=0, volatility=1.0)
    r = r.model_copy(update={"valid_from": datetime(2024, 3, 15, tzinfo=UTC)})
    f = assess(r, datetime(2024, 6, 1, tzinfo=UTC))
    assert f.verdict == Verdict.VERIFY
    assert f.marker == "last confirmed 2024-03; verify"


def test_future_event_is_fresh() -> None:
    f = assess(_rec(age_days=-30, volatility=1.0), NOW)
    assert f.verdict == Verdict.FRESH and f.age_days == 0.0


@settings(max_examples=300, deadline=None)
@given(st.floats(0, 1), st.floats(0, 20_000), st.booleans())
def test_verdict_properties(volatility: float, age_days: float, suppress: bool) -> None:
    cfg = StalenessConfig(suppress_stale=suppress)
    f = assess(_rec(age_days=age_days, volatility=volatility), NOW, cfg)
    assert f.verdict != Verdict.HIDDEN
    if f.marker is not None:
        assert re.fullmatch(r"last confirmed \d{4}-\d{2}; verify", f.marker)
    if f.verdict == Verdict.SUPPRESS:
        assert volatility >= cfg.volatile_threshold
    # older never means fresher
    older = assess(_rec(age_days=age_days + 100, volatility=volatility), NOW, cfg)
    rank = [Verdict.FRESH, Verdict.VERIFY, Verdict.SUPPRESS]
    assert rank.index(older.verdict) >= rank.index(f.verdict)


def _expiry(date: str, *, age_days: float = 30) -> MemoryRecord:
    return _rec(age_days=age_days, volatility=0.1).model_copy(
        update={"key": "passport.expiration", "value": date, "metadata": {"date": date}})


@pytest.mark.parametrize(
    ("date", "verdict", "marker"),
    [
        ("2025-03-01", Verdict.VERIFY, "expired 2025-03-01"),  # in the past: shown, marked
        ("2025-04-06", Verdict.FRESH, "expires in 25 days"),  # soon: said, so the answer can warn
        ("2025-06-09", Verdict.FRESH, "expires in 89 days"),
        ("2025-12-31", Verdict.FRESH, None),  # far off: nothing to say
    ],
)
def test_expiry_dates_say_when_they_run_out(date: str, verdict: Verdict, marker: str | None) -> None:
    f = assess(_expiry(date), NOW)
    assert (f.verdict, f.marker) == (verdict, marker)


def test_an_expired_document_is_marked_even_when_freshly_confirmed() -> None:
    f = assess(_expiry("2025-01-31", age_days=1), NOW)
    assert f.verdict == Verdict.VERIFY and f.marker == "expired 2025-01-31"


def test_a_malformed_expiry_date_is_ignored() -> None:
    f = assess(_expiry("someday"), NOW)
    assert f.verdict == Verdict.FRESH and f.marker is None


def test_a_second_value_of_a_multi_valued_expiry_slot_says_when_it_runs_out_too() -> None:
    # the expiry family is multi-valued ("passport.expiration~1a2b3c4d" is a second passport): read by its slot
    second = _expiry("2025-01-31", age_days=1).model_copy(update={"key": "passport.expiration~1a2b3c4d"})
    f = assess(second, NOW)
    assert f.verdict == Verdict.VERIFY and f.marker == "expired 2025-01-31"
