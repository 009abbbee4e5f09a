"""A standing instruction to the assistant ("Never suggest X", "Always remind me ...") is a verb of serving the user or
names the user; talk that merely starts with "always"/"never" ("Always up for a good curry!", "Never been much of a
dancer") is none (issue 17: such sentences became "User asks the assistant to always up for a good curry.")."""

from __future__ import annotations

import pytest
from _extracting import extract


def _instructions(text: str) -> list[str]:
    return [c.value for c in extract(text) if c.key.startswith("preference.instruction.")]


@pytest.mark.parametrize(("text", "word"), [
    ("Never suggest hikes longer than ten kilometres.", "hikes"),
    ("Always remind me a day before any deadline.", "remind"),
    ("Please never book me on red-eye flights.", "red-eye"),
])
def test_an_instruction_to_the_assistant_is_kept(text: str, word: str) -> None:
    got = _instructions(text)
    assert len(got) == 1 and word in got[0]


@pytest.mark.parametrize("text", [
    "Always up for a good curry!",
    "Never been much of a dancer.",
    "Always great catching up with you.",
    "Never give up, you've got this.",
    "Always a pleasure to see the kids.",
])
def test_talk_that_starts_with_always_or_never_is_no_instruction(text: str) -> None:
    assert _instructions(text) == []
