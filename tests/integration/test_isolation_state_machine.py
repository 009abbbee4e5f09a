"""Isolation, model-checked: random sequences of the public API over 3 users and 3 domains.

A hypothesis ``RuleBasedStateMachine`` drives remember / recall / build_context /
feedback / forget (by id, user, domain, session) / export / cross-user probes on two
GoodMemory instances in lockstep: one over a SQLite *file*, one over ``InMemoryStorage``.
Every scripted fact carries a marker token ``qx<user><domain><fact><version>qx``
(corrections ``qc<user><domain><fact><n>qc``) so a leak is a substring match.
Facts 0 and 1 of every domain are domain-bound (``transferable=False``); fact 2 is
transferable.

Invariants after every step:
- no output for user U (recall hits, context text, export) holds another user's marker;
- a step that targets U leaves every other user's export byte-for-byte unchanged;
- recall and context in domain D never show a domain-bound marker of another domain;
- recall and context only show active records (rejected ones never come back);
- forgotten markers never come back (until the user says them again);
- both adapters hold the same records (kind, slot, status, text, domain) per user.

The total number of steps executed is printed and recorded as a junit property.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from goodmemory import (
    Candidate,
    GoodMemory,
    MemoryKind,
    MemoryNotFoundError,
    MemoryRecord,
    MemoryStatus,
    create_good_memory,
)
from goodmemory.storage.memory import InMemoryStorage
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor

USERS = ("u0", "u1", "u2")
DOMAINS = ("d0", "d1", "d2")
FACTS = (0, 1, 2)  # 0, 1 domain-bound; 2 transferable
VERSIONS = (0, 1)
TRANSFERABLE_FACT = 2
SHM = Path("/dev/shm")
MARKER = re.compile(r"q([xc])(\d)(\d)(\d)(\d)q[xc]")

STATS: Counter[str] = Counter()
CHECK_OUTDATED_MARKS = True


def fact_marker(u: int, d: int, f: int, v: int) -> str:
    return f"qx{u}{d}{f}{v}qx"


def fact_message(u: int, d: int, f: int, v: int) -> str:
    return f"Please note {fact_marker(u, d, f, v)} for later."


def fact_key(d: int, f: int) -> str:
    # the same slot keys for every user: isolation must keep equal slots apart
    return f"fact.d{d}.f{f}"


def _script() -> dict[str, list[Candidate]]:
    script: dict[str, list[Candidate]] = {}
    for u in range(len(USERS)):
        for d in range(len(DOMAINS)):
            for f in FACTS:
                for v in VERSIONS:
                    m = fact_marker(u, d, f, v)
                    transferable = f == TRANSFERABLE_FACT
                    script[fact_message(u, d, f, v)] = [Candidate(
                        kind=MemoryKind.PREFERENCE if transferable else MemoryKind.FACT,
                        key=fact_key(d, f), value=m, text=f"User fact {m}.", confidence=0.9,
                        transferable=transferable,
                    )]
    return script


SCRIPT = _script()


def _base_key(key: str) -> str:
    return key.split("~", 1)[0]


def _signature(records: list[MemoryRecord]) -> list[tuple[str, str, str, str, str]]:
    return sorted((r.kind.value, _base_key(r.key), r.status.value, r.text, r.domain or "") for r in records)


def _content(r: MemoryRecord) -> str:
    """What the forgotten rule scans. Known bug (see the xfail test below): forget(session_id=...) leaves the
    forgotten value in the ``outdated`` marks of episodes of *other* sessions; until it is fixed the
    rule skips those marks (CHECK_OUTDATED_MARKS) so the machine keeps testing everything else."""
    if CHECK_OUTDATED_MARKS or r.kind != MemoryKind.EPISODE or "outdated" not in r.metadata:
        return r.model_dump_json()
    return r.model_dump_json(exclude={"metadata"})


def _markers(text: str) -> set[str]:
    return {m.group(0) for m in MARKER.finditer(text)}


class IsolationMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        # a real SQLite file (WAL, checkpoints); on tmpfs when there is one, so fsyncs do not dominate CI time
        self.tmp = Path(tempfile.mkdtemp(prefix="gm-sm-", dir=SHM if SHM.is_dir() else None))
        self.clock = FrozenClock(datetime(2025, 1, 1, 9, tzinfo=UTC))
        cfg = {"context_candidates": 500}
        self.sql = create_good_memory(SQLStorage(f"sqlite:///{self.tmp / 'gm.db'}"), config=cfg,
                                      embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT), clock=self.clock)
        self.ref = create_good_memory(InMemoryStorage(), config=cfg, embedder=FakeEmbedder(),
                                      extractor=ScriptedExtractor(SCRIPT), clock=self.clock)
        self.mems: tuple[GoodMemory, GoodMemory] = (self.sql, self.ref)
        # reference model
        self.sessions: dict[str, list[str]] = {u: [] for u in USERS}
        self.sayings: dict[str, dict[str, set[str]]] = {u: {} for u in USERS}  # marker -> sessions
        self.gone: dict[str, set[str]] = {u: set() for u in USERS}  # forgotten, not said again
        self.rejected: dict[str, set[str]] = {u: set() for u in USERS}  # texts the user rejected
        self.snap: dict[tuple[int, str], str] = {}
        self.target: str | None = None  # the user the current step may change
        self.n_session = 0
        self.n_correction = 0
        STATS["examples"] += 1

    # -- helpers -----------------------------------------------------------
    def _step(self, user: str | None) -> None:
        STATS["steps"] += 1
        self.target = user
        self.clock.advance(hours=1)

    def _export(self, i: int, user: str) -> list[MemoryRecord]:
        return self.mems[i].export(user_id=user).memories

    def _present(self, user: str) -> set[str]:
        return {m for r in self._export(0, user) for m in _markers(_content(r))}

    def _check_text(self, user: str, domain: str | None, text: str, where: str, content: str | None = None) -> None:
        """Isolation and domain rules over ``text``; the forgotten rule over ``content`` (default ``text``)."""
        u = USERS.index(user)
        for m in MARKER.finditer(text):
            mu, md, mf = int(m.group(2)), int(m.group(3)), int(m.group(4))
            assert mu == u, f"{where}: {user} sees {m.group(0)} of {USERS[mu]}"
            if domain is not None and mf != TRANSFERABLE_FACT:
                assert md == DOMAINS.index(domain), f"{where}: domain-bound {m.group(0)} leaked into {domain}"
        leaked = _markers(text if content is None else content) & self.gone[user]
        assert not leaked, f"{where}: forgotten {leaked} came back for {user}"

    def _find(self, i: int, user: str, key: str) -> MemoryRecord | None:
        recs = [r for r in self._export(i, user) if r.kind != MemoryKind.EPISODE and _base_key(r.key) == key]
        recs.sort(key=lambda r: (r.status != MemoryStatus.ACTIVE, r.key != key, r.text, r.status.value))
        return recs[0] if recs else None

    def _pair(self, user: str, key: str) -> tuple[MemoryRecord, MemoryRecord] | None:
        a, b = self._find(0, user, key), self._find(1, user, key)
        assert (a is None) == (b is None), f"adapters disagree on slot {key} of {user}: {a} vs {b}"
        if a is None or b is None:
            return None
        assert (a.status, a.text) == (b.status, b.text), f"adapters disagree on {key}: {a.text} vs {b.text}"
        return a, b

    def _forget_all(self, user: str, **kw: Any) -> None:
        before = self._present(user)
        receipts = [m.forget(user_id=user, **kw) for m in self.mems]
        assert receipts[0].deleted == receipts[1].deleted, f"receipts differ: {receipts}"
        assert receipts[0].tombstone_id and receipts[1].tombstone_id
        self.gone[user] |= before - self._present(user)
        self._sync_rejected(user)

    def _sync_rejected(self, user: str) -> None:
        retracted = {r.text for r in self._export(0, user) if r.status == MemoryStatus.RETRACTED}
        self.rejected[user] &= retracted

    # -- rules -------------------------------------------------------------
    @initialize()
    def _snapshot_empty(self) -> None:
        self._take_snapshots()

    @rule(user=st.sampled_from(USERS), domain=st.sampled_from(range(len(DOMAINS))),
          picks=st.lists(st.tuples(st.sampled_from(FACTS), st.sampled_from(VERSIONS)), min_size=1, max_size=3),
          noise=st.booleans())
    def remember(self, user: str, domain: int, picks: list[tuple[int, int]], noise: bool) -> None:
        self._step(user)
        u = USERS.index(user)
        self.n_session += 1
        session = f"s{self.n_session}"
        msgs: list[dict[str, str]] = [{"role": "user", "content": fact_message(u, domain, f, v)} for f, v in picks]
        if noise:
            msgs.append({"role": "assistant", "content": f"Noted, {user}."})
        results = [m.remember(msgs, user_id=user, session_id=session, domain=DOMAINS[domain]) for m in self.mems]
        assert [d.action for d in results[0].decisions] == [d.action for d in results[1].decisions]
        self.sessions[user].append(session)
        for f, v in picks:
            mk = fact_marker(u, domain, f, v)
            self.sayings[user].setdefault(mk, set()).add(session)
            self.gone[user].discard(mk)
        active = {r.text for r in self._export(0, user) if r.status == MemoryStatus.ACTIVE}
        assert not (active & self.rejected[user]), "a rejected memory came back as active"

    @rule(user=st.sampled_from(USERS), domain=st.sampled_from((None, *DOMAINS)),
          probe=st.tuples(st.sampled_from(range(len(USERS))), st.sampled_from(range(len(DOMAINS))),
                           st.sampled_from(FACTS), st.sampled_from(VERSIONS)),
          generic=st.booleans(), limit=st.integers(1, 20))
    def recall(self, user: str, domain: str | None, probe: tuple[int, int, int, int], generic: bool,
               limit: int) -> None:
        self._step(None)
        query = "what did I ask you to note for later" if generic else f"what about {fact_marker(*probe)}"
        for i, m in enumerate(self.mems):
            res = m.recall(query, user_id=user, domain=domain, limit=limit)
            assert len(res.hits) <= limit
            for h in res.hits:
                assert h.memory.user_id == user
                assert h.memory.status == MemoryStatus.ACTIVE, f"{h.memory.status} memory recalled"
                assert h.memory.text not in self.rejected[user] or h.memory.kind == MemoryKind.EPISODE
                if domain is not None:
                    assert h.memory.domain in (None, domain) or h.memory.transferable
                self._check_text(user, domain, h.memory.model_dump_json(), f"recall[{i}]", _content(h.memory))
            # not vacuous: an own, active, visible fact is found by its marker
            if not generic and probe[0] == USERS.index(user):
                mk = fact_marker(*probe)
                visible = [r for r in m.list(user_id=user, domain=domain) if r.value == mk]
                if visible:
                    assert any(h.memory.value == mk for h in res.hits), f"{mk} not recalled in {domain}"

    @rule(user=st.sampled_from(USERS), domain=st.sampled_from((None, *DOMAINS)),
          foreign=st.sampled_from(range(len(USERS))))
    def build_context(self, user: str, domain: str | None, foreign: int) -> None:
        self._step(None)
        query = f"everything about {' '.join(fact_marker(foreign, d, 2, 0) for d in range(len(DOMAINS)))} notes"
        for i, m in enumerate(self.mems):
            ctx = m.build_context(query, user_id=user, domain=domain, max_tokens=3000)
            content = ctx.text if CHECK_OUTDATED_MARKS else "\n".join(item.text for item in ctx.items)
            self._check_text(user, domain, ctx.text, f"context[{i}]", content)
            for item in ctx.items:
                rec = m.storage.get(user, item.memory_id)
                assert rec is not None, "a context item of another user"
                assert rec.status == MemoryStatus.ACTIVE
                if domain is not None:
                    assert rec.domain in (None, domain) or rec.transferable

    @rule(user=st.sampled_from(USERS), d=st.sampled_from(range(len(DOMAINS))), f=st.sampled_from(FACTS),
          signal=st.sampled_from(["confirm", "reject", "correct", "helpful", "not_helpful"]))
    def feedback(self, user: str, d: int, f: int, signal: str) -> None:
        self._step(user)
        pair = self._pair(user, fact_key(d, f))
        if pair is None or pair[0].status != MemoryStatus.ACTIVE:
            return
        correction = None
        if signal == "correct":
            self.n_correction = (self.n_correction + 1) % 10
            correction = f"Actually qc{USERS.index(user)}{d}{f}{self.n_correction}qc is right."
        results = [m.feedback(rec.id, signal, user_id=user, correction=correction)
                   for m, rec in zip(self.mems, pair, strict=True)]
        assert results[0].changed.keys() == results[1].changed.keys()
        if signal == "reject":
            self.rejected[user].add(pair[0].text)

    @rule(user=st.sampled_from(USERS), d=st.sampled_from(range(len(DOMAINS))), f=st.sampled_from(FACTS))
    def forget_by_id(self, user: str, d: int, f: int) -> None:
        self._step(user)
        key = fact_key(d, f)
        pair = self._pair(user, key)
        if pair is None:
            return
        before = self._present(user)
        receipts = [m.forget(rec.id, user_id=user) for m, rec in zip(self.mems, pair, strict=True)]
        assert receipts[0].deleted == receipts[1].deleted
        # the slot's history goes; a same-instant conflict partner ("key~id") only when the forgotten
        # record is the partner (asymmetry reported, see test_forgetting_either_side_of_a_conflict...)
        gone_keys = {pair[0].key, key}
        for i in range(2):
            assert all(r.key not in gone_keys for r in self._export(i, user)), "the slot's history survived"
        self.gone[user] |= before - self._present(user)
        self._sync_rejected(user)

    @rule(user=st.sampled_from(USERS))
    def forget_user(self, user: str) -> None:
        self._step(user)
        self._forget_all(user, all=True)
        for i in range(2):
            assert self._export(i, user) == []

    @rule(user=st.sampled_from(USERS), d=st.sampled_from(range(len(DOMAINS))))
    def forget_domain(self, user: str, d: int) -> None:
        self._step(user)
        before = self._present(user)
        self._forget_all(user, domain=DOMAINS[d])
        after = self._present(user)
        assert not any(int(m[3]) == d for m in after), f"domain {DOMAINS[d]} survived its forget"
        assert after == {m for m in before if int(m[3]) != d}, "forget(domain=...) touched another domain"

    @precondition(lambda self: any(self.sessions.values()))
    @rule(data=st.data())
    def forget_session(self, data: st.DataObject) -> None:
        user = data.draw(st.sampled_from([u for u in USERS if self.sessions[u]]), label="user")
        session = data.draw(st.sampled_from(self.sessions[user]), label="session")
        self._step(user)
        before = self._present(user)
        self._forget_all(user, session_id=session)
        after = self._present(user)
        said = self.sayings[user]
        only_here = {m for m, ss in said.items() if ss == {session}}
        elsewhere = {m for m in before if m.startswith("qx") and session not in said.get(m, set())}
        assert not (only_here & after), f"forget(session={session}) left {only_here & after}"
        assert elsewhere <= after, f"forget(session={session}) removed {elsewhere - after}"

    @rule(owner=st.sampled_from(USERS), other=st.sampled_from(USERS), d=st.sampled_from(range(len(DOMAINS))),
          f=st.sampled_from(FACTS), method=st.sampled_from(["get", "history", "feedback", "forget"]))
    def cross_user_probe(self, owner: str, other: str, d: int, f: int, method: str) -> None:
        """Another user's memory id is as unknown as a random one, and nothing changes."""
        self._step(None)
        if owner == other:
            return
        pair = self._pair(owner, fact_key(d, f))
        if pair is None:
            return
        for m, rec in zip(self.mems, pair, strict=True):
            with pytest.raises(MemoryNotFoundError):
                if method == "feedback":
                    m.feedback(rec.id, "reject", user_id=other)
                elif method == "forget":
                    m.forget(rec.id, user_id=other)
                else:
                    getattr(m, method)(rec.id, user_id=other)

    @rule(user=st.sampled_from(USERS))
    def export_round_trip(self, user: str) -> None:
        self._step(None)
        for m in self.mems:
            exp = m.export(user_id=user)
            assert all(r.user_id == user for r in exp.memories)
            self._check_text(user, None, exp.model_dump_json(), "export", "\n".join(map(_content, exp.memories)))

    # -- invariants --------------------------------------------------------
    def _take_snapshots(self) -> None:
        for i in range(2):
            for u in USERS:
                self.snap[(i, u)] = "\n".join(r.model_dump_json() for r in self._export(i, u))

    @invariant()
    def isolated_and_in_agreement(self) -> None:
        for u in USERS:
            exports = [self._export(i, u) for i in range(2)]
            for i, recs in enumerate(exports):
                dump = "\n".join(r.model_dump_json() for r in recs)
                if u != self.target:
                    assert dump == self.snap.get((i, u), dump), f"a step for {self.target} changed {u}"
                self.snap[(i, u)] = dump
                assert all(r.user_id == u for r in recs)
                self._check_text(u, None, dump, f"export[{i}]", "\n".join(map(_content, recs)))
            assert _signature(exports[0]) == _signature(exports[1]), f"SQLite and in-memory disagree on {u}"

    def teardown(self) -> None:
        for m in self.mems:
            m.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


