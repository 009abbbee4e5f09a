"""A way of answering the user turns away from is no preference for it (issue 17, w58): "paragraphs rather than
bullet points", "please don't use bullet points", "the bullet lists get messy" name bullet points only to refuse
them; the value the user asks for beside it is the preference ("fuller explanations in paragraphs")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _extracting import extract

AT = datetime(2025, 3, 12, 10, tzinfo=UTC)


def _style(text: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for c in extract(text, at=AT):
        if c.key.startswith("preference.communication."):
            out.setdefault(c.key.rsplit(".", 1)[-1], set()).add(c.value)
    return out


@pytest.mark.parametrize(("text", "want"), [
    ("Please write it up in full paragraphs rather than bullet points.", {"format": {"prose paragraphs"}}),
    ("I'd like it in paragraphs instead of bullets.", {"format": {"prose paragraphs"}}),
    ("Please don't use bullet points, I print these out.", {}),
    ("Please use tables, the bullet lists get messy on my screen.", {"format": {"tables"}}),
    ("Please give longer explanations in paragraphs from now on, the bullets lose the reasoning.",
     {"length": {"detailed explanations"}, "format": {"prose paragraphs"}}),
])
def test_a_style_turned_away_from_is_no_preference(text: str, want: dict[str, set[str]]) -> None:
    assert _style(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Please use bullet points, I skim on my phone.", {"format": {"bullet points"}}),
    ("Please use bullet points, they are the easiest to skim.", {"format": {"bullet points"}}),
    ("Keep your answers brief and use tables for numbers.", {"length": {"concise answers"}, "format": {"tables"}}),
])
def test_a_style_asked_for_stays(text: str, want: dict[str, set[str]]) -> None:
    assert _style(text) == want
