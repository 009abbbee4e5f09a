"""People, endings and titles a change must read (issue 17), in my own sentences:
- chat's "bf"/"gf"/"hubby" and a "supervisor" are relations ("supervisor" shares the manager's slot);
- "Dra." is a title, not the end of a sentence, and no clinician by itself; a dentist a rule keyed is a dentist;
- "going by Greta, not Maggie, it's ..." drops what the new value is not from the middle of the sentence;
- "my own car, a 2016 Vauxhall Corsa" names the car; "The Corsa failed its MOT, so that was the end of it" ends it;
- "ended things" ends a relationship;
- a sentence with no word of where one is from is no origin, one with no figure or word of money no finance."""

from __future__ import annotations

from datetime import datetime

import pytest
from _extracting import extract

from _memories import active_after, assert_replaced
from goodmemory._replaced import drop_replaced, ended_clauses
from goodmemory._value_types import lacks_shape, sorts_of
from goodmemory.merge import Earlier


def _said(text: str) -> list[tuple[str, str]]:
    return [(c.key, c.value) for c in extract(text) if c.kind.value != "episode"]


@pytest.mark.parametrize(("text", "key", "value"), [
    ("planning a cheap date for me and my bf Rafael", "relation.boyfriend", "Rafael"),
    ("my gf Aiko wants to learn to ski", "relation.girlfriend", "Aiko"),
    ("my supervisor Okafor wants us all in on Saturday", "relation.manager", "Okafor"),
    ("I do deliveries in my own car, a 2015 Ford Fiesta.", "vehicle.ford_fiesta", "2015 Ford Fiesta"),
])
def test_people_and_cars_as_chat_names_them(text: str, key: str, value: str) -> None:
    assert (key, value) in _said(text), _said(text)


def test_dra_is_no_sentence_end() -> None:
    values = [v for _, v in _said("My check-up with Dra. Molina is on a Thursday at 10:00.")]
    assert not any(v.rstrip(".").endswith("Dra") for v in values), values


def test_dra_is_a_title_of_a_name_and_no_clinician_by_itself() -> None:
    # in Spanish a lawyer is "Dra." too: the title names the person, not their trade
    assert ("relation.lawyer", "Dra. Molina") in _said("I'm waiting for my lawyer, Dra. Molina, to check it.")
    assert not {"doctor", "dentist"} & sorts_of("Dra. Molina negotiated it: adjustments every 6 months")


def test_what_the_name_is_not_goes_from_mid_sentence() -> None:
    old = Earlier(key="profile.name", value="Margot", at=datetime(2025, 1, 1), family_key="profile.name",
                  similarity=0.0)
    said = "Going by Rosa these days, not Margot, it's my middle name and suits me better"
    assert drop_replaced(said, old) == "Going by Rosa these days, it's my middle name and suits me better"


@pytest.mark.parametrize("said", [
    "The Fiesta failed its inspection on the brakes, so that was the end of it",
    "Rafael and I ended things last month",
])
def test_an_ending_said_as_a_conclusion_ends(said: str) -> None:
    assert ended_clauses(said, {"fiesta", "rafael"})


def test_a_new_value_beside_the_ending_is_no_ending() -> None:
    assert not ended_clauses("The Fiesta failed its MOT, so that was the end of it, I bought a Kia", {"fiesta"})


def test_the_car_that_failed_its_mot_is_no_longer_current() -> None:
    values = active_after("I do parcel routes in my own car, a 2015 Ford Fiesta. What mileage records do I keep?",
                          "The Fiesta failed its inspection on the brakes, so that was the end of it. Picked up a used "
                          "Citroen Berlingo van last week. How do I claim a van?")
    assert_replaced(values, "Berlingo", "Fiesta")


@pytest.mark.parametrize(("family", "text"), [
    ("origin", "4th year at uni here, living in a flat in Leeds off Hyde Park Road"),
    ("finance", "First month in Bristol done"),
])
def test_a_family_of_a_shape_takes_no_sentence_without_it(family: str, text: str) -> None:
    assert lacks_shape(family, text)


@pytest.mark.parametrize(("family", "text"), [
    ("origin", "I'm originally from Cork"),
    ("finance", "I'm on £38k a year"),
])
def test_a_sentence_of_the_shape_keeps_it(family: str, text: str) -> None:
    assert not lacks_shape(family, text)


def test_a_common_noun_in_capitals_is_no_new_value_beside_an_ending() -> None:
    """"failed its MOT": the MOT is the yearly test, not a value of its own, so the clause still only ends the car."""
    assert ended_clauses("The Polo failed its MOT on rust, so that was the end of it", {"polo"})
    values = active_after("I do deliveries in my own car, a 2014 VW Polo.",
                          "The Polo failed its MOT on rust, so that was the end of it. Bought a used Skoda Octavia estate.")
    assert_replaced(values, "Octavia", "Polo")
