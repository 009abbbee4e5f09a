"""A change told without a word of change (a value taken on, an onset, a provider's sort) supersedes the user's
earlier value and keeps it in history; the same words planned, denied or said with "also" do not. Through the
facade, with the packaged embedder; the sentences are this test's own, none of them in the write corpus."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _shared import module_mem  # noqa: F401 (the module's mem: one memory shared by its tests)

from _memories import current_and_replaced
from goodmemory import GoodMemory

T1 = datetime(2025, 2, 1, 9, tzinfo=UTC)
T2 = datetime(2025, 6, 1, 9, tzinfo=UTC)
NOW = T2  # the shared mem's clock (_shared.module_mem)


def _live(mem: GoodMemory, user: str, first: str, second: str) -> tuple[str, str]:
    for i, (at, text) in enumerate([(T1, first), (T2, second)]):
        mem.remember([{"role": "user", "content": text}], user_id=user, session_id=f"s{i}", at=at)
    return current_and_replaced(mem, user, "value")


@pytest.mark.parametrize(("user", "first", "second", "old", "new"), [
    ("ce-vet", "Our vet is Copperbeech Veterinary.",
     "We've been taking the cat to Foxglove Vets since the autumn.", "Copperbeech", "Foxglove"),
    ("ce-policy", "Our contents insurance is with Harlow Mutual.",
     "We took out a policy with Wrenfield for the flat when the renewal arrived.", "Harlow", "Wrenfield"),
    ("ce-energy", "Our gas supplier is Emberline.", "Switched to Saltmarsh Power in April.", "Emberline", "Saltmarsh"),
    ("ce-gp", "My GP is Dr. Okonjo.", "I've been assigned to Dr. Lindgren at the health centre.", "Okonjo", "Lindgren"),
])
def test_a_change_told_without_a_word_of_change_supersedes(mem: GoodMemory, user: str, first: str, second: str,
                                                           old: str, new: str) -> None:
    active, history = _live(mem, user, first, second)
    assert new in active and old not in active
    assert old in history  # the chain is kept


@pytest.mark.parametrize(("user", "first", "second", "kept"), [
    ("ce-plan", "Our gas supplier is Emberline.", "I'm thinking of switching to Saltmarsh Power next winter.",
     "Emberline"),
    ("ce-mum", "My GP is Dr. Okonjo.", "Mum has been assigned to Dr. Lindgren at her health centre.", "Okonjo"),
    ("ce-volunteer", "I work at Brennan Foods.", "Since the spring I volunteer at Shelterwood on Saturdays.", "Brennan"),
    ("ce-also", "Our contents insurance is with Harlow Mutual.",
     "We also took out a travel policy with Wrenfield for the summer.", "Harlow"),
])
def test_a_planned_or_added_value_supersedes_nothing(mem: GoodMemory, user: str, first: str, second: str,
                                                     kept: str) -> None:
    active, _ = _live(mem, user, first, second)
    assert kept in active
