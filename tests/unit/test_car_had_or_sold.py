"""A car the user sold is no car they have, and the car whose upkeep they ask about is theirs (issue 17): "Sold my
Honda City to Spinny" read "my Honda City" as a car the user has, and the sold car stayed current under a new value;
"Sold the Focus to a dealer" by its model alone left the old car current too; "a cambelt change on a 2014 Skoda
Fabia" kept no car, so a later one replaced nothing. The sentences are my own."""

from __future__ import annotations

import pytest
from _extracting import keyed

from _memories import active_after


def test_a_car_said_sold_is_no_car_the_user_has() -> None:
    assert keyed("Sold my Ford Focus last week, so I'm car-free now", prefix="vehicle") == {}
    assert keyed("How often should I service my Ford Focus?", prefix="vehicle") == {"vehicle.ford_focus": "Ford Focus"}


@pytest.mark.parametrize("after", [
    "Sold my Ford Focus last week, so I'm car-free now.",
    "Traded in my Ford Focus on Saturday, the dealer gave me a fair price.",
])
def test_the_sold_car_is_not_current(after: str) -> None:
    values = active_after("I drive a 2015 Ford Focus, what tyres should I get?", after)
    assert "2015 Ford Focus" not in values, values  # what the new memory says of the sale may name it


def test_a_car_sold_by_its_model_alone_is_the_car_not_a_note_that_mentions_it() -> None:
    """The persona eval's p34 (in other words): the sale had replaced the note of the car's insurance renewal, and
    the car stayed current."""
    values = active_after("Two cars at home: my 2015 Ford Focus and my wife's Kia Niro. Focus insurance renews 14 May, "
                          "the Niro's in June. Keep it short.", "Sold the Focus to a dealer for 4k, so only the Niro now.")
    assert "2015 Ford Focus" not in values, values


@pytest.mark.parametrize(("turn", "value"), [
    ("How much is a cambelt change on a 2014 Skoda Fabia?", "2014 Skoda Fabia"),
    ("what tyre pressure for the 2017 Honda Jazz, the manual's gone", "2017 Honda Jazz"),
])
def test_the_upkeep_of_a_car_of_a_given_year_presupposes_the_users_car(turn: str, value: str) -> None:
    assert value in keyed(turn, prefix="vehicle").values()


@pytest.mark.parametrize("turn", ["Is a 2012 Mazda 3 a good first car?", "Should I buy a 2019 Tesla Model 3?"])
def test_a_car_one_might_buy_is_none(turn: str) -> None:
    assert keyed(turn, prefix="vehicle") == {}
