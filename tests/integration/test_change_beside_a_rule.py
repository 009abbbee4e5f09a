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


def test_a_name_that_reads_like_a_change_word_tells_no_change(frozen_mem) -> None:  # type: ignore[no-untyped-def]
    """'our Switch dev kit' names a console: beside a task the rules read, the part is no change of anything (it had
    replaced the user's moved demo date)."""
    frozen_mem.remember([{"role": "user", "content": "The demo is due 30 June, Ana moved it to 15 July."}],
                        user_id="u", session_id="s1", at=T0)
    frozen_mem.remember([{"role": "user", "content": "I'm still waiting for Sony to approve our Switch dev kit, if it "
                                                     "comes work gets busy"}],
                        user_id="u", session_id="s2", at=T0 + timedelta(days=20))
    active = [r for r in frozen_mem.list(user_id="u") if r.kind.value != "episode"]
    assert any("15 July" in f"{r.value} {r.text}" for r in active)
