"""How long the answers should be (issue 17), in this file's own sentences.

- A request of a way of answering said with "please" and no "I" ("Keep your responses to a paragraph or less please") is kept;
  answers named as a noun with a manner ("Detailed explanations with the working, from now on") are a way of
  answering too.
- The length of the answers is one attribute: the newer length replaces the older, whatever words each uses.
- A thing asked for ("Write me a thank-you card for my neighbour") is one answer, no way of answering.
"""

from __future__ import annotations

import pytest

from _memories import active_after, assert_holds, assert_replaced
from goodmemory._value_types import answer_style


@pytest.mark.parametrize(("text", "style"), [
    ("Thorough explanations with the working, from now on", True),
    ("Quick replies only, I read on my phone", True),
    ("Write me a thank-you card for my neighbour", False),
    ("Write me up a packing list for Crete", False),
    ("Exam answers with working are due Friday", False),
    ("No more than three or four sentences", True),
    ("No more than three cups of coffee a day", False),
])
def test_a_way_of_answering_named_as_a_noun_or_asked_for(text: str, style: bool) -> None:
    assert answer_style(text) is style


def test_a_request_of_length_with_please_is_kept() -> None:
    assert_holds(active_after("keep your responses to a paragraph or less please"), "a paragraph or less")


def test_the_newer_length_of_the_answers_replaces_the_older() -> None:
    values = active_after("Keep your replies to two lines please, I'm always on my phone.",
                          "change of plan: in-depth answers w/ all the reasoning, I'm revising for finals")
    assert_replaced(values, "in-depth", "two lines")


def test_a_limit_said_beside_a_length_the_rules_read_is_no_note_of_its_own() -> None:
    values = active_after("Please keep your answers brief, no more than three or four sentences. My eyes tire quickly.",
                          kinds=["fact", "preference"])
    assert not any(v.lower().startswith("no more than") for v in values), values


def test_a_thing_asked_for_is_no_way_of_answering() -> None:
    assert active_after("Write me a thank-you card for my neighbour, she watered my plants.",
                        kinds=["preference"]) == []
