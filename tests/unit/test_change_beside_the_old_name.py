"""A change the user tells first, with the old value named after it in a clause of its own ("Registered with X
now, the old practice said we were out of their catchment"), replaces the old value (issue 17). The old name in
the second clause had made the whole sentence "about the person the slot holds", so the old value stayed."""

from __future__ import annotations

from _memories import active_after, assert_replaced


def test_a_new_practice_with_the_old_one_named_after_it_replaces_the_old() -> None:
    values = active_after("my GP is Larkfield Health Centre, can you draft a note asking for a repeat prescription",
                          "Registered with Copperbeech Surgery now since the move, Larkfield said we were too far out")
    assert any("Copperbeech" in v for v in values)
    assert not any(v == "Larkfield Health Centre" or v.startswith("Larkfield") for v in values)


def test_a_sentence_about_the_held_person_keeps_them() -> None:
    values = active_after("my dentist is Dr Okafor at Brightside Dental",
                          "Dr Okafor says I need a filling, she's booked me in for March")
    assert any("Okafor" in v for v in values)


def test_a_place_pointed_back_at_is_named() -> None:
    from _extracting import values
    said = values("can you draft an email to Parkside Medical Centre asking for my records? registered with them on monday")
    assert any("Registered with Parkside Medical Centre" in v for v in said), said


def test_registering_with_a_medical_centre_pointed_back_at_replaces_the_old_surgery() -> None:
    values = active_after("Thornfield Surgery never picks up the phone, 30 mins on hold again",
                          "can you draft an email to Parkside Medical Centre asking them to get my notes from "
                          "Thornfield? registered with them last week")
    assert_replaced(values, "Parkside Medical Centre", "Thornfield Surgery")
