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

import pytest

from _memories import active_after, assert_gone, assert_holds
from goodmemory._value_types import sorts_of

Sessions = tuple[str | list[str], ...]


@pytest.mark.parametrize(("sessions", "kinds", "held", "gone"), [
    pytest.param(("Our internet is with BT and it drops whenever my husband Kofi watches the football.",
                  "The engineer fitted our new Vodafone router this morning, and Kofi says the football hasn't frozen "
                  "once. What do I do with the old box?"), None, ("Kofi",), (), id="husband-named-beside-a-change"),
    pytest.param(("My boyfriend Luis is a chef, any date ideas for his night off?",
                  "Luis and I split up last month, so no more date ideas needed."), None, (), ("Luis",),
                 id="a-break-up-ends-a-partner"),
    pytest.param(("Our energy is with EDF, and it costs a fortune whenever my daughter Ama runs the dryer.",
                  "The man came today to fit our new Octopus smart meter, and Ama says the app is brilliant."),
                 None, ("Ama", "Octopus"), ("EDF",), id="provider-beside-a-person-the-rules-read"),
    pytest.param(("My boyfriend Idris and I are going to Seville at Easter.", "Idris and I broke up a fortnight ago."),
                 None, (), ("Idris",), id="a-plan-with-a-partner-goes-with-them"),
    pytest.param((["A: How old are the kids, so I pitch the games right?",
                   "Noor is seven and in Year 2 at Elmfield Primary, and Sami is four and loves trains."],),
                 ["profile"], (), ("Elmfield",), id="the-kids-schooling-is-theirs"),
])
def test_who_and_what_keeps_its_place(sessions: Sessions, kinds: list[str] | None, held: tuple[str, ...],
                                      gone: tuple[str, ...]) -> None:
    values = active_after(*sessions, kinds=kinds)
    assert_holds(values, *held)
    assert_gone(values, *gone)


def test_a_make_after_a_word_of_place_is_a_place() -> None:
    assert "vehicle" not in sorts_of("we adopted a lurcher called Juno from the rescue centre in Lincoln")
    assert "vehicle" in sorts_of("I drive a Lincoln Navigator")


def test_a_remark_that_names_the_one_value_held_does_not_replace_it() -> None:
    # the diet itself, word for word (the remark is kept beside it as a note of its own)
    assert "vegetarian" in active_after("I'm vegetarian, have been for years.",
                                        "vegetarian sausages are so much better now")
