"""The turns of a value replaced by a wrong link are still outdated by the statement that replaces that link.

Storage and the write-side marking (``_marks.outdate_sources``) through a real SQLite store; the chain is built by
hand so that the wrong link is certain. The sentences are this test's own.
"""

from __future__ import annotations

from datetime import UTC, datetime

from goodmemory import create_good_memory
from goodmemory._marks import outdate_sources
from goodmemory.models import MemoryKind, MemoryRecord, MemorySource, MemoryStatus, new_id
from goodmemory.storage.base import WriteBatch
from goodmemory.testing import FrozenClock

T1 = datetime(2025, 2, 1, 9, tzinfo=UTC)
T2 = datetime(2025, 3, 1, 9, tzinfo=UTC)
T3 = datetime(2025, 4, 1, 9, tzinfo=UTC)


def _fact(value: str, mid: str, at: datetime, **kw: object) -> MemoryRecord:
    return MemoryRecord(user_id="u", kind=MemoryKind.FACT, key="fact.note.class", value=value,
                        text=f'The user said: "{value}."', valid_from=at, created_at=at,
                        source=MemorySource(session_id=mid.split(":")[0], message_ids=[mid], timestamp=at),
                        metadata={"rule": "statement"}, **kw)


def _chain(mem, *, first_marked: bool) -> tuple[MemoryRecord, MemoryRecord, MemoryRecord]:
    mem.remember([{"role": "user", "content": "The pottery class meets on Tuesdays at 18:30 in studio 2."},
                  {"role": "assistant", "content": "Noted, Tuesdays 18:30 in studio 2."}],
                 user_id="u", session_id="s0", at=T1)
    mem.remember([{"role": "user", "content": "I bought a new pair of running shoes."}], user_id="u",
                 session_id="s1", at=T2)
    ids = [new_id() for _ in range(3)]
    a = _fact("The pottery class meets on Tuesdays at 18:30 in studio 2", "s0:0", T1, id=ids[0],
              status=MemoryStatus.SUPERSEDED, superseded_by=ids[1])
    b = _fact("I bought a new pair of running shoes", "s1:0", T2, id=ids[1], status=MemoryStatus.SUPERSEDED,
              supersedes=ids[0], superseded_by=ids[2])
    c = _fact("The pottery class moved to Thursdays at 19:00", "s2:0", T3, id=ids[2], supersedes=ids[1])
    updates = []
    if first_marked:  # the wrong link's own pair marked the first value's turn
        updates = outdate_sources(mem.storage, "u", [(a, b)], trusted=True)
        assert updates
    mem.storage.write("u", WriteBatch(inserts=[a, b, c], updates=updates))
    return a, b, c


def _marks(updates: list[MemoryRecord]) -> dict[str, list[dict[str, object]]]:
    return {u.text: u.metadata.get("outdated", []) for u in updates}


def test_a_value_behind_a_wrong_link_is_outdated_by_the_statement_that_replaces_the_link() -> None:
    with create_good_memory("sqlite://", clock=FrozenClock(T3)) as mem:
        a, b, c = _chain(mem, first_marked=False)
        marks = _marks(outdate_sources(mem.storage, "u", [(b, c)]))
        first = marks.get("user: The pottery class meets on Tuesdays at 18:30 in studio 2.")
        assert first and first[-1]["new"] == c.value, marks
        # the reply that repeats its time is as outdated as the turn it answers
        assert "assistant: Noted, Tuesdays 18:30 in studio 2." in marks, marks
        # the wrong link shares nothing with the new statement: its turn is not marked
        assert "user: I bought a new pair of running shoes." not in marks, marks


def test_a_value_its_replacement_already_marked_is_not_marked_again() -> None:
    with create_good_memory("sqlite://", clock=FrozenClock(T3)) as mem:
        a, b, c = _chain(mem, first_marked=True)
        marks = _marks(outdate_sources(mem.storage, "u", [(b, c)]))
        assert "user: The pottery class meets on Tuesdays at 18:30 in studio 2." not in marks, marks
