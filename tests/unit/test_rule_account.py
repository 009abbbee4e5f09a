"""What a service agent reads out of the user's account, and the plan the user asks to move to (issue 17): "A: I
can see you're on the Superfast 80 plan with us" kept nothing unless the user answered "yes", and "upgrade me to
Gigafast 900" was a request, no statement, so a later plan never replaced the one the account showed. The
sentences are my own."""

from __future__ import annotations

import pytest
from _extracting import keyed

from _memories import active_after, assert_replaced


def test_the_plan_the_agent_reads_out_is_the_users() -> None:
    got = keyed("A: Thanks for holding. I can see you're on the Superfast 80 plan with us, what seems to be the "
                "problem?", "the wifi keeps dropping every evening", prefix="fact.subscription")
    assert list(got.values()) == ["Superfast 80"]


def test_pronouns_read_off_the_profile_are_the_users() -> None:
    assert keyed("A: Welcome back! I see he/him on your profile, is that still right?", "yep",
                 prefix="profile.pronouns") == {"profile.pronouns": "he/him"}


@pytest.mark.parametrize("turns", [
    ("A: I can see you're on the Superfast 80 plan with us?", "no, that was cancelled last year"),
    ("A: Most customers on the Superfast 80 plan see dropouts at peak times.", "hmm ok"),
    ("A: I can see you're on hold, sorry about that.", "no worries"),
])
def test_a_denied_a_general_or_a_nameless_reading_is_nothing(turns: tuple[str, str]) -> None:
    assert keyed(*turns, prefix="fact.subscription") == {}


def test_the_plan_the_user_moves_to_replaces_the_one_read_out() -> None:
    read = ["A: I can see you're on the Superfast 80 plan with us, what seems to be the problem?",
            "the wifi keeps dropping every evening, three of us work from home"]
    assert "Superfast 80" in active_after(read)  # kept, though the user did not say "yes"
    values = active_after(["A: I can see you're on the Superfast 80 plan with us, what seems to be the problem?",
                           "the wifi keeps dropping every evening, three of us work from home"],
                          ["ok let's do it, upgrade me to Gigafast 900", "A: Done, the upgrade goes live on the 12th."])
    assert_replaced(values, "Gigafast 900", "Superfast 80")


def test_a_move_to_a_time_is_no_plan() -> None:
    assert keyed("can you move me to the 3pm slot on Friday", prefix="fact.subscription") == {}


def test_a_dose_or_an_amount_is_no_plan() -> None:
    assert keyed("GP put me up to 40mg last week", prefix="fact.subscription") == {}
