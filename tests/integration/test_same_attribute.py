"""Supersede that does not depend on a rule's key: through the facade, with the packaged embedder.

The sentences are this test's own; none of them is in the write corpus.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from goodmemory import GoodMemory, MemoryKind, MemoryStatus, create_good_memory
from goodmemory.testing import FrozenClock

T1 = datetime(2025, 2, 1, 9, tzinfo=UTC)
T2 = datetime(2025, 6, 1, 9, tzinfo=UTC)


@pytest.fixture(scope="module")
def mem() -> Iterator[GoodMemory]:
    m = create_good_memory("sqlite://", clock=FrozenClock(T2))
    yield m
    m.close()


def _say(mem: GoodMemory, user: str, *sessions: tuple[datetime, str]) -> None:
    for i, (at, text) in enumerate(sessions):
        mem.remember([{"role": "user", "content": text}], user_id=user, session_id=f"s{i}", at=at)


def _active(mem: GoodMemory, user: str) -> list[str]:
    return [r.value for r in mem.list(user_id=user) if r.kind != MemoryKind.EPISODE]


def _history(mem: GoodMemory, user: str) -> list[str]:
    return [r.value for r in mem.list(user_id=user, include_history=True)
            if r.kind != MemoryKind.EPISODE and r.status == MemoryStatus.SUPERSEDED]


def test_a_newer_statement_of_a_single_valued_attribute_replaces_the_older(mem: GoodMemory) -> None:
    _say(mem, "occ", (T1, "I work as a welder."), (T2, "These days I drive a forklift at the port instead."))
    active = " ".join(_active(mem, "occ"))
    assert "forklift" in active and "welder" not in active
    assert any("welder" in v for v in _history(mem, "occ"))
    rec = next(r for r in mem.list(user_id="occ") if "forklift" in r.value)
    chain = [h.memory.value for h in mem.history(rec.id, user_id="occ")]
    assert "welder" in chain[0] and "forklift" in chain[-1]


def test_an_addition_to_a_multi_valued_attribute_keeps_both(mem: GoodMemory) -> None:
    _say(mem, "pets", (T1, "I have a hamster called Biscuit."), (T2, "We also got a tortoise, his name is Dot."))
    active = " ".join(_active(mem, "pets"))
    assert "Biscuit" in active and "Dot" in active


def test_a_change_that_names_the_old_value_replaces_it(mem: GoodMemory) -> None:
    _say(mem, "meds", (T1, "I take 20 mg of omeprazole before breakfast."),
         (T2, "The omeprazole got cut down to 10 mg last month."))
    active = " ".join(_active(mem, "meds"))
    assert "10 mg" in active and "20 mg" not in active
    assert any("20 mg" in v for v in _history(mem, "meds"))


def test_chatter_is_not_stored_and_the_same_turns_twice_change_nothing(mem: GoodMemory) -> None:
    _say(mem, "chat", (T1, "I live in Hull."))
    before = {r.id: (r.status, r.value) for r in mem.list(user_id="chat", include_history=True)}
    _say(mem, "chat", (T1, "I live in Hull."))
    after = {r.id: (r.status, r.value) for r in mem.list(user_id="chat", include_history=True)}
    assert before == after
    mem.remember([{"role": "user", "content": "Ha, I guess we'll see how it goes."}], user_id="chat", session_id="x",
                 at=T2)
    assert "statement.pending" not in {r.key for r in mem.list(user_id="chat", include_history=True)}
    assert _active(mem, "chat") == ["Hull"]


def test_no_statements_by_meaning_with_a_hashing_embedder() -> None:
    # the hashing fallback (and the test double) cannot tell meanings apart: a log of observations would
    # supersede itself line by line, so statements are refused and only the rules' memories stay
    from goodmemory import create_good_memory
    from goodmemory.extraction._statements import STATEMENT_KEY
    from goodmemory.testing import FakeEmbedder

    m = create_good_memory("sqlite://", embedder=FakeEmbedder())
    try:
        res = m.remember([{"role": "user", "content": "These days I take my coffee with oat milk."},
                          {"role": "user", "content": "My sourdough starter smelled yeasty after feeding."}],
                         user_id="u", session_id="s")
        statements = [d for d in res.decisions if d.candidate is not None and d.candidate.key == STATEMENT_KEY]
        assert statements, [d.reason for d in res.decisions]
        assert all(d.action == "reject" and "semantic embedder" in d.reason for d in statements)
        assert not any(r.metadata.get("rule") == "statement" for r in m.list(user_id="u"))
    finally:
        m.close()
