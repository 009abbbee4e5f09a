"""Small budgets go to what the question needs: an assistant's reply that shares no word with the question
takes no place of a compact block (issue 18)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from _shared import module_mem as mem  # noqa: F401  (the module's real GoodMemory)

from goodmemory import GoodMemory, create_good_memory
from goodmemory.config import GoodMemoryConfig
from goodmemory.testing import FrozenClock

T0 = datetime(2025, 5, 5, 10, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=30)
FACTS = ["We are moving flats on the 14th and the new place is on the fourth floor with no lift.",
         "I have a piano that needs moving too, it is an old upright.",
         "The parking outside the new building is permit only, so the van needs a pass.",
         "My budget for the removal company is about nine hundred euros.",
         "Two of the wardrobes have to be taken apart before they fit through the door."]
REPLIES = ["Of course, I'm happy to help with that.", "Got it. Is there anything else I should know?",
           "Sure, take your time.", "Understood, thanks for letting me know."]
QUESTION = "Draft the email I will send to the removal company about our move."


def _live(mem: GoodMemory, user: str) -> None:  # noqa: F811
    for k, fact in enumerate(FACTS):
        mem.remember([{"role": "user", "content": fact, "id": f"{user}-f{k}"},
                      {"role": "assistant", "content": REPLIES[k % len(REPLIES)], "id": f"{user}-a{k}"},
                      {"role": "user", "content": "Hang on, let me check my calendar.", "id": f"{user}-u{k}"},
                      {"role": "assistant", "content": REPLIES[(k + 1) % len(REPLIES)], "id": f"{user}-b{k}"}],
                     user_id=user, session_id=f"s{k}", at=T0 + timedelta(days=k))


def _cited(mem: GoodMemory, user: str, budget: int) -> list[str]:  # noqa: F811
    ctx = mem.build_context(QUESTION, user_id=user, max_tokens=budget)
    return [m for item in ctx.items for m in item.source_message_ids]


def test_off_topic_replies_leave_a_compact_block_to_the_user_turns(mem: GoodMemory) -> None:  # noqa: F811
    _live(mem, "mover")
    for budget in (150, 200):
        cited = _cited(mem, "mover", budget)
        assert not [m for m in cited if "-a" in m or "-b" in m], (budget, cited)
        assert sum(m.startswith("mover-f") for m in cited) >= 4, (budget, cited)


def test_replies_stay_where_the_budget_has_room(mem: GoodMemory) -> None:  # noqa: F811
    """Only compact blocks leave them out: with room to spare the block is as it was."""
    _live(mem, "roomy")
    assert [m for m in _cited(mem, "roomy", 1000) if "-a" in m or "-b" in m]


def test_a_reply_that_speaks_to_the_question_stays() -> None:
    with create_good_memory("sqlite://", clock=FrozenClock(NOW)) as m:
        m.remember([{"role": "user", "content": "Can you find me a removal company for the move?", "id": "q"},
                    {"role": "assistant", "content": "I found Rapid Removals, they quote 850 euros for a flat move.",
                     "id": "answer"}], user_id="u", session_id="s", at=T0)
        assert "answer" in _cited(m, "u", 150)


def test_a_reply_naming_something_stays(mem: GoodMemory) -> None:  # noqa: F811
    """An off-topic reply with something specific in it (a date, a name, a reference) may be what the question
    needs: it is not left out."""
    _live(mem, "booked")
    mem.remember([{"role": "assistant", "content": "Confirmed with Hendrix Vans for Tuesday 14 June, ref HV-2231.",
                   "id": "booked-ref"}], user_id="booked", session_id="s9", at=T0 + timedelta(days=9))
    ctx = mem.build_context("What is sorted for moving day?", user_id="booked", max_tokens=150)
    assert "booked-ref" in [m for item in ctx.items for m in item.source_message_ids]


def test_the_setting_turns_it_off() -> None:
    """(generic replies are also demoted at every budget, ContextConfig.generic_reply_share: 1.0 keeps them level)"""
    cfg = GoodMemoryConfig(context_settings={"compact_assistant_overlap": False, "generic_reply_share": 1.0})
    with create_good_memory("sqlite://", clock=FrozenClock(NOW), config=cfg) as m:
        _live(m, "off")
        assert [c for c in _cited(m, "off", 150) if "-a" in c or "-b" in c]
