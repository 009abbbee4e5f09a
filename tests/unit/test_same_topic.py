"""A change no rule keyed and its masked meaning does not tie to an earlier memory still replaces the memory it is
nearest in its own words, values kept (``same_topic_similarity``); off (2.0) it does not. Not across people, not
for an addition. This file's own sentences (issue 17, w69)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import GoodMemoryConfig, create_good_memory
from goodmemory.testing import FrozenClock

T0 = datetime(2025, 3, 1, 9, tzinfo=UTC)


def _active(first: str, second: str, same_topic: float) -> list[str]:
    mem = create_good_memory("sqlite://", config=GoodMemoryConfig(same_topic_similarity=same_topic),
                             clock=FrozenClock(T0 + timedelta(days=60)))
    mem.remember([{"role": "user", "content": first}], user_id="u", at=T0)
    mem.remember([{"role": "user", "content": second}], user_id="u", at=T0 + timedelta(days=50))
    return [r.value for r in mem.list(user_id="u") if r.kind.value != "episode"]


def test_a_change_replaces_the_memory_nearest_in_its_own_words() -> None:
    first, second = "I work days at the call centre, 9 to 5.", "They've put me on evenings from Monday, 4pm to midnight."
    assert any("9 to 5" in v for v in _active(first, second, 2.0))  # off: both stay current
    active = _active(first, second, GoodMemoryConfig().same_topic_similarity)
    assert any("evenings" in v for v in active) and not any("9 to 5" in v for v in active), active


@pytest.mark.parametrize(("first", "second", "kept"), [
    ("I work days at the call centre, 9 to 5.", "My husband's been put on evenings from Monday, 4pm to midnight.",
     "9 to 5"),
    ("I play five-a-side on Tuesdays.", "I've also started padel on Thursdays now.", "five-a-side"),
])
def test_another_persons_change_or_an_addition_replaces_nothing(first: str, second: str, kept: str) -> None:
    assert any(kept in v for v in _active(first, second, GoodMemoryConfig().same_topic_similarity))
