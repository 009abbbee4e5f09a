"""Properties of the pure write policy (``merge.decide``) and one unit test per docstring rule.

The property tests drive ``decide`` the way the facade does (``_write.run_remember``):
for each candidate, gather the records of its slot (same key or a ``key~conflict``
sibling, same slot scope), split them into active / retracted / history, decide,
and apply ``plan.updates`` and ``plan.inserts`` to an in-memory table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from hypothesis import example, given, settings
from hypothesis import strategies as st

from goodmemory.merge import Plan, SlotView, WritePolicy, decide, normalize_value
from goodmemory.models import Candidate, MemoryKind, MemoryRecord, MemoryStatus, WriteAction
from goodmemory.storage.base import slot_scope
from goodmemory.taxonomy import default_transferable, normalize_key

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=365)
USER = "u1"
DEFAULT_POLICY = WritePolicy()

KEYS = ("profile.home_city", "profile.employer", "preference.travel.seat")
VALUES = ("Lisbon", "Porto", "Berlin", "lisbon.")  # "lisbon." normalises to the same value as "Lisbon"
KIND_OF = {"profile.home_city": MemoryKind.PROFILE, "profile.employer": MemoryKind.PROFILE,
           "preference.travel.seat": MemoryKind.PREFERENCE}


# --------------------------------------------------------------------------- a tiny model of the facade
@dataclass
class Store:
    records: dict[str, MemoryRecord] = field(default_factory=dict)
    injected: frozenset[str] = frozenset()

    def view(self, c: Candidate, *, has_secret: bool = False) -> SlotView:
        key = normalize_key(c.key)
        transferable = default_transferable(c.kind, key) if c.transferable is None else c.transferable
        probe = MemoryRecord(user_id=USER, domain=c.domain, kind=c.kind, key=key, text=c.text or "-",
                             transferable=transferable)
        scope = slot_scope(probe)
        same = [r for r in self.records.values()
                if (r.key == key or r.key.startswith(key + "~")) and slot_scope(r) == scope]
        return SlotView(
            active=[r for r in same if r.status == MemoryStatus.ACTIVE],
            retracted=[r for r in same if r.status == MemoryStatus.RETRACTED],
            history=[r for r in same if r.status == MemoryStatus.SUPERSEDED],
            injected_texts=self.injected,
            has_secret=has_secret,
        )

    def decide(self, c: Candidate, *, policy: WritePolicy = DEFAULT_POLICY, now: datetime = NOW) -> Plan:
        return decide(c, self.view(c), user_id=USER, agent_id=None, session_id="s", now=now, policy=policy)

    def apply(self, plan: Plan) -> None:
        for r in plan.updates:
            assert r.id in self.records, f"plan updates a record that does not exist: {r.id}"
            self.records[r.id] = r
        for r in plan.inserts:
            assert r.id not in self.records, f"plan inserts an id that exists: {r.id}"
            self.records[r.id] = r

    def step(self, c: Candidate) -> Plan:
        plan = self.decide(c)
        self.apply(plan)
        return plan

    def retract(self, record_id: str) -> None:
        """What ``feedback(..., "reject")`` does to a record."""
        r = self.records[record_id].model_copy(deep=True)
        r.status = MemoryStatus.RETRACTED
        r.valid_to = NOW
        self.records[record_id] = r

    def base_key(self, r: MemoryRecord) -> str:
        return r.key.split("~", 1)[0]


def cand(key: str = "profile.home_city", value: str = "Lisbon", *, t: int = 0, mid: str = "m0",
         role: str = "user", confidence: float = 0.9, correction: bool = False, confirmed: bool = False,
         text: str | None = None, kind: MemoryKind | None = None, domain: str | None = None,
         transferable: bool | None = None) -> Candidate:
    return Candidate(
        kind=kind or KIND_OF.get(key, MemoryKind.FACT), key=key, value=value,
        text=text if text is not None else f"User's {key.rsplit('.', 1)[-1].replace('_', ' ')} is {value}.",
        confidence=confidence, message_ids=[mid], role=role, timestamp=T0 + timedelta(days=t),
        is_correction=correction, confirmed_by_user=confirmed, domain=domain, transferable=transferable,
    )


# --------------------------------------------------------------------------- strategies
@st.composite
def candidates(draw: st.DrawFn) -> Candidate:
    key = draw(st.sampled_from(KEYS))
    value = draw(st.sampled_from(VALUES))
    t = draw(st.integers(0, 4))
    # a message id determines what was said and when: the same id always carries the same value and time
    mid = f"m:{key}:{normalize_value(value)}:{t}:{draw(st.integers(0, 1))}"
    return cand(key, value, t=t, mid=mid,
                role=draw(st.sampled_from(("user", "user", "user", "assistant"))),
                confidence=draw(st.sampled_from((0.2, 0.5, 0.7, 0.9))),
                correction=draw(st.booleans()), confirmed=draw(st.booleans()),
                domain=draw(st.sampled_from((None, None, "travel"))),
                transferable=draw(st.sampled_from((None, None, False))))


# an operation is either a candidate or "the user rejects the n-th active record"
ops = st.lists(st.one_of(candidates(), st.integers(0, 9)), min_size=1, max_size=25)
SETTINGS = settings(max_examples=300, deadline=None)


def run(store: Store, operations: list[Candidate | int]) -> list[tuple[Candidate, Plan]]:
    out: list[tuple[Candidate, Plan]] = []
    for op in operations:
        if isinstance(op, int):
            active = sorted((r for r in store.records.values() if r.status == MemoryStatus.ACTIVE),
                            key=lambda r: (r.key.split("~")[0], slot_scope(r), r.value, r.event_time))
            if active:
                store.retract(active[op % len(active)].id)
            continue
        out.append((op, store.step(op)))
    return out


def slot_of(r: MemoryRecord) -> tuple[str, str]:
    return (r.key.split("~", 1)[0], slot_scope(r))


# --------------------------------------------------------------------------- invariants
def assert_one_active_per_slot(store: Store) -> None:
    seen: dict[tuple[str, str], str] = {}
    for r in store.records.values():
        if r.status != MemoryStatus.ACTIVE or "~" in r.key:
            continue
        k = (r.key, slot_scope(r))
        assert k not in seen, f"two active records for {k}: {seen[k]} and {r.id}"
        seen[k] = r.id


def assert_chains_acyclic_and_ordered(store: Store) -> None:
    recs = store.records
    for r in recs.values():
        seen = {r.id}
        cur = r
        while cur.superseded_by is not None:
            assert cur.superseded_by in recs, f"dangling superseded_by {cur.superseded_by}"
            nxt = recs[cur.superseded_by]
            assert nxt.id not in seen, f"supersede cycle through {nxt.id}"
            # the successor was stated (or restated) no earlier than its predecessor
            nxt_time = max(nxt.event_time, nxt.last_confirmed_at or nxt.event_time)
            assert cur.event_time <= nxt_time, (cur.value, cur.event_time, nxt.value, nxt_time)
            assert cur.status != MemoryStatus.ACTIVE, "an active record points to its successor"
            seen.add(nxt.id)
            cur = nxt
        seen = {r.id}
        cur = r
        while cur.supersedes is not None:
            assert cur.supersedes in recs, f"dangling supersedes {cur.supersedes}"
            prv = recs[cur.supersedes]
            assert prv.id not in seen, f"supersede cycle through {prv.id}"
            assert prv.event_time <= max(cur.event_time, cur.last_confirmed_at or cur.event_time)
            seen.add(prv.id)
            cur = prv
        if r.valid_to is not None and r.status == MemoryStatus.SUPERSEDED:
            assert r.valid_from is None or r.valid_from <= r.valid_to


# --------------------------------------------------------------------------- properties
@SETTINGS
@given(ops)
def test_at_most_one_active_record_per_slot(operations: list[Candidate | int]) -> None:
    store = Store()
    for op in operations:
        run(store, [op])
        assert_one_active_per_slot(store)


@SETTINGS
@given(ops)
def test_supersede_chains_are_acyclic_and_time_ordered(operations: list[Candidate | int]) -> None:
    store = Store()
    for op in operations:
        run(store, [op])
        assert_chains_acyclic_and_ordered(store)


@SETTINGS
@given(ops)
def test_deciding_the_same_candidate_twice_adds_nothing_the_second_time(operations: list[Candidate | int]) -> None:
    store = Store()
    for op in operations:
        run(store, [op])
        if isinstance(op, int):
            continue
        snapshot = {k: v.model_dump() for k, v in store.records.items()}
        plan = store.step(op)
        assert plan.inserts == [], plan.decision.reason
        assert plan.decision.action in (WriteAction.MERGE, WriteAction.REJECT), plan.decision
        assert {k: v.model_dump() for k, v in store.records.items()} == snapshot


REPLAY_BUG = ("merge.decide: rule 2 (MERGE into an active record with an equal value) runs before the check "
              "that the candidate's turns are already recorded in the slot's history, so replaying an old "
              "turn whose value is current again (A -> B -> A) adds its message id to the active record and "
              "grows its confidence: a replay is not a no-op")


@SETTINGS
@example([cand(value="Lisbon", mid="m1"), cand(value="Porto", mid="m2", t=1), cand(value="Lisbon", mid="m3", t=2)])
@given(ops)
def test_replaying_the_whole_sequence_changes_nothing(operations: list[Candidate | int]) -> None:
    store = Store()
    run(store, operations)
    snapshot = {k: v.model_dump() for k, v in store.records.items()}
    for c in (op for op in operations if not isinstance(op, int)):
        store.step(c)
    assert {k: v.model_dump() for k, v in store.records.items()} == snapshot


@SETTINGS
@given(ops)
def test_replaying_the_whole_sequence_adds_no_rows_and_keeps_the_active_values(operations: list[Candidate | int]) -> None:
    store = Store()
    run(store, operations)
    before = {r.id: (r.status, r.value) for r in store.records.values()}
    for c in (op for op in operations if not isinstance(op, int)):
        assert not store.step(c).inserts, c
    assert {r.id: (r.status, r.value) for r in store.records.values()} == before


@SETTINGS
@given(ops, candidates())
def test_a_candidate_from_rejected_turns_is_always_rejected(operations: list[Candidate | int], probe: Candidate) -> None:
    store = Store()
    run(store, operations)
    store.step(probe)
    for r in [r for r in store.records.values() if r.key.split("~", 1)[0] == normalize_key(probe.key)]:
        store.retract(r.id)
    before = len(store.records)
    for c in [probe, *(op for op in operations if not isinstance(op, int) and op.key == probe.key)]:
        v = store.view(c)
        if any(set(c.message_ids) & set(r.source.message_ids) for r in v.retracted):
            plan = store.step(c)
            assert plan.decision.action == WriteAction.REJECT, plan.decision
            assert not plan.inserts and not plan.updates
    assert len(store.records) == before


@SETTINGS
@given(ops)
def test_nothing_is_ever_removed(operations: list[Candidate | int]) -> None:
    store = Store()
    for op in operations:
        before = dict(store.records)
        for c, plan in run(store, [op]):
            if plan.decision.action == WriteAction.SUPERSEDE:
                assert plan.decision.supersedes in store.records
                old = store.records[plan.decision.supersedes or ""]
                assert old.status == MemoryStatus.SUPERSEDED and old.superseded_by == plan.decision.memory_id
                assert old.valid_to == c.timestamp
        assert set(before) <= set(store.records)
        assert len(store.records) >= len(before)


@SETTINGS
@given(st.lists(candidates(), min_size=1, max_size=25))
# found by hypothesis: two values in conflict, each restated with an older date (their last_confirmed_at then lay before
# their event_time), and a statement older than both settled the conflict and took the slot
@example([cand(value="Lisbon", mid="a", t=2), cand(value="Porto", mid="b", t=2), cand(value="Lisbon", mid="c"),
          cand(value="Porto", mid="d"), cand(value="Lisbon", mid="e", t=1)])
def test_the_base_slot_value_is_never_older_than_its_history(seq: list[Candidate]) -> None:
    """Without user rejections, the active value of a slot is the newest statement (a restatement counts)."""
    store = Store()
    for c in seq:
        store.step(c)
        for r in store.records.values():
            if r.status != MemoryStatus.ACTIVE or "~" in r.key:
                continue
            newer = [h for h in store.records.values()
                     if h.status == MemoryStatus.SUPERSEDED and slot_of(h) == slot_of(r)
                     and h.event_time > max(r.event_time, r.last_confirmed_at or r.event_time)]
            assert not newer, f"active {r.value!r}@{r.event_time} but {newer[0].value!r}@{newer[0].event_time}"


CONFLICT_BUG = ("merge.decide: superseding a slot only retires the base-key record; a same-instant conflict "
                "sibling (key~id) stays ACTIVE with the older value after a newer value is stated")


@SETTINGS
@example([cand(value="Lisbon", mid="m1"), cand(value="Porto", mid="m2"), cand(value="Berlin", mid="m3", t=1)])
@given(st.lists(candidates(), min_size=1, max_size=25))
def test_no_active_value_is_older_than_another_active_value_of_its_slot(seq: list[Candidate]) -> None:
    """Conflict siblings (``key~…``) included: once a newer value is stated, no older one stays current."""
    store = Store()
    for c in seq:
        store.step(c)
    by_slot: dict[tuple[str, str], list[MemoryRecord]] = {}
    for r in store.records.values():
        if r.status == MemoryStatus.ACTIVE:
            by_slot.setdefault(slot_of(r), []).append(r)
    for slot, active in by_slot.items():
        # when a value was last stated: a restatement counts (a same-instant restatement and a new value conflict)
        times = {max(r.event_time, r.last_confirmed_at or r.event_time) for r in active}
        assert len(times) == 1, f"{slot}: active values from different times: " + ", ".join(
            f"{r.key}={r.value}@{r.event_time:%d}" for r in active)


RESTATE_BUG = ("merge._merge keeps valid_from (first statement) and decide() compares a newer candidate with "
               "old.event_time (= valid_from), so a value restated later is superseded by an older statement "
               "replayed afterwards: Porto@0, Porto@2, Lisbon@1 leaves Lisbon active")


def _scope(c: Candidate) -> str:
    key = normalize_key(c.key)
    tr = default_transferable(c.kind, key) if c.transferable is None else c.transferable
    return slot_scope(MemoryRecord(user_id=USER, domain=c.domain, kind=c.kind, key=key, text="-", transferable=tr))


@SETTINGS
@example([cand(value="Porto", mid="m1"), cand(value="Porto", mid="m2", t=2), cand(value="Lisbon", mid="m3", t=1)])
@given(st.lists(candidates(), min_size=1, max_size=25))
def test_the_active_value_is_the_most_recently_stated_one(seq: list[Candidate]) -> None:
    store = Store()
    for c in seq:
        store.step(c)
    accepted = [c for c in seq if c.confidence >= 0.35 and (c.role == "user" or c.confirmed_by_user)]
    slots: dict[tuple[str, str], list[Candidate]] = {}
    for c in accepted:
        slots.setdefault((normalize_key(c.key), _scope(c)), []).append(c)
    for (key, scope), cs in slots.items():
        latest = max(c.timestamp for c in cs if c.timestamp is not None)
        values = {normalize_value(c.value) for c in cs if c.timestamp == latest}
        if len(values) != 1:
            continue  # a same-instant conflict or correction
        active = [r for r in store.records.values()
                  if r.status == MemoryStatus.ACTIVE and r.key == key and slot_scope(r) == scope]
        assert [normalize_value(r.value) for r in active] == list(values), (key, scope)


def test_rule4_a_restated_value_is_not_superseded_by_an_older_statement() -> None:
    s = Store()
    porto = s.step(cand(value="Porto", mid="m1")).inserts[0]
    s.step(cand(value="Porto", mid="m2", t=2))  # said again on day 2: MERGE
    plan = s.step(cand(value="Lisbon", mid="m3", t=1))  # a day-1 session replayed late
    assert plan.decision.action != WriteAction.SUPERSEDE, plan.decision.reason
    assert s.records[porto.id].status == MemoryStatus.ACTIVE


# --------------------------------------------------------------------------- the docstring rules, one by one
def test_rule1_empty_text_or_value_is_rejected() -> None:
    s = Store()
    assert s.decide(cand(text="   ")).decision.action == WriteAction.REJECT
    plan = s.decide(cand(value="  "))
    assert plan.decision.action == WriteAction.REJECT and plan.decision.reason.startswith("empty")
    # procedures and episodes may have no value
    proc = cand("procedure.check_bags", "", kind=MemoryKind.PROCEDURE, text="User's standing instruction: x.")
    assert s.decide(proc).decision.action == WriteAction.ADD


def test_rule1_low_confidence_is_rejected() -> None:
    s = Store()
    plan = s.decide(cand(confidence=0.2))
    assert plan.decision.action == WriteAction.REJECT and "low confidence" in plan.decision.reason
    assert s.decide(cand(confidence=0.35)).decision.action == WriteAction.ADD
    assert s.decide(cand(confidence=0.5), policy=WritePolicy(min_confidence=0.6)).decision.action == WriteAction.REJECT


def test_rule1_unconfirmed_assistant_statement_is_rejected_confirmed_is_kept() -> None:
    s = Store()
    plan = s.decide(cand(role="assistant"))
    assert plan.decision.action == WriteAction.REJECT and "assistant" in plan.decision.reason
    assert s.decide(cand(role="assistant", confirmed=True)).decision.action == WriteAction.ADD


def test_rule1_secret_is_rejected_unless_allowed() -> None:
    s = Store()
    c = cand("account.bank.password", "hunter2", kind=MemoryKind.FACT)
    view = s.view(c, has_secret=True)
    plan = decide(c, view, user_id=USER, agent_id=None, session_id="s", now=NOW)
    assert plan.decision.action == WriteAction.REJECT and "secret" in plan.decision.reason
    assert not plan.inserts
    allowed = decide(c, view, user_id=USER, agent_id=None, session_id="s", now=NOW,
                     policy=WritePolicy(allow_secrets=True))
    assert allowed.decision.action == WriteAction.ADD


def test_rule1_echo_of_injected_text_is_rejected() -> None:
    s = Store(injected=frozenset({"user's home city is lisbon"}))
    plan = s.decide(cand(text="User's home  city is Lisbon!"))
    assert plan.decision.action == WriteAction.REJECT and "echo" in plan.decision.reason
    assert s.decide(cand(value="Porto")).decision.action == WriteAction.ADD


def test_rule1_rejected_before_from_the_same_turns_or_text() -> None:
    s = Store()
    first = s.step(cand(mid="m1"))
    s.retract(first.inserts[0].id)
    plan = s.decide(cand(mid="m1"))
    assert plan.decision.action == WriteAction.REJECT and first.inserts[0].id in plan.decision.reason
    # same text from other turns: the user rejected this content
    assert s.decide(cand(mid="m9", t=3)).decision.action == WriteAction.REJECT
    # another value from other turns is fine
    assert s.decide(cand(value="Porto", mid="m2", t=1)).decision.action == WriteAction.ADD


def test_rule2_merge_grows_confidence_and_provenance_without_a_new_row() -> None:
    s = Store()
    added = s.step(cand(mid="m1", confidence=0.6)).inserts[0]
    plan = s.step(cand(value="lisbon.", mid="m2", t=2, confidence=0.8))
    assert plan.decision.action == WriteAction.MERGE and not plan.inserts
    merged = s.records[added.id]
    assert merged.source.message_ids == ["m1", "m2"]
    assert merged.confidence > added.confidence
    assert merged.confidence == round(0.6 + 0.4 * 0.5 * 0.8, 4)
    assert merged.last_confirmed_at == T0 + timedelta(days=2)
    assert merged.value == "Lisbon" and merged.valid_from == T0
    third = s.step(cand(mid="m3", t=3, confidence=0.9))
    assert s.records[added.id].confidence > merged.confidence
    assert third.decision.memory_id == added.id and len(s.records) == 1
    # the same turns again: nothing at all changes
    again = s.step(cand(mid="m2", t=2))
    assert again.decision.action == WriteAction.MERGE and not again.updates and not again.inserts


def test_rule2_confidence_never_exceeds_099() -> None:
    s = Store()
    first = s.step(cand(mid="m0", confidence=0.95)).inserts[0]
    for i in range(1, 30):
        s.step(cand(mid=f"m{i}", t=i % 3, confidence=0.95))
    assert s.records[first.id].confidence <= 0.99
    assert len(s.records[first.id].source.message_ids) == 30


def test_rule3_supersede_sets_valid_to_and_superseded_by() -> None:
    s = Store()
    old = s.step(cand(mid="m1")).inserts[0]
    plan = s.step(cand(value="Porto", mid="m2", t=30))
    assert plan.decision.action == WriteAction.SUPERSEDE and plan.decision.supersedes == old.id
    new = plan.inserts[0]
    o = s.records[old.id]
    assert o.status == MemoryStatus.SUPERSEDED
    assert o.valid_to == T0 + timedelta(days=30) and o.superseded_by == new.id
    assert new.supersedes == old.id and new.status == MemoryStatus.ACTIVE and new.valid_from == o.valid_to
    assert o.value == "Lisbon" and o.text == old.text  # history keeps the old content


def test_rule3_correction_at_the_same_instant_supersedes() -> None:
    s = Store()
    old = s.step(cand(mid="m1")).inserts[0]
    plan = s.step(cand(value="Porto", mid="m2", correction=True))
    assert plan.decision.action == WriteAction.SUPERSEDE and plan.decision.reason.startswith("correction")
    assert s.records[old.id].status == MemoryStatus.SUPERSEDED


def test_rule4_older_statement_becomes_history() -> None:
    s = Store()
    cur = s.step(cand(value="Porto", mid="m2", t=10)).inserts[0]
    plan = s.step(cand(value="Lisbon", mid="m1", t=1))
    assert plan.decision.action == WriteAction.ADD and "history" in plan.decision.reason
    h = plan.inserts[0]
    assert h.status == MemoryStatus.SUPERSEDED and h.superseded_by == cur.id and h.valid_to == cur.valid_from
    assert s.records[cur.id].status == MemoryStatus.ACTIVE and not plan.updates
    # an older correction is still older: it does not win
    late = s.step(cand(value="Berlin", mid="m3", t=5, correction=True))
    assert late.inserts[0].status == MemoryStatus.SUPERSEDED
    assert [r.value for r in s.records.values() if r.status == MemoryStatus.ACTIVE] == ["Porto"]


def test_rule5_same_instant_conflict_keeps_both_and_cross_links() -> None:
    s = Store()
    a = s.step(cand(value="Lisbon", mid="m1")).inserts[0]
    plan = s.step(cand(value="Porto", mid="m2"))
    assert plan.decision.action == WriteAction.ADD and "conflict" in plan.decision.reason
    b = plan.inserts[0]
    assert b.key.startswith("profile.home_city~") and b.status == MemoryStatus.ACTIVE
    assert b.conflicts_with == [a.id] and s.records[a.id].conflicts_with == [b.id]
    assert s.records[a.id].status == MemoryStatus.ACTIVE
    # replaying either side changes nothing
    assert not s.step(cand(value="Porto", mid="m2")).inserts
    assert not s.step(cand(value="Lisbon", mid="m1")).inserts


def test_replaying_a_sequence_without_returning_values_changes_nothing() -> None:
    s = Store()
    seq = [cand(value="Lisbon", mid="m1"), cand(value="Porto", mid="m2", t=1), cand(value="Berlin", mid="m3", t=2),
           cand(value="Porto", mid="m4", t=1), cand(value="Madrid", mid="m5", t=0)]
    for c in seq:
        s.step(c)
    snapshot = {k: v.model_dump() for k, v in s.records.items()}
    for c in seq:
        assert not s.step(c).inserts
    assert {k: v.model_dump() for k, v in s.records.items()} == snapshot


def test_replaying_an_old_turn_whose_value_came_back_changes_nothing() -> None:
    s = Store()
    s.step(cand(value="Lisbon", mid="m1"))  # lived in Lisbon
    s.step(cand(value="Porto", mid="m2", t=30))  # moved to Porto
    back = s.step(cand(value="Lisbon", mid="m3", t=60)).inserts[0]  # moved back to Lisbon
    assert s.records[back.id].source.message_ids == ["m3"]
    plan = s.step(cand(value="Lisbon", mid="m1"))  # session 1 replayed
    # expected: a no-op (m1 is already recorded as history); actual: MERGE into the active record
    assert not plan.updates, plan.decision.reason
    assert s.records[back.id].source.message_ids == ["m3"]


def test_a_newer_value_resolves_a_same_instant_conflict() -> None:
    s = Store()
    a = s.step(cand(value="Lisbon", mid="m1")).inserts[0]
    b = s.step(cand(value="Porto", mid="m2")).inserts[0]
    c = s.step(cand(value="Berlin", mid="m3", t=1)).inserts[0]
    assert s.records[a.id].status == MemoryStatus.SUPERSEDED
    assert s.records[c.id].status == MemoryStatus.ACTIVE
    # expected: the conflict sibling is history too; actual: it stays ACTIVE with the day-0 value
    assert s.records[b.id].status == MemoryStatus.SUPERSEDED


def test_domain_bound_slots_are_separate_per_domain_transferable_ones_are_shared() -> None:
    s = Store()
    s.step(cand("preference.travel.seat", "window", mid="m1", domain="travel", transferable=False))
    plan = s.step(cand("preference.travel.seat", "aisle", mid="m2", t=1, domain="work", transferable=False))
    assert plan.decision.action == WriteAction.ADD  # another domain's slot
    s.step(cand("profile.home_city", "Lisbon", mid="m3", domain="travel"))
    plan = s.step(cand("profile.home_city", "Porto", mid="m4", t=1, domain="work"))
    assert plan.decision.action == WriteAction.SUPERSEDE  # identity is the user's, not the domain's
