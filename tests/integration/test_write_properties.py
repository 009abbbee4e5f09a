"""Properties of the write path through the public facade (SQLite in memory, fake embedder).

Two extractors: a :class:`ScriptedExtractor` over a small vocabulary of slots and values,
and the default :class:`RuleExtractor` over generated template sentences. One GoodMemory
per module; every hypothesis example uses fresh user ids.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from goodmemory import Candidate, GoodMemory, MemoryKind, MemoryStatus, WriteAction, create_good_memory
from goodmemory.extraction.rules import RuleExtractor
from goodmemory.merge import normalize_value
from goodmemory.models import MemoryRecord
from goodmemory.storage.base import slot_scope
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)

CITIES = ("Lisbon", "Porto", "Berlin", "Madrid")
EMPLOYERS = ("Acme", "Globex", "Initech")
SEATS = ("window", "aisle")


def _script() -> dict[str, list[Candidate]]:
    out: dict[str, list[Candidate]] = {}
    for c in CITIES:
        out[f"I live in {c}."] = [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value=c,
                                            text=f"User's home city is {c}.", confidence=0.9)]
        out[f"Actually I moved to {c}."] = [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value=c,
                                                      text=f"User's home city is {c}.", confidence=0.9,
                                                      is_correction=True)]
    for e in EMPLOYERS:
        out[f"I work at {e}."] = [Candidate(kind=MemoryKind.PROFILE, key="profile.employer", value=e,
                                            text=f"User works at {e}.", confidence=0.85)]
    for s in SEATS:
        out[f"I prefer an {s} seat."] = [Candidate(kind=MemoryKind.PREFERENCE, key="preference.travel.seat", value=s,
                                                   text=f"User prefers {s} seats on flights.", transferable=False,
                                                   confidence=0.85)]
    out["Keep answers short."] = [Candidate(kind=MemoryKind.PREFERENCE, key="preference.communication.length",
                                            value="short", text="User wants short answers.", confidence=0.9)]
    out["Maybe I live in Berlin, not sure."] = [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city",
                                                          value="Berlin", text="User's home city is Berlin.",
                                                          confidence=0.2)]
    return out


SCRIPT = _script()
LINES = sorted(SCRIPT)
_ids = itertools.count()

SLOT_OF = {line: cands[0].key for line, cands in SCRIPT.items()}


@st.composite
def lives(draw: st.DrawFn, *, clean: bool = True) -> list[tuple[int, str | None, list[str]]]:
    """Sessions of (day offset, domain, user lines).

    A clean life says each slot at most once per session and no two sessions share a day, so
    no same-instant conflicts arise (those are covered by the explicit tests below).
    """
    n = draw(st.integers(1, 4))
    days = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n, unique=clean))
    out = []
    for day in days:
        lines = draw(st.lists(st.sampled_from(LINES), min_size=1, max_size=3,
                              unique_by=(lambda x: SLOT_OF[x]) if clean else None))
        out.append((day, draw(st.sampled_from((None, "travel", "cooking"))), lines))
    return out


SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def clock() -> FrozenClock:
    return FrozenClock(T0 + timedelta(days=60))


@pytest.fixture(scope="module")
def mem(clock: FrozenClock) -> Iterator[GoodMemory]:
    m = create_good_memory("sqlite://", embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT), clock=clock)
    yield m
    m.close()


@pytest.fixture(scope="module")
def rmem(clock: FrozenClock) -> Iterator[GoodMemory]:
    m = create_good_memory("sqlite://", embedder=FakeEmbedder(), extractor=RuleExtractor(), clock=clock)
    yield m
    m.close()


def _user() -> str:
    return f"u{next(_ids)}"


def _replay(mem: GoodMemory, user: str, life: list[tuple[int, str | None, list[str]]]) -> None:
    for i, (day, domain, lines) in enumerate(life):
        mem.remember([{"role": "user", "content": x} for x in lines], user_id=user, session_id=f"s{i}",
                     domain=domain, at=T0 + timedelta(days=day))


def _dump(mem: GoodMemory, user: str) -> list[dict[str, object]]:
    return sorted((r.model_dump() for r in mem.export(user_id=user).memories), key=lambda d: str(d["id"]))


def _facts(mem: GoodMemory, user: str) -> list[MemoryRecord]:
    return [r for r in mem.export(user_id=user).memories if r.kind != MemoryKind.EPISODE]


def _one_active_per_slot(mem: GoodMemory, user: str) -> None:
    seen: dict[tuple[str, str | None, str], str] = {}
    for r in _facts(mem, user):
        if r.status != MemoryStatus.ACTIVE or "~" in r.key:
            continue
        k = (r.key, r.agent_id, slot_scope(r))
        assert k not in seen, f"two active records for {k}: {seen[k]} and {r.id}"
        seen[k] = r.id


# --------------------------------------------------------------------------- scripted extractor
@SETTINGS
@given(life=lives())
def test_remembering_a_session_twice_equals_once(mem: GoodMemory, life: list[tuple[int, str | None, list[str]]]) -> None:
    user = _user()
    for i, (day, domain, lines) in enumerate(life):
        msgs = [{"role": "user", "content": x} for x in lines]
        kw = {"user_id": user, "session_id": f"s{i}", "domain": domain, "at": T0 + timedelta(days=day)}
        mem.remember(msgs, **kw)  # type: ignore[arg-type]
        once = _dump(mem, user)
        res = mem.remember(msgs, **kw)  # type: ignore[arg-type]
        assert _dump(mem, user) == once
        assert {d.action for d in res.decisions} <= {WriteAction.MERGE, WriteAction.REJECT}


REPLAY_BUG = ("merge.decide merges a replayed old turn into the active record when its value became current "
              "again (Lisbon -> Porto -> Lisbon): provenance and confidence change on a pure replay")


@SETTINGS
@example(life=[(0, None, ["I live in Lisbon."]), (10, None, ["I live in Porto."]), (20, None, ["I live in Lisbon."])])
@given(life=lives())
def test_replaying_a_whole_life_changes_nothing(mem: GoodMemory, life: list[tuple[int, str | None, list[str]]]) -> None:
    user = _user()
    _replay(mem, user, life)
    once = _dump(mem, user)
    _replay(mem, user, life)
    assert _dump(mem, user) == once


@SETTINGS
@given(life=lives())
def test_replaying_a_whole_life_adds_no_rows_and_keeps_current_values(
    mem: GoodMemory, life: list[tuple[int, str | None, list[str]]]
) -> None:
    user = _user()
    _replay(mem, user, life)
    before = {r.id: (r.status, r.key, r.value) for r in mem.export(user_id=user).memories}
    _replay(mem, user, life)
    assert {r.id: (r.status, r.key, r.value) for r in mem.export(user_id=user).memories} == before


@SETTINGS
@given(life=lives(clean=False))
def test_at_most_one_active_record_per_slot(mem: GoodMemory, life: list[tuple[int, str | None, list[str]]]) -> None:
    user = _user()
    for i, (day, domain, lines) in enumerate(life):
        mem.remember([{"role": "user", "content": x} for x in lines], user_id=user, session_id=f"s{i}",
                     domain=domain, at=T0 + timedelta(days=day))
        _one_active_per_slot(mem, user)


@SETTINGS
@given(life=lives(), pick=st.integers(0, 20))
def test_a_rejected_memory_stays_rejected_when_its_turns_are_replayed(
    mem: GoodMemory, life: list[tuple[int, str | None, list[str]]], pick: int
) -> None:
    user = _user()
    _replay(mem, user, life)
    active = sorted((r for r in _facts(mem, user) if r.status == MemoryStatus.ACTIVE), key=lambda r: (r.key, r.value))
    if not active:
        return
    target = active[pick % len(active)]
    mem.feedback(target.id, "reject", user_id=user)
    _replay(mem, user, life)
    assert mem.get(target.id, user_id=user).status == MemoryStatus.RETRACTED
    base = target.key.split("~", 1)[0]
    for r in _facts(mem, user):
        if r.status == MemoryStatus.ACTIVE and r.key.split("~", 1)[0] == base:
            assert not set(r.source.message_ids) & set(target.source.message_ids), (r.value, r.source)
    assert all(h.memory.id != target.id for h in mem.recall(target.text, user_id=user).hits)


@SETTINGS
@given(life=lives(clean=False))
def test_history_never_loses_a_value(mem: GoodMemory, life: list[tuple[int, str | None, list[str]]]) -> None:
    user = _user()
    stated: dict[str, set[str]] = {}
    prev: set[tuple[str, str]] = set()
    for i, (day, domain, lines) in enumerate(life):
        res = mem.remember([{"role": "user", "content": x} for x in lines], user_id=user, session_id=f"s{i}",
                           domain=domain, at=T0 + timedelta(days=day))
        for d in res.decisions:
            if d.candidate is not None and d.action != WriteAction.REJECT:
                stated.setdefault(d.candidate.key, set()).add(normalize_value(d.candidate.value))
        now = {(r.key.split("~", 1)[0], normalize_value(r.value)) for r in _facts(mem, user)}
        assert prev <= now, f"values lost: {prev - now}"
        prev = now
    for key, values in stated.items():
        recs = [r for r in _facts(mem, user) if r.key.split("~", 1)[0] == key]
        in_history = {normalize_value(h.memory.value) for r in recs if r.status == MemoryStatus.ACTIVE
                      for h in mem.history(r.id, user_id=user)}
        in_history |= {normalize_value(r.value) for r in recs if r.status == MemoryStatus.SUPERSEDED}
        assert values <= in_history, f"{key}: {values - in_history} missing from history"


@SETTINGS
@given(life_a=lives(clean=False), life_b=lives(clean=False))
def test_memories_of_one_user_never_reach_another(
    mem: GoodMemory, life_a: list[tuple[int, str | None, list[str]]], life_b: list[tuple[int, str | None, list[str]]]
) -> None:
    a, b = _user(), _user()
    _replay(mem, a, life_a)
    _replay(mem, b, life_b)
    ids_a = {r.id for r in mem.export(user_id=a).memories}
    exp_b = mem.export(user_id=b)
    assert not ids_a & {r.id for r in exp_b.memories}
    assert all(r.user_id == b for r in exp_b.memories)
    for q, dom in (("where do I live", None), ("seat preference for my flight", "travel"), ("work", "cooking")):
        hits = mem.recall(q, user_id=b, domain=dom, include_history=True).hits
        assert all(h.memory.user_id == b and h.memory.id not in ids_a for h in hits)
        ctx = mem.build_context(q, user_id=b, domain=dom)
        assert not {i.memory_id for i in ctx.items} & ids_a
        for r in mem.export(user_id=a).memories:
            assert r.id[:6] not in ctx.text


# --------------------------------------------------------------------------- the default rule extractor
RULE_CITIES = ("Lisbon", "Porto", "Berlin", "Madrid", "Toronto", "Nairobi")
CARS = ("Honda Civic", "Toyota Corolla", "Ford Focus")
PREFS = ("green tea", "dark mode", "black coffee", "paper books")

plates = st.from_regex(r"[A-Z]{2,3}-[0-9]{3,4}", fullmatch=True)
# (slot, sentence)
sentences = st.one_of(
    st.sampled_from(RULE_CITIES).map(lambda c: ("city", f"I live in {c}.")),
    st.tuples(st.sampled_from(CARS), plates).map(lambda t: (t[0], f"My {t[0]} plate is {t[1]}.")),
    st.sampled_from(PREFS).map(lambda x: (x, f"I prefer {x}.")),
)


@st.composite
def rule_lives(draw: st.DrawFn) -> list[tuple[int, list[str]]]:
    """Sessions of (day offset, sentences); one sentence per slot and session, one session per day."""
    n = draw(st.integers(1, 4))
    days = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n, unique=True))
    return [(d, [x for _, x in draw(st.lists(sentences, min_size=1, max_size=3, unique_by=lambda t: t[0]))])
            for d in days]


def _replay_rules(mem: GoodMemory, user: str, life: list[tuple[int, list[str]]]) -> None:
    for i, (day, lines) in enumerate(life):
        mem.remember([{"role": "user", "content": " ".join(lines)}], user_id=user, session_id=f"s{i}",
                     at=T0 + timedelta(days=day))


@SETTINGS
@given(life=rule_lives())
def test_rules_templates_are_extracted_and_one_value_per_slot(rmem: GoodMemory, life: list[tuple[int, list[str]]]) -> None:
    user = _user()
    _replay_rules(rmem, user, life)
    _one_active_per_slot(rmem, user)
    facts = _facts(rmem, user)
    stated = {x for _, lines in life for x in lines}
    for c in RULE_CITIES:
        if f"I live in {c}." in stated:
            assert any(r.key.startswith("profile.home_city") and r.value == c for r in facts), c
    for x in PREFS:
        if f"I prefer {x}." in stated:
            assert any(r.kind == MemoryKind.PREFERENCE and r.value == x and r.status == MemoryStatus.ACTIVE
                       for r in facts), x
    # the newest city said is the active one (ties: either of the same-day values)
    said = [(day, c) for day, lines in life for x in lines for c in RULE_CITIES if x == f"I live in {c}."]
    # a value said again later is covered by test_rules_a_restated_value_wins_over_an_older_replay (xfail)
    if said and len({c for _, c in said}) == len(said):
        last_day = max(d for d, _ in said)
        active = {r.value for r in facts if r.key.startswith("profile.home_city") and r.status == MemoryStatus.ACTIVE}
        assert active & {c for d, c in said if d == last_day}
        assert active <= {c for d, c in said if d == last_day}, active


@SETTINGS
@given(life=rule_lives())
def test_rules_remember_twice_equals_once(rmem: GoodMemory, life: list[tuple[int, list[str]]]) -> None:
    user = _user()
    for i, (day, lines) in enumerate(life):
        msgs = [{"role": "user", "content": " ".join(lines)}]
        rmem.remember(msgs, user_id=user, session_id=f"s{i}", at=T0 + timedelta(days=day))
        once = _dump(rmem, user)
        rmem.remember(msgs, user_id=user, session_id=f"s{i}", at=T0 + timedelta(days=day))
        assert _dump(rmem, user) == once


@SETTINGS
@given(life=rule_lives(), plate=plates)
def test_rules_plates_of_one_user_never_reach_another(rmem: GoodMemory, life: list[tuple[int, list[str]]],
                                                      plate: str) -> None:
    a, b = _user(), _user()
    secret = f"ZZ{plate}"  # never generated for user b
    rmem.remember([{"role": "user", "content": f"My Honda Civic plate is {secret}."}], user_id=a, session_id="s0",
                  at=T0)
    _replay_rules(rmem, b, life)
    assert secret not in rmem.export(user_id=b).model_dump_json()
    assert all(secret not in h.memory.text for h in rmem.recall(f"Honda Civic plate {secret}", user_id=b).hits)
    assert secret not in rmem.build_context("what is my Honda Civic plate?", user_id=b).text
    assert secret in rmem.build_context("what is my Honda Civic plate?", user_id=a).text


# --------------------------------------------------------------------------- same-instant conflicts
CONFLICT_LOAD_BUG = ("_write.run_remember loads the slot's stored records with MemoryFilter(keys=...) (exact key), "
                     "so conflict siblings stored under 'key~xxxxxxxx' by an earlier call are invisible: replaying "
                     "the turns adds the conflict again as a new ACTIVE row, and a rejected sibling comes back")


def _u(*lines: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": x} for x in lines]


def test_replaying_a_same_instant_conflict_adds_nothing(mem: GoodMemory) -> None:
    user = _user()
    mem.remember(_u("I work at Acme.", "I work at Globex."), user_id=user, session_id="s0", at=T0)
    once = _dump(mem, user)
    assert sum(r.key.startswith("profile.employer~") for r in _facts(mem, user)) == 1
    mem.remember(_u("I work at Acme.", "I work at Globex."), user_id=user, session_id="s0", at=T0)
    # actual: a second 'profile.employer~…' row with Globex, and Acme now conflicts with both
    assert _dump(mem, user) == once


def test_a_rejected_conflict_value_stays_rejected_when_replayed(mem: GoodMemory) -> None:
    user = _user()
    msgs = _u("I prefer an aisle seat.", "I prefer an window seat.")
    mem.remember(msgs, user_id=user, session_id="s0", at=T0, domain="travel")
    window = next(r for r in _facts(mem, user) if r.value == "window")
    assert "~" in window.key
    mem.feedback(window.id, "reject", user_id=user)
    mem.remember(msgs, user_id=user, session_id="s0", at=T0, domain="travel")
    # actual: a new ACTIVE 'window' row from the very turn the user rejected
    assert [r.value for r in _facts(mem, user) if r.status == MemoryStatus.ACTIVE] == ["aisle"]


def test_rules_one_message_with_two_cities_remembered_twice_equals_once(rmem: GoodMemory) -> None:
    user = _user()
    msgs = _u("I live in Lisbon. I live in Porto.")
    rmem.remember(msgs, user_id=user, session_id="s0", at=T0)
    once = _dump(rmem, user)
    rmem.remember(msgs, user_id=user, session_id="s0", at=T0)
    assert _dump(rmem, user) == once


RESTATE_BUG = ("merge._merge keeps valid_from (first statement) and decide() compares a candidate with "
               "old.event_time == valid_from: a value restated on day 2 is superseded by an older statement "
               "from day 1 replayed later (rule 4 says an older statement becomes history)")


def test_rules_a_restated_value_wins_over_an_older_replay(rmem: GoodMemory) -> None:
    user = _user()
    rmem.remember(_u("I live in Porto."), user_id=user, session_id="s0", at=T0)
    rmem.remember(_u("I live in Porto."), user_id=user, session_id="s2", at=T0 + timedelta(days=2))
    rmem.remember(_u("I live in Lisbon."), user_id=user, session_id="s1", at=T0 + timedelta(days=1))  # late import
    active = [r.value for r in _facts(rmem, user) if r.key == "profile.home_city" and r.status == MemoryStatus.ACTIVE]
    assert active == ["Porto"]  # actual: ["Lisbon"]
