"""The read-path sets: the frozen split rule, well-formed gold, questions that avoid their statement's words."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from goodmemory.eval.suites.baselines import RecentWindow, Session, Turn
from goodmemory.eval.suites.read_sets import ReadCase, ReadUser, gold_recall, half, load_set, run_read_sets
from goodmemory.text import terms

pytestmark = pytest.mark.eval

ROOT = Path(__file__).parents[2] / "fixtures" / "read_sets"


def test_split_is_the_sha256_rule_and_roughly_even() -> None:
    for cid in ("pref/u01/p01", "service/c07", "x"):
        assert half(cid) == ("tune" if hashlib.sha256(cid.encode()).digest()[0] % 2 == 0 else "test")
    cases = [c for name in ("preferences", "service") for u in load_set(ROOT / name / "cases.json") for c in u.cases]
    tune = sum(c.half == "tune" for c in cases)
    assert 0.4 < tune / len(cases) < 0.6


@pytest.mark.parametrize("name", ["preferences", "service"])
def test_every_gold_id_is_a_user_turn_of_that_user(name: str) -> None:
    users = load_set(ROOT / name / "cases.json")
    assert len(users) >= 20
    for u in users:
        turns = {t.message_id: t for s in u.sessions for t in s.turns}
        assert len(turns) == sum(len(s.turns) for s in u.sessions)  # ids are unique
        for c in u.cases:
            assert c.gold and all(turns[g].role == "user" for g in c.gold)
            assert all(c.at > s.at for s in u.sessions)


def test_preference_questions_avoid_their_statements_words() -> None:
    """The premise of the set: the question shares (almost) no content word with the statement it needs."""
    spec = yaml.safe_load((ROOT / "preferences" / "statements.yaml").read_text())
    shared = []
    for u in spec["users"]:
        for p in u["prefs"]:
            common = {w[:5] for w in terms(p["say"])} & {w[:5] for w in terms(p["ask"])}
            if common:
                shared.append((p["ask"], sorted(common)))
    assert len(shared) <= 20, shared  # 16 of 200 share one generic word ("night", "stay", "go")


def test_gold_recall_and_the_runner_on_a_tiny_set() -> None:
    turns = [Turn(f"m{i}", "user", f"turn {i}") for i in range(6)]
    user = ReadUser("u", [Session("s", None, turns)], [ReadCase("x", "q?", ("m5", "m0"), turns[0].timestamp, "t")])  # type: ignore[arg-type]
    assert gold_recall(["m5", "m0"], ["m5", "m3"]) == 0.5
    res = run_read_sets([user], [RecentWindow()], [10, 1000])
    h = half("x")
    assert res["halves"][h]["1000"]["recent_window"]["recall"] == 1.0
    assert res["halves"][h]["10"]["recent_window"]["recall"] == 0.5  # only the newest turn fits


def _user() -> ReadUser:
    from datetime import datetime

    t0 = datetime(2024, 3, 1, 9, 0)
    said = ["I'm allergic to peanuts, so keep them out of anything you suggest.",
            "Our flat is on the fourth floor and the lift is broken half the time.",
            "I play the cello in a community orchestra on Thursdays."]
    turns = [Turn(f"m{i}", role, text, t0) for i, (role, text) in enumerate(
        (r, x) for s in said for r, x in (("user", s), ("assistant", "Noted, thanks for telling me.")))]
    return ReadUser("u/1", [Session("s1", t0, turns)],
                    [ReadCase("q", "What snack should I bring to rehearsal?", ("m0",), datetime(2024, 4, 1), "t")])


def test_a_stored_store_is_written_once_and_reads_identically(tmp_path: Path) -> None:
    from goodmemory.embeddings import HashingEmbedder
    from goodmemory.eval.suites.baselines import GoodMemorySystem
    from goodmemory.eval.suites.read_sets import StoredGoodMemory

    user, emb = _user(), HashingEmbedder()
    case = user.cases[0]

    def read(system: GoodMemorySystem) -> tuple[str, list[str]]:
        system.load(user.user_id, user.sessions)
        ctx = system.context(user.user_id, case.question, 200, case.at)
        system.close()
        return ctx.text, ctx.cited

    first = read(StoredGoodMemory(tmp_path, emb))
    (stored,) = tmp_path.glob("*.sqlite")
    written = stored.stat().st_mtime_ns
    second = read(StoredGoodMemory(tmp_path, emb))
    assert first == second and first[1]
    assert stored.stat().st_mtime_ns == written  # the second run read a copy and wrote nothing
    # without the stored file the same data gets new record ids, and the block's text with them
    assert read(GoodMemorySystem(embedder=emb))[0] != read(GoodMemorySystem(embedder=emb))[0]


def test_a_stored_store_reads_with_the_config_given_for_the_reads(tmp_path: Path) -> None:
    from goodmemory.config import GoodMemoryConfig
    from goodmemory.embeddings import HashingEmbedder
    from goodmemory.eval.suites.read_sets import StoredGoodMemory

    user, emb = _user(), HashingEmbedder()
    case = user.cases[0]
    texts = []
    for cfg in (None, GoodMemoryConfig(context_settings={"compact_below_tokens": 0, "undated_below_tokens": 0})):
        s = StoredGoodMemory(tmp_path, emb, cfg)
        s.load(user.user_id, user.sessions)
        texts.append(s.context(user.user_id, case.question, 200, case.at).text)
        s.close()
    assert "## " not in texts[0] and "## " in texts[1]  # 200 tokens is compact (no headers) unless the reads say not
