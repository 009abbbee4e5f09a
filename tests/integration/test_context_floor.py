"""build_context against plain dense retrieval of turns: the floor, question first, budget honesty (issue 18)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from goodmemory import create_good_memory
from goodmemory.config import ContextConfig, GoodMemoryConfig
from goodmemory.errors import ConfigurationError
from goodmemory.ranking import fuse_orders
from goodmemory.testing import FakeEmbedder, FrozenClock

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
FILLER = ["I reorganised the garage shelves on {d}.", "The printer at the office jammed again on {d}.",
          "My manager moved the weekly meeting to {d}.", "I spent {d} sorting the recycling schedule.",
          "The plumber came round on {d} about the gutter.", "I finally filed the quarterly report on {d}."]


def _dense_order(emb: FakeEmbedder, turns: list[str], question: str) -> list[int]:
    mat = emb.embed(turns)
    sims = mat @ emb.embed([question])[0]
    return [int(i) for i in np.argsort(-sims, kind="stable")]


@pytest.fixture
def mem():  # type: ignore[no-untyped-def]
    m = create_good_memory("sqlite://", embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=60)))
    yield m
    m.close()


def _crowded_user(mem) -> None:  # type: ignore[no-untyped-def]
    """A user with a full core profile, three answer-style preferences and open tasks, and one turn that
    answers the question among a lot of unrelated talk."""
    mem.remember([{"role": "user", "content": c} for c in [
        "My name is Dana Whitfield.", "I live in Leeds.", "I work as a structural engineer.",
        "Please keep your answers short.", "I prefer bullet points over paragraphs.",
        "Please don't use emojis with me.", "I need to renew my car insurance.", "I have to book the dentist.",
    ]], user_id="u1", session_id="s0", at=T0)
    for k in range(12):
        mem.remember([{"role": "user", "content": FILLER[k % len(FILLER)].format(d=f"day {k}")},
                      {"role": "assistant", "content": "Thanks for the update, noted."}],
                     user_id="u1", session_id=f"s{k + 1}", at=T0 + timedelta(days=k + 1))
    mem.remember([{"role": "user", "content": "The boiler pressure gauge keeps dropping below one bar overnight.",
                   "id": "gold"}], user_id="u1", session_id="s99", at=T0 + timedelta(days=20))


def test_what_the_question_needs_goes_first_at_a_small_budget(mem) -> None:  # type: ignore[no-untyped-def]
    """Before issue 18 the core profile and the answer-style preferences led at any budget: at 120 tokens
    they filled the block and the one turn about the boiler was left out."""
    _crowded_user(mem)
    ctx = mem.build_context("why does my boiler pressure gauge keep dropping?", user_id="u1", max_tokens=120)
    cited = [m for item in ctx.items for m in item.source_message_ids]
    assert "gold" in cited
    assert ctx.items[0].source_message_ids == ["gold"] or "boiler" in ctx.items[0].text
    # with room to spare the standing sections are back
    big = mem.build_context("why does my boiler pressure gauge keep dropping?", user_id="u1", max_tokens=1000)
    assert {i.section for i in big.items} >= {"about", "history"}


def test_small_and_mid_budgets_are_spent(mem, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Enough relevant material: the block uses 95% of the budget on average, 80% at least, never more.

    The ids are digits only, the cheapest ids cl100k can count (two tokens each): with random hex ids the
    room left at 100 tokens varied from run to run, and one CI run in many left 84 of 100 (two whole turns,
    with too little room for a third that would not be cut to a fragment)."""
    import random
    import uuid

    rng = random.Random(7)

    class _DigitId:
        def __init__(self) -> None:
            self.hex = "".join(rng.choice("0123456789") for _ in range(32))

    monkeypatch.setattr(uuid, "uuid4", _DigitId)
    for k in range(80):
        mem.remember([{"role": "user", "content": f"Boiler log {k}: the pressure read {1 + k % 7 / 10:.1f} bar after "
                                                  f"the radiator in room {k % 9} was bled."}],
                     user_id="u1", session_id=f"b{k}", at=T0 + timedelta(hours=k))
    used = []
    for budget in range(100, 520, 20):
        ctx = mem.build_context("what did the boiler pressure read after bleeding the radiators?", user_id="u1",
                                max_tokens=budget)
        assert 0.8 * budget <= ctx.tokens <= budget, (budget, ctx.tokens)
        used.append(ctx.tokens / budget)
    assert sum(used) / len(used) >= 0.95


