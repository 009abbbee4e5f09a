"""The same life gives the same memories and the same context, whatever record ids are drawn.

Record ids are random (uuid4) and one ``remember`` call's memories share ``created_at``, so the storage's
``ORDER BY created_at, id`` lists them in an order the ids decide. Replays of persona p06 filed "Fer moved the
demo to 15 July, not 30 June" under the project (replacing the old date) in some runs and under the game's
engine (replacing nothing) in others: both were said in one turn, and the change names both. Each replay here
draws its ids from another seeded generator, so an outcome that depends on the ids fails every run, not 2 in 5.
"""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from goodmemory import create_good_memory
from goodmemory.context import ID_LEN
from goodmemory.eval.candidates import GoodMemoryCandidate, ReplayClock
from goodmemory.eval.fixtures import load_pairs
from goodmemory.testing import FrozenClock

FIXTURES = Path(__file__).parents[2] / "fixtures"
SEEDS = (0, 1, 2, 3, 4)
_ID = re.compile(rf"\b[0-9a-f]{{{ID_LEN},32}}\b")

Snapshot = tuple[frozenset[tuple[str, str, str, str]], str]


def _seeded_ids(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    rng = random.Random(seed)
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=rng.getrandbits(128), version=4))


def _snapshot(mem: object, user: str, question: str) -> Snapshot:
    rows = frozenset((r.kind.value, r.key, r.text, r.status.value)
                     for r in mem.export(user_id=user).memories)  # type: ignore[attr-defined]
    ctx = mem.build_context(question, user_id=user, max_tokens=400)  # type: ignore[attr-defined]
    return rows, _uncut(_ID.sub("<id>", ctx.text))


# the one item cut to the tokens left ends in "…": where it is cut depends on what the cited ids cost (a 6-hex
# prefix is 2-6 tokens), the known cause below that a fixed cost per cite removed at 0.019 of gold recall
# (250a05d, reverted). Which item it is, and how it starts, must not depend on the ids.
_CUT = re.compile(r'^(- \[<id>\] (?:\([^)]*\) )?"(?:\S+\s+){3}).*…"$', re.M)


def _uncut(text: str) -> str:
    return _CUT.sub(r"\1…", text)


def _replays(monkeypatch: pytest.MonkeyPatch, replay: Callable[[], Snapshot]) -> list[Snapshot]:
    out = []
    for seed in SEEDS:
        with monkeypatch.context() as m:
            _seeded_ids(m, seed)
            out.append(replay())
    return out


def _own_life() -> Snapshot:
    """A change that names two values of one earlier turn (a tool and a date). Written to hit the p06 tie, it
    does not: the rule reads the date into ``deadline.beta_launch`` and the change replaces it by key, so this
    life also passes on main; it guards the whole path (rules, statements, context) against the ids."""
    start = datetime(2025, 2, 3, 9, 0, tzinfo=UTC)
    clock = FrozenClock(start)
    mem = create_good_memory("sqlite://", clock=clock)
    try:
        turns = [
            "I'm the backend dev at Larkspur, we build a ticketing service in Django. "
            "The beta launch is due 12 March so it's tight",
            "my Django tests hang on CI since the upgrade, no idea why. "
            "also good news, Priya moved the beta launch to 9 April, not 12 March",
            "I prefer answers with the code first, then the explanation",
        ]
        for i, text in enumerate(turns):
            at = start + timedelta(days=7 * i)
            clock.set(at)
            mem.remember([{"role": "user", "content": text, "id": f"s{i}:0"}], user_id="u", session_id=f"s{i}", at=at)
        return _snapshot(mem, "u", "When is the beta launch now?")
    finally:
        mem.close()


def _p06() -> Snapshot:
    _, scenario = next((p, s) for p, s in load_pairs(FIXTURES) if p.persona_id == "p06_diego_hernandez")
    clock = ReplayClock()
    cand = GoodMemoryCandidate(create_good_memory("sqlite://", clock=clock), clock)
    try:
        cand.prepare("u", scenario)
        snap = _snapshot(cand.mem, "u", "When is the Steam Next Fest demo due?")
    finally:
        cand.close()
    return snap


_LIVES = pytest.mark.parametrize("replay", [_own_life, _p06], ids=["own-life", "p06"])


@_LIVES
def test_same_life_same_memories(monkeypatch: pytest.MonkeyPatch, replay: Callable[[], Snapshot]) -> None:
    rows = [s[0] for s in _replays(monkeypatch, replay)]
    for seed, r in zip(SEEDS[1:], rows[1:], strict=True):
        assert r == rows[0], f"ids of seed {seed} changed what was stored: {sorted(r ^ rows[0])}"


_CONTEXT_CASES = pytest.mark.parametrize("replay", [
    _own_life,
    # the cause w47 found stays: a cited 6-hex prefix costs 2-6 tokens, so the ids can decide how much of the
    # last item fits (a fixed 5 tokens per cite made it deterministic and cost 0.019 mean gold recall, commit
    # 250a05d, reverted); the snapshot compares that cut item by its first words (``_uncut``). The seeds are
    # fixed, so this test is deterministic itself.
    _p06,
], ids=["own-life", "p06"])


@_CONTEXT_CASES
def test_same_life_same_context(monkeypatch: pytest.MonkeyPatch, replay: Callable[[], Snapshot]) -> None:
    snaps = _replays(monkeypatch, replay)
    for seed, s in zip(SEEDS[1:], snaps[1:], strict=True):
        assert s == snaps[0], f"ids of seed {seed} changed the stored memories or the context"


def test_p06_demo_date_change_replaces_the_old_date(monkeypatch: pytest.MonkeyPatch) -> None:
    """The change names the engine (Godot) and the date (30 June) of the first turn; it is about the date."""
    _seeded_ids(monkeypatch, 0)
    rows, _ = _p06()
    moved = {(key, status) for _, key, text, status in rows if "15 July" in text and not key.startswith("episode")}
    old = {(key, status) for _, key, text, status in rows if "due 30 June" in text and not key.startswith("episode")}
    # the key is the extractor's to choose; what matters is one slot, the new date current and the old one replaced
    assert len(moved) == 1 and next(iter(moved))[1] == "active", (moved, old)
    assert old == {(next(iter(moved))[0], "superseded")}, (moved, old)
