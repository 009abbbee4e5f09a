"""Below ContextConfig.undated_below_tokens the block drops its section and date headers unless the question asks
about time: the headers' tokens go to the turns the question needs (issue 18, budget honesty)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import create_good_memory
from goodmemory.config import GoodMemoryConfig
from goodmemory.routing import asks_about_time
from goodmemory.testing import FakeEmbedder, FrozenClock

T0 = datetime(2025, 2, 3, 8, 0, tzinfo=UTC)
QUESTION = "what was wrong with the kitchen tap and the dishwasher?"


def _memory(undated: int | None = None):  # type: ignore[no-untyped-def]
    settings = {} if undated is None else {"context_settings": {"undated_below_tokens": undated}}
    return create_good_memory("sqlite://", embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=90)),
                              config=GoodMemoryConfig(**settings))


def _fill(mem) -> None:  # type: ignore[no-untyped-def]
    """Forty short user turns about the kitchen, each on its own day (each would need its own date header)."""
    for k in range(40):
        mem.remember([{"role": "user", "content": f"Kitchen note {k}: the tap dripped {k % 5 + 1} times a minute "
                                                  f"and the dishwasher stopped at step {k % 7}.", "id": f"k{k}"}],
                     user_id="u1", session_id=f"s{k}", at=T0 + timedelta(days=k))


def _headers(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("#")]


@pytest.mark.parametrize("budget", [400, 700, 1000])
def test_below_the_line_the_block_has_no_headers_and_holds_more_turns(budget: int) -> None:
    lean, dated = _memory(), _memory(undated=0)
    try:
        _fill(lean)
        _fill(dated)
        a = lean.build_context(QUESTION, user_id="u1", max_tokens=budget)
        b = dated.build_context(QUESTION, user_id="u1", max_tokens=budget)
        assert _headers(a.text) == []
        assert any(line.startswith("### ") for line in _headers(b.text))  # the dated frame, one header per day
        assert a.tokens <= budget and b.tokens <= budget
        assert len(a.items) > len(b.items)  # the headers' tokens went to more turns
    finally:
        lean.close()
        dated.close()


def test_a_question_about_time_keeps_its_dates() -> None:
    mem = _memory()
    try:
        _fill(mem)
        ctx = mem.build_context("when did the dishwasher stop at step 3?", user_id="u1", max_tokens=700)
        assert any(line.startswith("### 2025-") for line in _headers(ctx.text))
    finally:
        mem.close()


def test_above_the_line_the_dates_are_back() -> None:
    mem = _memory(undated=600)
    try:
        _fill(mem)
        assert _headers(mem.build_context(QUESTION, user_id="u1", max_tokens=500).text) == []
        assert any(h.startswith("### ") for h in _headers(mem.build_context(QUESTION, user_id="u1",
                                                                            max_tokens=700).text))
    finally:
        mem.close()


@pytest.mark.parametrize(("question", "timely"), [
    ("When did I last see the optician?", True),
    ("How long ago did we switch energy supplier?", True),
    ("Which day is my pottery class on?", True),
    ("Was the boiler service before or after the move?", True),
    ("What's the first time I mentioned my knee?", True),
    ("What should I cook for my in-laws?", False),
    ("Which hotel would suit me in Porto?", False),
    ("Remind me of my account number.", False),
])
def test_asks_about_time(question: str, timely: bool) -> None:
    assert asks_about_time(question) is timely
