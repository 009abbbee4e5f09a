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
