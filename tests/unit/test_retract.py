"""Which sentences take back which memory (this file's own sentences)."""

from __future__ import annotations

import pytest

from goodmemory.extraction._retract import retractions

EXISTING = {
    "task.repaint_the_garden_shed": "open",
    "fact.note.weekend_cabin.1a2b3c": "We rent a weekend cabin near Lake Bled every August",
    "profile.employer": "Kestrel Logistics",
}


@pytest.mark.parametrize(("text", "key"), [
    ("Actually forget the garden shed, that's no longer happening.", "task.repaint_the_garden_shed"),
    ("Scratch the weekend cabin idea.", "fact.note.weekend_cabin.1a2b3c"),
    ("ok, and drop the cabin thing too", "fact.note.weekend_cabin.1a2b3c"),
    ("Oh wait, disregard the Kestrel Logistics part, it's not true.", "profile.employer"),
])
def test_a_retraction_names_the_memory_it_ends(text: str, key: str) -> None:
    assert [k for k, _ in retractions(text, EXISTING)] == [key]


@pytest.mark.parametrize("text", [
    "Forget it, never mind.",  # names nothing
    "Forget the whole thing.",  # names nothing
    "Don't forget the garden shed.",  # a reminder, not a retraction
    "I always forget the cabin code.",  # not an imperative
    "Forget the weather, how are you?",  # names nothing the user told
    "Keep it short and drop the garden shed paragraph from the newsletter.",  # an edit of a draft
])
def test_no_retraction_of_a_memory_without_a_named_one(text: str) -> None:
    assert [k for k, _ in retractions(text, EXISTING) if k is not None] == []
