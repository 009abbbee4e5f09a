"""Write-path details that held an old value as current or filed a value where it cannot be (issue 17), in my own
sentences:
- an acronym that starts a sentence names a value ("HDFC Bank ..."), and a note's key digest names none;
- an answer that is a name alone keeps the name when the clause naming the old value goes;
- a medicine is said as one ("I take the 38 bus every morning" is no medication);
- "40 min each way" tells a commute;
- providers beyond the UK and the US (Nigeria, the Philippines, Mexico, South Africa, Japan)."""

from __future__ import annotations

from datetime import datetime

import pytest

from _memories import active_after, assert_replaced
from goodmemory._brands import brand_sorts
from goodmemory._replaced import drop_replaced
from goodmemory._value_types import lacks_shape, sorts_of
from goodmemory.merge import Earlier


def _old(value: str, key: str = "fact.note.x.1a2b3c", family_key: str = "fact.note") -> Earlier:
    return Earlier(key=key, value=value, at=datetime(2025, 1, 1), family_key=family_key, similarity=0.0)


def test_an_acronym_that_starts_a_sentence_names_a_value() -> None:
    assert "icici" in _old("ICICI netbanking locked me out after three tries").names()


def test_a_notes_digest_names_nothing() -> None:
    assert "1a2b3c" not in _old("I keep my notes in a binder").names()


def test_the_clause_naming_the_closed_account_goes() -> None:
    said = "Closed the ICICI one in May, from now the salary goes to Axis Bank"
    assert drop_replaced(said, _old("ICICI netbanking locked me out after three tries")) == \
        "from now the salary goes to Axis Bank"


def test_a_name_alone_answers() -> None:
    said = "Swiggy. I moved there when the Zomato shifts dried up, been with them since May"
    assert drop_replaced(said, _old("I ride for Zomato in Pune, mostly Kothrud")) == \
        "Swiggy, been with them since May"


@pytest.mark.parametrize(("text", "lacks"), [
    ("I take the 38 bus every morning, 25 min each way", True),
    ("I take sertraline 50mg every morning", False),
    ("the GP put me on lisinopril", False),
    ("I take two tablets at night", False),
])
def test_a_medicine_is_said_as_one(text: str, lacks: bool) -> None:
    assert lacks_shape("medication", text) is lacks


def test_each_way_tells_a_commute() -> None:
    assert "commute" in sorts_of("I take the Northern line every morning, 35 min each way")


@pytest.mark.parametrize(("text", "sort"), [
    ("customers pay into my GTBank account", "bank"),
    ("my Globe prepaid load ran out", "phone_plan"),
    ("I have a Telcel plan", "phone_plan"),
    ("we bank with Capitec", "bank"),
    ("my Docomo bill doubled", "phone_plan"),
])
def test_providers_of_more_countries(text: str, sort: str) -> None:
    assert sort in brand_sorts(text)


def test_a_smart_move_is_no_network() -> None:
    assert brand_sorts("that was a smart move, Globe-trotting aside") == frozenset()


def test_a_new_network_replaces_the_old_one_named_by_name() -> None:
    values = active_after("my Smart prepaid data keeps running out mid-shift, which promo is best for 8 hrs of maps?",
                          "ported my number to DITO last week, signal in Cubao is actually good. battery tips for 5G?")
    assert_replaced(values, "DITO", "Smart")
