"""An answer to the assistant's question followed by a new request keeps the answer (issue 17): "nope, I drive in
these days since the car got fixed. can you suggest a podcast for the drive" was read whole, and the request ("can
you ...") made the whole reply no statement, so the old commute stayed current. The sentences are my own."""

from __future__ import annotations

import pytest

from _memories import active_after, assert_replaced


@pytest.mark.parametrize(("before", "after", "new", "old"), [
    ("I get the 7:15 train from Didcot to work every morning, it's always late.",
     ["A: Morning! Still getting the 7:15 from Didcot?",
      "nope, I drive in these days since the car got fixed. can you suggest a good podcast for the drive"],
     "drive", "7:15"),
    ("My email is dana.w@fastmail.com, use it for the newsletter.",
     ["A: Shall I send it to dana.w@fastmail.com as usual?",
      "no, it's dana.wells@proton.me now. could you also make the font bigger"],
     "dana.wells@proton.me", "dana.w@fastmail.com"),
    ("We bank with Lloyds, the joint account is there.",
     ["A: Is the joint account still with Lloyds?",
      "Not any more, we moved it to Nationwide in March. What's the easiest way to set up a standing order?"],
     "Nationwide", "Lloyds"),
])
def test_the_answer_before_a_new_request_is_kept(before: str, after: list[str], new: str, old: str) -> None:
    assert_replaced(active_after(before, after), new, old)


def test_a_reply_that_only_asks_keeps_nothing() -> None:
    values = active_after(["A: Which city are you in?", "can you just give me the general advice please"])
    assert values == []
