"""A health condition the user has is a fact of the health family ("I'm type 2 diabetic", "I have gastritis"): it
shapes what to cook, where to travel and what to do as much as a stated taste. My own sentences."""

from __future__ import annotations

import pytest
from _extracting import keyed


def _health(*turns: str) -> dict[str, str]:
    return keyed(*turns, prefix="fact.health.")


@pytest.mark.parametrize(("turn", "value"), [
    ("I'm type 2 diabetic, so I watch my carbs.", "type 2 diabetes"),
    ("I have gastritis, so nothing too acidic.", "gastritis"),
    ("I've got high blood pressure.", "high blood pressure"),
    ("I'm pregnant with our first, due in June.", "pregnancy"),
    ("I have IBS and beans are a nightmare.", "IBS"),
    ("I'm anaemic, so I'm always tired.", "anaemia"),
    ("I've had gout for years.", "gout"),
])
def test_a_condition_the_user_has_is_a_health_fact(turn: str, value: str) -> None:
    assert value in _health(turn).values(), _health(turn)


@pytest.mark.parametrize("turn", [
    "My dad is diabetic.",  # someone else's
    "Is gout hereditary?",  # a question
    "I had gastritis last year but it cleared up.",  # over
    "I'm not diabetic, just careful.",  # denied
    "We talked about high blood pressure at work.",  # a topic
])
def test_no_condition_that_is_not_the_users_now(turn: str) -> None:
    assert not _health(turn), _health(turn)