SETTINGS = settings(max_examples=int(__import__("os").environ.get("GM_SM_EXAMPLES", "40")), stateful_step_count=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def test_isolation_state_machine(record_property: Any) -> None:
    STATS.clear()
    run_state_machine_as_test(IsolationMachine, settings=SETTINGS)
    print(f"\nisolation state machine: {STATS['steps']} steps over {STATS['examples']} runs")
    record_property("state_machine_steps", STATS["steps"])
    record_property("state_machine_runs", STATS["examples"])
    assert STATS["examples"] >= 40 and STATS["steps"] >= 40 * 10


def test_same_slot_keys_of_two_users_never_meet(tmp_path: Path) -> None:
    """Two users, same slot key, same instant: each keeps exactly their own value."""
    clock = FrozenClock()
    for storage in (SQLStorage(f"sqlite:///{tmp_path / 'a.db'}"), InMemoryStorage()):
        with create_good_memory(storage, embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT),
                                clock=clock) as m:
            for u in range(len(USERS)):
                m.remember([{"role": "user", "content": fact_message(u, 0, 0, 0)}], user_id=USERS[u],
                           session_id="same", domain="d0")
            for u in range(len(USERS)):
                vals = [r.value for r in m.list(user_id=USERS[u], kinds=["fact"])]
                assert vals == [fact_marker(u, 0, 0, 0)]
            m.forget(user_id="u1", all=True)
            assert [r.value for r in m.list(user_id="u0", kinds=["fact"])] == [fact_marker(0, 0, 0, 0)]
            assert [r.value for r in m.list(user_id="u2", kinds=["fact"])] == [fact_marker(2, 0, 0, 0)]
        storage.close()


