"""Ranking: reciprocal rank fusion, reranking boosts and MMR diversification."""

from __future__ import annotations

from dataclasses import astuple
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goodmemory.models import MemoryKind, MemoryRecord, MemoryStatus
from goodmemory.ranking import RECIPES, RankedHit, RetrievalConfig, mmr, rank, rrf
from goodmemory.routing import plan_query

NOW = datetime(2025, 3, 12, 15, 30, tzinfo=UTC)


def _rec(mid: str, text: str, *, kind: MemoryKind = MemoryKind.FACT, age_days: float = 1.0,
         **kw: Any) -> MemoryRecord:
    t = NOW - timedelta(days=age_days)
    defaults: dict[str, Any] = {"confidence": 0.8, "volatility": 0.1}
    defaults.update(kw)
    return MemoryRecord(id=mid, user_id="u1", kind=kind, key=f"k.{mid}", value=mid, text=text, valid_from=t,
                        created_at=t, updated_at=t, **defaults)


def _records(*recs: MemoryRecord) -> dict[str, MemoryRecord]:
    return {r.id: r for r in recs}


def _ids(hits: list[RankedHit]) -> list[str]:
    return [h.record.id for h in hits]


# -- rrf ------------------------------------------------------------------
def test_rrf_exact_values() -> None:
    out = rrf([["a", "b"], ["b", "c"]], k=60)
    assert out == pytest.approx({"a": 1 / 61, "b": 1 / 62 + 1 / 61, "c": 1 / 62}, abs=1e-15)
    assert rrf([["x"]], k=0) == {"x": 1.0}
    assert rrf([["a", "b", "c"]], k=1) == pytest.approx({"a": 1 / 2, "b": 1 / 3, "c": 1 / 4})


def test_rrf_weights_and_empty_inputs() -> None:
    out = rrf([["a"], ["a", "b"]], k=10, weights=[2.0, 0.5])
    assert out == pytest.approx({"a": 2.0 / 11 + 0.5 / 11, "b": 0.5 / 12})
    assert rrf([]) == {}
    assert rrf([[], []]) == {}


def test_rrf_sum_over_lists_and_order_within_list_matters() -> None:
    one = rrf([["a", "b"]])
    assert one["a"] > one["b"]
    both = rrf([["a", "b"], ["a", "b"]])
    assert both["a"] == pytest.approx(2 * one["a"])


# -- rank -----------------------------------------------------------------
def test_found_by_both_channels_beats_found_by_one() -> None:
    recs = _records(_rec("a", "alpha car plate"), _rec("b", "bravo insurance policy"))
    plan = plan_query("zzz", at=NOW)
    hits = rank(plan, recs, [("a", 5.0), ("b", 4.0)], [("b", 0.9)], now=NOW)
    assert _ids(hits) == ["b", "a"]
    assert hits[0].score > hits[1].score


def test_reasons_mention_lexical_and_vector_ranks() -> None:
    recs = _records(_rec("a", "alpha car plate"), _rec("b", "bravo insurance policy"))
    hits = rank(plan_query("zzz", at=NOW), recs, [("a", 5.0), ("b", 4.0)], [("b", 0.9)], now=NOW)
    by = {h.record.id: h.reasons for h in hits}
    assert "lexical rank 1" in by["a"] and not any(r.startswith("vector rank") for r in by["a"])
    assert "lexical rank 2" in by["b"] and "vector rank 1 (cos 0.90)" in by["b"]


def test_weak_vector_only_hits_are_noise() -> None:
    recs = _records(_rec("a", "alpha car plate"), _rec("b", "bravo insurance policy"),
                    _rec("c", "charlie dentist appointment"))
    hits = rank(plan_query("zzz", at=NOW), recs, [("a", 1.0)], [("b", 0.10), ("c", 0.5), ("a", 0.05)], now=NOW)
    assert set(_ids(hits)) == {"a", "c"}  # b is below min_vector_similarity; a is kept because text found it
    hits = rank(plan_query("zzz", at=NOW), recs, [], [("b", 0.10)], now=NOW, config=RECIPES["BROAD"])
    assert _ids(hits) == ["b"]


