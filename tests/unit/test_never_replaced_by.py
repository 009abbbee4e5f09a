"""Two ways a user's value was destroyed by a sentence that does not change it (issue 17): another person's move
followed by the user's clause ("my in-laws moved to Durham so we drive up most weekends" replaced the user's home),
and an addition to an attribute of one value ("I also opened a Monzo account" replaced the user's bank). This file's
own sentences."""

from __future__ import annotations

import pytest

from _memories import active_after


@pytest.mark.parametrize(("first", "second", "kept", "told"), [
    ("We live in Whitby.", "my in-laws moved to Durham in May so we drive up most weekends", "Whitby", "Durham"),
    ("I bank with Nationwide.", "I also opened a Monzo account for day-to-day spending", "Nationwide", "Monzo"),
])
def test_the_value_stays(first: str, second: str, kept: str, told: str) -> None:
    active = active_after(first, second)
    assert any(kept in v for v in active), active
    assert any(told in v for v in active), active  # what the second sentence told is kept too
