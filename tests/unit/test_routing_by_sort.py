"""A statement read nearest a family its value cannot be is filed where its value's sort says (issue 17), in my own
sentences: "picked up a second-hand Toyota Yaris hybrid" had been a pet, and "it's all Korean now, hangul done" a
programming language."""

from __future__ import annotations

from _memories import active_after
from goodmemory import create_good_memory


def _keys(*turns: str) -> list[str]:
    mem = create_good_memory("sqlite://")
    mem.remember([{"role": "user", "content": t} for t in turns], user_id="u")
    keys = [r.key for r in mem.list(user_id="u") if r.kind.value != "episode"]
    mem.close()
    return keys


def test_a_car_is_no_pet() -> None:
    keys = _keys("Traded the old girl in on the weekend, picked up a second-hand Toyota Yaris hybrid 🚗")
    assert any(k.startswith("vehicle") for k in keys), keys
    assert not any(k.startswith("fact.pet") for k in keys), keys


def test_a_spoken_language_is_no_programming_language() -> None:
    keys = _keys("I'm moving to Seoul next year for work so it's all Korean now, hangul done, grammar half done")
    assert not any("programming_language" in k for k in keys), keys


def test_a_programming_language_still_is_one() -> None:
    values = active_after("I mostly code in Python at work these days.")
    assert any("Python" in v for v in values), values
