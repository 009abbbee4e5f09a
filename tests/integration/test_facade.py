"""The public API end to end over every adapter, with a scripted extractor and a fake embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import (
    ExtractionError,
    GoodMemory,
    MemoryKind,
    MemoryNotFoundError,
    MemoryStatus,
    UserExport,
    WriteAction,
    create_good_memory,
)
from goodmemory.errors import EmbeddingError, InvalidInputError
from goodmemory.tokens import count_tokens

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def _user(content: str) -> dict[str, str]:
    return {"role": "user", "content": content}


def test_remember_keeps_every_turn_as_episode_with_ids(mem: GoodMemory) -> None:
    res = mem.remember([_user("I live in Lisbon."), {"role": "assistant", "content": "Nice city!"},
                        {"role": "user", "content": "ok", "id": "given-id"}], user_id="u1", session_id="s1")
    episodes = mem.list(user_id="u1", kinds=["episode"])
    assert sorted(e.source.message_ids[0] for e in episodes) == ["given-id", "s1:0", "s1:1"]
    assert {e.text for e in episodes} >= {"user: I live in Lisbon.", "assistant: Nice city!"}
    facts = mem.list(user_id="u1", kinds=["profile"])
    assert [(f.key, f.value, f.source.message_ids) for f in facts] == [("profile.home_city", "Lisbon", ["s1:0"])]
    assert res.actions() == {"add": 4}


def test_remember_twice_changes_nothing(mem: GoodMemory) -> None:
    msgs = [_user("I live in Lisbon."), _user("My Honda Civic plate is ABC-1234.")]
    mem.remember(msgs, user_id="u1", session_id="s1")
    before = mem.export(user_id="u1").memories
    second = mem.remember(msgs, user_id="u1", session_id="s1")
    after = mem.export(user_id="u1").memories
    assert [r.model_dump() for r in after] == [r.model_dump() for r in before]
    assert {d.action for d in second.decisions} == {WriteAction.MERGE}
    # without a session id, ids come from the content: still idempotent
    mem.remember(msgs, user_id="u2")
    n = len(mem.export(user_id="u2").memories)
    mem.remember(msgs, user_id="u2")
    assert len(mem.export(user_id="u2").memories) == n


def test_newer_value_supersedes_and_history_is_kept(mem: GoodMemory, clock) -> None:  # type: ignore[no-untyped-def]
    mem.remember([_user("I live in Lisbon.")], user_id="u1", session_id="s1")
    clock.advance(days=30)
    res = mem.remember([_user("I moved to Porto.")], user_id="u1", session_id="s2")
    sup = [d for d in res.decisions if d.action == WriteAction.SUPERSEDE]
    assert len(sup) == 1 and "Lisbon" in sup[0].reason
    active = mem.list(user_id="u1", kinds=["profile"])
    assert [r.value for r in active] == ["Porto"]
    hist = mem.history(active[0].id, user_id="u1")
    assert [h.memory.value for h in hist] == ["Lisbon", "Porto"]
    assert hist[0].valid_to == T0 + timedelta(days=30) and hist[0].memory.superseded_by == active[0].id
    hits = mem.recall("home city", user_id="u1")
    assert all(h.memory.value != "Lisbon" for h in hits.hits)
    hits = mem.recall("home city", user_id="u1", include_history=True)
    assert {"Lisbon", "Porto"} <= {h.memory.value for h in hits.hits}


def test_recall_explains_hits(mem: GoodMemory) -> None:
    mem.remember([_user("My Honda Civic plate is ABC-1234."), _user("I live in Lisbon.")], user_id="u1",
                 session_id="s1")
    res = mem.recall("What is the plate of my Honda Civic?", user_id="u1", limit=3)
    assert res.hits and res.hits[0].memory.key == "vehicle.honda_civic.plate"
    assert any(r.startswith("lexical rank") for r in res.hits[0].reasons)
    assert res.plan["plan"]["intent"] == "fact_lookup"
    assert mem.recall("plate", user_id="nobody").hits == []


def test_build_context_budget_citations_and_monotonicity(mem: GoodMemory) -> None:
    msgs = [_user("I live in Lisbon."), _user("My Honda Civic plate is ABC-1234."), _user("Keep answers short please.")]
    msgs += [_user(f"Note {i}: the garden needs watering on day {i} with the blue hose.") for i in range(30)]
    mem.remember(msgs, user_id="u1", session_id="s1")
    prev: set[str] = set()
    for budget in (60, 120, 250, 500, 1000):
        ctx = mem.build_context("garden watering and my car plate", user_id="u1", max_tokens=budget)
        assert ctx.tokens == count_tokens(ctx.text) <= budget
        ids = {i.memory_id for i in ctx.items}
        assert prev <= ids, "a larger budget must never pack less"
        prev = ids
        for item in ctx.items:
            assert item.source_message_ids and item.memory_id[:6] in ctx.text
    assert "ABC-1234" in ctx.text and "Lisbon" in ctx.text
    assert len({i.memory_id for i in ctx.items}) == len(ctx.items)  # each item once
    small = mem.build_context("garden watering", user_id="u1", max_tokens=60)
    assert any(d.reason.startswith("over budget") for d in small.dropped)


def test_domain_specific_memories_stay_in_their_domain(mem: GoodMemory) -> None:
    mem.remember([_user("I prefer a window seat.")], user_id="u1", session_id="s1", domain="travel")
    mem.remember([_user("Keep answers short please.")], user_id="u1", session_id="s2", domain="travel")
    cook = mem.build_context("seat preferences and answers", user_id="u1", domain="cooking")
    assert "window seat" not in cook.text and "short answers" in cook.text
    travel = mem.build_context("seat preferences", user_id="u1", domain="travel")
    assert "window seat" in travel.text
    assert all(h.memory.domain in (None, "cooking") or h.memory.transferable
               for h in mem.recall("window seat", user_id="u1", domain="cooking").hits)


def test_feedback_confirm_reject_correct_helpful(mem: GoodMemory, clock) -> None:  # type: ignore[no-untyped-def]
    mem.remember([_user("I live in Lisbon."), _user("My Honda Civic plate is ABC-1234.")], user_id="u1",
                 session_id="s1")
    city = mem.list(user_id="u1", kinds=["profile"])[0]
    plate = mem.list(user_id="u1", kinds=["fact"])[0]
    clock.advance(days=1)
    r = mem.feedback(city.id, "confirm", user_id="u1")
    assert r.memory is not None and r.memory.confidence > city.confidence and r.memory.last_confirmed_at == clock()
    r = mem.feedback(plate.id, "helpful", user_id="u1")
    assert r.changed["feedback_score"] == [0.0, 1.0]
    r = mem.feedback(city.id, "correct", user_id="u1", correction="I moved to Porto.")
    assert r.new_memory_id and r.memory is not None and r.memory.value == "Porto"
    assert r.memory.source.extractor == "user correction"
    assert mem.get(city.id, user_id="u1").status == MemoryStatus.SUPERSEDED
    r = mem.feedback(plate.id, "reject", user_id="u1")
    assert mem.get(plate.id, user_id="u1").status == MemoryStatus.RETRACTED
    assert all(h.memory.id != plate.id for h in mem.recall("Honda Civic plate", user_id="u1").hits)
    # a rejected memory is never re-added from the same turns
    res = mem.remember([_user("My Honda Civic plate is ABC-1234.")], user_id="u1", session_id="s1")
    assert all(d.action != WriteAction.ADD or d.candidate is None for d in res.decisions)
    assert mem.list(user_id="u1", kinds=["fact"]) == []


def test_forget_one_memory_and_everything(mem: GoodMemory) -> None:
    mem.remember([_user("I live in Lisbon."), _user("My Honda Civic plate is ABC-1234.")], user_id="u1",
                 session_id="s1")
    mem.remember([_user("I live in Lisbon.")], user_id="u2", session_id="s1")
    plate = mem.list(user_id="u1", kinds=["fact"])[0]
    receipt = mem.forget(plate.id, user_id="u1")
    assert receipt.deleted["rows"] == 2  # the memory and the turn it came from
    assert receipt.deleted["vectors"] == 2 and receipt.deleted["full_text"] == 2 and receipt.tombstone_id
    assert "ABC-1234" not in mem.export(user_id="u1").model_dump_json()
    assert all("ABC-1234" not in h.memory.text for h in mem.recall("ABC-1234 plate", user_id="u1").hits)
    with pytest.raises(MemoryNotFoundError):
        mem.get(plate.id, user_id="u1")
    dry = mem.forget(user_id="u1", dry_run=True, all=True)
    assert dry.dry_run and dry.deleted["rows"] == len(mem.export(user_id="u1").memories)
    receipt = mem.forget(user_id="u1", all=True)
    assert receipt.deleted["rows"] == 2
    assert mem.export(user_id="u1").memories == []
    assert len(mem.export(user_id="u2").memories) == 2  # the other user is untouched
    assert len(mem.storage.tombstones("u1")) == 2


def test_forget_by_session_domain_and_key(mem: GoodMemory) -> None:
    mem.remember([_user("I prefer a window seat.")], user_id="u1", session_id="s1", domain="travel")
    mem.remember([_user("My Honda Civic plate is ABC-1234.")], user_id="u1", session_id="s2", domain="cars")
    assert mem.forget(user_id="u1", key="vehicle.honda_civic.plate").deleted["rows"] == 1
    assert mem.forget(user_id="u1", session_id="s1").deleted["rows"] == 2
    assert {r.domain for r in mem.export(user_id="u1").memories} == {"cars"}
    assert mem.forget(user_id="u1", domain="cars").deleted["rows"] == 1
    assert mem.export(user_id="u1").memories == []


def test_export_import_round_trip(mem: GoodMemory) -> None:
    mem.remember([_user("I live in Lisbon.")], user_id="u1", session_id="s1")
    exp = mem.export(user_id="u1")
    again = UserExport.model_validate_json(exp.model_dump_json())
    assert again == exp
    res = mem.import_(again, user_id="u9")
    assert len(res.memories) == len(exp.memories)
    assert {r.text for r in mem.export(user_id="u9").memories} == {r.text for r in exp.memories}
    assert mem.import_(again, user_id="u9").memories == []  # idempotent


def test_failing_extractor_or_embedder_writes_nothing(mem: GoodMemory) -> None:
    mem.remember([_user("I live in Lisbon.")], user_id="u1", session_id="s1")
    before = mem.export(user_id="u1").memories
    mem.extractor.fail_next = True  # type: ignore[attr-defined]
    with pytest.raises(ExtractionError):
        mem.remember([_user("My Honda Civic plate is ABC-1234.")], user_id="u1", session_id="s2")
    mem.embedder.inner.fail_next = True  # type: ignore[attr-defined]
    with pytest.raises(EmbeddingError):
        mem.remember([_user("Keep answers short please.")], user_id="u1", session_id="s3")
    assert mem.export(user_id="u1").memories == before


def test_maintain_is_idempotent(mem: GoodMemory, clock) -> None:  # type: ignore[no-untyped-def]
    mem.remember([_user("I live in Lisbon."), _user("My Honda Civic plate is ABC-1234.")], user_id="u1",
                 session_id="s1")
    clock.advance(days=400)
    first = mem.maintain(user_id="u1")
    assert first.decayed == 2 and first.marked_stale >= 1
    snapshot = mem.export(user_id="u1").memories
    second = mem.maintain(user_id="u1")
    assert (second.decayed, second.marked_stale, second.consolidated, second.expired) == (0, 0, 0, 0)
    assert mem.export(user_id="u1").memories == snapshot


def test_context_manager_closes(mem: GoodMemory) -> None:
    with mem as m:
        m.remember([_user("I live in Lisbon.")], user_id="u1")
    from goodmemory import InvalidInputError

    with pytest.raises(InvalidInputError):
        mem.recall("x", user_id="u1")


def test_stale_volatile_fact_is_marked_verify(mem: GoodMemory, clock) -> None:  # type: ignore[no-untyped-def]
    mem.remember([_user("I live in Lisbon.")], user_id="u1", session_id="s1")
    clock.advance(days=100)
    assert "last confirmed" not in mem.build_context("where do I live", user_id="u1").text
    clock.advance(days=100)
    ctx = mem.build_context("where do I live", user_id="u1")
    assert "last confirmed 2025-03; verify" in ctx.text
    assert any(i.kind == MemoryKind.PROFILE and i.flags for i in ctx.items)


def test_maintain_compacts_turn_by_turn_sessions_into_a_digest(mem: GoodMemory) -> None:
    for i in range(10):  # an agent that remembers one turn at a time: no call sees the whole session
        mem.remember([_user(f"Booking {i}: flight LX{100 + i} to Zurich on 2025-04-{10 + i:02d}.")], user_id="u1",
                     session_id="trip")
    assert not [r for r in mem.list(user_id="u1", kinds=["episode"]) if r.key.startswith("episode.digest.")]
    report = mem.maintain(user_id="u1")
    digests = [r for r in mem.list(user_id="u1", kinds=["episode"]) if r.key.startswith("episode.digest.")]
    assert report.compacted == 1 and len(digests) == 1
    assert "LX10" in digests[0].text and set(digests[0].source.message_ids) <= {f"trip:{i}" for i in range(10)}
    assert mem.maintain(user_id="u1").compacted == 0  # idempotent
    hits = mem.recall("Zurich flights", user_id="u1", limit=20)
    assert any(h.memory.id == digests[0].id for h in hits.hits)


def test_open_tasks_section_shows_the_newest_loops_and_relevant_older_ones(tmp_path, clock) -> None:  # type: ignore[no-untyped-def]
    from goodmemory.testing import FakeEmbedder

    mem = create_good_memory(f"sqlite:///{tmp_path / 'loops.db'}", embedder=FakeEmbedder(), clock=clock)
    chores = ["renew the passport", "call the plumber", "book the dentist", "return the library books",
              "pay the water bill", "fix the bike tire", "email the landlord", "buy a birthday gift",
              "cancel the gym membership", "update the resume", "clean the gutters", "file the tax return",
              "order new glasses", "schedule the car inspection", "send the wedding invitations",
              "back up the laptop", "repaint the fence", "refill the prescription", "sell the old couch",
              "replace the smoke detector battery"]
    for i, chore in enumerate(chores):
        clock.advance(days=1)
        mem.remember([_user(f"I need to {chore}.")], user_id="u1", session_id=f"s{i}")
    loops = mem.list(user_id="u1", kinds=["open_loop"])
    assert len(loops) == len(chores)
    ctx = mem.build_context("what's the weather like?", user_id="u1", max_tokens=4000)
    shown = {it.text for it in ctx.items if it.section == "tasks"}
    assert any("smoke detector" in t for t in shown)  # the newest
    assert len(shown) < len(chores)  # not every loop, every time: the newest, plus what the search finds
    ctx = mem.build_context("did I renew my passport?", user_id="u1", max_tokens=4000)
    assert any("passport" in it.text for it in ctx.items if it.section == "tasks")  # old but relevant
    mem.close()


def test_failing_query_embedding_raises_embedding_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from goodmemory.testing import FakeEmbedder

    class Broken(FakeEmbedder):
        fail = False

        def embed(self, texts):  # type: ignore[no-untyped-def]
            if self.fail:
                raise EmbeddingError("embedding service down")
            return super().embed(texts)

    emb = Broken()
    mem = create_good_memory(f"sqlite:///{tmp_path / 'b.db'}", embedder=emb)
    mem.remember([_user("I live in Lisbon.")], user_id="u1")
    emb.fail = True
    with pytest.raises(EmbeddingError, match="service down"):
        mem.recall("where do I live?", user_id="u1")
    with pytest.raises(EmbeddingError, match="service down"):
        mem.build_context("where do I live?", user_id="u1")
    emb.fail = False
    assert mem.recall("where do I live?", user_id="u1").hits
    mem.close()


def test_context_leads_with_the_most_important_profile_facts(mem: GoodMemory) -> None:
    """The core profile (config.core_profile_items, 3) is the user's most important facts, whatever their age."""
    from goodmemory.models import MemoryRecord, MemorySource
    from goodmemory.storage.base import WriteBatch

    importance = [0.3, 0.95, 0.4, 0.9, 0.35, 0.85]  # the most important are neither the oldest nor the newest
    facts = [MemoryRecord(user_id="u1", kind=MemoryKind.PROFILE, key=f"profile.fact_{i}", value=f"v{i}",
                          text=f"User fact number {i}.", importance=imp, confidence=0.9,
                          created_at=T0 + timedelta(minutes=i), updated_at=T0 + timedelta(minutes=i),
                          source=MemorySource(session_id="s1", message_ids=[f"s1:{i}"]))
             for i, imp in enumerate(importance)]
    vectors = mem.embedder.embed([f.text for f in facts])
    mem.storage.write("u1", WriteBatch(inserts=facts, vectors={f.id: v for f, v in zip(facts, vectors, strict=True)}))
    ctx = mem.build_context("any plans for the weekend?", user_id="u1", max_tokens=400)
    assert [i.memory_id for i in ctx.items[:3]] == [facts[1].id, facts[3].id, facts[5].id]


