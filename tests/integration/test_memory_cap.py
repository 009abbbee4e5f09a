"""A per-user memory cap evicts the least important, oldest memories, never open tasks or confirmed facts first."""

from __future__ import annotations

from goodmemory import Candidate, MemoryKind, create_good_memory
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor


def test_cap_evicts_least_important_oldest_and_warns() -> None:
    script = {"I need to call the bank.": [Candidate(kind=MemoryKind.OPEN_LOOP, key="task.call_bank", value="open",
                                                     text="User needs to call the bank.", metadata={"state": "open"})]}
    clock = FrozenClock()
    m = create_good_memory("sqlite://", config={"max_memories_per_user": 12}, embedder=FakeEmbedder(),
                           extractor=ScriptedExtractor(script), clock=clock)
    m.remember([{"role": "user", "content": "I need to call the bank."}], user_id="u", session_id="s0")
    task = m.list(user_id="u", kinds=["open_loop"])[0]
    first = m.list(user_id="u", kinds=["episode"])[0]
    m.feedback(first.id, "confirm", user_id="u")  # a confirmed memory is kept
    warnings: list[str] = []
    for i in range(20):
        clock.advance(minutes=1)
        res = m.remember([{"role": "user", "content": f"small talk number {i}"}], user_id="u", session_id=f"s{i + 1}")
        warnings += res.warnings
    assert m.storage.count("u") == 12
    kept = {r.id for r in m.list(user_id="u", include_history=True)}
    assert task.id in kept and first.id in kept
    texts = {r.text for r in m.list(user_id="u")}
    assert "user: small talk number 19" in texts and "user: small talk number 0" not in texts
    assert warnings and "cap of 12" in warnings[-1]
    assert m.storage.tombstones("u")  # evictions are deletions: content-free tombstones
    other = m.remember([{"role": "user", "content": "hi"}], user_id="v")
    assert other.warnings == [] and m.storage.count("v") == 1  # the cap is per user
    m.close()
