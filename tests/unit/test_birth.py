"""A baby's arrival names a new member of the family ("Baby Maya arrived on Tuesday!", "Our little boy Finn was born
last night"): an addition beside the children the user told of, said with or without "I". My own sentences."""

from __future__ import annotations

import pytest
from _extracting import keyed

from _memories import active_after


def _family(turn: str) -> dict[str, str]:
    return keyed(turn, prefix="relation.")


@pytest.mark.parametrize(("turn", "key", "name"), [
    ("Baby Maya arrived on Tuesday, 3.1kg and perfect!", "relation.baby.maya", "Maya"),
    ("Our little boy Finn was born last night.", "relation.son.finn", "Finn"),
    ("We had a baby girl on Sunday, Rosa, and we're exhausted.", "relation.daughter.rosa", "Rosa"),
])
def test_a_babys_arrival_is_a_new_family_member(turn: str, key: str, name: str) -> None:
    assert _family(turn).get(key) == name, _family(turn)


@pytest.mark.parametrize("turn", [
    "Baby Shark is on repeat again.",  # a song
    "The baby arrived at my sister's house at noon.",  # no name: whose baby
    "My sister's baby Leo was born on Friday.",  # the sister's
])
def test_no_family_member_from_other_babies(turn: str) -> None:
    assert not _family(turn), _family(turn)


def test_the_new_baby_is_kept_beside_the_child_told_of_before() -> None:
    values = active_after("My son Arlo is 4 and loves dinosaurs.", "Baby Maya arrived on Tuesday!")
    assert "Arlo" in values and "Maya" in values, values