def test_kind_weights_apply() -> None:
    recs = _records(_rec("fa", "user has a lisbon policy", kind=MemoryKind.FACT),
                    _rec("pr", "user lives in lisbon", kind=MemoryKind.PROFILE))
    identity = rank(plan_query("Who am I?", at=NOW), recs, [("fa", 2.0), ("pr", 1.0)], [], now=NOW)
    assert _ids(identity) == ["pr", "fa"]
    assert "kind profile x1.6 for identity intent" in identity[0].reasons
    lookup = rank(plan_query("my policy number", at=NOW), recs, [("pr", 2.0), ("fa", 1.0)], [], now=NOW)
    assert _ids(lookup) == ["fa", "pr"]
    assert "kind fact x1.6 for fact_lookup intent" in lookup[0].reasons
    # equal weights: the lexical order stands
    general = rank(plan_query("lisbon", at=NOW), recs, [("fa", 2.0), ("pr", 1.0)], [], now=NOW)
    assert _ids(general) == ["fa", "pr"]


def test_suppressed_stale_record_is_dropped_and_verify_is_marked() -> None:
    stale_volatile = _rec("sv", "user is at the airport gate", age_days=400, volatility=1.0)
    stale_stable = _rec("ss", "user works as a nurse at the clinic", age_days=1000, volatility=0.05)
    fresh = _rec("fr", "user has a dentist appointment", age_days=1, volatility=1.0)
    recs = _records(stale_volatile, stale_stable, fresh)
    hits = rank(plan_query("zzz", at=NOW), recs, [("sv", 3.0), ("ss", 2.0), ("fr", 1.0)], [], now=NOW)
    assert set(_ids(hits)) == {"ss", "fr"}
    ss = next(h for h in hits if h.record.id == "ss")
    assert ss.marker is not None and ss.marker.endswith("; verify")
    assert any(r.startswith("stale: last confirmed") for r in ss.reasons)
    assert next(h for h in hits if h.record.id == "fr").marker is None


def test_suppress_stale_config_drops_volatile_items_sooner() -> None:
    from goodmemory.verification import StalenessConfig

    rec = _rec("v", "user is in Berlin this week", age_days=60, volatility=0.5)  # horizon 90 days: fresh
    rec2 = _rec("w", "user is in Paris this week", age_days=120, volatility=0.5)  # 1.3 horizons: verify
    recs = _records(rec, rec2)
    th = [("v", 2.0), ("w", 1.0)]
    assert set(_ids(rank(plan_query("zzz", at=NOW), recs, th, [], now=NOW))) == {"v", "w"}
    cfg = RetrievalConfig(staleness=StalenessConfig(suppress_stale=True))
    assert _ids(rank(plan_query("zzz", at=NOW), recs, th, [], now=NOW, config=cfg)) == ["v"]


def test_superseded_records_rank_when_asked_for() -> None:
    old = _rec("old", "user lived in lisbon", status=MemoryStatus.SUPERSEDED, age_days=400)
    hits = rank(plan_query("zzz", at=NOW), _records(old), [("old", 1.0)], [], now=NOW)
    assert _ids(hits) == ["old"]


def test_time_window_boost() -> None:
    # NOW is Wednesday 12 March; last week is 3-9 March
    outside = _rec("out", "went to the cinema downtown", age_days=1)
    inside = _rec("in", "went to the museum uptown", age_days=6)
    recs = _records(outside, inside)
    th = [("out", 2.0), ("in", 1.0)]
    hits = rank(plan_query("what did I do last week", at=NOW), recs, th, [], now=NOW)
    assert _ids(hits) == ["in", "out"]
    assert "in time window 'last week'" in hits[0].reasons
    assert not any("time window" in r for r in hits[1].reasons)
    assert _ids(rank(plan_query("what did I do", at=NOW), recs, th, [], now=NOW)) == ["out", "in"]


def test_feedback_score_moves_ranking() -> None:
    th = [("a", 2.0), ("b", 1.0)]
    plain = _records(_rec("a", "alpha car plate"), _rec("b", "bravo insurance policy"))
    assert _ids(rank(plan_query("zzz", at=NOW), plain, th, [], now=NOW)) == ["a", "b"]
    liked = _records(_rec("a", "alpha car plate", feedback_score=-2.0),
                     _rec("b", "bravo insurance policy", feedback_score=2.0))
    hits = rank(plan_query("zzz", at=NOW), liked, th, [], now=NOW)
    assert _ids(hits) == ["b", "a"]
    assert "feedback +2.0" in hits[0].reasons and "feedback -2.0" in hits[1].reasons


