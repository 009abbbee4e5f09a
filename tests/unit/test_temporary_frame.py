"""A temporary frame gives no lasting memory (issue 17, w58): a stay, a trip or a rental said to last the week,
the weekend, a few days or a holiday ("I'm in Porto this week for a workshop", "We hired a camper van for the
weekend") passes with it; the raw turn keeps it as an episode. A clause said to last beside it, a change, a
stay said to last, or a frame with no stay in it (a medicine or a symptom for the week) stays a statement."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _extracting import statements

from goodmemory.extraction._statements import passing

AT = datetime(2025, 3, 12, 10, tzinfo=UTC)


def _said(text: str) -> list[str]:
    return [c.value for c in statements(text, at=AT)]


@pytest.mark.parametrize("text", [
    "I'm in Porto this week for a workshop.",
    "I'm in Leipzig for the week, visiting a supplier.",
    "This week I'm working out of the Madrid office, so I might answer late.",
    "On holiday we're staying in a cabin near Lake Bled.",
    "We hired a camper van for the weekend in Cornwall.",
    "I've rented a Peugeot 208 for a few days while mine is being fixed.",
    "I'm away on a business trip in Oslo until Friday.",
])
def test_a_stay_a_trip_or_a_rental_in_a_temporary_frame_passes(text: str) -> None:
    assert passing(text)
    assert _said(text) == []


@pytest.mark.parametrize("text", [
    "I live in Ghent but this week I'm in Porto for a workshop.",   # a lasting clause beside the trip
    "I've been in Porto for three years now.",                      # a stay said to last
    "This week I moved to Porto for good.",                         # a change
    "I go to Porto every week for work.",                           # a habit
    "I'm on antibiotics for the week.",                             # a medicine, no stay
    "I've had a migraine for a few days.",                          # a symptom, no stay
    "We're on holiday until the 14th, so no meetings please.",      # availability, no place of stay
])
def test_a_lasting_clause_a_change_or_a_habit_does_not_pass(text: str) -> None:
    assert not passing(text)
