"""A diet that limits one nutrient or ingredient ("a low-salt diet", "dairy-free") is kept beside the user's diet, not
in its place: a pescatarian who later follows a low-sugar diet is both (issue 17; the one diet slot had replaced
the first). A new diet still replaces the old one. This file's own sentences."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from _extracting import extract

from goodmemory import create_good_memory
from goodmemory.testing import FrozenClock

T0 = datetime(2025, 1, 15, 9, tzinfo=UTC)


@pytest.mark.parametrize(("text", "key", "value"), [
    ("My cardiologist put me on a low-salt diet, so I'm on a low-salt diet now.", "preference.diet.avoid.salt",
     "low-salt"),
    ("I follow a dairy-free diet since the eczema flare.", "preference.diet.avoid.dairy", "dairy-free"),
    ("I stick to a low-carb diet on weekdays.", "preference.diet.type", "low-carb"),
])
def test_where_a_diet_goes(text: str, key: str, value: str) -> None:
    assert (key, value) in [(c.key, c.value) for c in extract(text)]


def _diets(first: str, second: str) -> list[str]:
    mem = create_good_memory("sqlite://", clock=FrozenClock(T0 + timedelta(days=200)))
    mem.remember([{"role": "user", "content": first}], user_id="u", at=T0)
    mem.remember([{"role": "user", "content": second}], user_id="u", at=T0 + timedelta(days=100))
    out = [r.value for r in mem.list(user_id="u", kinds=["preference"]) if r.key.startswith("preference.diet")]
    mem.close()
    return out


def test_a_limit_is_kept_beside_the_diet() -> None:
    assert set(_diets("I'm pescatarian, fish is fine but no meat.", "I follow a dairy-free diet these days.")) >= \
        {"pescatarian", "dairy-free"}


def test_a_new_diet_still_replaces_the_old_one() -> None:
    diets = _diets("I'm vegetarian.", "I'm vegan now.")
    assert "vegan" in diets and "vegetarian" not in diets, diets
