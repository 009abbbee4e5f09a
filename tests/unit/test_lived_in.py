"""How long the user has lived somewhere says where they live (issue 17): "I've lived in Porto for six years" and
"we've been in Leeds three weeks now" kept no home city, so a move told that way never replaced the old one. A few
days somewhere is a trip; someone else's is none. The sentences are my own."""

from __future__ import annotations

import pytest
from _extracting import keyed

from _memories import active_after, assert_replaced


@pytest.mark.parametrize(("turn", "city"), [
    ("I've lived in Porto for six years", "Porto"),
    ("We've been living in Cardiff for two months now and I love it", "Cardiff"),
    ("ok so the boxes are STILL not unpacked and we've been in Leeds three weeks now", "Leeds"),
    ("been in Bristol a month now, still no friends lol", "Bristol"),
    ("we've lived in Aarhus since 2019", "Aarhus"),
])
def test_how_long_the_user_has_lived_somewhere_says_where_they_live(turn: str, city: str) -> None:
    assert keyed(turn, prefix="profile.home_city") == {"profile.home_city": city}


@pytest.mark.parametrize("turn", [
    "I've been in Rome for three days and it's been amazing",
    "We've been in Lisbon a week, flying home on Sunday",
    "my sister has lived in Oslo for ten years",
])
def test_a_trip_or_someone_elses_home_is_none(turn: str) -> None:
    assert keyed(turn, prefix="profile.home_city") == {}


def test_the_new_home_replaces_the_old() -> None:
    values = active_after("I live in Sheffield, near the Botanical Gardens.",
                          "ok so the boxes are everywhere and we've been in Leeds three weeks now. Rainy day ideas?")
    assert_replaced(values, "Leeds", "Sheffield")


def test_a_stay_since_a_weekday_is_no_home() -> None:
    assert keyed("I've been in Manchester since Tuesday for a conference", prefix="profile.home_city") == {}