def test_the_dense_floor_finds_the_turn_the_words_miss(mem) -> None:  # type: ignore[no-untyped-def]
    """Every one of the nearest raw turns by embedding alone that fits is in the block, whatever the ranking
    does with them: at 150 tokens the context holds the dense baseline's top turn."""
    _crowded_user(mem)
    turns = [e.text for e in mem.list(user_id="u1", kinds=["episode"]) if not e.metadata.get("digest")]
    q = "pressure gauge overnight"
    top = turns[_dense_order(FakeEmbedder(), turns, q)[0]]
    ctx = mem.build_context(q, user_id="u1", max_tokens=150)
    assert any(top.split(": ", 1)[1] in item.text for item in ctx.items)
    off = create_good_memory("sqlite://", embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=60)),
                             config={"context_recipe": "NO_DENSE_FLOOR"})
    try:
        assert GoodMemoryConfig(context_recipe="NO_DENSE_FLOOR").context().dense_weight == 0
    finally:
        off.close()


def test_fuse_orders_interleaves_rewards_agreement_and_drops_zero_weight() -> None:
    assert [m for m, _ in fuse_orders([["a", "b", "c"], ["x", "y", "c"]], [1.0, 1.0], 5)][:4] == ["c", "a", "x", "b"]
    assert [m for m, _ in fuse_orders([["a", "b"], ["x", "y"]], [1.0, 1.0], 60)] == ["a", "x", "b", "y"]
    assert [m for m, _ in fuse_orders([["a", "b"], ["x", "y"]], [1.0, 0.0], 5)] == ["a", "b"]
    scores = dict(fuse_orders([["a"], ["a"]], [1.0, 0.5], 5))
    assert scores["a"] == pytest.approx(1.5 / 6)


def test_context_settings_are_validated() -> None:
    assert GoodMemoryConfig(context_settings={"dense_weight": 0.5}).context().dense_weight == 0.5
    assert GoodMemoryConfig().context() == ContextConfig()
    for bad, pattern in (({"context_recipe": "FAST"}, "context_recipe"),
                         ({"context_settings": {"warp": 1}}, "warp"),
                         ({"context_settings": {"fusion_k": 0}}, "fusion_k")):
        with pytest.raises(ConfigurationError, match=pattern):
            create_good_memory("sqlite://", config=bad, embedder=FakeEmbedder())


def test_a_small_budget_has_no_section_or_date_headers(mem) -> None:  # type: ignore[no-untyped-def]
    """At 150 tokens the headers ("## Relevant history", one "### <date>" per day) cost as much as a turn:
    the compact block leaves them out and cites by id; a budget above undated_below_tokens keeps them."""
    _crowded_user(mem)
    q = "why does my boiler pressure gauge keep dropping?"
    small = mem.build_context(q, user_id="u1", max_tokens=150)
    assert small.items and not any(line.startswith("#") for line in small.text.splitlines()), small.text
    assert small.tokens <= 150
    big = mem.build_context(q, user_id="u1", max_tokens=1500)
    assert any(line.startswith("## ") for line in big.text.splitlines())
    assert any(line.startswith("### ") for line in big.text.splitlines())
    off = create_good_memory("sqlite://", embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=60)),
                             config={"context_settings": {"compact_below_tokens": 0, "undated_below_tokens": 0}})
    try:
        _crowded_user(off)
        assert any(line.startswith("#") for line in off.build_context(q, user_id="u1", max_tokens=150).text.splitlines())
    finally:
        off.close()


