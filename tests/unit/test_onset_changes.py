"""A statement that says since when a new state holds ("Since the office moved I take the tram to work") changes
the earlier value of a single-valued attribute, with no rule's key and no word of change besides the onset
(issue 17, w68). Sentences are this file's own. ``test_an_onset_replaces_the_earlier_value`` fails before w68
(the new sentence was its own note, the old commute stayed current); the other two hold before and after.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import GoodMemory, MemoryStatus

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def _say(mem: GoodMemory, text: str, at: datetime) -> None:
    mem.clock.set(at)  # type: ignore[attr-defined]
    mem.remember([{"role": "user", "content": text}], user_id="u", at=at)


def _current(mem: GoodMemory) -> list[str]:
    return [r.text for r in mem.list(user_id="u") if r.kind.value != "episode"]


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("I drive to the office, it takes twenty minutes.",
     "Since my back surgery I get the 38 bus to work.", "drive", "38 bus"),
    ("I take the train to work.", "Since the spring I walk to the office with my neighbour.", "train", "walk"),
])
def test_an_onset_replaces_the_earlier_value(frozen_mem: GoodMemory, before: str, after: str, old: str,
                                             new: str) -> None:
    _say(frozen_mem, before, T0)
    _say(frozen_mem, after, T0 + timedelta(days=90))
    current = _current(frozen_mem)
    assert any(new in t for t in current), current
    assert not any(old in t for t in current), current
    history = frozen_mem.list(user_id="u", include_history=True)
    assert any(old in r.text and r.status is MemoryStatus.SUPERSEDED for r in history)


def test_an_onset_does_not_replace_another_attribute(frozen_mem: GoodMemory) -> None:
    _say(frozen_mem, "I work as a pharmacist.", T0)
    _say(frozen_mem, "Since the spring I volunteer at the food bank on Saturdays.", T0 + timedelta(days=60))
    assert any("pharmacist" in t for t in _current(frozen_mem))


def test_an_onset_of_a_multi_valued_attribute_adds(frozen_mem: GoodMemory) -> None:
    _say(frozen_mem, "I speak Polish.", T0)
    _say(frozen_mem, "Since last year I speak some Greek too.", T0 + timedelta(days=60))
    current = _current(frozen_mem)
    assert any("Polish" in t for t in current) and any("Greek" in t for t in current), current


def test_an_onset_does_not_replace_a_value_a_rule_read(frozen_mem: GoodMemory) -> None:
    # the rules read the employer; an onset the rules do not read as one is another activity, not a new employer
    _say(frozen_mem, "I work at Pellow Engineering.", T0)
    _say(frozen_mem, "Since January I coach the under-nines at Fernhill Rovers on Sundays.", T0 + timedelta(days=60))
    assert any("Pellow" in t for t in _current(frozen_mem)), _current(frozen_mem)
