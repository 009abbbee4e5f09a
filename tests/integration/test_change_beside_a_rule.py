"""A sentence a rule read in part still keeps the user's words when it tells a change (issue 17): in "I switched onto
the accounting diploma, turns out I like numbers far more" the rule read the like, and the change of course was lost."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

T0 = datetime(2025, 1, 10, 9, 0, tzinfo=UTC)


def test_the_change_is_kept_and_replaces_the_earlier_value(frozen_mem) -> None:  # type: ignore[no-untyped-def]
    frozen_mem.remember([{"role": "user", "content": "I'm doing a part-time law degree at Hollins College."}],
                        user_id="u", session_id="s1", at=T0)
    frozen_mem.remember([{"role": "user", "content": "I switched onto the accounting diploma at the same college this "
                                                     "term, turns out I like numbers far more."}],
                        user_id="u", session_id="s2", at=T0 + timedelta(days=90))
    active = [r for r in frozen_mem.list(user_id="u") if r.kind.value != "episode"]
    assert any("accounting" in r.value for r in active)
    assert not any("law degree" in r.value for r in active)
