"""A diet named by what it is, beyond the known ones (issue 17, w58): "I strictly follow a low-FODMAP diet",
"I'm on a Mediterranean diet" are the user's diet as much as "I'm vegan"; a diet someone else wants for the
user, a denied one or one that names nothing ("I'm on a strict diet") is none."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _extracting import extract

AT = datetime(2025, 3, 12, 10, tzinfo=UTC)


def _diet(text: str) -> list[str]:
    return [c.value for c in extract(text, at=AT) if c.key == "preference.diet.type"]


@pytest.mark.parametrize(("text", "value"), [
    ("I strictly follow a low-FODMAP diet.", "low-fodmap"),
    ("I'm on a Mediterranean diet since the heart scare.", "mediterranean"),
    ("I stick to a low-carb diet during the week.", "low-carb"),
    ("I avoid sugar and I follow a renal diet.", "renal"),
])
def test_a_diet_named_by_what_it_is_is_the_users_diet(text: str, value: str) -> None:
    assert _diet(text) == [value]


@pytest.mark.parametrize("text", [
    "My doctor wants me to follow a low-salt diet.",
    "I don't follow a keto diet.",
    "I'm on a strict diet.",
    "My brother is on a carnivore diet.",
])
def test_a_wished_denied_unnamed_or_others_diet_is_none(text: str) -> None:
    assert _diet(text) == []
