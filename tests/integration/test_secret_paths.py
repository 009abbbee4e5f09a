"""Secrets reach the store only through remember's policy: feedback corrections and notes go through it too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from goodmemory import Candidate, InvalidInputError, MemoryKind, create_good_memory
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor

SCRIPT = {"I live in Lisbon.": [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value="Lisbon",
                                          text="User's home city is Lisbon.", confidence=0.9)]}
CORRECTION = "card 4111 1111 1111 1111 cvv 123, password is Tr0ub4dor&3"
SECRET_VALUES = ("4111 1111 1111 1111", "4111111111111111", "Tr0ub4dor&3")


def _file_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def _holds(blob: str, value: str) -> bool:
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(value)}(?![0-9A-Za-z])", blob) is not None


@pytest.fixture
def setup(tmp_path: Path):  # type: ignore[no-untyped-def]
    db = tmp_path / "gm.db"
    m = create_good_memory(f"sqlite:///{db}", embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT),
                           clock=FrozenClock())
    m.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u", session_id="s")
    rec = m.list(user_id="u", kinds=["profile"])[0]
    yield m, rec, db
    m.close()


def _assert_nowhere(m, db: Path) -> None:  # type: ignore[no-untyped-def]
    dump = m.export(user_id="u").model_dump_json()
    history = "".join(str(e.__dict__) for r in m.export(user_id="u").memories for e in m.storage.events("u", r.id))
    ctx = m.build_context("card password cvv home city", user_id="u", max_tokens=3000).text
    for v in SECRET_VALUES:
        assert not _holds(dump, v) and not _holds(history, v) and v not in ctx, v
    m.storage._checkpoint()
    raw = _file_bytes(db)
    for v in SECRET_VALUES:
        assert v.encode() not in raw, v


def test_a_correction_holding_a_secret_is_refused_and_changes_nothing(setup) -> None:  # type: ignore[no-untyped-def]
    m, rec, db = setup
    before = m.export(user_id="u").memories
    with pytest.raises(InvalidInputError, match="secret"):
        m.feedback(rec.id, "correct", user_id="u", correction=CORRECTION)
    assert m.export(user_id="u").memories == before
    assert m.get(rec.id, user_id="u").status.value == "active"
    _assert_nowhere(m, db)


def test_a_note_holding_a_secret_is_redacted(setup) -> None:  # type: ignore[no-untyped-def]
    m, rec, db = setup
    m.feedback(rec.id, "confirm", user_id="u", note=f"user said: {CORRECTION}")
    events = m.storage.events("u", rec.id)
    note = next(e.detail["note"] for e in events if e.action == "feedback:confirm")
    assert "[REDACTED:card_number]" in note and "[REDACTED:password]" in note and "user said" in note
    _assert_nowhere(m, db)


def test_secrets_in_feedback_are_kept_when_allowed(tmp_path: Path) -> None:
    with create_good_memory("sqlite://", config={"allow_secrets": True}, embedder=FakeEmbedder(),
                            extractor=ScriptedExtractor(SCRIPT), clock=FrozenClock()) as m:
        m.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u", session_id="s")
        rec = m.list(user_id="u", kinds=["profile"])[0]
        res = m.feedback(rec.id, "correct", user_id="u", correction=CORRECTION, note=CORRECTION)
        assert res.memory is not None and "4111 1111 1111 1111" in res.memory.text