def _statement(user: str, key: str, text: str, msg: str, at: datetime):  # type: ignore[no-untyped-def]
    from goodmemory.models import MemoryKind, MemoryRecord

    rec = MemoryRecord(user_id=user, kind=MemoryKind.FACT, key=key, value=text, text=f'The user said: "{text}"',
                       metadata={"statement": True}, valid_from=at, created_at=at, updated_at=at)
    rec.source.message_ids = [msg]
    rec.source.timestamp = at
    return rec


def test_statements_do_not_crowd_out_the_facts_a_rule_parsed(mem) -> None:  # type: ignore[no-untyped-def]
    """Shared user-memory @500 fell 0.906 -> 0.865 when the user's later words about their cars, filed under
    vehicle.* by meaning, took every place of the family the question names and the older parsed facts fell out.
    A guard only: in a store this small the search finds the fact by its words as well, so this passes without the
    fix too; the measured case is layer2_01 of the shared suite."""
    from goodmemory.storage.base import WriteBatch

    mem.remember([{"role": "user", "content": "My Honda Civic's plate is KX-4411."}], user_id="u1", session_id="a",
                 at=T0)
    parsed = [r for r in mem.list(user_id="u1") if r.key.startswith("vehicle.")]
    assert parsed, "the rules no longer read the plate: fix the fixture"
    later = T0 + timedelta(days=30)
    batch = WriteBatch(inserts=[_statement("u1", f"vehicle.note_{k}", f"remark {k} on the drive", f"m{k}", later)
                                for k in range(8)])
    mem.storage.write("u1", batch)
    ctx = mem.build_context("Anything I should know about my car?", user_id="u1", max_tokens=400)
    assert any("KX-4411" in item.text for item in ctx.items), ctx.text


def _repeating_user(mem) -> None:  # type: ignore[no-untyped-def]
    """90 visits, each one distinct turn the question is about and the same acknowledgement six times: the
    repeats take most of the nearest turns by embedding, and a turn said word for word again is shown once."""
    rooms = ["kitchen", "attic", "hallway", "cellar", "study", "porch", "bathroom", "landing"]
    for k in range(90):
        mem.remember([{"role": "user", "content": f"Visit {k}: the damp patch in the {rooms[k % 8]} measured "
                                                  f"{10 + k} cm across.", "id": f"visit{k}"}]
                     + [{"role": "assistant", "content": "The damp patch is noted."}] * 6,
                     user_id="u1", session_id=f"v{k}", at=T0 + timedelta(days=k))


@pytest.mark.parametrize("fill_share", [0.95, 0.0])
def test_a_large_budget_is_spent_when_material_is_left(fill_share: float) -> None:
    """Service set @1000 used 585 of 1000 tokens: the fused lists ran out (repeats, digests, a vector search
    spent on facts) while distinct turns were left. The fill reads the next nearest raw turns until the block
    holds 95% of the budget; without it (fill_share 0) this block stops near 70% with 40 of 90 visits."""
    m = create_good_memory("sqlite://", embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=120)),
                           config={"context_settings": {"fill_share": fill_share}})
    try:
        _repeating_user(m)
        ctx = m.build_context("how has the damp patch changed between visits?", user_id="u1", max_tokens=2000)
        visits = {mid for item in ctx.items for mid in item.source_message_ids if mid.startswith("visit")}
        if fill_share:
            assert 0.95 * 2000 <= ctx.tokens <= 2000, ctx.tokens
            assert len(visits) >= 50
        else:  # the figure the fill fixes: this store does leave the budget unspent without it
            assert ctx.tokens < 0.8 * 2000 and len(visits) < 50, (ctx.tokens, len(visits))
    finally:
        m.close()


