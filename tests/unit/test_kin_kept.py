"""Kin and friends keep their place (issue 17), in this file's own sentences.

- A change of something else that names the user's husband or sister ("the new Vodafone router is in, and Kofi says
  it's faster") or reads like what was said of them never takes their place.
- A break-up or a death still ends it.
- A provider told beside a person the rules read ("Our energy is with EDF, and ... my daughter Ama ...") is kept, so a
  new one replaces it.
- A plan made with a partner ("My boyfriend Idris and I are going to Seville") goes when they do.
- A remark that names the one value held without ending it ("vegetarian sausages are so much better now") is about
  it, no new value.
- An answer to "How old are the kids?" is theirs, no schooling of the user's.
- A car make after a word of place is a place ("the rescue in Lincoln"): a pet adopted there is no vehicle.
"""

from __future__ import annotations

from _memories import active_after, assert_replaced
from goodmemory._value_types import sorts_of


def test_a_change_of_something_else_that_names_the_husband_keeps_him() -> None:
    values = active_after("Our internet is with BT and it drops whenever my husband Kofi watches the football.",
                          "The engineer fitted our new Vodafone router this morning, and Kofi says the football "
                          "hasn't frozen once. What do I do with the old box?")
    assert "Kofi" in values, values


def test_a_break_up_still_ends_a_partner() -> None:
    values = active_after("My boyfriend Luis is a chef, any date ideas for his night off?",
                          "Luis and I split up last month, so no more date ideas needed.")
    assert "Luis" not in values, values


def test_a_make_after_a_word_of_place_is_a_place() -> None:
    assert "vehicle" not in sorts_of("we adopted a lurcher called Juno from the rescue centre in Lincoln")
    assert "vehicle" in sorts_of("I drive a Lincoln Navigator")


def test_a_provider_told_beside_a_person_the_rules_read_is_kept_and_replaced() -> None:
    values = active_after("Our energy is with EDF, and it costs a fortune whenever my daughter Ama runs the dryer.",
                          "The man came today to fit our new Octopus smart meter, and Ama says the app is brilliant.")
    assert "Ama" in values, values
    assert_replaced(values, "Octopus", "EDF")


def test_a_plan_made_with_a_partner_goes_when_they_do() -> None:
    values = active_after("My boyfriend Idris and I are going to Seville at Easter.",
                          "Idris and I broke up a fortnight ago.")
    assert not any("Idris" in v for v in values), values


def test_an_answer_about_the_kids_is_not_the_users_own_schooling() -> None:
    values = active_after(["A: How old are the kids, so I pitch the games right?",
                           "Noor is seven and in Year 2 at Elmfield Primary, and Sami is four and loves trains."],
                          kinds=["profile"])
    assert not any("Elmfield" in v for v in values), values


def test_a_remark_that_names_the_one_value_held_does_not_replace_it() -> None:
    values = active_after("I'm vegetarian, have been for years.", "vegetarian sausages are so much better now")
    assert "vegetarian" in values, values
