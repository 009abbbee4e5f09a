"""Someone else's words that change a value the user gave ("the engineer says the limit is now 450 kg, not
300 kg") reach the statement path marked as reported: they replace the user's value, and reported words that
change nothing the user said are not stored (issue 17). Sentences are our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from goodmemory import create_good_memory
from goodmemory.extraction.base import ExtractionContext
from goodmemory.extraction.rules import RuleExtractor
from goodmemory.models import Message
from goodmemory.testing import FrozenClock

pytestmark = pytest.mark.unit

AT = datetime(2025, 2, 3, 9, 0, tzinfo=UTC)


def test_reported_words_become_a_reported_statement_candidate() -> None:
    msg = Message(id="m0", role="user", content="Dmitri says the fence line is now 40 m, not 35 m.", timestamp=AT)
    out = RuleExtractor().extract([msg], ExtractionContext(user_id="u", at=AT))
    assert [(c.metadata.get("statement"), c.metadata.get("reported")) for c in out] == [(True, True)]


def _replay(*turns: str) -> list[str]:
    clock = FrozenClock(AT)
    mem = create_good_memory("sqlite://", clock=clock)
    try:
        for i, t in enumerate(turns):
            clock.set(datetime(2025, 2 + i, 3, tzinfo=UTC))
            mem.remember([{"role": "user", "content": t}], user_id="u1", session_id=f"s{i}")
        return [r.value for r in mem.list(user_id="u1") if r.kind.value != "episode"]
    finally:
        mem.close()


def test_reported_words_that_change_the_users_value_replace_it() -> None:
    values = _replay("Our load limit for the deck is 300 kg.",
                     "Update from the engineer: Odile says the load limit is now 450 kg, not 300 kg.")
    assert any("450 kg" in v for v in values), values
    assert not any("300 kg" in v and "450" not in v for v in values), values


def test_reported_words_that_change_nothing_are_not_stored() -> None:
    values = _replay("I live in Porto.", "My neighbour says the bakery on the corner is closing next month.")
    assert values == ["Porto"]
