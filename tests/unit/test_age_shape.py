"""An age is a number of years, an appointment is at a time: a statement without one ("I'm halfway through a long
novel", "First month at X done") is never filed as the user's age or an appointment, however alike its masked words
read to the family's examples (issue 17). This file's own sentences."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from goodmemory import create_good_memory
from goodmemory._value_types import lacks_shape
from goodmemory.testing import FrozenClock


@pytest.mark.parametrize(("text", "lacks"), [
    ("I'm halfway through Wolf Hall", True),
    ("I'm 41 next month", False),
    ("I turned sixty in May", False),
    ("I'm in my late thirties", False),
])
def test_an_age_has_a_number_of_years(text: str, lacks: bool) -> None:
    assert lacks_shape("age", text) is lacks


def test_a_statement_without_a_number_is_no_age() -> None:
    mem = create_good_memory("sqlite://", clock=FrozenClock(datetime(2025, 4, 2, tzinfo=UTC)))
    mem.remember([{"role": "user", "content": "I'm halfway through Wolf Hall, is it worth finishing?"}], user_id="u")
    keys = [r.key for r in mem.list(user_id="u") if r.kind.value != "episode"]
    mem.close()
    assert not any(k.startswith("profile.age") for k in keys), keys


@pytest.mark.parametrize(("text", "lacks"), [
    ("First month at Harwell Freight done", True),
    ("Switched my broadband to Zen, £29 for 500Mb", True),
    ("The optician moved me to Thursday at 4pm", False),
    ("Physio is on the 14th", False),
])
def test_an_appointment_is_at_a_time(text: str, lacks: bool) -> None:
    assert lacks_shape("appointment", text) is lacks


@pytest.mark.parametrize(("family", "text", "lacks"), [
    ("timezone", "I'm at 56 mins right now", True),
    ("timezone", "I'm on Pacific time until March", False),
    ("manager", "I have a cleaning at Bright Dental with Dr. Alvarez next week", True),
    ("manager", "I report to Gwen now, she's great", False),
    ("work_schedule", "We've relocated to the King's Cross office as of today", True),
    ("work_schedule", "I'm on four long days now, Fridays off", False),
    ("rent", "My phone contract ends in May, I'm paying £38 a month for 100GB", True),
    ("rent", "The landlord's put it up to £1,240 from August", False),
])
def test_a_timezone_a_manager_a_schedule_and_a_rent_are_named_as_such(family: str, text: str, lacks: bool) -> None:
    assert lacks_shape(family, text) is lacks
