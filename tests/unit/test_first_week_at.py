""""First week at Pennine Foods done!" tells a new employer without "I" (issue 17): it is kept, framed as a change of
employer, and replaces the one the user gave as "I work in logistics at X" (that sentence's employer sort is in
test_value_shapes). This file's own sentences."""

from __future__ import annotations

from _extracting import extract, values

from _memories import active_after


def test_the_onset_without_i_is_kept() -> None:
    assert any("Pennine" in c.value for c in extract("First day at Pennine Foods done, nice bunch!"))


def test_an_onset_at_no_name_keeps_nothing() -> None:
    assert values("First week at the gym done!") == []


def test_the_first_week_at_a_new_employer_replaces_the_old_one() -> None:
    active = active_after("I work in logistics at Harwell Freight, mostly scheduling.",
                          "First day at Pennine Foods done, nice bunch! How do I ask for a parking permit?")
    assert any("Pennine" in v for v in active) and not any("Harwell" in v for v in active), active
