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
    return _remember(first, second, same_topic)[0]


def _remember(first: str, second: str, same_topic: float) -> tuple[list[str], list[str]]:
    """The active values after ``first`` then ``second``, and why each of ``second``'s candidates went where it went."""
    mem = create_good_memory("sqlite://", config=GoodMemoryConfig(same_topic_similarity=same_topic),
                             clock=FrozenClock(T0 + timedelta(days=60)))
    mem.remember([{"role": "user", "content": first}], user_id="u", at=T0)
    res = mem.remember([{"role": "user", "content": second}], user_id="u", at=T0 + timedelta(days=50))
    why = [str(d.candidate.metadata.get("slot_reason")) for d in res.decisions
           if d.candidate is not None and d.candidate.kind.value != "episode"]
    return [r.value for r in mem.list(user_id="u") if r.kind.value != "episode"], why


def test_a_change_replaces_the_memory_nearest_in_its_own_words() -> None:
    first, second = "I work days at the call centre, 9 to 5.", "They've put me on evenings from Monday, 4pm to midnight."
    active, why = _remember(first, second, GoodMemoryConfig().same_topic_similarity)
    assert any("evenings" in v for v in active) and not any("9 to 5" in v for v in active), active
    # the nearest memory in its own words decides (both are work schedules too: off, the family's one slot replaces)
    assert any(w.startswith("a change of the value it is nearest") for w in why), why
    assert not any(w.startswith("a change of the value it is nearest") for w in _remember(first, second, 2.0)[1])


@pytest.mark.parametrize(("first", "second", "kept"), [
    ("I work days at the call centre, 9 to 5.", "My husband's been put on evenings from Monday, 4pm to midnight.",
     "9 to 5"),
    ("I play five-a-side on Tuesdays.", "I've also started padel on Thursdays now.", "five-a-side"),
])
def test_another_persons_change_or_an_addition_replaces_nothing(first: str, second: str, kept: str) -> None:
    assert any(kept in v for v in _active(first, second, GoodMemoryConfig().same_topic_similarity))
