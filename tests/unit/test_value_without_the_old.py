"""A replacing statement's value holds only what is current (issue 17): a clause giving why the old value went
("..., wasn't doing the classes and Gold was £50 a month") and what the new value is not ("..., not Kath - my sister
started it") named the old value in the new memory's value, so it read as current still. The text keeps the whole
sentence."""

from __future__ import annotations

from datetime import datetime

import pytest

from _memories import active_after
from goodmemory._replaced import drop_replaced
from goodmemory.merge import Earlier


def _old(value: str) -> Earlier:
    return Earlier(key="k", value=value, at=datetime(2025, 1, 1), family_key="k", similarity=0.5)


@pytest.mark.parametrize(("said", "old", "kept", "gone"), [
    ("I've moved down to Basic at the gym, wasn't doing the classes and Gold was £50 a month",
     "I signed up for Corefit Gold, all classes included", "Basic", "Gold"),
    ("We use Linear now, because Jira was far too slow for us", "we track bugs in Jira", "Linear", "Jira"),
    ("it's Kit these days, not Kath - my sister started it", "Katherine", "Kit", "Kath"),
])
def test_the_new_value_drops_the_reason_and_the_contrast_that_name_the_old(said: str, old: str, kept: str,
                                                                           gone: str) -> None:
    value = drop_replaced(said, _old(old))
    assert kept in value and gone not in value, value


def test_a_reason_that_names_no_old_value_stays() -> None:
    said = "I've moved down to Basic at the gym, wasn't doing the classes much"
    assert drop_replaced(said, _old("I signed up for Corefit Gold")) == said


def test_the_old_tier_is_no_longer_current_after_the_downgrade() -> None:
    values = active_after("just joined Corefit on the Gold plan, all classes included. can you make me a plan",
                          "I've moved down to Basic at Corefit, wasn't doing the classes and Gold was £50 a month")
    assert any("Basic" in v for v in values)
    assert not any("Gold" in v for v in values), values
