"""Chat's own forms no longer hide what the user tells (issue 17): apostrophes left out ("im paying"), an emoji where a
stop would be, a stop after capitals ("5GB. is that ok?"), "no." before a code, and news followed in the same
sentence by its request ("..., give me three ideas?"). Each used to drop the sentence, or the whole turn as a question.
This file's own sentences."""

from __future__ import annotations

import pytest
from _extracting import assert_kept
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


@pytest.mark.parametrize(("text", "kept"), [
    ("my broadband deal ends in march, im paying £41 a month for 500Mb. is that steep?", "£41"),
    ("Our running club meets at Pollok Park on Sundays, give me a few warm-up ideas?", "Pollok Park"),
    ("Started a pottery course on Tuesdays too 🏺 any tips for centring clay?", "pottery"),
    ("Switched to Halden in the end, £212, policy no. HA-440192. Do I cancel the old one?", "HA-440192"),
])
def test_the_news_in_a_chat_turn_is_kept(text: str, kept: str) -> None:
    assert_kept(text, kept)


@pytest.mark.parametrize("text", ["What should I cook tonight, give me a few ideas?",
                                  "Is it ok to run every day, should I rest?"])
def test_a_question_then_its_request_keeps_nothing(text: str) -> None:
    assert _values(text) == []


@pytest.mark.parametrize(("text", "kept"), [
    ("the gym put the fee up to £52 from June, we're on a contract, is that even legal?", "£52"),
    ("Moved to Harrogate last month, do I need to re-register with a GP?", "Harrogate"),
])
def test_the_news_before_a_question_of_its_own(text: str, kept: str) -> None:
    assert_kept(text, kept)


@pytest.mark.parametrize(("text", "key", "value"), [
    ("ok so could you call me Mags from now on?", "profile.preferred_name", "Mags"),
    ("the numbered lists are a bit much, can you just give me short plain paragraphs from now on?",
     "preference.communication.format", "prose paragraphs"),
])
def test_a_standing_request_after_a_lead_or_a_clause(text: str, key: str, value: str) -> None:
    assert (key, value) in _read(text)


def test_a_request_after_news_keeps_the_news() -> None:
    assert "I moved house" in _values("I moved house, can you update my address going forward?")
