"""Facts a sentence tells beside another (issue 17), in my own sentences:
- a second verb whose subject the sentence leaves out ("I'm based in Leeds and use Vodafone for my phone") was lost
  once a rule read the first clause;
- "my hamster Mochi ..." names a pet (only "I have a hamster called X" did), also before a question that ends "??".
"""

from __future__ import annotations

import pytest
from _extracting import extract

from _memories import active_after, assert_replaced


def _said(*turns: str) -> list[tuple[str, str]]:
    return [(c.key, c.value) for c in extract(*turns) if c.kind.value != "episode"]


@pytest.mark.parametrize(("text", "kept"), [
    ("I'm based in Leeds and use Vodafone for my phone.", "I use Vodafone for my phone"),
    ("We live in Bristol and have two rabbits.", "We have two rabbits"),
    ("I live in Porto and volunteer at the food bank on Saturdays.", "I volunteer at the food bank on Saturdays"),
])
def test_a_verb_with_its_subject_left_out_is_a_clause_of_its_own(text: str, kept: str) -> None:
    assert any(v == kept for _, v in _said(text)), _said(text)


def test_a_clause_that_starts_with_no_subject_is_not_split() -> None:
    assert not any(v.startswith(("I use", "I have")) for _, v in _said("Salt and pepper and use less oil."))


@pytest.mark.parametrize(("text", "name"), [
    ("my hamster Mochi keeps chewing the cage bars at night, is he bored??", "Mochi"),
    ("our old greyhound Pepper is twelve now", "Pepper"),
    ("My guinea pig Nibbles has a cough.", "Nibbles"),
])
def test_my_animal_and_its_name_is_a_pet(text: str, name: str) -> None:
    assert ("fact.pet." + name.lower(), name) in _said(text), _said(text)


def test_a_dog_so_named_stays_a_relation_only() -> None:
    keys = [k for k, _ in _said("my dog Biscuit is three")]
    assert not any(k.startswith("fact.pet") for k in keys), keys


def test_the_new_network_replaces_the_one_told_beside_the_city() -> None:
    values = active_after("Hi, I'm based in Leeds and use Vodafone for my phone. My bill went up again, can you "
                          "help me complain?",
                          "Since I ported my number to Smarty last month my calls drop in the office, any settings "
                          "to try?")
    assert_replaced(values, "Smarty", "Vodafone")
