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


@pytest.mark.parametrize(("before", "after", "new", "old"), [
    ("My Virgin Media wifi keeps cutting out when I stream, speeds drop to 2Mbps. any fixes?",
     ["the speed drops are back 😤 what router settings should I check?",
      "A: Are you still with Virgin Media, or did you switch when the contract ended?",
      "nah switched to Hyperoptic in october, using their router"],
     "Hyperoptic", "Virgin Media"),
    ("My Virgin Media wifi keeps cutting out when I stream, the dropouts are awful. any fixes?",
     ["dropouts are back 😤 what router settings should I check?",
      "A: Are you still with Virgin Media, or did you switch when the contract ended?",
      "nah switched to Hyperoptic in october, way better but the dropouts came back this week. using their router"],
     "Hyperoptic", "Virgin Media"),
    ("I do my banking with Lloyds, the app is fine.",
     ["My card got declined twice today at the Tesco on Mill Road 😤 why would that happen?",
      "A: Is that your Lloyds card?",
      "no, we moved everything to Starling in the summer"],
     "Starling", "Lloyds"),
])
def test_a_no_to_the_assistants_question_denies_the_question_not_the_turn_before(
        before: str, after: list[str], new: str, old: str) -> None:
    # the "no" answers what the assistant asked; it does not correct what the user said a turn earlier
    assert_replaced(active_after(before, after), new, old)
