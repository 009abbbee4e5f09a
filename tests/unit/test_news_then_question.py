"""News told before a dash and the question it leads to ("Started a Thursday pottery class - any tips?") keeps the
news (issue 17): the whole turn ended with "?" and was read as a question, so the new value was never kept."""

from __future__ import annotations

import pytest
from _extracting import assert_kept
from _extracting import values as _values


@pytest.mark.parametrize(("text", "word"), [
    ("I've also signed up to help at the animal shelter on Sundays — what should I wear?", "animal shelter"),
    ("Started a Thursday pottery class - any tips for a beginner?", "pottery"),
    ("We adopted a second greyhound last week – how do I introduce them?", "greyhound"),
])
def test_the_news_before_the_question_is_kept(text: str, word: str) -> None:
    assert_kept(text, word)


@pytest.mark.parametrize("text", ["What should I wear to a wedding - is a suit too much?",
                                  "Is it worth it - how long does the course take?"])
def test_a_question_on_both_sides_keeps_nothing(text: str) -> None:
    assert _values(text) == []


@pytest.mark.parametrize(("text", "word"), [
    ("I'm with Vodafone on a two year contract, what's a decent case for the Pixel?", "Vodafone"),
    ("we just got a rescue whippet called Olive, whats the best harness for a skinny dog?", "Olive"),
    ("My broadband is with Plusnet now, which router settings should I change?", "Plusnet"),
    ("I teach year 5 at a primary in Leeds, how is the new phonics scheme different?", "year 5"),
])
def test_the_news_before_a_wh_question_after_a_comma_is_kept(text: str, word: str) -> None:
    assert_kept(text, word)


@pytest.mark.parametrize("text", ["Not sure about this one, what's the capital of Peru?",
                                  "Quick question, how do magnets work?"])
def test_no_news_before_a_wh_question_keeps_nothing(text: str) -> None:
    assert _values(text) == []


@pytest.mark.parametrize(("text", "word"), [
    ("living in Norwich, any decent bakeries near the market?", "Norwich"),
    ("been on lisinopril 10mg since march, is grapefruit ok with it?", "lisinopril"),
    ("working nights at the Royal Infirmary, any good ways to fix my sleep?", "Royal Infirmary"),
    ("based in Cardiff now, where's good for a Sunday roast?", "Cardiff"),
])
def test_news_said_without_i_before_its_question_is_kept(text: str, word: str) -> None:
    # chat drops the "I'm" of "I'm living in ..." as it drops the "my" of "new number ..."
    assert_kept(text, word)


@pytest.mark.parametrize(("text", "word"), [
    ("Priya goes to Sunflower nursery on thursdays and fridays, can you help me plan easy lunches for those days, "
     "she's fussy", "Sunflower"),
    ("we got a new puppy called Bramble, could you suggest some names for her toys, something silly", "Bramble"),
])
def test_news_before_a_request_with_commas_and_no_question_mark_is_kept(text: str, word: str) -> None:
    assert_kept(text, word)


@pytest.mark.parametrize(("text", "word"), [
    ("can you help me plan easy lunches, we've moved to Didsbury since the spring", "Didsbury"),
    ("could you draft a note to the school, Ellie's at Brookfield Primary now", "Brookfield Primary"),
])
def test_news_after_a_request_and_a_comma_is_kept(text: str, word: str) -> None:
    assert_kept(text, word)
