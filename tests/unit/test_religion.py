"""A religion or belief said of oneself is the user's religion, never a name (own sentences)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _extracting import keyed

pytestmark = pytest.mark.unit
TS = datetime(2024, 3, 6, 10, 0, tzinfo=UTC)


def _keys(text: str) -> dict[str, str]:
    # the rules alone: a sentence no rule reads is left to the statements (filed by meaning, elsewhere)
    return keyed(text, at=TS)


@pytest.mark.parametrize(("text", "value"), [
    ("I'm Jewish and observe Shabbat strictly.", "Jewish"),
    ("I'm a practising Catholic, mass every Sunday.", "Catholic"),
    ("We're Muslim so no pork at the barbecue please.", "Muslim"),
    ("I am Buddhist, so I meditate most mornings.", "Buddhist"),
])
def test_a_belief_said_of_oneself_is_the_users_religion(text: str, value: str) -> None:
    keys = _keys(text)
    assert keys.get("profile.religion") == value, keys
    assert "profile.name" not in keys, keys


@pytest.mark.parametrize("text", [
    "I'm Catholic-school educated but that was long ago.",
    "I'm going to a Hindu wedding on Saturday.",
    "My neighbour is Jewish.",
])
def test_no_religion_and_no_name_from_a_belief_word_about_something_else(text: str) -> None:
    keys = _keys(text)
    assert "profile.religion" not in keys and "profile.name" not in keys, keys
    assert not any(k.startswith("relation.") for k in keys), keys


def test_a_name_is_still_a_name() -> None:
    assert _keys("I'm Halima, nice to meet you.").get("profile.name") == "Halima"
    assert _keys("My neighbour is Priya.").get("relation.neighbour.priya") == "Priya"
