"""Slot keys, kinds and their defaults."""

from __future__ import annotations

import pytest

from goodmemory.models import MemoryKind
from goodmemory.taxonomy import (
    content_words,
    default_transferable,
    humanize_key,
    normalize_key,
    slot_key,
    slug,
    task_key,
    volatility_for,
    word_overlap,
)

pytestmark = pytest.mark.unit


def test_slug_and_normalize() -> None:
    assert slug("Honda Civic") == "honda_civic"
    assert slug("São Paulo!") == "sao_paulo"
    assert normalize_key(" Vehicle.Honda Civic..Plate ") == "vehicle.honda_civic.plate"
    assert normalize_key("") == "misc"


def test_slot_key_slugs_each_part_and_skips_empty() -> None:
    assert slot_key("account", "Chase", None, "checking") == "account.chase.checking"
    assert slot_key("vehicle", "Honda Civic", "plate") == "vehicle.honda_civic.plate"


def test_task_key_ignores_function_words() -> None:
    assert task_key("renew my passport") == "task.renew_passport"
    assert task_key("book the hotel in Lisbon") == "task.book_hotel_lisbon"
    assert content_words("book the hotel") == ["book", "hotel"]


def test_word_overlap_matches_inflections() -> None:
    assert word_overlap("booked the hotel", "book hotel") == 1.0
    assert word_overlap("renewed my passport", "renew_passport") == 1.0
    assert word_overlap("paid rent", "book hotel") == 0.0
    assert word_overlap("studies for the exams", "study exam") == 1.0  # the one stemmer (text.stem): studies/study


def test_defaults() -> None:
    assert default_transferable(MemoryKind.PREFERENCE, "preference.like.tea")
    assert not default_transferable(MemoryKind.PREFERENCE, "preference.domain.seat")
    assert not default_transferable(MemoryKind.FACT, "account.chase.checking")
    assert volatility_for(MemoryKind.FACT, "appointment.dentist") == 0.6
    assert volatility_for(MemoryKind.PROFILE, "profile.home_city") == 0.3
    assert humanize_key("vehicle.honda_civic.plate") == "vehicle honda civic plate"
