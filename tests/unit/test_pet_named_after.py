"""A pet's name told in the sentence after the pet ("We got a second cat! Her name is Yuzu", "... a puppy. He's called
Biscuit") is that pet's name (issue 17: the addition kept "We got a second cat" and lost the name). This file's own
sentences."""

from __future__ import annotations

import pytest
from _extracting import extract

from _memories import active_after
from goodmemory.extraction._rule_pets import named_after


@pytest.mark.parametrize(("text", "key"), [
    ("we got a second cat! her name is Pickle", "fact.pet.pickle"),
    ("We brought home a lurcher puppy today. He's called Dobby and he's already chewed a shoe", "fact.pet.dobby"),
    ("We adopted a little rabbit, we named her Clover.", "fact.pet.clover"),
])
def test_the_name_after_the_pet(text: str, key: str) -> None:
    assert key in [c.key for c in extract(text)], [(c.key, c.value) for c in extract(text)]


@pytest.mark.parametrize("text", ["We have a cat. It is a tabby.", "I saw a dog today. Her name is on the tag."])
def test_no_name_no_change(text: str) -> None:
    assert named_after(text) == text


def test_the_second_pet_is_kept_beside_the_first() -> None:
    active = active_after("We have a cat called Tofu.", "we got a second cat! her name is Pickle")
    assert "Tofu" in active and "Pickle" in active, active


def test_the_pet_said_again_with_its_name() -> None:
    found = extract("we got a second cat!! a scruffy tabby called Moth, how do I introduce them?")
    assert "fact.pet.moth" in [c.key for c in found], [(c.key, c.value) for c in found]
