"""How the user wants answers, said as an imperative ("Keep things brief and friendly"), is kept as an answer style
and reaches a small context for a question no turn is near (issue 17/18): before, such a sentence became a note of
its own words that only its turn could bring back, and the dense list filled 150 tokens with small talk."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import create_good_memory
from goodmemory.testing import FrozenClock

T0 = datetime(2025, 5, 2, 18, 0, tzinfo=UTC)
SMALL_TALK = ["I went to the post office at lunch, the queue was out the door.",
              "My neighbour asked me about the fence again this morning.",
              "Finally sorted out the spare room over the weekend.",
              "Had a call with my cousin about the car's MOT after work.",
              "I ran into an old colleague at the station yesterday.",
              "The printer at work jammed twice today, what a day.",
              # near the questions in words, and no help answering them
              "The heating engineer came round about the radiators on Tuesday.",
              "My brother keeps going on about his pension fund at dinner.",
              "We had the boiler serviced last month, it took all morning.",
              "A colleague showed me her savings app at lunch, looked complicated."]


@pytest.fixture(scope="module")
def mem():  # type: ignore[no-untyped-def]
    m = create_good_memory("sqlite://", clock=FrozenClock(T0 + timedelta(days=40)))
    for k in range(20):
        turns = [{"role": "user", "content": SMALL_TALK[k % len(SMALL_TALK)], "id": f"t{k}"},
                 {"role": "assistant", "content": "Thanks for the update, noted."}]
        if k == 5:
            turns = [{"role": "user", "content": "Structure your replies as a short list, I lose track in long "
                                                 "blocks of text.", "id": "style"},
                     {"role": "assistant", "content": "Got it, I'll keep that in mind."}, *turns]
        m.remember(turns, user_id="u1", session_id=f"s{k}", at=T0 + timedelta(days=k))
    yield m
    m.close()


def test_the_imperative_is_kept_as_how_to_answer(mem) -> None:  # type: ignore[no-untyped-def]
    kept = [r for r in mem.list(user_id="u1") if "style" in r.source.message_ids and r.kind.value != "episode"]
    assert [r.key.split(".")[:2] for r in kept] == [["preference", "communication"]]


@pytest.mark.parametrize("question", ["How does a heat pump work?", "Can you explain what an index fund is?"])
def test_it_reaches_a_small_context_for_a_question_nothing_is_near(mem, question: str) -> None:  # type: ignore[no-untyped-def]
    ctx = mem.build_context(question, user_id="u1", max_tokens=150)
    assert ctx.tokens <= 150
    assert "style" in {m for item in ctx.items for m in item.source_message_ids}
