"""The user's raw turns are quoted in the block without the "user: " label (their memory's words need no speaker: 3
tokens of ~13 per item, one more turn at 150 tokens); the assistant's turns and named speakers keep theirs; off by
``unlabelled_user_turns=False`` (issue 18)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import GoodMemoryConfig, create_good_memory
from goodmemory.testing import FrozenClock

T0 = datetime(2025, 5, 2, 18, tzinfo=UTC)


def _block(unlabelled: bool) -> str:
    cfg = GoodMemoryConfig(context_settings={"unlabelled_user_turns": unlabelled})
    mem = create_good_memory("sqlite://", config=cfg, clock=FrozenClock(T0 + timedelta(days=3)))
    mem.remember([{"role": "user", "content": "The allotment plot I rent is number 31, by the east gate."},
                  {"role": "assistant", "content": "Plot 31 by the east gate, noted for the seed order."}],
                 user_id="u", at=T0)
    text = mem.build_context("Which allotment plot is mine?", user_id="u", max_tokens=400).text
    mem.close()
    return text


@pytest.mark.parametrize("unlabelled", [True, False])
def test_the_users_turns_carry_no_speaker_label(unlabelled: bool) -> None:
    text = _block(unlabelled)
    assert ('"The allotment plot I rent' in text) is unlabelled, text
    assert ('"user: The allotment plot I rent' in text) is not unlabelled, text
    assert '"assistant: Plot 31' in text, text
