"""The way the user gets to work, told in passing in a question, is theirs (issue 17): "What's a good lock for the
e-bike I ride to the office every day now?" kept no commute, so the old train commute stayed current. The sentences
are my own."""

from __future__ import annotations

import pytest
from _extracting import keyed

from _memories import active_after, assert_replaced


@pytest.mark.parametrize(("turn", "value"), [
    ("What's a good lock for the e-bike I ride to the office every day now?", "e-bike"),
    ("why is the 38 bus I get to work always late on Mondays?", "38 bus"),
])
def test_the_way_to_work_told_in_passing_is_the_commute(turn: str, value: str) -> None:
    assert keyed(turn, prefix="profile.commute") == {"profile.commute": value}


@pytest.mark.parametrize("turn", ["Is the train to work usually this late?", "my sister rides her bike to work"])
def test_no_way_of_the_users_own_is_none(turn: str) -> None:
    assert keyed(turn, prefix="profile.commute") == {}


def test_the_new_way_replaces_the_old() -> None:
    values = active_after("I commute by train, the 7:52 from Woking into Waterloo. It's always packed.",
                          "What's a good D-lock for the e-bike I ride to the office every day now?")
    assert_replaced(values, "e-bike", "7:52")
