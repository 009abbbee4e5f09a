"""Four ways a value was kept or lost wrongly (issue 17), in this file's own sentences: a rent a rule read now sits in
the rent family's one slot, so a later rent statement replaces it; a child's name is not replaced by their new school
when the sentence goes on "since we moved ..."; "never ... anymore" says something ended; "ported to X" on a
prepaid plan changes the mobile provider."""

from __future__ import annotations

from _extracting import extract

from _memories import active_after as _active


def test_the_rent_a_rule_read_is_the_rent() -> None:
    assert ("fact.rent", "£875 a month") in [(c.key, c.value) for c in extract("My rent is £875 a month.")]
    active = _active("My rent is £875 a month.", "the landlord's put the rent up to £940 from March, is that allowed?")
    assert any("£940" in v for v in active) and not any("£875" in v for v in active), active


def test_a_childs_new_school_keeps_the_childs_name() -> None:
    active = _active("My daughter Ines is in Year 2.", "Ines started at Brookfield Academy this week since we moved "
                                                       "across town")
    assert "Ines" in active and any("Brookfield" in v for v in active), active


def test_never_anymore_ends_the_value() -> None:
    active = _active("I've been playing the ukulele for three years.",
                     "Sold the ukulele tbh, never picked it up anymore.")
    assert not any("ukulele" in v for v in active), active  # ended: history, not a current value


def test_ported_to_a_new_provider() -> None:
    active = _active("I'm on Lebara prepaid, 10GB for £8.", "Ported to Smarty last week, £6 for 30GB")
    assert any("Smarty" in v for v in active) and not any("Lebara" in v for v in active), active


def test_a_school_started_in_a_year_group() -> None:
    found = [(c.key, c.value) for c in extract("My son Oskar just started Year 2 at Fernhill Primary, any tips?")]
    assert ("relation.son.oskar.school", "Fernhill Primary") in found, found
