"""A change that gives a code of the same series as an earlier value (the same capital letters, as many digits)
replaces that value: a rebooked flight, a reissued policy. A code of another series, someone else's, or one added
replaces nothing; nor does a new value beside a sentence of the same turn that says an earlier one stays. This file's
own sentences (issue 17, w69); the first and last tests fail before w69 (both flights stayed current; the padel
sentence was dropped as an imperative, or replaced the badminton booking)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from _memories import current_and_replaced
from goodmemory import GoodMemory

T0 = datetime(2025, 5, 20, 9, 0, tzinfo=UTC)  # the frozen_mem clock (tests/conftest.py)


def _live(mem: GoodMemory, first: str, second: str) -> tuple[str, str]:
    for i, (at, text) in enumerate([(T0, first), (T0 + timedelta(days=20), second)]):
        mem.clock.set(at)  # type: ignore[attr-defined]
        mem.remember([{"role": "user", "content": text}], user_id="u", session_id=f"s{i}", at=at)
    return current_and_replaced(mem, "u")


def test_a_new_code_of_the_same_series_replaces_the_old(frozen_mem: GoodMemory) -> None:
    active, gone = _live(frozen_mem, "I'm on flight TOM4412 to Palma on the 14th.",
                         "They moved us onto TOM4530 after the strike notice, same day, later in the afternoon.")
    assert "TOM4530" in active and "TOM4412" not in active, active
    assert "TOM4412" in gone


@pytest.mark.parametrize(("second", "kept"), [
    ("My brother got moved onto TOM4530 after the strike notice.", "TOM4412"),   # someone else's
    ("We also booked the return, TOM4531 on the 21st.", "TOM4412"),             # an addition
])
def test_another_persons_or_an_added_code_replaces_nothing(frozen_mem: GoodMemory, second: str, kept: str) -> None:
    active, _ = _live(frozen_mem, "I'm on flight TOM4412 to Palma on the 14th.", second)
    assert kept in active, active


def test_a_sibling_sentence_that_keeps_a_value_protects_it(frozen_mem: GoodMemory) -> None:
    # "... now" beside "X hasn't changed": one more of several values, never X's replacement
    active, gone = _live(frozen_mem, "I have a standing booking for badminton court 2 at Fenwick Hall every Tuesday at 7.",
                         "Note that the padel court at the sports centre is mine every Thursday at 8 now. "
                         "Badminton on Tuesdays hasn't changed.")
    assert "Fenwick" in active and "padel" in active, active
    assert "Fenwick" not in gone
