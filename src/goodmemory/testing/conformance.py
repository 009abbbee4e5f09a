"""The storage conformance suite: subclass it to test an adapter.

    class TestMyStorage(StorageConformance):
        @pytest.fixture
        def storage(self, tmp_path):
            s = MyStorage(...)
            yield s
            s.close()

Required behaviour runs for every adapter; tests of optional capabilities
are skipped when the adapter does not declare them. ``BulkLoadConformance``
(in ``_bulk_conformance``) holds the tests of ``write_bulk`` alone (``StorageConformance``
includes them), for adapters with more than one bulk strategy to run each.
"""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from ..errors import DimensionMismatchError, GoodMemoryError, StorageError
from ..keys import episode_key
from ..models import MemoryKind, MemoryStatus
from ..storage.base import (
    MemoryEvent,
    MemoryFilter,
    Storage,
    TextQuery,
    VectorQuery,
    WriteBatch,
    list_many,
)
from ._bulk_conformance import DIM, T0, BulkLoadConformance, make_record
from ._bulk_conformance import vec as _vec
from ._conformance_tags import TagConformance

__all__ = ["BulkLoadConformance", "StorageConformance", "make_record"]


class StorageConformance(BulkLoadConformance, TagConformance):
    """Mixin of tests; subclasses provide a ``storage`` fixture yielding a fresh, empty adapter."""

    # -- CRUD -------------------------------------------------------------
    def test_insert_get_list_count(self, storage: Storage) -> None:
        a = make_record("alice", "Alice lives in Porto", key="profile.home_city", kind=MemoryKind.PROFILE)
        b = make_record("alice", "Alice drives a Honda Civic", minutes=1)
        storage.write("alice", WriteBatch(inserts=[a, b], vectors={a.id: _vec(1), b.id: _vec(2)}))
        got = storage.get("alice", a.id)
        assert got is not None and got.text == a.text and got.kind == MemoryKind.PROFILE
        assert got.model_dump() == a.model_dump()
        assert [r.id for r in storage.list("alice")] == [a.id, b.id]
        assert storage.count("alice") == 2
        assert storage.count("alice", MemoryFilter(kinds=(MemoryKind.PROFILE,))) == 1
        assert storage.dim == DIM

    def test_update_replaces_record(self, storage: Storage) -> None:
        a = make_record("alice", "Alice likes tea")
        storage.write("alice", WriteBatch(inserts=[a], vectors={a.id: _vec(1)}))
        a2 = a.model_copy(update={"status": MemoryStatus.SUPERSEDED, "confidence": 0.9})
        storage.write("alice", WriteBatch(updates=[a2]))
        got = storage.get("alice", a.id)
        assert got is not None and got.status == MemoryStatus.SUPERSEDED and got.confidence == 0.9
        assert storage.list("alice", MemoryFilter()) == []  # default filter: active only

    def test_filters(self, storage: Storage) -> None:
        recs = [
            make_record("u", "travel window seat", domain="travel", key="pref.seat", minutes=1),
            make_record("u", "cooking cast iron", domain="cooking", key="pref.pan", minutes=2),
            make_record("u", "speaks Portuguese", domain="cooking", transferable=True, kind=MemoryKind.PROFILE,
                        key="profile.lang", minutes=3),
            make_record("u", "no domain fact", key="fact.x", minutes=4, session_id="s2"),
        ]
        storage.write("u", WriteBatch(inserts=recs))
        vis = {r.text for r in storage.list("u", MemoryFilter(visible_in_domain="travel"))}
        assert vis == {"travel window seat", "speaks Portuguese", "no domain fact"}
        assert {r.text for r in storage.list("u", MemoryFilter(domain="cooking"))} == {"cooking cast iron",
                                                                                       "speaks Portuguese"}
        assert [r.text for r in storage.list("u", MemoryFilter(session_id="s2"))] == ["no domain fact"]
        assert [r.text for r in storage.list("u", MemoryFilter(key_prefix="pref."))] == ["travel window seat",
                                                                                        "cooking cast iron"]
        assert [r.text for r in storage.list("u", MemoryFilter(keys=("fact.x",)))] == ["no domain fact"]
        assert len(storage.list("u", limit=2)) == 2

    def test_newest_first_with_a_limit_gives_the_newest(self, storage: Storage) -> None:
        recs = [make_record("u", f"loop number {i}", key=f"task.t{i}", kind=MemoryKind.OPEN_LOOP, minutes=i)
                for i in range(8)]
        storage.write("u", WriteBatch(inserts=recs))
        newest = storage.list("u", MemoryFilter(kinds=(MemoryKind.OPEN_LOOP,), newest_first=True), limit=3)
        assert [r.text for r in newest] == ["loop number 7", "loop number 6", "loop number 5"]
        oldest = storage.list("u", MemoryFilter(kinds=(MemoryKind.OPEN_LOOP,)), limit=2)
        assert [r.text for r in oldest] == ["loop number 0", "loop number 1"]

    def test_list_many_equals_one_list_per_request(self, storage: Storage) -> None:
        recs = [
            *(make_record("u", f"loop number {i}", key=f"task.t{i}", kind=MemoryKind.OPEN_LOOP, minutes=i,
                          domain="travel" if i % 2 else None) for i in range(6)),
            make_record("u", "lives in Porto", key="profile.home_city", kind=MemoryKind.PROFILE, minutes=10),
            make_record("u", "books window seats", key="booking.seat", minutes=11, domain="travel"),
            make_record("u", "booking code XK2", key="booking.code", minutes=12, domain="travel"),
            make_record("u", "cooks with cast iron", key="pref.pan", minutes=13, domain="cooking"),
        ]
        storage.write("u", WriteBatch(inserts=recs))
        storage.write("other", WriteBatch(inserts=[make_record("other", "other loop", key="task.o",
                                                               kind=MemoryKind.OPEN_LOOP)]))
        requests = [
            (MemoryFilter(kinds=(MemoryKind.PROFILE,), visible_in_domain="cooking"), None),
            (MemoryFilter(kinds=(MemoryKind.OPEN_LOOP,), visible_in_domain="cooking", newest_first=True), 2),
            (MemoryFilter(key_prefix="booking.", newest_first=True), 1),
            (MemoryFilter(key_prefix="nothing."), 5),
            (MemoryFilter(memory_ids=(recs[7].id, recs[0].id, "missing")), None),
            (MemoryFilter(kinds=(MemoryKind.OPEN_LOOP,)), None),
        ]
        got = list_many(storage, "u", requests)
        want = [storage.list("u", flt, limit=limit) for flt, limit in requests]
        assert [[r.id for r in rs] for rs in got] == [[r.id for r in rs] for rs in want]
        assert [r.text for r in got[1]] == ["loop number 4", "loop number 2"]
        assert [r.text for r in got[2]] == ["booking code XK2"]
        assert all(r.user_id == "u" for rs in got for r in rs)
        assert list_many(storage, "u", []) == []
        # the same shapes for another user (adapters may reuse a built statement): only theirs
        shapes = [req for req in requests if req[0].memory_ids is None]
        mine = [[r.id for r in storage.list("u", flt, limit=limit)] for flt, limit in shapes]
        for _ in range(2):
            assert [[r.id for r in rs] for rs in list_many(storage, "u", shapes)] == mine
            theirs = list_many(storage, "other", shapes)
            assert [[r.text for r in rs] for rs in theirs] == [[], ["other loop"], [], [], ["other loop"]]

    # -- isolation --------------------------------------------------------
    def test_scope_isolation(self, storage: Storage) -> None:
        a = make_record("alice", "secret plan of alice zebra")
        b = make_record("bob", "bob's zebra notes")
        storage.write("alice", WriteBatch(inserts=[a], vectors={a.id: _vec(1)}))
        storage.write("bob", WriteBatch(inserts=[b], vectors={b.id: _vec(1)}))
        assert storage.get("bob", a.id) is None
        assert [r.id for r in storage.list("bob")] == [b.id]
        assert [m for m, _ in storage.search_text("bob", TextQuery("zebra"))] == [b.id]
        assert [m for m, _ in storage.search_vector("bob", VectorQuery(_vec(1)))] == [b.id]
        counts = storage.delete("bob", [a.id], reason="test")
        assert counts.rows == 0 and storage.get("alice", a.id) is not None
        # a record of another user cannot be written under this user's scope
        with pytest.raises(GoodMemoryError):
            storage.write("bob", WriteBatch(updates=[a.model_copy(update={"text": "hijacked"})]))
        got = storage.get("alice", a.id)
        assert got is not None and got.text == a.text

    # -- search -----------------------------------------------------------
    def test_text_search_matches_brute_force(self, storage: Storage) -> None:
        texts = ["the red car is parked outside", "my blue car needs new tires", "I love red apples",
                 "apples and pears", "nothing relevant here", "car insurance policy number 12345",
                 *[f"filler note number {i} about the weather" for i in range(10)]]
        recs = [make_record("u", t, minutes=i) for i, t in enumerate(texts)]
        storage.write("u", WriteBatch(inserts=recs))
        hits = storage.search_text("u", TextQuery("red car", limit=10))
        ids = [m for m, _ in hits]
        brute = {r.id for r in recs if {"red", "car"} & set(r.text.lower().split())}
        assert set(ids) == brute
        assert ids[0] == recs[0].id  # both terms beat one term
        assert all(s > 0 for _, s in hits) and [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
        assert storage.search_text("u", TextQuery("   ")) == []

    def test_most_important_first_with_a_limit_gives_the_most_important(self, storage: Storage) -> None:
        """Importance, then confidence, descending, then id: the core profile without reading every fact."""
        spec = [(0.5, 0.9), (0.9, 0.6), (0.9, 0.8), (0.2, 0.99), (0.9, 0.8), (0.7, 0.7)]
        recs = [make_record("u", f"fact {i}", key=f"profile.f{i}", kind=MemoryKind.PROFILE, minutes=i)
                for i in range(len(spec))]
        recs = [r.model_copy(update={"importance": imp, "confidence": conf}) for r, (imp, conf) in zip(recs, spec,
                                                                                                      strict=True)]
        storage.write("u", WriteBatch(inserts=recs))
        storage.write("other", WriteBatch(inserts=[make_record("other", "their fact", key="profile.x",
                                                               kind=MemoryKind.PROFILE)]))
        want = sorted(recs, key=lambda r: (-r.importance, -r.confidence, r.id))
        flt = MemoryFilter(kinds=(MemoryKind.PROFILE,), most_important_first=True)
        assert [r.id for r in storage.list("u", flt)] == [r.id for r in want]
        assert [r.id for r in storage.list("u", flt, limit=3)] == [r.id for r in want[:3]]
        assert [r.text for r in storage.list("other", flt, limit=3)] == ["their fact"]
        got = list_many(storage, "u", [(flt, 3), (MemoryFilter(kinds=(MemoryKind.PROFILE,), newest_first=True), 2)])
        assert [[r.id for r in rs] for rs in got] == [[r.id for r in want[:3]], [recs[5].id, recs[4].id]]
        with pytest.raises(ValueError):
            MemoryFilter(newest_first=True, most_important_first=True)

    def test_list_repeats_bind_user_and_ids(self, storage: Storage) -> None:
        """One filter listed again and again (adapters may reuse a built statement): each call gets its
        own user's rows and its own ids, however many; another user's ids never come back."""
        mine = [make_record("u", f"note {i}", key=f"note.n{i}", minutes=i) for i in range(6)]
        theirs = [make_record("other", "their note", key="note.t")]
        storage.write("u", WriteBatch(inserts=mine))
        storage.write("other", WriteBatch(inserts=theirs))
        for _ in range(2):
            for ids in ((mine[4].id, mine[1].id), (mine[0].id,), (), tuple(r.id for r in mine)):
                got = storage.list("u", MemoryFilter(statuses=None, memory_ids=ids))
                assert [r.id for r in got] == [r.id for r in mine if r.id in ids]  # oldest first
            assert storage.list("u", MemoryFilter(statuses=None, memory_ids=(theirs[0].id, mine[2].id))) == [
                mine[2]]
            assert [r.id for r in storage.list("other", MemoryFilter(statuses=None, memory_ids=(
                theirs[0].id, mine[2].id)))] == [theirs[0].id]
            assert [r.id for r in storage.list("u", MemoryFilter(key_prefix="note."), limit=2)] == [
                mine[0].id, mine[1].id]
            assert [r.id for r in storage.list("other", MemoryFilter(key_prefix="note."), limit=2)] == [
                theirs[0].id]
        many = tuple(f"missing-{i}" for i in range(40_000)) + (mine[3].id,)
        assert [r.id for r in storage.list("u", MemoryFilter(statuses=None, memory_ids=many))] == [mine[3].id]

    def test_text_search_repeats_bind_user_words_and_limit(self, storage: Storage) -> None:
        """One filter searched again and again (adapters may reuse a built statement): each search gets
        its own user's rows, for its own words, up to its own limit."""
        mine = [make_record("u", f"red kayak trip number {i}", minutes=i, domain="travel") for i in range(5)]
        theirs = [make_record("other", "red kayak of another user", domain="travel")]
        storage.write("u", WriteBatch(inserts=mine))
        storage.write("other", WriteBatch(inserts=theirs))
        flt = MemoryFilter(visible_in_domain="travel")
        for _ in range(2):
            assert {m for m, _ in storage.search_text("u", TextQuery("kayak", limit=10, filter=flt))} == {
                r.id for r in mine}
            assert [m for m, _ in storage.search_text("other", TextQuery("kayak", limit=10, filter=flt))] == [
                theirs[0].id]
            assert len(storage.search_text("u", TextQuery("kayak", limit=2, filter=flt))) == 2
            assert [m for m, _ in storage.search_text("u", TextQuery("number 3", limit=10, filter=flt))][0] == (
                mine[3].id)
            assert storage.search_text("u", TextQuery("another", limit=10, filter=flt)) == []

    def test_text_search_finds_other_forms_of_a_word(self, storage: Storage) -> None:
        """Every adapter stems: "schedule" finds "scheduled", "paints" finds "painting"."""
        a = make_record("u", "The dentist appointment was scheduled for Tuesday")
        b = make_record("u", "She loves painting landscapes", minutes=1)
        c = make_record("u", "unrelated weather note MV-789234", minutes=2)
        storage.write("u", WriteBatch(inserts=[a, b, c]))
        assert [m for m, _ in storage.search_text("u", TextQuery("schedule"))] == [a.id]
        assert [m for m, _ in storage.search_text("u", TextQuery("appointments"))] == [a.id]
        assert [m for m, _ in storage.search_text("u", TextQuery("paints"))] == [b.id]
        assert [m for m, _ in storage.search_text("u", TextQuery("loved"))] == [b.id]
        assert [m for m, _ in storage.search_text("u", TextQuery("MV-789234"))] == [c.id]

    def test_text_search_is_literal(self, storage: Storage) -> None:
        r = make_record("u", 'quote " NEAR( star * colon: paren) value')
        storage.write("u", WriteBatch(inserts=[r]))
        for q in ['"', "NEAR(", "*", "a:b", "(((", "') OR 1=1 --", "star*", 'x" OR "y']:
            storage.search_text("u", TextQuery(q))  # never raises
        assert [m for m, _ in storage.search_text("u", TextQuery("NEAR( colon:"))] == [r.id]

    def test_vector_search_matches_brute_force(self, storage: Storage) -> None:
        recs = [make_record("u", f"memory number {i}", minutes=i) for i in range(40)]
        vecs = {r.id: _vec(i) for i, r in enumerate(recs)}
        storage.write("u", WriteBatch(inserts=recs, vectors=vecs))
        q = _vec(1000)
        sims = {mid: float(v @ q) for mid, v in vecs.items()}
        brute = sorted(sims, key=lambda m: -sims[m])[:10]
        hits = storage.search_vector("u", VectorQuery(q, limit=10))
        if storage.capabilities.exact_vectors:
            assert [m for m, _ in hits] == brute
            for m, s in hits:
                assert s == pytest.approx(sims[m], abs=1e-5)
        else:
            assert len(set(m for m, _ in hits) & set(brute)) >= 8

    def test_search_respects_filters(self, storage: Storage) -> None:
        a = make_record("u", "tennis on tuesday", domain="fitness", key="a")
        b = make_record("u", "tennis elbow", domain="health", key="b", status=MemoryStatus.SUPERSEDED)
        storage.write("u", WriteBatch(inserts=[a, b], vectors={a.id: _vec(1), b.id: _vec(1)}))
        assert [m for m, _ in storage.search_text("u", TextQuery("tennis"))] == [a.id]
        assert [m for m, _ in storage.search_vector("u", VectorQuery(_vec(1)))] == [a.id]
        flt = MemoryFilter(statuses=None, visible_in_domain="health")
        assert [m for m, _ in storage.search_text("u", TextQuery("tennis", filter=flt))] == [b.id]

    def test_dimension_mismatch_refused(self, storage: Storage) -> None:
        a = make_record("u", "first")
        storage.write("u", WriteBatch(inserts=[a], vectors={a.id: _vec(1)}))
        b = make_record("u", "second", minutes=1)
        with pytest.raises(DimensionMismatchError):
            storage.write("u", WriteBatch(inserts=[b], vectors={b.id: np.ones(DIM + 1, dtype=np.float32)}))
        assert storage.get("u", b.id) is None
        with pytest.raises(DimensionMismatchError):
            storage.search_vector("u", VectorQuery(np.ones(DIM + 3, dtype=np.float32)))

    # -- history ----------------------------------------------------------
    def test_events_are_kept_per_memory(self, storage: Storage) -> None:
        a = make_record("u", "x is 1")
        ev = [MemoryEvent(a.id, "add", T0, {"text": a.text}), MemoryEvent(a.id, "update", T0, {"status": "active"})]
        storage.write("u", WriteBatch(inserts=[a], events=ev))
        assert [e.action for e in storage.events("u", a.id)] == ["add", "update"]
        assert storage.events("other", a.id) == []

    def test_one_record_per_turn(self, storage: Storage) -> None:
        """A second insert of a turn id the user holds is a conflict (two writers planned the same id)."""
        from ..errors import SlotConflictError

        a = make_record("u", "user: I keep bees", key=episode_key("s1:0"), kind=MemoryKind.EPISODE)
        b = make_record("u", "user: I keep ants", key=episode_key("s1:0"), kind=MemoryKind.EPISODE)
        storage.write("u", WriteBatch(inserts=[a]))
        with pytest.raises(SlotConflictError):
            storage.write("u", WriteBatch(inserts=[b]))
        storage.write("other", WriteBatch(inserts=[make_record("other", "user: x", key=episode_key("s1:0"),
                                                               kind=MemoryKind.EPISODE)]))
        assert [r.text for r in storage.list("u", MemoryFilter(statuses=None))] == ["user: I keep bees"]

    def test_reset_history_replaces_a_records_events(self, storage: Storage) -> None:
        a, b = make_record("u", "user: code is zq1"), make_record("u", "user: other", minutes=1)
        storage.write("u", WriteBatch(inserts=[a, b], events=[MemoryEvent(a.id, "add", T0, {"text": "code is zq1"}),
                                                              MemoryEvent(b.id, "add", T0, {"text": "other"})]))
        a2 = a.model_copy(update={"text": "user: code is [forgotten]"})
        storage.write("u", WriteBatch(updates=[a2], reset_history=[a.id],
                                      events=[MemoryEvent(a.id, "add", T0, {"text": "code is [forgotten]"})]))
        assert [e.detail for e in storage.events("u", a.id)] == [{"text": "code is [forgotten]"}]
        assert [e.detail for e in storage.events("u", b.id)] == [{"text": "other"}]
        storage.write("other", WriteBatch(reset_history=[a.id]))  # another user's ids: nothing happens
        assert len(storage.events("u", a.id)) == 1

    def test_one_active_record_per_slot(self, storage: Storage) -> None:
        if not storage.capabilities.enforces_unique_active_slot:
            pytest.skip("adapter does not enforce unique active slots")
        a = make_record("u", "home is Lisbon", key="profile.home_city", kind=MemoryKind.PROFILE, transferable=True)
        b = make_record("u", "home is Porto", key="profile.home_city", kind=MemoryKind.PROFILE, transferable=True,
                        minutes=1)
        storage.write("u", WriteBatch(inserts=[a]))
        with pytest.raises(StorageError):
            storage.write("u", WriteBatch(inserts=[b]))
        # superseding in one batch is fine: the update frees the slot
        a2 = a.model_copy(update={"status": MemoryStatus.SUPERSEDED, "superseded_by": b.id})
        storage.write("u", WriteBatch(inserts=[b], updates=[a2]))
        assert [r.text for r in storage.list("u", MemoryFilter())] == ["home is Porto"]
        assert len(storage.list("u")) == 2  # no filter: every status

    # -- delete -----------------------------------------------------------
    def test_delete_cascades_to_every_index(self, storage: Storage) -> None:
        a = make_record("u", "unique aardvark sentence")
        b = make_record("u", "keep this one", minutes=1)
        storage.write("u", WriteBatch(inserts=[a, b], vectors={a.id: _vec(1), b.id: _vec(2)},
                                      events=[MemoryEvent(a.id, "add", T0)]))
        counts = storage.delete("u", [a.id], reason="test")
        assert (counts.rows, counts.full_text, counts.vectors, counts.history) == (1, 1, 1, 1)
        assert counts.memory_ids == [a.id] and counts.tombstone_id
        assert storage.get("u", a.id) is None
        assert storage.search_text("u", TextQuery("aardvark")) == []
        assert a.id not in [m for m, _ in storage.search_vector("u", VectorQuery(_vec(1)))]
        assert storage.events("u", a.id) == []
        tombs = storage.tombstones("u")
        assert len(tombs) == 1 and tombs[0]["counts"]["rows"] == 1
        assert "aardvark" not in repr(tombs)  # content-free
        assert storage.tombstones("someone-else") == []

    def test_tombstone_time_is_the_callers_clock(self, storage: Storage) -> None:
        a = make_record("u", "dated deletion")
        storage.write("u", WriteBatch(inserts=[a], vectors={a.id: _vec(1)}))
        storage.delete("u", [a.id], reason="test", at=datetime(2020, 5, 17, 8, 30, tzinfo=UTC))
        assert [t["at"][:10] for t in storage.tombstones("u")] == ["2020-05-17"]

    # -- atomicity --------------------------------------------------------
    def test_failed_batch_leaves_nothing(self, storage: Storage) -> None:
        a = make_record("u", "already here")
        storage.write("u", WriteBatch(inserts=[a], vectors={a.id: _vec(1)}))
        b = make_record("u", "new one", minutes=1)
        bad = WriteBatch(inserts=[b], updates=[make_record("u", "ghost update")],  # unknown id -> fails
                         vectors={b.id: _vec(2)})
        with pytest.raises(StorageError):
            storage.write("u", bad)
        assert storage.get("u", b.id) is None
        assert [r.id for r in storage.list("u")] == [a.id]
        assert [m for m, _ in storage.search_text("u", TextQuery("new one"))] == []
        assert [m for m, _ in storage.search_vector("u", VectorQuery(_vec(2)))] == [a.id]

    def test_user_ids(self, storage: Storage) -> None:
        storage.write("b", WriteBatch(inserts=[make_record("b", "x")]))
        storage.write("a", WriteBatch(inserts=[make_record("a", "y")]))
        assert storage.user_ids() == ["a", "b"]
