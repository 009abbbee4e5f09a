"""goodmemory.lifecycle.expires_at: which records end on their own, and when."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from goodmemory.lifecycle import expires_at
from goodmemory.models import MemoryKind, MemoryRecord

pytestmark = pytest.mark.unit


def _rec(key: str, **metadata: object) -> MemoryRecord:
    return MemoryRecord(user_id="u", kind=MemoryKind.FACT, key=key, text="x", metadata=dict(metadata))


@pytest.mark.parametrize(("record", "end"), [
    (_rec("appointment.dentist", family="appointment", date="2025-02-25"), datetime(2025, 2, 26, 12, tzinfo=UTC)),
    (_rec("travel.flight.tokyo", family="booking", date="2025-03-10"), datetime(2025, 3, 11, 12, tzinfo=UTC)),
    (_rec("fact.x", expires_at="2025-05-01T08:00:00+02:00"), datetime(2025, 5, 1, 6, tzinfo=UTC)),
    (_rec("fact.x", expires_at="2025-05-01T08:00:00"), datetime(2025, 5, 1, 8, tzinfo=UTC)),  # naive: UTC
    (_rec("appointment.x", family="appointment", date="2025-02-25", expires_at="2025-02-20T00:00:00+00:00"),
     datetime(2025, 2, 20, tzinfo=UTC)),  # an explicit end wins
    (_rec("deadline.report", family="deadline", date="2025-02-25"), None),  # an overdue task is still open
    (_rec("passport.expiration", family="expiry", date="2026-06-01"), None),  # stays true after the day
    (_rec("appointment.x", family="appointment", date="soon"), None),  # unreadable: no end
    (_rec("fact.x", expires_at="never"), None),
    (_rec("home.city"), None),
])
def test_expires_at(record: MemoryRecord, end: datetime | None) -> None:
    assert expires_at(record) == end