class _MeaningEmbedder:
    """Stands in for a sentence model: running talk is near the question in meaning whatever its words, and
    polite filler is half-near everything (MiniLM puts "Let me check what we can do." at cos 0.36 to "Make
    me a training plan.")."""

    name, dim = "meaning-test", 66
    topic = ("plan", "race", "achilles", "marathons", "mornings")
    filler = ("let me check", "anything else", "take your time")

    def __init__(self) -> None:
        self.words = FakeEmbedder(64)

    def embed(self, texts):  # type: ignore[no-untyped-def]
        from goodmemory.embeddings.base import normalize_rows

        low = [t.lower() for t in texts]
        extra = np.array([[float(any(w in t for w in self.topic)) + 0.5 * any(f in t for f in self.filler),
                           0.5 * any(f in t for f in self.filler)] for t in low], dtype=np.float32)
        return normalize_rows(np.hstack([self.words.embed(texts) * 0.3, extra]))


@pytest.mark.parametrize("settings", [{"compact_dense_weight": 1.5, "compact_thread_weight": 0.0,
                                       "compact_assistant_overlap": False}, {},
                                      {"compact_assistant_overlap": False},
                                      {"compact_assistant_overlap": False, "generic_reply_share": 1.0}])
def test_at_a_small_budget_the_nearest_turns_go_before_a_hits_polite_neighbours(settings: dict) -> None:
    """Service set @150: the assistant's "Let me check what we can do." next to the one turn sharing the
    question's words was lifted by thread support and took the place of a turn the question needs. At compact
    budgets the dense list can weigh more and thread support be off (not the default: see ContextConfig), and
    (the default) an assistant's reply sharing no word with the question is left out, and (the default at every
    budget) a generic reply weighs ContextConfig.generic_reply_share of its score; with none of these the
    Achilles turn is out."""
    m = create_good_memory("sqlite://", embedder=_MeaningEmbedder(), clock=FrozenClock(T0 + timedelta(days=30)),
                           config={"context_settings": settings})
    try:
        m.remember([{"role": "user", "content": "For the plan: I can only do three mornings a week.", "id": "hit"},
                    {"role": "assistant", "content": "Let me check what we can do."},
                    {"role": "assistant", "content": "Noted, is there anything else?"},
                    {"role": "user", "content": "Take your time, no rush."}], user_id="u1", session_id="a", at=T0)
        for k, (mid, text) in enumerate([("race", "I've got a 10k race booked for the 6th of June."),
                                         ("achilles", "My physio says the right Achilles is tight, so go easy uphill."),
                                         ("past", "I used to run half marathons before the kids arrived.")]):
            m.remember([{"role": "user", "content": text, "id": mid}], user_id="u1", session_id=mid,
                       at=T0 + timedelta(days=2 + 2 * k))
        ctx = m.build_context("Make me a training plan.", user_id="u1", max_tokens=120)
        cited = [mid for item in ctx.items for mid in item.source_message_ids]
        if settings == {"compact_assistant_overlap": False, "generic_reply_share": 1.0}:
            assert "achilles" not in cited and "a:1" in cited, cited  # what the settings fix
        else:
            assert {"hit", "race", "achilles", "past"} <= set(cited) and "a:1" not in cited, cited
    finally:
        m.close()