def test_recency_and_confidence_break_ties() -> None:
    th = [("a", 1.0)]
    vh = [("b", 0.9)]
    # same fused score (both rank 1 in one channel); the newer volatile one wins
    recs = _records(_rec("a", "alpha car plate", age_days=100, volatility=0.5),
                    _rec("b", "bravo insurance policy", age_days=1, volatility=0.5))
    assert _ids(rank(plan_query("zzz", at=NOW), recs, th, vh, now=NOW)) == ["b", "a"]
    recs = _records(_rec("a", "alpha car plate", confidence=0.95), _rec("b", "bravo insurance policy",
                                                                         confidence=0.4))
    assert _ids(rank(plan_query("zzz", at=NOW), recs, th, vh, now=NOW)) == ["a", "b"]


def test_transfer_and_conflict_reasons() -> None:
    rec = _rec("a", "user prefers aisle seats", kind=MemoryKind.PREFERENCE, domain="travel",
               conflicts_with=["0123456789abcdef"])
    hits = rank(plan_query("zzz", at=NOW, domain="food"), _records(rec), [("a", 1.0)], [], now=NOW)
    assert "transferred from domain 'travel' (transferable preference)" in hits[0].reasons
    assert "conflict: 01234567" in hits[0].reasons


def test_unknown_ids_are_skipped_and_limit_applies() -> None:
    recs = _records(*[_rec(f"r{i}", f"distinct{i} words{i} here{i}") for i in range(10)])
    th = [(f"r{i}", 10.0 - i) for i in range(10)] + [("ghost", 0.1)]
    hits = rank(plan_query("zzz", at=NOW, limit=4), recs, th, [("ghost", 0.99)], now=NOW)
    assert _ids(hits) == ["r0", "r1", "r2", "r3"]
    assert len(rank(plan_query("zzz", at=NOW), recs, th, [], now=NOW, limit=2)) == 2
    assert rank(plan_query("zzz", at=NOW), {}, [], [], now=NOW) == []


def test_scores_are_sorted_descending() -> None:
    recs = _records(*[_rec(f"r{i}", f"distinct{i} words{i}", age_days=i * 10) for i in range(8)])
    th = [(f"r{i}", 1.0) for i in (3, 1, 7, 0)]
    vh = [(f"r{i}", 0.5) for i in (2, 1, 5, 6)]
    hits = rank(plan_query("zzz", at=NOW), recs, th, vh, now=NOW)
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)


# -- MMR ------------------------------------------------------------------
def test_mmr_drops_near_duplicates() -> None:
    recs = _records(_rec("a", "User's home city is Lisbon."), _rec("b", "user's home city is lisbon"),
                    _rec("c", "User drives a Honda Civic."))
    hits = rank(plan_query("zzz", at=NOW), recs, [("a", 3.0), ("b", 2.0), ("c", 1.0)], [], now=NOW)
    assert _ids(hits) == ["a", "c"]


def test_mmr_keeps_distinct_items_and_prefers_diversity() -> None:
    hits = [RankedHit(_rec("a", "red apple pie recipe"), 1.0, []),
            RankedHit(_rec("b", "red apple pie recipe baked"), 0.95, []),
            RankedHit(_rec("c", "blue ocean sailing trip"), 0.9, [])]
    assert _ids(mmr(hits, 1.0, 3)) == ["a", "b", "c"]  # lambda 1: pure relevance
    assert _ids(mmr(hits, 0.5, 3)) == ["a", "c", "b"]  # diversity pulls c ahead of b
    assert _ids(mmr(hits, 0.8, 2)) == ["a", "c"]
    assert mmr([], 0.8, 5) == []


def _greedy_mmr(hits: list[RankedHit], lam: float, limit: int) -> list[RankedHit]:
    """The plain greedy MMR the vectorized one must equal (every candidate re-scored at every pick)."""
    from goodmemory.ranking import _similarity, _terms

    if not hits:
        return []
    top = hits[0].score or 1.0
    pool = hits[: max(limit * 3, limit)]
    words = [_terms(h.record.text) for h in pool]
    chosen: list[int] = []
    alive = list(range(len(pool)))

    def max_sim(i: int) -> float:
        return max((_similarity(words[i], words[c]) for c in chosen), default=0.0)

    while alive and len(chosen) < limit:
        best = max(alive, key=lambda i: (lam * (pool[i].score / top) - (1 - lam) * max_sim(i), -i))
        alive.remove(best)
        if chosen and max_sim(best) > 0.9:
            continue
        chosen.append(best)
    return [pool[i] for i in chosen]


