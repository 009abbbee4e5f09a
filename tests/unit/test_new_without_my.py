"""Chat drops the "my" before a new value ("New policy number AR-903317", "New locker code 4471"): the rules read
such a sentence as the user's, so the new value replaces the one the rule read before (issue 17). It used to stay the
user's words only, and the old number stayed current. This file's own sentences."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from _extracting import extract

from goodmemory import create_good_memory
from goodmemory.testing import FrozenClock


@pytest.mark.parametrize(("text", "key", "value"), [
    ("New policy number KT-558012.", "policy.number", "KT-558012"),
    ("New membership number 88120453, they reissued all the cards.", "membership.number", "88120453"),
])
def test_a_new_value_without_my_is_read_by_the_rules(text: str, key: str, value: str) -> None:
    assert any(c.key == key and c.value == value for c in extract(text)), [(c.key, c.value) for c in extract(text)]


def test_the_new_value_replaces_the_old_one() -> None:
    t0 = datetime(2025, 1, 10, 9, tzinfo=UTC)
    mem = create_good_memory("sqlite://", clock=FrozenClock(t0 + timedelta(days=400)))
    mem.remember([{"role": "user", "content": "My home insurance is with Larchfield, policy number LF-220931."}],
                 user_id="u", at=t0)
    mem.remember([{"role": "assistant", "content": "Did the renewal go through?"},
                  {"role": "user", "content": "Yes, switched to Corvane in the end, much cheaper. New policy number "
                                              "CV-761150."}], user_id="u", at=t0 + timedelta(days=365))
    active = [r.value for r in mem.list(user_id="u") if r.kind.value != "episode"]
    mem.close()
    assert any("CV-761150" in v for v in active) and not any("LF-220931" in v for v in active), active