def test_a_reply_said_in_every_session_takes_one_place_of_the_dense_floor(mem, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The same polite reply in every session ("Let me check what we can do.") took the first four places of the
    dense list on the service set (MiniLM) and pushed the user's own turns down the fusion; the packing showed it
    once anyway. The dense list fused now holds one record per text, the nearest."""
    import goodmemory._read as read

    facts = ["The boiler in the loft is a Worcester combi from 2014.", "The boiler pressure drops after I bleed radiators.",
             "Our boiler service contract ends in May.", "The boiler makes a banging noise at six in the morning."]
    for k, fact in enumerate(facts):
        mem.remember([{"role": "user", "content": fact, "id": f"f{k}"}]
                     + [{"role": "assistant", "content": "Let me check the boiler for you."},
                        {"role": "user", "content": FILLER[k].format(d=f"day {k}")}] * 3,
                     user_id="u1", session_id=f"s{k}", at=T0 + timedelta(days=k))
    fused: list[list[list[str]]] = []
    real = read.fuse_orders
    monkeypatch.setattr(read, "fuse_orders", lambda lists, *a: fused.append(lists) or real(lists, *a))
    mem.build_context("what about my boiler", user_id="u1", max_tokens=120)
    text = {r.id: r.text for r in mem.list(user_id="u1")}
    dense = [text[m] for m in fused[0][1]]
    assert sum("Let me check the boiler" in t for t in dense) == 1, dense  # before: 12 of the list
    assert len(dense) == len(set(dense)) and {f"user: {f}" for f in facts} <= set(dense)


def _dense_fused(mem, monkeypatch, question: str, **kw) -> list[str]:  # type: ignore[no-untyped-def]
    """The texts of the dense list build_context fuses for ``question``."""
    import goodmemory._read as read

    fused: list[list[list[str]]] = []
    real = read.fuse_orders
    monkeypatch.setattr(read, "fuse_orders", lambda lists, *a: fused.append(lists) or real(lists, *a))
    user = kw.pop("user_id", "u1")
    mem.build_context(question, user_id=user, max_tokens=kw.pop("max_tokens", 400))
    text = {r.id: r.text for r in mem.list(user_id=user)}
    return [text[m] for m in fused[-1][1]]


def test_a_question_naming_a_speaker_keeps_that_speakers_turns_in_the_dense_list(monkeypatch) -> None:
    """Two named people talking: the question about Priya's hobbies is answered by what Priya said, and Tomas's
    questions about hobbies ("What hobbies keep you busy?") sat near it in the dense list."""
    m = create_good_memory("sqlite://", embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=60)))
    try:
        talk = [("Tomas", "What hobbies keep you busy these days, Priya?"), ("Priya", "Mostly pottery and bouldering."),
                ("Tomas", "My hobbies are woodwork and chess."), ("Priya", "I also started a choir on Tuesdays."),
                ("Tomas", "Do your hobbies leave you any free weekends?"), ("Priya", "Not many, honestly.")]
        m.remember([{"role": "user", "content": f"{who}: {said}", "name": who} for who, said in talk],
                   user_id="u1", session_id="s1", at=T0)
        dense = _dense_fused(m, monkeypatch, "What hobbies does Priya have?")
        assert len(dense) == 3 and all(t.startswith("Priya: ") for t in dense), dense  # before: Tomas's too
        off = create_good_memory("sqlite://", embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=60)),
                                 config={"context_settings": {"dense_named_speakers": False}})
        try:
            off.remember([{"role": "user", "content": f"{who}: {said}", "name": who} for who, said in talk],
                         user_id="u1", session_id="s1", at=T0)
            assert any("Tomas" in t for t in _dense_fused(off, monkeypatch, "What hobbies does Priya have?"))
        finally:
            off.close()
    finally:
        m.close()


def test_a_named_person_who_never_speaks_leaves_the_dense_list_whole(mem, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A user talking to an assistant about their sister: no turn is Anna's, so no turn is dropped."""
    mem.remember([{"role": "user", "content": "My sister Anna is visiting in June."},
                  {"role": "assistant", "content": "Lovely, shall I plan something for Anna's visit?"},
                  {"role": "user", "content": "Yes, she likes museums."}], user_id="u1", session_id="s1", at=T0)
    dense = _dense_fused(mem, monkeypatch, "What does Anna like?")
    assert len(dense) == 3, dense


def test_how_the_user_wants_answers_is_not_crowded_out_by_a_full_profile(mem) -> None:  # type: ignore[no-untyped-def]
    """The core profile and the answer style are two standing lists: as one list, five profile facts put the one
    style preference at rank 6, below every long turn a 1000-token block holds."""
    mem.remember([{"role": "user", "content": c} for c in [
        "My name is Harriet Quill.", "I live in Norwich.", "I work as a school librarian.",
        "I'm 64 years old.", "My husband is called Desmond.",
    ]], user_id="u1", session_id="s0", at=T0)
    mem.remember([{"role": "user", "content": "Please always use British spelling with me."}], user_id="u1",
                 session_id="s1", at=T0 + timedelta(days=1))
    style = [m for m in mem.list(user_id="u1", kinds=["preference"]) if m.key.startswith("preference.communication.")]
    assert style, "the style preference is stored"
    for k in range(40):
        mem.remember([{"role": "user", "content": " ".join(FILLER[(k + j) % len(FILLER)].format(d=f"day {k + j}")
                                                           for j in range(4))}],
                     user_id="u1", session_id=f"f{k}", at=T0 + timedelta(days=2 + k))
    ctx = mem.build_context("Draft a short letter to the parish council about the bus shelter.", user_id="u1",
                            max_tokens=1000)
    assert any(i.memory_id == style[0].id for i in ctx.items), ctx.text


def _tastes_among_talk(mem) -> None:  # type: ignore[no-untyped-def]
    """Two tastes said once, weeks apart, among a lot of talk about other things."""
    for k in range(24):
        mem.remember([{"role": "user", "content": FILLER[k % len(FILLER)].format(d=f"day {k}")},
                      {"role": "assistant", "content": "Thanks for the update, noted."}],
                     user_id="u1", session_id=f"s{k}", at=T0 + timedelta(days=k))
        if k in (5, 17):
            said = "I'm completely obsessed with wild swimming." if k == 5 else "Escape rooms are not for me."
            mem.remember([{"role": "user", "content": said, "id": f"taste{k}"}], user_id="u1",
                         session_id=f"t{k}", at=T0 + timedelta(days=k, hours=2))


@pytest.mark.parametrize("weight", [1.0, 0.0])
def test_a_question_asking_for_a_choice_gets_the_users_tastes(weight: float) -> None:
    """A recommendation question rarely shares a word with the tastes it turns on ("Any ideas for a day out?" /
    "obsessed with wild swimming"): with the taste list the nearest preferences are in a small block whatever
    the words; without it (weight 0) the talk nearest the question fills it."""
    cfg = GoodMemoryConfig(context_settings={"taste_weight": weight})
    mem = create_good_memory("sqlite://", embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=60)),
                             config=cfg)
    try:
        _tastes_among_talk(mem)
        assert any(h.memory.kind == "preference" for h in mem.recall("wild swimming", user_id="u1").hits)
        ask = "Any ideas for a day out with my sister next weekend?"
        ctx, mid = (mem.build_context(ask, user_id="u1", max_tokens=b) for b in (150, 300))
        cited, cited_mid = ({m for item in c.items for m in item.source_message_ids} for c in (ctx, mid))
        if weight:
            assert {"taste5", "taste17"} & cited and {"taste5", "taste17"} <= cited_mid, ctx.text
        else:
            assert not {"taste5", "taste17"} & cited, ctx.text
        # a question that asks for no choice reads no tastes
        lookup = mem.build_context("When did the plumber come round?", user_id="u1", max_tokens=60)
        assert not {"taste5", "taste17"} & {m for item in lookup.items for m in item.source_message_ids}, lookup.text
    finally:
        mem.close()



