"""Where the user is now and when they get up, told as a change ("now that we're in Porto ...", "I've been in Leeds
six weeks now", "these days I'm up at 5"), are sorts of value, so they replace what the user gave before (issue 17);
"I'm in Leeds this week" or "I've been in Paris for a week" (a trip) is no home. This file's own sentences."""

from __future__ import annotations

import pytest

from _memories import active_after
from goodmemory._value_types import sorts_of


@pytest.mark.parametrize(("text", "home"), [
    ("Now that we're in Porto the rent is half what it was", True),
    ("I've been in Leeds six weeks now and still no GP", True),
    ("I'm in Leeds this week for a conference", False),
    ("I've been in Paris for a week, back on Monday", False),
])
def test_where_one_is_now(text: str, home: bool) -> None:
    assert ("home" in sorts_of(text)) is home


def test_it_replaces_the_home_city() -> None:
    active = active_after("I live in Coventry, in a flat by the ring road.",
                          "Now that we're in Porto the rent is half what it was. Where should I buy a bike?")
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
    active = active_after("I wake up at 6:45 on weekdays.", "these days I'm up at 5 for the early shift")
    assert not any("6:45" in v for v in active) and any("up at 5" in v for v in active), active
