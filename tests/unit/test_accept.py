"""Which replies accept a value of the assistant's suggestion, and what they bind (this file's own sentences)."""

from __future__ import annotations

import pytest

from goodmemory.extraction._accept import accepted

OFFER = "The tyres are at 1.9 bar. Pumping the front tyres to 2.4 bar will fix the pull to the left."


@pytest.mark.parametrize(("suggestion", "reply", "want"), [
    (OFFER, "ok do it, pump them to 2.4", "2.4 bar"),
    (OFFER, "fine, set it to 2.4 then", "set the front tyres to 2.4"),
    ("We can meet at 10:30 or at 14:00 on Thursday.", "yes, the 14:00 one", "14:00"),
    ("I found a green kettle for 35 and a steel one for 49.", "sounds good, go with the green one", "green kettle"),
    ("Shall I move your dentist reminder to 17:15?", "yes please", "dentist reminder to 17:15"),
])
def test_an_acceptance_binds_the_offered_value(suggestion: str, reply: str, want: str) -> None:
    got = accepted(suggestion, reply)
    assert got is not None and want in got, got


def test_the_assistant_speaks_as_itself_in_what_is_bound() -> None:
    got = accepted("I found a green kettle for 35 and a steel one for 49.", "great, take the green one")
    assert got is not None and "the assistant found" in got and " I found" not in got


@pytest.mark.parametrize(("suggestion", "reply"), [
    (OFFER, "ok thanks"),
    (OFFER, "thanks!"),
    (OFFER, "no, keep it at 1.9"),
    (OFFER, "ok set it to 2.6"),  # a value the assistant never offered
    (OFFER, "ok but why 2.4?"),
    ("Nice weather for a drive today.", "sure"),
    ("The tyres look fine to me.", "yes please"),  # no offer with a value
    ("There are three cycling trails near the lake.", "sure, tell me more about the trails"),  # a request, no choice
    ("Pumping the front tyres to 2.4 bar will fix it.", "ok I'll ask the garage about 2.4"),  # the user's own plan
    ("Cheapest fare: out Tue 7 May, back Sat 11 May.", "Booked, code LX7QZM."),  # news, no acceptance
    ("Sunday looks dry, Saturday rainy.", "ok get me the forecast for Sunday then"),  # a request for more
    ("Two rest days, then a 10 km easy run on Sunday.", "ok. the move wrecked my legs, I've only run once in 2 weeks"),
])
def test_no_acceptance_or_nothing_offered_binds_nothing(suggestion: str, reply: str) -> None:
    assert accepted(suggestion, reply) is None


# "X it is" chooses X as much as "go with X" (issue 17, w58): a name the assistant gave a plan, a slot it offered
@pytest.mark.parametrize(("suggestion", "reply", "want"), [
    ("I'll file these notes under 'Operation Larch' so we can find them later.", "Great, Operation Larch it is.",
     "Operation Larch"),
    ("We could meet on Tuesday at 9 or Thursday at 4.", "Thursday it is then", "Thursday at 4"),
])
def test_x_it_is_binds_the_offered_value(suggestion: str, reply: str, want: str) -> None:
    got = accepted(suggestion, reply)
    assert got is not None and want in got, got


def test_x_it_is_naming_nothing_offered_binds_nothing() -> None:
    assert accepted("We could meet on Tuesday at 9 or Thursday at 4.", "Friday it is then") is None


def test_a_yes_to_an_offer_ending_on_a_tag_question() -> None:
    """"We can move you to the 21st at 9am, does that work?" "yes that's fine": the offer is "we can ...", its tag
    ("does that work") is no part of it, and "that's fine" accepts (issue 17: the moved appointment was never kept)."""
    assert accepted("We can move you to the 21st at 9am, does that work?", "yes that's fine") == \
        "Agreed to move me to the 21st at 9am"
    assert accepted("We could see you on Friday at 10, is that ok?", "that's perfect") == \
        "Agreed to see me on Friday at 10"
    assert accepted("We can look into it, does that work?", "that's fine") is None  # no value offered