def test_a_question_asking_for_a_choice_gets_the_users_health_conditions() -> None:
    """What to cook turns on a condition ("I'm type 2 diabetic") as much as on a taste: the condition is in the
    block of a recommendation question that names neither it nor food, among unrelated talk."""
    mem = create_good_memory("sqlite://", embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=60)))
    try:
        for k in range(24):
            mem.remember([{"role": "user", "content": FILLER[k % len(FILLER)].format(d=f"day {k}")}],
                         user_id="u1", session_id=f"s{k}", at=T0 + timedelta(days=k))
        mem.remember([{"role": "user", "content": "I'm type 2 diabetic, so I keep an eye on carbs.", "id": "cond"}],
                     user_id="u1", session_id="c", at=T0 + timedelta(days=3, hours=2))
        assert any(r.key.startswith("fact.health.") for r in mem.list(user_id="u1"))
        ctx = mem.build_context("Any ideas for a birthday lunch for my sister?", user_id="u1", max_tokens=150)
        assert "cond" in {m for item in ctx.items for m in item.source_message_ids}, ctx.text
    finally:
        mem.close()


def _tasteful_user(mem) -> None:  # type: ignore[no-untyped-def]
    """Tastes the rules read (each a memory the ranked search and the taste list both find), answer styles, and one
    turn nearest the question by its words that no rule reads."""
    mem.remember([{"role": "user", "content": c} for c in [
        "I love painting watercolours of the coast.", "I love bright yellow kitchens.", "I love walking by the sea.",
        "I love reading crime novels in the garden.", "I love the colour of old brick walls.",
        "I love painting old furniture.", "I love a cosy bedroom.", "Please keep your answers short.",
        "Please give me concrete examples.",
    ]], user_id="u1", session_id="s0", at=T0)
    for k in range(8):
        mem.remember([{"role": "user", "content": FILLER[k % len(FILLER)].format(d=f"day {k}")}],
                     user_id="u1", session_id=f"s{k + 1}", at=T0 + timedelta(days=k + 1))
    mem.remember([{"role": "user", "content": "Orange colour paint on bedroom walls looks garish to me.", "id": "gold"}],
                 user_id="u1", session_id="s99", at=T0 + timedelta(days=20))


