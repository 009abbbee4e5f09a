"""An assistant's generic advice takes no place of the user's own facts: a reply with nothing specific in it
(no number, code or name) weighs ContextConfig.generic_reply_share of its fused score at every budget (issue 18)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from goodmemory import GoodMemory, create_good_memory
from goodmemory.config import GoodMemoryConfig
from goodmemory.testing import FrozenClock

T0 = datetime(2025, 9, 1, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=40)
FACTS = ["The washing machine I bought from them is a Bosch Serie 6, it leaks from the door seal.",
         "I paid 649 pounds for it on the 3rd of August, order number WM-55120.",
         "Their engineer came on the 19th and said the drum bearing is faulty.",
         "They promised a replacement within ten working days and nothing has arrived.",
         "My flat is on the second floor and the old machine has to be taken away.",
         "I can only take deliveries on Mondays and Fridays because of my shifts.",
         "Their store manager, Priya, told me to keep the receipt and the engineer's report."]
ADVICE = ["A complaint letter works best when it is calm, factual and asks for one clear outcome by a date.",
          "When a company ignores a complaint, a polite written reminder is usually the next step.",
          "It is worth keeping copies of every letter and email you send about a complaint.",
          "If the complaint is not resolved, you can usually escalate it to an ombudsman.",
          "Complaints in writing are harder for a company to ignore than phone calls.",
          "You do not need to be rude in a complaint letter to be taken seriously.",
          "A short complaint letter is read more carefully than a long angry one."]
QUESTION = "Write my complaint letter to the shop about the washing machine, with everything they need."


def _live(mem: GoodMemory, user: str) -> None:
    for k, (fact, advice) in enumerate(zip(FACTS, ADVICE, strict=True)):
        mem.remember([{"role": "user", "content": fact, "id": f"{user}-f{k}"},
                      {"role": "assistant", "content": advice, "id": f"{user}-a{k}"}],
                     user_id=user, session_id=f"s{k}", at=T0 + timedelta(days=k))


def _cited(share: float | None, budget: int) -> list[str]:
    cfg = None if share is None else GoodMemoryConfig(context_settings={"generic_reply_share": share})
    with create_good_memory("sqlite://", clock=FrozenClock(NOW), config=cfg) as m:
        _live(m, "u")
        ctx = m.build_context(QUESTION, user_id="u", max_tokens=budget)
        return list(dict.fromkeys(c for item in ctx.items for c in item.source_message_ids))


def test_the_users_facts_go_before_generic_advice() -> None:
    cited = _cited(None, 260)
    facts = [c for c in cited if "-f" in c]
    assert len(facts) == len(FACTS), cited


def test_without_it_the_advice_takes_their_places() -> None:
    """The same block at share 1.0 (the advice weighs as much as the facts): some facts fall out."""
    cited = _cited(1.0, 260)
    assert [c for c in cited if "-a" in c], cited
    assert len([c for c in cited if "-f" in c]) < len(FACTS), cited


def test_advice_still_fills_a_budget_with_room() -> None:
    """Demoted, not left out: with room to spare the replies are packed after the facts."""
    cited = _cited(None, 1000)
    assert len([c for c in cited if "-a" in c]) >= 4, cited
    assert len([c for c in cited if "-f" in c]) == len(FACTS), cited


def test_a_reply_naming_something_is_not_demoted() -> None:
    with create_good_memory("sqlite://", clock=FrozenClock(NOW)) as m:
        _live(m, "u")
        m.remember([{"role": "assistant", "content": "I checked: Bosch confirmed the part ships on 12 October, ref BX-4471.",
                     "id": "u-ref"}], user_id="u", session_id="s9", at=T0 + timedelta(days=9))
        ctx = m.build_context("When does the part for the washing machine ship?", user_id="u", max_tokens=150)
        assert "u-ref" in [c for item in ctx.items for c in item.source_message_ids]
