"""Where the user is now (and when they get up), told as a change ("now that we're in Porto ...", "I've been in Leeds six weeks now"), is
a home's sort of value, so it replaces the home city the user gave before (issue 17); "I'm in Leeds this week" or
"I've been in Paris for a week" (a trip) is none. This file's own sentences."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import create_good_memory
from goodmemory._value_types import sorts_of
from goodmemory.testing import FrozenClock


@pytest.mark.parametrize(("text", "home"), [
    ("Now that we're in Porto the rent is half what it was", True),
    ("I've been in Leeds six weeks now and still no GP", True),
    ("I'm in Leeds this week for a conference", False),
    ("I've been in Paris for a week, back on Monday", False),
])
def test_where_one_is_now(text: str, home: bool) -> None:
    assert ("home" in sorts_of(text)) is home


def test_it_replaces_the_home_city() -> None:
    t0 = datetime(2025, 1, 5, 9, tzinfo=UTC)
    mem = create_good_memory("sqlite://", clock=FrozenClock(t0 + timedelta(days=200)))
    mem.remember([{"role": "user", "content": "I live in Coventry, in a flat by the ring road."}], user_id="u", at=t0)
    mem.remember([{"role": "user", "content": "Now that we're in Porto the rent is half what it was. Where should "
                                              "I buy a bike?"}], user_id="u", at=t0 + timedelta(days=120))
    active = [r.value for r in mem.list(user_id="u") if r.kind.value != "episode"]
    mem.close()
    assert any("Porto" in v for v in active) and not any("Coventry" in v for v in active), active


@pytest.mark.parametrize(("text", "wake"), [
    ("I wake up at 6:45 on weekdays", True),
    ("these days I'm up at 5 for the early shift", True),
    ("I go to bed at 11", False),
    ("I'm up for a walk later", False),
])
def test_when_one_gets_up_is_a_sort_of_value(text: str, wake: bool) -> None:
    assert ("wake" in sorts_of(text)) is wake


def test_a_new_wake_time_replaces_the_old() -> None:
    t0 = datetime(2025, 1, 5, 9, tzinfo=UTC)
    mem = create_good_memory("sqlite://", clock=FrozenClock(t0 + timedelta(days=200)))
    mem.remember([{"role": "user", "content": "I wake up at 6:45 on weekdays."}], user_id="u", at=t0)
    mem.remember([{"role": "user", "content": "these days I'm up at 5 for the early shift"}], user_id="u",
                 at=t0 + timedelta(days=120))
    active = [r.value for r in mem.list(user_id="u") if r.kind.value != "episode"]
    mem.close()
    assert not any("6:45" in v for v in active) and any("up at 5" in v for v in active), active
