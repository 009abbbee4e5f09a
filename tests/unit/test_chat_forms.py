"""Chat's own forms no longer hide what the user tells (issue 17): apostrophes left out ("im paying") are written out,
and an emoji, a stop after capitals ("5GB. is that ok?") or "!!" end a sentence while "no." before a code does not.
That the news in such turns is then kept is in test_news_then_question's one table. This file's own sentences."""

from __future__ import annotations

import pytest
from _extracting import read as _read
from _extracting import values as _values

from goodmemory.extraction._sentence_patterns import LOWER_SENTENCE_SPLIT, SENTENCE_SPLIT, written


@pytest.mark.parametrize(("text", "out"), [
    ("im on the 7am shift, ive no choice", "I'm on the 7am shift, I've no choice"),
    ("Im done. whats next? dont know", "I'm done. what's next? don't know"),
    ("I feel ill, its well past time, id card", "I feel ill, its well past time, id card"),  # words of their own
])
def test_written(text: str, out: str) -> None:
    assert written(text) == out


def _sentences(text: str) -> list[str]:
    return [p.strip() for part in SENTENCE_SPLIT.split(text) for p in LOWER_SENTENCE_SPLIT.split(part) if p.strip()]


@pytest.mark.parametrize(("text", "n"), [
    ("Renewed with Halden, policy no. HA-440192. Do I cancel the old one?", 2),
    ("finally got the keys 🔑 the new flat is on Corran Street", 2),
    ("My plan gives me 12GB. is that enough for maps?", 2),
    ("I moved to the U.S. last spring.", 1),
])
def test_where_chat_ends_a_sentence(text: str, n: int) -> None:
    assert len(_sentences(text)) == n, _sentences(text)


@pytest.mark.parametrize(("text", "key", "value"), [
    ("ok so could you call me Mags from now on?", "profile.preferred_name", "Mags"),
    ("the numbered lists are a bit much, can you just give me short plain paragraphs from now on?",
     "preference.communication.format", "prose paragraphs"),
])
def test_a_standing_request_after_a_lead_or_a_clause(text: str, key: str, value: str) -> None:
    assert (key, value) in _read(text)


def test_a_request_after_news_keeps_the_news() -> None:
    assert "I moved house" in _values("I moved house, can you update my address going forward?")
