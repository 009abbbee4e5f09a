"""Where one works from, the coffee one orders and the sport one plays are sorts of value (issue 17), in my own
sentences: "we've moved to the Holborn office" had been a new home and stayed beside "my office is in Croydon";
"my usual is a cortado now" stayed beside "I always get a flat white"; "I swim now" beside "I play badminton"."""

from __future__ import annotations

import pytest

from _memories import active_after, assert_replaced
from goodmemory._value_types import sorts_of


@pytest.mark.parametrize(("text", "sort"), [
    ("My office is in Croydon, I'm in two days a week", "office"),
    ("I always get a flat white on the way in", "drink"),
    ("I play badminton on Tuesdays", "sport"),
])
def test_the_sorts(text: str, sort: str) -> None:
    assert sort in sorts_of(text)


def test_an_office_move_is_no_home_move() -> None:
    assert "home" not in sorts_of("The whole team relocated to the Holborn office in May")
    # a home said beside the office is still a home
    assert "home" in sorts_of("Since the move to Bath my walk to the office is five minutes")


@pytest.mark.parametrize(("first", "then", "new", "old"), [
    ("My office is in Croydon, I'm in two days a week. Any quick lunch ideas?",
     "We moved to the Holborn office in June and the coffee is so much better. Any good noodle places near there?",
     "Holborn", "Croydon"),
    ("I always get a flat white at the station and it's getting expensive. Is a home machine worth it?",
     "My usual's a cortado these days, less milk. Can I make one with a moka pot?", "cortado", "flat white"),
    ("I play badminton three times a week at the sports centre, club night is Monday.",
     "After the shoulder injury I had to give up racket sports, so I swim now, 30 lengths most days.", "swim",
     "badminton"),
])
def test_a_change_of_the_sort_replaces_the_old_value(first: str, then: str, new: str, old: str) -> None:
    values = active_after(first, then)
    assert_replaced(values, new, old)
