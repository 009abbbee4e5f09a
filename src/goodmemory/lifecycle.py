"""When a memory stops being current on its own (pure: a record in, a time or None out).

``maintain()`` expires what this module says has ended; the write path and the facade only store
the structured values it reads. Two sources, the first that applies wins:

- ``metadata["expires_at"]``: an explicit end (ISO 8601) set by a caller, an import or an extractor;
- a dated event: a memory of a family whose value *is* an event on a day (an appointment, a
  booking, a reservation), with the ``metadata["date"]`` the write path already records. Once that
  day is over everywhere on Earth the event is past: it is expired, not deleted (history and
  ``include_history`` still show it, recall and context stop presenting it as current).

A deadline or a document's expiry date is *not* an end of the memory: an overdue task is still
open, and "my passport expired on ..." stays true after the day.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from .models import MemoryRecord

__all__ = ["EVENT_FAMILIES", "expires_at"]

# the registry families whose value is a dated event (_key_families.py names them; a registry field
# "ends_at_date" would let the registry say so itself)
EVENT_FAMILIES = frozenset({"appointment", "booking", "reservation"})
# the last time zone (UTC-12) finishes a day 12 hours after UTC does
_DAY_OVER_EVERYWHERE = timedelta(days=1, hours=12)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def expires_at(record: MemoryRecord) -> datetime | None:
    """The moment ``record`` stops being current, or None when nothing says it ends."""
    explicit = record.metadata.get("expires_at")
    if explicit:
        try:
            return _aware(datetime.fromisoformat(str(explicit)))
        except ValueError:
            return None  # an unreadable end is no end: expiring on a guess would hide a live memory
    if record.metadata.get("family") in EVENT_FAMILIES and record.metadata.get("date"):
        try:
            day = date.fromisoformat(str(record.metadata["date"]))
        except ValueError:
            return None
        return datetime.combine(day, time(0), tzinfo=UTC) + _DAY_OVER_EVERYWHERE
    return None