def test_the_turn_nearest_the_question_is_never_fused_out(mem) -> None:  # type: ignore[no-untyped-def]
    """Memories that two lists share (the ranked search and the taste list) outranked the one turn dense retrieval
    puts first, and a small block left it out; the first dense turn now leads (ContextConfig.dense_pinned)."""
    _tasteful_user(mem)
    question = "What colour paint should I use for the bedroom walls?"
    turns = [r for r in mem.list(user_id="u1") if r.kind.value == "episode" and r.text.startswith("user: ")]
    nearest = turns[_dense_order(FakeEmbedder(), [r.text for r in turns], question)[0]]
    assert nearest.source.message_ids == ["gold"]
    ctx = mem.build_context(question, user_id="u1", max_tokens=70)
    assert "gold" in [m for item in ctx.items for m in item.source_message_ids]
    # the knob is what keeps it: unpinned, the shared memories fill the block first
    unpinned = create_good_memory(mem.storage, embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=60)),
                                  config=GoodMemoryConfig(context_settings={"dense_pinned": 0}))
    ctx0 = unpinned.build_context(question, user_id="u1", max_tokens=70)
    assert "gold" not in [m for item in ctx0.items for m in item.source_message_ids]


def test_a_small_block_cites_each_turn_once(mem) -> None:  # type: ignore[no-untyped-def]
    """A memory and the turn it came from are one piece of evidence: a small block holds one of them, and the
    room goes to another turn (ContextConfig.one_item_per_turn_below)."""
    _tasteful_user(mem)
    question = "What should I read in the garden this summer?"
    for config in (None, GoodMemoryConfig(context_settings={"one_item_per_turn_below": 0})):
        m = mem if config is None else create_good_memory(
            mem.storage, embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=60)), config=config)
        ctx = m.build_context(question, user_id="u1", max_tokens=150)
        cited = [tuple(item.source_message_ids) for item in ctx.items]
        if config is None:
            assert len(cited) == len(set(cited))
        else:
            assert len(cited) > len(set(cited))  # off, a memory and its own turn both take room
