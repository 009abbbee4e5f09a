"""An old value is never shown as if current: through the facade, with the packaged embedder.

The context shows an outdated turn with the phrase the user took back hidden, and the flag names what it is now.
The sentences are this test's own; none is from a persona or a corpus.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from goodmemory import GoodMemory, create_good_memory
from goodmemory._outdated import HIDDEN
from goodmemory.testing import FrozenClock

T1 = datetime(2025, 2, 1, 9, tzinfo=UTC)
T2 = datetime(2025, 4, 1, 9, tzinfo=UTC)
T3 = datetime(2025, 6, 1, 9, tzinfo=UTC)


@pytest.fixture(scope="module")
def mem() -> Iterator[GoodMemory]:
    m = create_good_memory("sqlite://", clock=FrozenClock(T3))
    yield m
    m.close()


def _sessions(mem: GoodMemory, user: str, domain: str, *sessions: tuple[datetime, list[tuple[str, str]]]) -> None:
    for i, (at, turns) in enumerate(sessions):
        mem.remember([{"role": r, "content": c} for r, c in turns], user_id=user, session_id=f"s{i}", at=at,
                     domain=domain)


def _lines(mem: GoodMemory, user: str, domain: str, query: str) -> list[str]:
    return [line for line in mem.build_context(query, user_id=user, domain=domain, max_tokens=600).text.splitlines()
            if line.startswith("- [")]


def test_a_denied_value_is_hidden_in_the_turns_that_state_it(mem: GoodMemory) -> None:
    _sessions(mem, "ferry", "travel",
              (T1, [("user", "Our ferry to the island leaves at 7:40 from pier 3 every Saturday."),
                    ("assistant", "Noted, the 7:40 from pier 3.")]),
              (T2, [("user", "Small correction: the ferry leaves at 8:10 now, not 7:40.")]))
    lines = _lines(mem, "ferry", "travel", "When does our ferry leave?")
    old = [line for line in lines if "pier 3" in line]
    assert len(old) == 2, lines  # the user's turn and the assistant's restatement
    for line in old:
        assert HIDDEN in line and "7:40" not in line and "8:10" in line, line
    # the only line left with the old time is the correction itself, next to the new one
    assert all("8:10" in line for line in lines if "7:40" in line), lines


def test_the_figures_of_a_thing_that_ended_are_hidden(mem: GoodMemory) -> None:
    _sessions(mem, "vespa", "money",
              (T1, [("user", "The Vespa needs a new clutch, the garage quoted 340 euros."),
                    ("assistant", "So 340 for the Vespa clutch, noted.")]),
              (T2, [("user", "We sold the Vespa, the clutch was not worth it.")]))
    lines = _lines(mem, "vespa", "money", "Do we still need money for the Vespa clutch?")
    assert not [line for line in lines if "340" in line], lines
    assert sum(HIDDEN in line and "sold the Vespa" in line for line in lines) == 2, lines


def test_a_flag_names_the_value_that_replaced_the_replacement(mem: GoodMemory) -> None:
    _sessions(mem, "standup", "work",
              (T1, [("user", "Our team standup is at 9:15 in room 4.")]),
              (T2, [("user", "The team standup moved to 9:45 now, same room 4.")]),
              (T3, [("user", "The team standup moved again, it is at 10:30 now in room 4.")]))
    first = next(line for line in _lines(mem, "standup", "work", "When is the team standup?") if "9:15" in line)
    assert "9:45" in first and "later:" in first and "10:30" in first, first
