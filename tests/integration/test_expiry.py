"""maintain() expires a fact that carries its own end, end to end through the public API (issue 22):
a dated appointment or booking is current until its day is over, then maintain() marks it expired,
history records it, and recall/build_context stop presenting it as current."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from goodmemory import MemoryStatus, create_good_memory
from goodmemory.testing import FakeEmbedder, FrozenClock

pytestmark = pytest.mark.integration

SAID = datetime(2025, 2, 20, 9, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "memory"])
def mem(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    url = f"sqlite:///{tmp_path / 'gm.db'}" if request.param == "sqlite" else "memory://"
    with create_good_memory(url, embedder=FakeEmbedder(), clock=FrozenClock(SAID)) as m:
        for i, text in enumerate(["My dentist appointment is on February 25 at 3pm.",
                                  "I have a flight to Tokyo on March 10.", "I live in Lisbon."]):
            m.remember([{"role": "user", "content": text}], user_id="u", session_id=f"s{i}")
        yield m


def _fact(mem: Any, key: str) -> Any:
    return next(r for r in mem.list(user_id="u", include_history=True) if r.key.startswith(key))


def test_a_past_appointment_expires_and_stops_being_current(mem: Any) -> None:
    dentist = _fact(mem, "appointment.dentist")
    assert mem.maintain(user_id="u", at=datetime(2025, 2, 25, 20, 0, tzinfo=UTC)).expired == 0  # the day itself
    assert _fact(mem, "appointment.dentist").status == MemoryStatus.ACTIVE
    later = datetime(2025, 3, 1, tzinfo=UTC)
    report = mem.maintain(user_id="u", at=later)
    assert report.expired == 1  # the dentist; the flight (March 10) and the home city stay
    gone = mem.get(dentist.id, user_id="u")
    assert gone.status == MemoryStatus.EXPIRED and gone.valid_to == later
    assert [(h.memory.status, h.valid_to) for h in mem.history(dentist.id, user_id="u")] == \
        [(MemoryStatus.EXPIRED, later)]
    assert "expired" in [e.action for e in mem.storage.events("u", dentist.id)]
    assert all(h.memory.id != dentist.id for h in mem.recall("when is my dentist appointment", user_id="u").hits)
    assert dentist.id in {r.id for r in mem.list(user_id="u", include_history=True)}  # kept, not deleted
    ctx = mem.build_context("when is my dentist appointment?", user_id="u").text
    # the fact is no longer presented; the turn it came from may still show, dated, as what was said then
    assert dentist.text not in ctx and f"[{dentist.id[:6]} " not in ctx
    assert _fact(mem, "travel.flight").status == MemoryStatus.ACTIVE
    assert "Lisbon" in mem.build_context("where do I live?", user_id="u").text
    assert mem.maintain(user_id="u", at=later).expired == 0  # idempotent


def test_the_flight_expires_once_its_day_is_over(mem: Any) -> None:
    flight = _fact(mem, "travel.flight")
    assert mem.maintain(user_id="u", at=datetime(2025, 3, 11, 11, 0, tzinfo=UTC)).expired == 1  # the dentist
    assert mem.get(flight.id, user_id="u").status == MemoryStatus.ACTIVE  # still March 10 somewhere
    assert mem.maintain(user_id="u", at=datetime(2025, 3, 11, 13, 0, tzinfo=UTC)).expired == 1
    assert mem.get(flight.id, user_id="u").status == MemoryStatus.EXPIRED
