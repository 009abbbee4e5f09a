"""What a clause says of a relative it names is kept, not only who they are (issue 17): "my son Leo plays football
for the Hanwell Tigers every Saturday morning" kept Leo and lost the football, so a later question about match-day
food had nothing to go on. The sentences are my own."""

from __future__ import annotations

import pytest

from _memories import active_after


@pytest.mark.parametrize(("turn", "said"), [
    ("my son Leo plays football for the Hanwell Tigers every Saturday morning, what should he eat before a match?",
     "Hanwell Tigers"),
    ("My wife Anna works nights at the Royal Infirmary so I do the school runs.", "Royal Infirmary"),
])
def test_what_the_clause_says_of_the_relative_is_kept(turn: str, said: str) -> None:
    values = active_after(turn)
    assert any(said in v for v in values), values
    assert any(v in ("Leo", "Anna") for v in values)  # and who they are


def test_a_relative_only_named_keeps_no_more() -> None:
    assert active_after("My sister Ines is visiting.") == ["Ines"]