_VOCAB = ["red", "apple", "pie", "blue", "ocean", "trip", "car", "honda", "civic", "lisbon", "home", "city"]


@settings(max_examples=300, deadline=None)
@given(
    texts=st.lists(st.lists(st.sampled_from(_VOCAB), min_size=0, max_size=5), min_size=0, max_size=40),
    scores=st.lists(st.floats(min_value=0.0, max_value=5.0, allow_nan=False), min_size=40, max_size=40),
    lam=st.sampled_from([0.0, 0.3, 0.5, 0.7, 0.85, 1.0]),
    limit=st.integers(min_value=1, max_value=15),
)
def test_mmr_equals_plain_greedy(texts: list[list[str]], scores: list[float], lam: float,
                                      limit: int) -> None:
    ranked = sorted(scores[: len(texts)], reverse=True)
    hits = [RankedHit(_rec(f"m{i:02d}", " ".join(t)), sc, []) for i, (t, sc) in enumerate(zip(texts, ranked, strict=True))]
    assert _ids(mmr(hits, lam, limit)) == _ids(_greedy_mmr(hits, lam, limit))


_WIDE_VOCAB = [f"w{i}" for i in range(30)]


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.lists(st.sampled_from(_WIDE_VOCAB), min_size=0, max_size=8), min_size=60, max_size=150),
    lam=st.sampled_from([0.5, 0.85]),
    limit=st.integers(min_value=20, max_value=50),
    data=st.data(),
)
def test_mmr_equals_plain_greedy_on_context_sized_pools(texts: list[list[str]], lam: float, limit: int,
                                                        data: st.DataObject) -> None:
    """Pools the size build_context ranks (3 x 40 candidates), with many ties and near-duplicates."""
    scores = sorted(data.draw(st.lists(st.sampled_from([0.5, 1.0, 1.5, 2.0, 2.5, 3.0]), min_size=len(texts),
                                       max_size=len(texts))), reverse=True)
    hits = [RankedHit(_rec(f"m{i:03d}", " ".join(t)), sc, []) for i, (t, sc) in enumerate(zip(texts, scores, strict=True))]
    assert _ids(mmr(hits, lam, limit)) == _ids(_greedy_mmr(hits, lam, limit))


# -- recipes --------------------------------------------------------------
def test_recipes_exist_and_differ() -> None:
    assert {"BALANCED", "PRECISE", "BROAD", "LEXICAL"} <= set(RECIPES)
    assert RECIPES["BALANCED"] == RetrievalConfig()
    tuples = [astuple(c) for c in RECIPES.values()]
    assert len(set(map(repr, tuples))) == len(tuples)
    assert RECIPES["PRECISE"].min_vector_similarity > RECIPES["BALANCED"].min_vector_similarity
    assert RECIPES["BROAD"].candidates > RECIPES["BALANCED"].candidates
    assert RECIPES["LEXICAL"].vector_weight < RECIPES["LEXICAL"].text_weight


def test_lexical_recipe_favours_text_channel() -> None:
    recs = _records(_rec("t", "alpha car plate"), _rec("v", "bravo insurance policy"))
    th, vh = [("t", 1.0)], [("v", 0.9)]
    assert _ids(rank(plan_query("zzz", at=NOW), recs, th, vh, now=NOW, config=RECIPES["LEXICAL"]))[0] == "t"


def test_turns_spoken_by_the_person_the_question_names_rank_first() -> None:
    by_maria = _rec("m", "Maria: I joined a gym last week and the people there are great.",
                    kind=MemoryKind.EPISODE, metadata={"density": 0.5})
    by_john = _rec("j", "John: I joined a gym too, the people there are great.",
                   kind=MemoryKind.EPISODE, metadata={"density": 0.5})
    recs = _records(by_maria, by_john)
    th = [("j", 2.0), ("m", 1.0)]
    plan = plan_query("Where has Maria made friends?", at=NOW)
    assert plan.names == ("maria",)
    hits = rank(plan, recs, th, [], now=NOW)
    assert _ids(hits) == ["m", "j"]
    assert any("spoken by maria" in r for r in hits[0].reasons)
    # without a name in the question the channel order stands
    assert _ids(rank(plan_query("where did someone make friends?", at=NOW), recs, th, [], now=NOW)) == ["j", "m"]


