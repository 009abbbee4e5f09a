"""How the user wants to be answered, told to the assistant as an imperative of manner (issue 17/18): such a sentence
is about the answer style whatever else it reads like, and an errand or a request for content is not."""

from __future__ import annotations

import pytest

from goodmemory._value_types import answer_style, shaped_family


@pytest.mark.parametrize("text", [
    "Please go light on the acronyms when you walk me through anything, I came from nursing.",
    "Keep things brief and friendly, I'm usually typing on the bus.",
    "Structure your replies as a short list, I lose track in long blocks of text.",
    "Don't pad things out with pleasantries, just get to it.",
    "Be blunt with me, I can take it.",
    "Always cite where a number comes from, I forward these to my board.",
    "Use plain words please, English is my third language.",
    "Stop adding safety warnings for me, I'm a qualified electrician.",
])
def test_an_imperative_of_manner_is_an_answer_style(text: str) -> None:
    assert answer_style(text)
    assert shaped_family(text) == "communication"


@pytest.mark.parametrize("text", [
    "Keep the spare key under the flowerpot.",
    "Tell me about the history of Seville.",
    "Stop by the bakery for me on the way home.",
    "Don't forget the oat milk.",
    "Call me Jojo, everyone does.",
    "Everyone at the club calls me Theo and I'd rather you used that too.",
    "I keep my tools in the shed.",
    "Be there by six, the table is booked.",
    # cheering a friend on tells nobody how to answer (talk between friends is full of it)
    "Keep it up, you're nearly there!",
    "Don't worry about the exam, you'll smash it.",
    "Keep me posted on the house move!",
])
def test_an_errand_a_request_or_a_name_is_not(text: str) -> None:
    assert not answer_style(text)
    assert shaped_family(text) != "communication"
