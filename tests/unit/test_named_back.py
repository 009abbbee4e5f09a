"""A change told of "it"/"that" right after the assistant named one of the user's values is that value's change
(``_named_back``); without a pronoun, without a value of its own, or of someone else, it is not. This file's own
sentences (issue 17, w69). The two replacing tests fail before w69: the answer was a note of its own and the
old car / appointment stayed current."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from _memories import active_after, assert_replaced, current_and_replaced
from goodmemory import GoodMemory

T0 = datetime(2025, 5, 20, 9, 0, tzinfo=UTC)  # the frozen_mem clock (tests/conftest.py)


def _live(mem: GoodMemory, first: str, assistant: str, answer: str) -> tuple[str, str]:
    mem.clock.set(T0)  # type: ignore[attr-defined]
    mem.remember([{"role": "user", "content": first}], user_id="u", session_id="s0", at=T0)
    later = T0 + timedelta(days=30)
    mem.clock.set(later)  # type: ignore[attr-defined]
    mem.remember([{"role": "assistant", "content": assistant}, {"role": "user", "content": answer}],
                 user_id="u", session_id="s1", at=later)
    return current_and_replaced(mem, "u")


@pytest.mark.parametrize(("first", "assistant", "answer", "old", "new"), [
    ("I drive a blue Fiesta ST.", "Is the Fiesta due its service soon?",
     "Sold it in the spring, it's a Skoda Fabia now.", "Fiesta", "Fabia"),
    ("My dental check-up is on Monday 9th June at 2pm.", "Hope the dental check-up on Monday goes well!",
     "They moved it, it's Wednesday 11th June at 9am now.", "2025-06-09", "Wednesday"),
])
def test_a_change_pointing_back_at_the_named_value_replaces_it(frozen_mem: GoodMemory, first: str, assistant: str,
                                                               answer: str, old: str, new: str) -> None:
    active, gone = _live(frozen_mem, first, assistant, answer)
    assert new in active and old not in active, active
    assert old in gone


@pytest.mark.parametrize(("first", "assistant", "answer", "kept"), [
    # no value of its own: a feeling about the value, not a new one
    ("I live in Harrowgate.", "Still enjoying Harrowgate?", "Not any more, it's far too noisy now.", "Harrowgate"),
    # someone else's change
    ("I drive a blue Fiesta ST.", "Is the Fiesta due its service soon?",
     "My brother sold his, it's a Skoda Fabia now, mine's fine.", "Fiesta"),
    # an addition
    ("I have a cat called Miso.", "How is Miso doing?", "Great, and we also got a puppy, Biscuit, to keep it company.",
     "Miso"),
])
def test_without_a_value_of_its_own_or_of_another_it_replaces_nothing(frozen_mem: GoodMemory, first: str,
                                                                       assistant: str, answer: str, kept: str) -> None:
    active, _ = _live(frozen_mem, first, assistant, answer)
    assert kept in active, active


def test_the_assistant_names_the_value_in_the_possessive() -> None:
    """"... Dr. Hughes's surgery?": the possessive names Dr. Hughes as much as the bare name does."""
    values = active_after("My dentist, Dr. Hughes, says I need a filling on a back tooth.",
                          ["Can you help me write a complaint about a filling that keeps falling out?",
                           "A: Sure. Who should it be addressed to, Dr. Hughes's practice?",
                           "Yes, to them, but only to ask for my records. I've already moved to the Smile Studio near "
                           "the station and they're redoing it."])
    assert_replaced(values, "Smile Studio", "Dr. Hughes")
