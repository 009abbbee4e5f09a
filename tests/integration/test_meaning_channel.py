"""The vector channel embeds the question without the names it asks about (real MiniLM embeddings)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from goodmemory import GoodMemoryConfig, Message, create_good_memory
from goodmemory.embeddings import MiniLMEmbedder

T0 = datetime(2023, 1, 20, 16, 0, tzinfo=UTC)

# two friends talking: most turns name the other one; one turn says how Gina unwinds
TURNS = [
    ("Gina", "Thanks, Jon! Appreciate your support!"),
    ("Jon", "Hey Gina, how's it going?"),
    ("Gina", "Go for it, Jon! Don't let anything stop you."),
    ("Jon", "Gina, you rock. Talk soon!"),
    ("Gina", "Way to go, Jon! Keep it up, you're almost there!"),
    ("Jon", "Good to see you, Gina. What's up?"),
    ("Gina", "Yeah Jon, I'm here for you! Let's keep moving forward!"),
    ("Gina", "Dancing is pretty much my go-to for stress relief after a hard week at the store."),
    ("Jon", "Sounds good, Gina. See you next Friday."),
]


def _memory(embed_meaning_text: bool):  # type: ignore[no-untyped-def]
    cfg = GoodMemoryConfig(retrieval_settings={"embed_meaning_text": embed_meaning_text})
    mem = create_good_memory("sqlite://", embedder=MiniLMEmbedder(), config=cfg)
    msgs = [Message(role="user", name=who, content=text, id=f"D1:{i}",
                    timestamp=T0 + timedelta(minutes=i)) for i, (who, text) in enumerate(TURNS)]
    mem.remember(msgs, user_id="u", session_id="s1", at=T0)
    return mem


def _rank_of_answer(mem) -> int:  # type: ignore[no-untyped-def]
    hits = mem.recall("How do Jon and Gina both like to destress?", user_id="u", limit=10,
                      at=T0 + timedelta(days=1)).hits
    texts = [h.memory.text for h in hits]
    return next((i for i, t in enumerate(texts) if "stress relief" in t and "digest" not in t), 99)


def test_names_do_not_drown_the_meaning_of_the_question() -> None:
    """Every turn names Jon or Gina: embedding the names finds greetings; embedding the content finds
    the answer (no word in common with the question: "destress" vs "stress relief")."""
    with _memory(True) as on, _memory(False) as off:
        plan = on.recall("How do Jon and Gina both like to destress?", user_id="u", at=T0).plan["plan"]
        assert plan["meaning_text"] == "How do and both like to destress?"
        assert plan["names"] == ["jon", "gina"]
        assert _rank_of_answer(on) <= 3
        assert _rank_of_answer(off) > 5  # the switch really restores the whole question


# the dense list of build_context: the nearest raw turns to the question as asked
GIFT_TURNS = [
    "Gift wrapping paper is so expensive these days.",
    "I still owe my boss a leaving gift, any year now.",
    "Last year I gave everyone socks as a gift, it was a flop.",
    "Good gift shops are hard to find around here this year.",
    "Priya is obsessed with orchids, her flat is full of them.",
]


def _floor_only(whole: bool):  # type: ignore[no-untyped-def]
    # the dense list alone: no ranked search, no standing items, no facts of named families, no fill
    cfg = GoodMemoryConfig(context_settings={"ranked_weight": 0.0, "standing_weight": 0.0, "hinted_weight": 0.0,
                                             "fill_share": 0.0, "dense_whole_question": whole})
    mem = create_good_memory("sqlite://", embedder=MiniLMEmbedder(), config=cfg)
    msgs = [Message(role="user", content=text, id=f"g{i}", timestamp=T0 + timedelta(minutes=i))
            for i, text in enumerate(GIFT_TURNS)]
    mem.remember(msgs, user_id="u", session_id="s1", at=T0)
    return mem


def test_the_dense_list_searches_the_question_as_asked() -> None:
    """The ranked search embeds the question without its names; the dense list must not: a plain dense
    retrieval of turns finds the turn about Priya first, and the floor of the context must find it too."""
    q = "What would be a good gift for Priya this year?"
    with _floor_only(True) as whole, _floor_only(False) as masked:
        assert whole.recall(q, user_id="u", at=T0).plan["plan"]["meaning_text"] == "What would be a good gift for this year?"
        first = [i.source_message_ids for i in whole.build_context(q, user_id="u", max_tokens=60, at=T0).items]
        assert first and first[0] == ["g4"], first
        # the switch really restores the masked search: the gift turns lead and Priya's does not fit
        off = [m for i in masked.build_context(q, user_id="u", max_tokens=60, at=T0).items for m in i.source_message_ids]
        assert "g4" not in off, off
