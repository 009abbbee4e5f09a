"""Sentences that name a value which is not the user's (issue 17): "explain it like I'm 12" is no age, and what a
niece, a nephew or a grandchild did is theirs ("My nephew just got into Kingsbridge College" had been filed as the
user's own attribute)."""

from __future__ import annotations

import pytest
from _extracting import read

from _memories import active_after


@pytest.mark.parametrize("text", ["explain how interest rates work like im 12",
                                  "can you describe black holes as if I'm 5",
                                  "talk me through it as though I'm 10 please"])
def test_a_simile_of_age_is_no_age(text: str) -> None:
    assert not [k for k, _ in read(text) if k == "profile.age"]


def test_an_age_said_plainly_is_still_kept() -> None:
    assert ("profile.age", "34") in read("I'm 34 and just started running")


def _keys_after(text: str) -> list[str]:
    from datetime import UTC, datetime

    from goodmemory import MemoryKind, create_good_memory
    from goodmemory.testing import FrozenClock

    at = datetime(2025, 2, 3, 9, tzinfo=UTC)
    with create_good_memory("sqlite://", clock=FrozenClock(at)) as mem:
        mem.remember([{"role": "user", "content": text}], user_id="u", at=at)
        return [r.key for r in mem.list(user_id="u") if r.kind != MemoryKind.EPISODE]


@pytest.mark.parametrize("text", ["My nephew just got into Kingsbridge College, my brother is thrilled",
                                  "my granddaughter started at Ashdown Nursery on monday, she loved it",
                                  "My stepson got into Redmoor Academy for september"])
def test_what_a_relative_did_is_not_filed_as_the_users_attribute(text: str) -> None:
    keys = _keys_after(text)
    assert not [k for k in keys if k.startswith(("profile.", "fact.event", "appointment"))], keys
    # and the user's own attribute said afterwards is still theirs
    values = active_after(text, "I work at Pellow & Co as a bookkeeper")
    assert any("Pellow" in v for v in values)
