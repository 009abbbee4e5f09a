"""A sentence a rule read in part still keeps the user's words when it tells a change (issue 17): in "I switched onto
the accounting diploma, turns out I like numbers far more" the rule read the like, and the change of course was lost."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from _memories import current_and_replaced
from goodmemory import GoodMemory

T0 = datetime(2025, 1, 10, 9, 0, tzinfo=UTC)


def _told(mem: GoodMemory, first: str, later: str, days: int) -> str:
    """``first`` said at T0 and ``later`` ``days`` after it by one user; the text of their active memories."""
    for i, (content, at) in enumerate(((first, T0), (later, T0 + timedelta(days=days)))):
        mem.remember([{"role": "user", "content": content}], user_id="u", session_id=f"s{i}", at=at)
    return current_and_replaced(mem, "u")[0]


def test_the_change_is_kept_and_replaces_the_earlier_value(frozen_mem: GoodMemory) -> None:
    active = _told(frozen_mem, "I'm doing a part-time law degree at Hollins College.",
                   "I switched onto the accounting diploma at the same college this term, turns out I like numbers "
                   "far more.", days=90)
    assert "accounting" in active
    assert "law degree" not in active


def test_a_name_that_reads_like_a_change_word_tells_no_change(frozen_mem: GoodMemory) -> None:
    """'our Switch dev kit' names a console: beside a task the rules read, the part is no change of anything (it had
    replaced the user's moved demo date)."""
    active = _told(frozen_mem, "The demo is due 30 June, Ana moved it to 15 July.",
                   "I'm still waiting for Sony to approve our Switch dev kit, if it comes work gets busy", days=20)
    assert "15 July" in active
