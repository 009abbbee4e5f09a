"""Dates of the rule extractor: the first date expression of a text (the grammar is ``goodmemory.dates``)
resolved against the turn's time, with the clock time said near it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from ..dates import find_date, find_time

__all__ = ["When", "resolve_when"]


@dataclass(frozen=True)
class When:
    """A resolved date (and optional ``HH:MM`` time) and the text span it came from."""

    day: date
    time: str | None
    start: int
    end: int

    @property
    def iso(self) -> str:
        return self.day.isoformat() + (f"T{self.time}" if self.time else "")

    @property
    def phrase(self) -> str:
        return self.day.isoformat() + (f" at {self.time}" if self.time else "")


def resolve_when(text: str, ref: datetime, *, future: bool = True) -> When | None:
    """Find the first date expression in ``text`` and resolve it against ``ref``.

    ``future``: a date without a year (or "the 3rd") that is already past means the next one; without
    it, this year's (this month's).
    """
    found = find_date(text, ref.date(), lean="future" if future else "as_written")
    if found is None or found.day is None:
        return None
    t = find_time(text)
    if t is None:
        return When(found.day, None, found.start, found.end)
    return When(found.day, t.hhmm, min(found.start, t.start), max(found.end, t.end))
