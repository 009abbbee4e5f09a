"""A diet and a shift are sorts of value (issue 17), in my own sentences: "went fully vegan" did not replace an
earlier vegetarian note, "I'm a paramedic in Cork working night shifts" kept only the job, a later "moved onto day
shifts" stayed beside the nights, and "Are you still on nights, or has your rota changed?" was read as a question
about another person."""

from __future__ import annotations

import pytest
from _extracting import extract

from _memories import active_after, assert_replaced
from goodmemory._value_types import asked_of_another, change_frame, sorts_of


@pytest.mark.parametrize(("text", "sort"), [
    ("I'm vegetarian, have been for years", "diet"),
    ("trying keto this month", "diet"),
    ("I'm on nights this week", "shift"),
    ("I moved onto day shifts in March", "shift"),
    ("back on earlies from Monday", "shift"),
])
def test_a_diet_and_a_shift_are_sorts(text: str, sort: str) -> None:
    assert sort in sorts_of(text)


def test_going_vegan_frames_a_change_of_diet() -> None:
    assert "diet" in change_frame("went fully vegan after that documentary")


def test_what_the_user_is_doing_after_what_they_are_is_kept() -> None:
    values = [c.value for c in extract("I'm a paramedic in Cork working night shifts, four on four off.")]
    assert any("working night shifts" in v for v in values), values


@pytest.mark.parametrize(("question", "another"), [
    ("Are you still on nights, or has your rota changed?", False),
    ("Has your schedule changed since we last spoke?", False),
    ("Which team does your sister lead?", True),
    ("Has your husband started the new job yet?", True),
])
def test_a_question_of_the_users_own_is_not_about_another(question: str, another: bool) -> None:
    assert asked_of_another(question) is another


def test_day_shifts_replace_night_shifts() -> None:
    values = active_after(
        "I'm a paramedic in Cork working night shifts, four on four off. How do I sleep in the day?",
        ["Could you plan my meals for the week?", "A: Of course. Are you still on night shifts, or has your rota changed?",
         "It's changed, I moved onto day shifts in March, 7am to 7pm, so mostly breakfasts and lunches please."])
    assert_replaced(values, "day shifts", "night shifts")


def test_vegan_replaces_vegetarian() -> None:
    values = active_after("I'm vegetarian, can you suggest a lentil dish for six?",
                          "went fully vegan after that documentary, even cut out cheese. where do I get b12?")
    assert any("vegan" in v for v in values), values
    assert not any("vegetarian" in v.lower() for v in values), values
