"""A provider of a sort held one at a time, named as the user's in a question, is theirs (issue 17): "why is my
Octopus bill so high this month?" kept no supplier, so a later switch replaced nothing. The sentences are my own."""

from __future__ import annotations

import pytest
from _extracting import keyed

from _memories import active_after, assert_replaced


@pytest.mark.parametrize(("turn", "key", "value"), [
    ("why is my Octopus bill so high this month?", "fact.provider.energy", "Octopus"),
    ("how do I get my Hyperoptic router to stop dropping?", "fact.provider.broadband", "Hyperoptic"),
    ("can I pause my PureGym membership over the summer?", "preference.fitness.gym", "PureGym"),
])
def test_a_provider_named_as_the_users_in_a_question_is_theirs(turn: str, key: str, value: str) -> None:
    assert keyed(turn, prefix=key.rsplit(".", 1)[0]).get(key) == value


@pytest.mark.parametrize("turn", ["Is Octopus cheaper than EDF?", "my sister says Octopus is cheaper, is it?",
                                  "how do I cancel my Netflix?"])
def test_a_provider_not_named_as_the_users_or_of_another_sort_is_none(turn: str) -> None:
    assert keyed(turn, prefix="fact.provider") == {}


def test_a_switch_replaces_the_provider_asked_about() -> None:
    values = active_after("why is my Octopus bill so high this month?",
                          "We switched to EDF last week, how do I send them a meter reading?")
    assert_replaced(values, "EDF", "Octopus")