def test_restating_a_superseded_value_after_it_was_in_context_wins() -> None:
    script = {
        "I live in Lisbon.": [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value="Lisbon",
                                        text="User's home city is Lisbon.", confidence=0.9)],
        "I moved to Porto.": [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value="Porto",
                                        text="User's home city is Porto.", confidence=0.9)],
        "I moved back to Lisbon.": [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value="Lisbon",
                                              text="User's home city is Lisbon.", confidence=0.9)],
    }
    clock = FrozenClock()
    with create_good_memory(InMemoryStorage(), embedder=FakeEmbedder(), extractor=ScriptedExtractor(script),
                            clock=clock) as m:
        m.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u", session_id="a")
        m.build_context("where do I live", user_id="u")
        clock.advance(days=1)
        m.remember([{"role": "user", "content": "I moved to Porto."}], user_id="u", session_id="b")
        clock.advance(days=1)
        m.remember([{"role": "user", "content": "I moved back to Lisbon."}], user_id="u", session_id="c")
        assert [r.value for r in m.list(user_id="u", kinds=["profile"])] == ["Lisbon"]


def test_forget_session_leaves_no_value_in_outdated_marks() -> None:
    clock = FrozenClock()
    with create_good_memory(InMemoryStorage(), embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT),
                            clock=clock) as m:
        m.remember([{"role": "user", "content": fact_message(0, 0, 0, 0)}], user_id="u0", session_id="s1",
                   domain="d0")
        clock.advance(hours=1)
        m.remember([{"role": "user", "content": fact_message(0, 0, 0, 1)}], user_id="u0", session_id="s2",
                   domain="d0")
        m.forget(user_id="u0", session_id="s2")
        forgotten = fact_marker(0, 0, 0, 1)
        assert forgotten not in m.build_context("what did I note", user_id="u0", domain="d0").text
        assert forgotten not in m.export(user_id="u0").model_dump_json()


def test_forgetting_either_side_of_a_conflict_removes_the_same() -> None:
    rows = []
    for side in (0, 1):
        with create_good_memory(InMemoryStorage(), embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT),
                                clock=FrozenClock()) as m:
            m.remember([{"role": "user", "content": fact_message(0, 0, 0, v)} for v in VERSIONS], user_id="u0",
                       session_id="s1", domain="d0")
            facts = sorted(m.list(user_id="u0", kinds=["fact"]), key=lambda r: "~" in r.key)
            assert len(facts) == 2 and "~" in facts[1].key
            rows.append(m.forget(facts[side].id, user_id="u0").deleted["rows"])
    assert rows[0] == rows[1]
