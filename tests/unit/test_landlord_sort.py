"""Who lets the user's home is a sort of value (issue 17): a new letting agent ("Greenway Lettings manage the flat
now") did not replace the landlord the user named before, whether a rule read him ("my landlord Mr Osei") or the
sentence was about him ("My landlord is Mrs Duarte, she lives next door"). My own sentences."""

from __future__ import annotations

import pytest

from _memories import active_after, assert_replaced
from goodmemory._value_types import sorts_of


@pytest.mark.parametrize("text", [
    "my landlord Mr Osei never answers",
    "the letting agent, Hartley Homes, is useless",
    "Greenway Lettings manage the flat now",
    "the new owners have Castle Estates managing it",
])
def test_who_lets_the_home_is_a_landlord(text: str) -> None:
    assert "landlord" in sorts_of(text)


def test_managing_something_else_is_no_landlord() -> None:
    assert "landlord" not in sorts_of("I manage the team's budget")


@pytest.mark.parametrize(("first", "old"), [
    ("my landlord Mr Osei still hasn't fixed the shower after two weeks. what are my rights?", "Osei"),
    ("My landlord is a woman called Mrs Duarte, she lives next door and she's very relaxed about things.", "Duarte"),
])
def test_a_new_agent_replaces_the_landlord(first: str, old: str) -> None:
    values = active_after(first, "Osei sold up, the new owners have Greenway Lettings managing it now. Who do I send "
                          "repair requests to?" if old == "Osei" else
                          "The house got sold, so Greenway Lettings manage my flat now. How do I check my deposit?")
    assert_replaced(values, "Greenway", old)