def test_forget_everything_needs_all_true(mem: GoodMemory) -> None:
    mem.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u1", session_id="s1")
    before = mem.export(user_id="u1").memories
    with pytest.raises(InvalidInputError, match="all=True"):
        mem.forget(user_id="u1")
    with pytest.raises(InvalidInputError, match="all=True"):
        mem.forget(user_id="u1", session_id="s1", all=True)
    assert mem.export(user_id="u1").memories == before  # neither call deleted anything
    assert mem.forget(user_id="u1", all=True).deleted["rows"] == len(before)


def test_correcting_a_raw_turn_supersedes_it(mem: GoodMemory) -> None:
    # the correction of a turn is a turn under the same key: the write holds the old one it supersedes, so
    # the same-turn guard against racing writers must not refuse it
    mem.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u1", session_id="s1")
    (turn,) = mem.list(user_id="u1", kinds=[MemoryKind.EPISODE])
    res = mem.feedback(turn.id, "correct", user_id="u1", correction="I live in Porto.")
    assert res.new_memory_id is not None
    chain = {h.memory.id: h.memory for h in mem.history(res.new_memory_id, user_id="u1")}
    assert chain[turn.id].status == MemoryStatus.SUPERSEDED and chain[turn.id].superseded_by == res.new_memory_id
    assert chain[res.new_memory_id].status == MemoryStatus.ACTIVE and "Porto" in chain[res.new_memory_id].text
