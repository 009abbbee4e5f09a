"""build_context cuts long raw turns to the sentences the question is about (digest.focus)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import Message, create_good_memory
from goodmemory.testing import FakeEmbedder

T0 = datetime(2023, 5, 1, 10, 0, tzinfo=UTC)
LONG = ("It's been going well! Last week I talked to my friend about a fan convention downtown. "
        "We went to a place in London a few years ago and it felt like walking into a movie set. "
        "The tour guide knew every film location by heart. "
        "My sister adopted a puppy in March and it chews everything in the flat. "
        "I also started learning the guitar this spring, which is hard on the fingers but fun.")


def _context(focus_turns: bool, max_tokens: int = 400):  # type: ignore[no-untyped-def]
    mem = create_good_memory("sqlite://", embedder=FakeEmbedder(), config={"focus_turns": focus_turns})
    msgs = [Message(role="user", name="Tim", content=LONG, id="D1:1", timestamp=T0)]
    msgs += [Message(role="user", name="John", content=f"I trained with the team in Chicago on day {i} of camp.",
                     id=f"D1:{i + 2}", timestamp=T0 + timedelta(minutes=i + 1)) for i in range(12)]
    mem.remember(msgs, user_id="u", session_id="s1", at=T0)
    return mem.build_context("Which places has Tim visited in London?", user_id="u", max_tokens=max_tokens,
                             at=T0 + timedelta(days=3))


def test_a_long_turn_shows_only_its_sentence_about_the_question_and_keeps_its_citation() -> None:
    ctx = _context(True)
    item = next(i for i in ctx.items if "D1:1" in i.source_message_ids)
    assert "London" in item.text and "guitar" not in item.text and "…" in item.text
    whole = next(i for i in _context(False).items if "D1:1" in i.source_message_ids)
    assert "guitar" in whole.text
    assert item.tokens < whole.tokens


def test_facts_of_the_family_the_question_asks_about_come_right_after_the_best_hit() -> None:
    """"which credit option" points at card.* facts; one that shares no word with the question must still
    come right after the best hit, not behind the chatter the search finds."""
    from goodmemory import Candidate, MemoryKind
    from goodmemory.testing import ScriptedExtractor

    fact = "I pay with the blue Visa, it ends in 4417."
    script = {fact: [Candidate(kind=MemoryKind.FACT, key="card.visa.last4", value="4417",
                               text="User's Visa ends in 4417.", confidence=0.9)]}
    mem = create_good_memory("sqlite://", embedder=FakeEmbedder(), extractor=ScriptedExtractor(script))
    cities = ["Lisbon", "Oslo", "Lima", "Cairo", "Seoul", "Quito", "Dakar", "Hanoi", "Perth", "Riga", "Tunis", "Porto"]
    msgs = [Message(role="user", content=fact, id="m0", timestamp=T0)]
    msgs += [Message(role="assistant", content=f"To book the flight to {c} you should use the early fare; the {c} "
                     f"flight option is {n} weeks out.", id=f"m{n}", timestamp=T0 + timedelta(minutes=n))
             for n, c in enumerate(cities, start=1)]
    mem.remember(msgs, user_id="u", session_id="s1", at=T0)
    ctx = mem.build_context("Which credit option should I use to book the flight?", user_id="u",
                            max_tokens=300, at=T0 + timedelta(days=1))
    assert any(i.kind.value == "fact" and "4417" in i.text for i in ctx.items), ctx.text


def test_a_reply_is_found_through_the_question_it_answers() -> None:
    """"This has been great for my mental health" says nothing about running; the turn it answers does."""
    mem = create_good_memory("sqlite://", embedder=FakeEmbedder())
    turns = [("Caroline", "How is the running going these days? Still doing it every morning?"),
             ("Melanie", "Thanks, Caroline! This has been great for my mental health. I'm gonna keep it up."),
             ("Caroline", "I painted a lake at sunrise last weekend."),
             ("Melanie", "That sounds lovely, the colours must have been great.")]
    mem.remember([Message(role="user", name=who, content=text, id=f"D1:{i}", timestamp=T0 + timedelta(minutes=i))
                  for i, (who, text) in enumerate(turns)], user_id="u", session_id="s1", at=T0)
    hits = mem.recall("What was said about the running?", user_id="u", limit=3,
                      at=T0 + timedelta(days=1)).hits
    reply = next(h for h in hits if h.memory.source.message_ids == ["D1:1"])
    assert any(r.startswith("lexical rank") for r in reply.reasons)  # found by "running", a word it lacks
    assert "running" not in reply.memory.text
    # a turn after a statement (no question) gets nothing from it
    after = mem.list(user_id="u", kinds=["episode"])
    assert next(r for r in after if r.source.message_ids == ["D1:3"]).keywords == ""


def test_turns_of_one_call_read_in_conversation_order_when_they_share_a_timestamp() -> None:
    """Messages without timestamps all get the call's time; the timeline must still read as the conversation
    went (question before answer), not in relevance order."""
    mem = create_good_memory("sqlite://", embedder=FakeEmbedder())
    turns = [
        ("user", "Which warranty did I pick for the dishwasher?"),
        ("assistant", "You picked the dishwasher warranty from the store, five years, dishwasher parts and labor."),
        ("user", "And does the dishwasher warranty cover the pump?"),
        ("assistant", "Yes, the dishwasher warranty covers the pump and the dishwasher motor too, dishwasher wise."),
        ("user", "Great, thanks."),
    ]
    mem.remember([{"role": r, "content": c} for r, c in turns], user_id="u", session_id="s1", at=T0)
    ctx = mem.build_context("dishwasher warranty pump", user_id="u", max_tokens=400, at=T0 + timedelta(days=1))
    said = [c for _, c in turns]
    lines = [ln for ln in ctx.text.splitlines() if ln.startswith("- [")]
    order = [next(n for n, c in enumerate(said) if c[:30] in ln) for ln in lines if any(c[:30] in ln for c in said)]
    assert len(order) >= 3, ctx.text
    assert order == sorted(order), ctx.text


def test_open_tasks_do_not_crowd_out_the_history_a_question_is_about() -> None:
    """Open tasks the search did not find fill in after the relevant history; a question about what is
    still pending leads with them."""
    mem = create_good_memory("sqlite://", embedder=FakeEmbedder())
    chores = ["renew the car insurance", "call the plumber", "book the dentist", "pay the water bill",
              "return the library books", "fix the bike light", "email the landlord", "buy printer ink"]
    msgs = [Message(role="user", content=f"I need to {c}.", id=f"t{i}", timestamp=T0 + timedelta(minutes=i))
            for i, c in enumerate(chores)]
    msgs += [Message(role="user", content=f"My sourdough starter on day {i} smelled {w} after feeding it rye flour.",
                     id=f"s{i}", timestamp=T0 + timedelta(hours=1, minutes=i))
             for i, w in enumerate(["sour", "yeasty", "fruity", "sharp", "mild", "nutty", "tangy", "sweet",
                                    "vinegary", "beery", "milky", "earthy"])]
    mem.remember(msgs, user_id="u", session_id="s1", at=T0)
    later = T0 + timedelta(days=2)
    ctx = mem.build_context("How did my sourdough starter smell after feeding?", user_id="u", max_tokens=450, at=later)
    starter = {m for i in ctx.items if "sourdough" in i.text for m in i.source_message_ids}  # turns quoted
    tasks = [i for i in ctx.items if i.kind.value == "open_loop"]
    # before: the tasks competed at the 6th hit's score and took 4 of 12 places (8 about the starter)
    assert len(starter) == 12, ctx.text  # every starter turn is quoted ...
    score = {s["id"]: s["score"] for s in ctx.trace["selected"]}
    worst_starter = min(score[i.memory_id] for i in ctx.items if "sourdough" in i.text)
    assert all(score[t.memory_id] < worst_starter for t in tasks), ctx.text  # ... and tasks only fill in after them
    pending = mem.build_context("What is still pending on my to-do list?", user_id="u", max_tokens=450, at=later)
    assert len([i for i in pending.items if i.kind.value == "open_loop"]) >= 6, pending.text


def test_the_context_says_when_a_document_runs_out() -> None:
    mem = create_good_memory("sqlite://", embedder=FakeEmbedder())
    mem.remember([{"role": "user", "content": "My passport expires on February 18th, 2025."}], user_id="u",
                 session_id="s1", at=datetime(2024, 6, 15, tzinfo=UTC))
    soon = mem.build_context("Anything to sort out before my trip?", user_id="u", at=datetime(2024, 11, 22, tzinfo=UTC))
    assert "(expires in 88 days)" in soon.text and "February 18, 2025" in soon.text, soon.text
    late = mem.build_context("Anything to sort out before my trip?", user_id="u", at=datetime(2025, 3, 1, tzinfo=UTC))
    assert "(expired 2025-02-18" in late.text, late.text


FACTS = ["My locker code at the Eastside gym is 4471.", "The plumber Dan Reyes comes on June 3 at 10am.",
         "Our Wi-Fi password hint is the cat's name, Biscuit, plus 2019.",
         "The car's next service is due at 45,000 miles.", "My sister Ana lands in Lisbon on flight TP1234.",
         "The landlord's number is 555-0142 for emergencies.", "I paid $1,240 for the new laptop on May 20.",
         "The dentist moved my cleaning to July 14 at 3pm.", "Book club meets at 7pm on the 2nd Tuesday at Café Luz.",
         "My passport number ends in 8842 and expires in 2031."]


def _digest_memory(**config: object):  # type: ignore[no-untyped-def]
    mem = create_good_memory("sqlite://", embedder=FakeEmbedder(), config=config)
    msgs = [Message(role="user", content=f, id=f"d:{i}", timestamp=T0 + timedelta(minutes=i)) for i, f in enumerate(FACTS)]
    mem.remember(msgs, user_id="u", session_id="d", at=T0)
    digest = next(r for r in mem.list(user_id="u", kinds=["episode"]) if r.key.startswith("episode.digest."))
    return mem, digest


def test_a_cut_digest_cites_only_the_turns_whose_lines_it_shows() -> None:
    mem, digest = _digest_memory(context_item_max_tokens=30)
    assert len(digest.source.message_ids) >= 6
    ctx = mem.build_context("digest of my session notes", user_id="u", max_tokens=3000, at=T0 + timedelta(days=1))
    item = next(i for i in ctx.items if i.memory_id == digest.id)
    assert item.text.endswith("…") and 1 <= len(item.source_message_ids) < len(digest.source.message_ids)
    for mid in item.source_message_ids:  # each cited turn's line is (at least in part) on show
        sentence = FACTS[int(mid.split(":")[1])]
        assert sentence[:12] in item.text, (mid, item.text)
    for mid in set(digest.source.message_ids) - set(item.source_message_ids):
        assert FACTS[int(mid.split(":")[1])][:12] not in item.text


@pytest.mark.parametrize("question", ["What is my locker code at the gym?",  # the digest ranks first
                                      "What code opens my gym locker 4471?"])  # the turn ranks first
def test_a_digest_and_a_turn_do_not_show_the_same_sentence_twice(question: str) -> None:
    mem, digest = _digest_memory()
    assert "d:0" in digest.source.message_ids
    hits = mem.recall(question, user_id="u", at=T0 + timedelta(days=1), limit=2).hits
    assert {h.memory.id for h in hits} == {digest.id, next(h.memory.id for h in hits if h.memory.id != digest.id)}
    ctx = mem.build_context(question, user_id="u", max_tokens=3000, at=T0 + timedelta(days=1))
    assert ctx.text.count("4471") == 1, ctx.text
    assert [m for i in ctx.items for m in i.source_message_ids].count("d:0") == 1
    assert any(i.memory_id == digest.id for i in ctx.items)  # the digest still brings its other lines


def test_a_question_about_a_day_finds_that_days_turn_beyond_the_usual_search_depth() -> None:
    def memory(recipe: str = "BALANCED", **settings: int):  # type: ignore[no-untyped-def]
        mem = create_good_memory("sqlite://", embedder=FakeEmbedder(), config={
            "retrieval_settings": {"candidates": 4, **settings}, "context_recipe": recipe})
        for i in range(6):  # bowling talk on other days outranks the one turn of the day asked about
            day = datetime(2022, 1, 3 + i, 18, 0, tzinfo=UTC)
            mem.remember([Message(role="user", name="James", content="Bowling, bowling, bowling: bowling league night!",
                                  id=f"b{i}", timestamp=day)], user_id="u", session_id=f"s{i}", at=day)
        day = datetime(2022, 3, 17, 18, 0, tzinfo=UTC)
        mem.remember([Message(role="user", name="James", content="Yesterday I went out with the team and got 2 strikes "
                              "at bowling, then we had pizza and talked about the new season.", id="d1", timestamp=day)],
                     user_id="u", session_id="s9", at=day)
        return mem

    question = "Was James bowling on March 16, 2022?"
    at = datetime(2022, 6, 1, tzinfo=UTC)
    ctx = memory().build_context(question, user_id="u", max_tokens=2000, at=at)
    assert "d1" in [m for i in ctx.items for m in i.source_message_ids], ctx.text
    assert ctx.trace["window_candidates"] >= 1
    hit = next(h for h in memory().recall(question, user_id="u", at=at).hits if h.memory.source.message_ids == ["d1"])
    assert any("among hits from 'march 16, 2022'" in r for r in hit.reasons), hit.reasons
    # without the window channel the turn is beyond the 4 candidates of each channel (and without the dense
    # floor, which reads max_tokens // 16 turns deep and so finds it at 2,000 tokens too)
    off = memory("NO_DENSE_FLOOR", window_candidates=0).build_context(question, user_id="u", max_tokens=2000, at=at)
    assert "d1" not in [m for i in off.items for m in i.source_message_ids], off.text
