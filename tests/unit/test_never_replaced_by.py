"""Two ways a user's value was destroyed by a sentence that does not change it (issue 17): another person's move
followed by the user's clause ("my in-laws moved to Durham so we drive up most weekends" replaced the user's home),
and an addition to an attribute of one value ("I also opened a Monzo account" replaced the user's bank). This file's
own sentences."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import create_good_memory
from goodmemory.testing import FrozenClock


@pytest.mark.parametrize(("first", "second", "kept", "told"), [
    ("We live in Whitby.", "my in-laws moved to Durham in May so we drive up most weekends", "Whitby", "Durham"),
    ("I bank with Nationwide.", "I also opened a Monzo account for day-to-day spending", "Nationwide", "Monzo"),
])
def test_the_value_stays(first: str, second: str, kept: str, told: str) -> None:
    t0 = datetime(2025, 2, 1, tzinfo=UTC)
    mem = create_good_memory("sqlite://", clock=FrozenClock(t0 + timedelta(days=90)))
    mem.remember([{"role": "user", "content": first}], user_id="u", at=t0)
    mem.remember([{"role": "user", "content": second}], user_id="u", at=t0 + timedelta(days=40))
    active = [r.value for r in mem.list(user_id="u") if r.kind.value != "episode"]
    mem.close()
    assert any(kept in v for v in active), active
    assert any(told in v for v in active), active  # what the second sentence told is kept too
