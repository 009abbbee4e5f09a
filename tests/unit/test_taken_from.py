"""A new employer told by who took the user from the old one ("X headhunted me from Y") replaces the old one, and
the value kept says what holds now (issue 17, w67). Sentences are this file's own; both tests fail before w67 (the
sentence was a note, and the employer stayed the old one)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from goodmemory import create_good_memory
from goodmemory._replaced import drop_replaced
from goodmemory.merge import Earlier
from goodmemory.testing import FrozenClock

T0 = datetime(2025, 2, 3, 9, 0, tzinfo=UTC)


def test_the_old_employer_taken_from_leaves_the_value() -> None:
    old = Earlier(key="profile.employer", value="Brightwater Labs", similarity=0.5, at=T0, family_key="profile.employer")
    assert drop_replaced("Halden Foods headhunted me from Brightwater last spring", old) \
        == "Halden Foods headhunted me last spring"
    # "from" a thing that is not the old value stays
    assert drop_replaced("Halden Foods hired me from an agency list", old) == "Halden Foods hired me from an agency list"


def test_headhunted_from_the_old_employer_replaces_it() -> None:
    clock = FrozenClock(T0)
    mem = create_good_memory("sqlite://", clock=clock)
    try:
        mem.remember([{"role": "user", "content": "I'm a chemist at Brightwater Labs."}], user_id="u", at=T0)
        later = T0 + timedelta(days=120)
        clock.set(later)
        mem.remember([{"role": "user", "content": "Halden Foods headhunted me from Brightwater last spring."}],
                     user_id="u", at=later)
        employers = [r for r in mem.list(user_id="u") if r.key == "profile.employer"]
        assert len(employers) == 1 and "Halden" in employers[0].value and "Brightwater" not in employers[0].value
    finally:
        mem.close()
