"""How the user gets to work is a sort of value (issue 17): "I get the 42 bus into the town centre every morning"
had been a home city, and "cycling to the office these days instead of the 42 bus" a note beside it, so the bus
stayed current. The sentences are my own."""

from __future__ import annotations

from datetime import datetime

import pytest

from _memories import active_after, assert_replaced
from goodmemory._replaced import drop_replaced
from goodmemory._value_types import sorts_of
from goodmemory.merge import Earlier


@pytest.mark.parametrize("text", [
    "I get the 42 bus into the town centre every morning",
    "I cycle to work most days",
    "I commute by tram",
    "I go into the office on the train",
    "I've been driving to work since the spring",
])
def test_a_way_to_work_is_a_commute(text: str) -> None:
    assert "commute" in sorts_of(text)


@pytest.mark.parametrize("text", [
    "we took the bus to the zoo on Saturday",
    "I walk the dog to the park",
    "the train to Edinburgh was late",
])
def test_a_trip_is_no_commute(text: str) -> None:
    assert "commute" not in sorts_of(text)


def test_the_new_commute_replaces_the_old() -> None:
    values = active_after("I get the 42 bus into the town centre every morning, it takes forty minutes. "
                          "Any audiobooks you'd recommend?",
                          "Could you suggest a good waterproof jacket? I've been cycling to the office since March "
                          "instead of the 42 bus, and I arrive soaked.")
    assert_replaced(values, "cycling", "42")


def _old(value: str) -> Earlier:
    return Earlier(key="k", value=value, at=datetime(2025, 1, 1), family_key="k", similarity=0.5)


@pytest.mark.parametrize(("said", "kept"), [
    ("I cycle in since March rather than sitting on the 42 bus.", "I cycle in since March."),
    ("I cycle in since March instead of the 42 bus, and I love it", "I cycle in since March, and I love it"),
])
def test_what_the_new_value_is_rather_than_goes_from_the_value(said: str, kept: str) -> None:
    assert drop_replaced(said, _old("I get the 42 bus into town")) == kept