def _turn(mid: str, text: str, seq: int, *, call: int = 0, session: str | None = "s1") -> MemoryRecord:
    r = _rec(mid, text, kind=MemoryKind.EPISODE, metadata={"density": 0.5, "seq": seq})
    written = r.created_at + timedelta(minutes=call)
    return r.model_copy(update={"key": f"episode.{mid}", "created_at": written,
                                "source": r.source.model_copy(update={"session_id": session})})


def test_turns_next_to_a_relevant_turn_of_the_same_conversation_rank_higher() -> None:
    # "What genre is the screenplay?" - the answer two turns on shares no word with the question
    recs = _records(
        _turn("q", "Joanna: I finished my first screenplay last Friday!", 0),
        _turn("ask", "Nate: Congrats! What's it about?", 1),
        _turn("ans", "Joanna: It's a mix of drama and romance.", 2),
        _turn("far", "Joanna: Drama at work again today.", 9),
        _turn("other", "Joanna: It's a mix of work and rest.", 2, call=1),  # same position, another call
    )
    th = [("q", 3.0), ("far", 2.0), ("ans", 1.5), ("other", 1.5)]
    plan = plan_query("What genre is the screenplay?", at=NOW)
    hits = rank(plan, recs, th, [], now=NOW)
    order = _ids(hits)
    assert order.index("ans") < order.index("far")  # lifted by its neighbour "q", two turns back
    assert order.index("ans") < order.index("other")  # same words, same position, but another call
    ans = next(h for h in hits if h.record.id == "ans")
    assert "2 turns from a turn that matches the question" in ans.reasons
    assert not any("from a turn that matches" in r for h in hits if h.record.id in ("far", "other") for r in h.reasons)
    # only candidates lift each other: "ask" was not found, so it is not pulled in
    assert "ask" not in order
    # switched off, the channel order stands
    off = rank(plan, recs, th, [], now=NOW, config=RetrievalConfig(thread_weight=0.0))
    assert _ids(off).index("far") < _ids(off).index("ans")


def test_thread_support_does_not_depend_on_input_order() -> None:
    recs = _records(*(_turn(f"t{i}", f"Ann: note number {i} about gardens", i) for i in range(6)))
    th = [(f"t{i}", float(6 - i)) for i in range(6)]
    plan = plan_query("gardens", at=NOW)
    a = [(h.record.id, round(h.score, 9)) for h in rank(plan, recs, th, [], now=NOW)]
    b = [(h.record.id, round(h.score, 9)) for h in rank(plan, dict(reversed(list(recs.items()))), th, [], now=NOW)]
    assert a == b


def test_only_turns_found_by_the_words_of_the_question_lift_their_neighbours() -> None:
    # a run of weak vector-only hits must not lift each other above a lexical hit
    recs = _records(*(_turn(f"v{i}", f"Ann: starter day {i} smelled fine", i) for i in range(4)),
                    _turn("lex", "Ann: the plumber comes on Friday", 10), _turn("next", "Ann: he is cheap", 11))
    th = [("lex", 1.0)]
    vh = [(f"v{i}", 0.3) for i in range(4)] + [("next", 0.2)]
    hits = rank(plan_query("when does the plumber come?", at=NOW), recs, th, vh, now=NOW)
    by_id = {h.record.id: h for h in hits}
    assert not any("from a turn that matches" in r for i in range(4) for r in by_id[f"v{i}"].reasons)
    assert "1 turn from a turn that matches the question" in by_id["next"].reasons


def test_hits_from_the_time_window_rank_as_a_channel_of_their_own() -> None:
    recs = _records(*(_rec(f"x{i}", f"other bowling night {i}", age_days=100) for i in range(3)),
                    _rec("w", "went bowling with the team", age_days=10))
    plan = plan_query("what did I do last week?", at=NOW)
    th = [("x0", 3.0), ("x1", 2.0), ("x2", 1.0)]
    before = rank(plan, recs, th, [], now=NOW)
    assert "w" not in _ids(before)  # not found by either channel
    after = rank(plan, recs, th, [], now=NOW, window_hits=[["w"]])
    assert _ids(after)[0] == "w"  # rank 1 in the window channel, inside the window (boosted)
    assert any("rank 1 among hits from 'last week'" in r for r in after[0].reasons)
