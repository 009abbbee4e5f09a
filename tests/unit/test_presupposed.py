"""What a question or a request presupposes the user has is theirs (issue 17): "how often should I change the oil on
my 2012 Mazda 3?" or "can you draft an email to my manager Priya?" kept nothing, so a later change had no old value to
replace. Only a person, a pet or a vehicle named as the user's is read from a question; my own sentences."""

from __future__ import annotations

import pytest
from _extracting import extract

from _memories import active_after, assert_replaced


def _said(text: str) -> list[tuple[str, str]]:
    return [(c.key, c.value) for c in extract(text) if c.kind.value != "episode"]


@pytest.mark.parametrize(("text", "key", "value"), [
    ("how often should I rotate the tyres on my 2014 Skoda Octavia?", "vehicle.skoda_octavia", "2014 Skoda Octavia"),
    ("can you draft an email to my manager Dana about my leave?", "relation.manager", "Dana"),
    ("my rabbit Clover won't eat her pellets, should I worry?", "fact.pet.clover", "Clover"),
    ("I turn 40 in May, can you suggest a trip for me and my wife Ines?", "relation.wife", "Ines"),
    ("can you help me plan a party for my son Theo, he's turning 7", "relation.son.theo", "Theo"),
])
def test_what_a_question_presupposes_is_kept(text: str, key: str, value: str) -> None:
    assert (key, value) in _said(text), _said(text)


@pytest.mark.parametrize("text", [
    "should I buy a 2015 Honda Jazz?",          # asks whether to have it
    "is my Kindle worth fixing?",               # no vehicle
    "what if my wife Ines took the job?",       # a supposition
    "what do you think of my plan?",
])
def test_a_question_that_presupposes_nothing_keeps_nothing(text: str) -> None:
    assert not [k for k, _ in _said(text) if k.startswith(("vehicle", "relation", "fact.pet"))], _said(text)


def test_a_new_car_replaces_the_one_a_question_named() -> None:
    values = active_after("how often should I change the oil on my 2012 Mazda 3? mechanic says every 5000km",
                          "Traded the Mazda in at the weekend, picked up a used Toyota Corolla. What tyre pressure?")
    assert_replaced(values, "Corolla", "Mazda")
