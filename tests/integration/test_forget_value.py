"""What forgetting one memory means: its value goes wherever the user's turns said it; a newer value stays.

See goodmemory._forget and SECURITY.md ("Deletion you can verify").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from goodmemory import Candidate, MemoryKind, create_good_memory
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor

OLD, NEW = "Zarvoth7", "Quelmir9"
SCRIPT = {
    f"My locker code word is {OLD}.": [Candidate(kind=MemoryKind.FACT, key="locker.code_word", value=OLD,
                                                  text=f"User's locker code word is {OLD}.", confidence=0.9)],
    f"New locker code word: {NEW}.": [Candidate(kind=MemoryKind.FACT, key="locker.code_word", value=NEW,
                                                 text=f"User's locker code word is {NEW}.", confidence=0.9,
                                                 is_correction=True)],
}


def _file_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


@pytest.fixture
def mem(tmp_path: Path):  # type: ignore[no-untyped-def]
    db = tmp_path / "gm.db"
    m = create_good_memory(f"sqlite:///{db}", embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT),
                           clock=FrozenClock())
    m.remember([{"role": "user", "content": f"My locker code word is {OLD}."},
                {"role": "assistant", "content": f"Got it, {OLD} it is. I will remember {OLD.lower()}."}],
               user_id="u", session_id="s1")
    m.remember([{"role": "user", "content": f"Tell my brother the code is {OLD} and the gym opens at 7."}],
               user_id="u", session_id="s2")
    m.remember([{"role": "user", "content": f"New locker code word: {NEW}."}], user_id="u", session_id="s3")
    m.remember([{"role": "user", "content": f"Remember {NEW} for later."}], user_id="u", session_id="s4")
    yield m, db
    m.close()


def _everything(m) -> str:  # type: ignore[no-untyped-def]
    exp = m.export(user_id="u")
    history = [str(e.detail) for r in exp.memories for e in m.storage.events("u", r.id)]
    ctx = m.build_context("locker code word brother gym", user_id="u", max_tokens=4000).text
    hits = [h.memory.text for h in m.recall("locker code word", user_id="u", include_history=True).hits]
    return "\n".join([exp.model_dump_json(), *history, ctx, *hits])


def test_forgetting_an_outdated_value_keeps_the_current_one(mem) -> None:  # type: ignore[no-untyped-def]
    m, db = mem
    old = next(r for r in m.list(user_id="u", include_history=True) if r.value == OLD)
    current = next(r for r in m.list(user_id="u", kinds=["fact"]) if r.value == NEW)
    receipt = m.forget(old.id, user_id="u")
    assert receipt.rewritten >= 1  # the brother turn, kept without the value
    assert m.get(current.id, user_id="u").status.value == "active"
    everything = _everything(m)
    assert OLD.lower() not in everything.lower()
    assert NEW in everything
    assert "gym opens at 7" in everything  # the rest of the turn that repeated the value stays
    assert any("[forgotten]" in r.text for r in m.export(user_id="u").memories)
    assert OLD.encode() not in _file_bytes(db) and OLD.lower().encode() not in _file_bytes(db)


def test_forgetting_the_current_value_forgets_it_and_its_history_everywhere(mem) -> None:  # type: ignore[no-untyped-def]
    m, db = mem
    current = next(r for r in m.list(user_id="u", kinds=["fact"]) if r.value == NEW)
    m.forget(current.id, user_id="u")
    everything = _everything(m).lower()
    assert NEW.lower() not in everything and OLD.lower() not in everything
    assert "gym opens at 7" in everything
    raw = _file_bytes(db)
    assert all(v.encode() not in raw for v in (OLD, NEW, OLD.lower(), NEW.lower()))


def test_forgetting_a_fact_forgets_its_restatement_from_the_same_turn(tmp_path: Path) -> None:
    # the rules' fact and the same value in another memory read from the same turn are one thing to the user
    from goodmemory import Candidate, MemoryKind, create_good_memory
    from goodmemory.testing import FakeEmbedder, ScriptedExtractor

    said = "My dentist is Dr. Kowalczyk and I work as a nurse."
    script = {said: [
        Candidate(kind=MemoryKind.FACT, key="health.dentist", value="Dr. Kowalczyk", text="User's dentist is Dr. Kowalczyk.",
                  confidence=0.9),
        Candidate(kind=MemoryKind.PROFILE, key="profile.statement.clinician", value=said,
                  text=f'The user said: "{said}"', confidence=0.7),
        Candidate(kind=MemoryKind.PROFILE, key="profile.occupation", value="nurse", text="User works as a nurse.",
                  confidence=0.9)]}
    m = create_good_memory(f"sqlite:///{tmp_path / 'r.db'}", embedder=FakeEmbedder(), extractor=ScriptedExtractor(script))
    try:
        m.remember([{"role": "user", "content": said}], user_id="u", session_id="s")
        dentist = next(r for r in m.list(user_id="u") if r.key == "health.dentist")
        m.forget(dentist.id, user_id="u")
        left = [r.text for r in m.list(user_id="u", include_history=True)]
        assert not any("Kowalczyk" in t for t in left), left
        assert "User works as a nurse." in left  # read from the same turn, another value: it stays
    finally:
        m.close()


def test_forgetting_a_turn_forgets_the_memory_that_quotes_it(tmp_path: Path) -> None:
    from goodmemory import Candidate, MemoryKind, create_good_memory
    from goodmemory.testing import FakeEmbedder, ScriptedExtractor

    said = "My dentist is Dr. Kowalczyk."
    script = {said: [Candidate(kind=MemoryKind.FACT, key="fact.clinician", value=said.rstrip("."),
                               text=f'The user said: "{said}"', confidence=0.7)]}
    m = create_good_memory(f"sqlite:///{tmp_path / 't.db'}", embedder=FakeEmbedder(), extractor=ScriptedExtractor(script))
    try:
        m.remember([{"role": "user", "content": said}, {"role": "user", "content": "I like tea."}],
                   user_id="u", session_id="s")
        turn = next(r for r in m.list(user_id="u", kinds=[MemoryKind.EPISODE]) if "Kowalczyk" in r.text)
        m.forget(turn.id, user_id="u")
        left = [r.text for r in m.list(user_id="u", include_history=True)]
        assert not any("Kowalczyk" in t for t in left), left
        assert any("I like tea." in t for t in left)  # the other turn of the call stays
    finally:
        m.close()
