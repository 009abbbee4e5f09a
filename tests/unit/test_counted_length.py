"""A limit on the answers counted in lines, sentences or words is how long the user wants them (issue 17): "Keep your
replies to two or three sentences" was kept as a note of its own, which a later "detailed explanations" never replaced."""

from __future__ import annotations

import pytest
from _extracting import extract


def _length(text: str) -> list[str]:
    return [c.value for c in extract(text) if c.key == "preference.communication.length"]


@pytest.mark.parametrize("text", [
    "Keep your replies to two or three sentences, I read on my phone.",
    "Limit answers to a few lines please.",
    "Keep it under 80 words if you can.",
    "Four sentences max please, I'm between meetings all day.",
])
def test_a_counted_limit_is_a_length(text: str) -> None:
    assert _length(text) == ["concise answers"]


@pytest.mark.parametrize("text", ["I keep my notes to two pages.", "The essay is limited to 2000 words."])
def test_a_count_of_something_else_is_not(text: str) -> None:
    assert _length(text) == []
