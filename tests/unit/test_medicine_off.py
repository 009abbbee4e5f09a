"""A medicine the user came off (issue 17), in this file's own sentences.

A new medicine told beside the one it replaces ("the GP took me off it, I'm on X now", "switched me from X") takes
its place: of the one medicine the user takes when the sentence says "it", of the one it names otherwise. A second
medicine told with no word of coming off is one more.
"""

from __future__ import annotations

from _memories import active_after, assert_holds, assert_replaced


def test_taken_off_it_and_on_another_replaces_the_one_medicine() -> None:
    values = active_after(["A: Are you on any regular medication?", "Only ramipril 5mg in the mornings."],
                          ["A: Anything new with your tablets?",
                           "Yes, the GP took me off it because of the cough, and I'm on candesartan 8mg now."])
    assert_replaced(values, "candesartan", "ramipril")


def test_switched_from_a_named_one_replaces_that_one_only() -> None:
    values = active_after("I take sertraline 50mg every morning. I am also on atorvastatin 20mg at night.",
                          "My doctor switched me from sertraline, I'm on citalopram 20mg now.")
    assert_replaced(values, "citalopram", "sertraline")
    assert_holds(values, "atorvastatin")


def test_a_second_medicine_with_no_coming_off_is_one_more() -> None:
    assert_holds(active_after("I'm on levothyroxine 50mcg.", "I've just started taking metformin 500mg as well."),
                 "levothyroxine", "metformin")
