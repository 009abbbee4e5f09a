"""remember stores the same records whether the adapter answers the write path's reads in one round trip
(``list_many``) or one ``list`` at a time (the path every adapter without ``list_many`` takes, and the one
SQLite took before), and whatever index SQLite walks and whether records are borrowed (``borrowed_reads``) or
copied: the in-memory adapter, which does neither, stores the same. Same records, same links, same marks, on a
scripted conversation of this test's own; and no parsed record the SQL adapter keeps was changed by a borrower."""

from __future__ import annotations

import json
import random
import re
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from goodmemory import create_good_memory
from goodmemory.storage.base import StorageCapabilities
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing import FrozenClock

T0 = datetime(2025, 3, 3, 9, tzinfo=UTC)
SESSIONS = [
    [("user", "I live in Braga and I work as a dental hygienist."), ("assistant", "Noted, Braga."),
     ("user", "My gym is Corpo Activo, I go on Tuesdays."), ("user", "I need to renew my passport by June 2.")],
    [("user", "I moved to Coimbra last week."), ("assistant", "Coimbra, got it."),
     ("user", "I switched my gym to Fitlab now."), ("user", "I prefer aisle seats on trains.")],
    [("user", "I renewed my passport yesterday."), ("user", "Actually I prefer window seats now, not aisle seats."),
     ("user", "My sister Ines is a pharmacist in Faro."), ("assistant", "So Ines works in Faro.")],
    [("user", "We moved again, we live in Aveiro now."), ("user", "The gym is still Fitlab."),
     ("user", "My plate is 12-AB-34 on the grey Clio.")],
]


class _OneListAtATime(SQLStorage):
    """The SQLite adapter without ``list_many``: every list is its own round trip."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.capabilities = StorageCapabilities(**{**self.capabilities.__dict__, "list_many": False})


# values restated in other turns, then changed or ended: the restatement search lists the domain's turns
RESTATED = [
    [("user", "Our ferry to the island leaves at 7:40 from pier 3 every Saturday."),
     ("assistant", "Noted, the 7:40 from pier 3."), ("user", "The Vespa needs a new clutch, the garage quoted 340 euros."),
     ("assistant", "So 340 for the Vespa clutch, noted.")],
    [("user", "My brother Rui plays the cello.")],  # sessions alternate between no domain and "life"
    [("user", "The 7:40 ferry is always full in summer."), ("assistant", "The 7:40 is popular.")],
    [("user", "I like quiet mornings.")],
    [("user", "Small correction: the ferry leaves at 8:10 now, not 7:40."),
     ("user", "We sold the Vespa, the clutch was not worth it.")],
]


def _stored(tmp_path: Path, name: str, storage: Any, monkeypatch: pytest.MonkeyPatch,
            sessions: list[list[tuple[str, str]]] = SESSIONS, query: str | None = None) -> list[str]:
    rng = random.Random(7)
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=rng.getrandbits(128), version=4))
    clock = FrozenClock(T0)
    mem = create_good_memory(storage, clock=clock)
    for i, turns in enumerate(sessions):
        at = T0 + timedelta(days=9 * i)
        clock.set(at)
        mem.remember([{"role": r, "content": c} for r, c in turns], user_id="u", session_id=f"s{i}", at=at,
                     domain="life" if i % 2 else None)
    if query is not None:  # the read side borrows too (the replacements an outdated turn's flag names)
        assert "8:10" in mem.build_context(query, user_id="u").text
    records = sorted(mem.storage.list("u"), key=lambda r: (r.kind.value, r.key, r.text, r.status.value))
    mem.close()
    names = {r.id: f"ID{i}" for i, r in enumerate(records)}
    ids = re.compile("|".join(map(re.escape, names)))
    return [ids.sub(lambda m: names[m.group(0)], json.dumps(r.model_dump(mode="json", exclude={"id"}),
                                                           sort_keys=True)) for r in records]


def test_one_round_trip_stores_what_one_list_at_a_time_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _stored(tmp_path, "a", f"sqlite:///{tmp_path / 'a.db'}", monkeypatch)
    slow = _stored(tmp_path, "b", _OneListAtATime(f"sqlite:///{tmp_path / 'b.db'}"), monkeypatch)
    assert len(fast) > 20
    assert any('"status": "superseded"' in r for r in fast)  # the conversation changes values
    assert fast == slow


def test_sqlite_stores_what_the_reference_adapter_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from goodmemory.storage import _common

    _common.forget_parsed()
    fast = _stored(tmp_path, "a", f"sqlite:///{tmp_path / 'a.db'}", monkeypatch, SESSIONS + RESTATED,
                   "When does our ferry leave?")
    kept = dict(_common._PARSED)
    reference = _stored(tmp_path, "m", "memory://", monkeypatch, SESSIONS + RESTATED)
    # the marks' reads (the borrowed ones) ran: a turn other than the old value's own is marked
    assert any('"outdated"' in r and "always full" in r for r in fast)
    assert fast == reference
    assert kept and all(rec.model_dump_json() == data for data, rec in kept.items())
