"""A value the user denies and hands to someone else is that person's, never a new value of the user's own.

"I don't live in Paris, my brother does" had replaced the user's home city with the sentence. The sentences are
this test's own; none is from a persona or a corpus.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _shared import current, module_mem, say  # noqa: F401 (the module's mem: one memory shared by its tests)

from goodmemory import GoodMemory

T1 = datetime(2025, 3, 1, 9, tzinfo=UTC)
T2 = datetime(2025, 3, 8, 9, tzinfo=UTC)
NOW = datetime(2025, 4, 1, 9, tzinfo=UTC)  # the shared mem's clock (_shared.module_mem)


def _current(mem: GoodMemory, user: str) -> dict[str, str]:
    return {r.key: r.value for r in current(mem, user)}


@pytest.mark.parametrize(("first", "denial", "kept"), [
    ("I live in Lisbon.", "I don't live in Paris, my brother does.", "Lisbon"),
    ("I work as a nurse.", "I'm not a teacher, that's my wife.", "nurse"),
    ("I live in Lisbon.", "No, we don't have a house in Faro, Marta does.", "Lisbon"),
])
def test_a_value_handed_to_another_person_replaces_nothing(mem: GoodMemory, first: str, denial: str,
                                                           kept: str) -> None:
    user = "deny-" + "".join(ch for ch in denial.lower() if ch.isalpha())[:24]
    say(mem, user, T1, first)
    say(mem, user, T2, denial)
    current = _current(mem, user)
    assert kept in current.values(), current
    assert not any(v.startswith(("I don't", "I'm not", "No, we")) and not k.startswith("fact.note")
                   for k, v in current.items()), current


def test_a_denial_followed_by_the_users_own_value_still_replaces(mem: GoodMemory) -> None:
    say(mem, "deny-own", T1, "I live in Lisbon.")
    say(mem, "deny-own", T2, "I don't live in Lisbon anymore, I moved to Porto.")
    values = list(_current(mem, "deny-own").values())
    assert any("Porto" in v for v in values) and "Lisbon" not in values, values
