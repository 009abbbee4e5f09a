"""Where the user has been living since a time ("we've been in Norwich since the start of September") is their
home now (issue 17): without a word of change it read as small talk next to the old home city, which stayed."""

from __future__ import annotations

from _memories import active_after


def test_been_in_a_city_since_a_month_replaces_the_home() -> None:
    values = active_after("living in Leicester, any decent curry houses near the centre?",
                          "we've been in Norwich since the start of september, still finding our feet. good parks?")
    assert any("Norwich" in v for v in values)
    assert not any("Leicester" in v for v in values), values


def test_a_stay_since_a_weekday_keeps_the_home() -> None:
    values = active_after("I live in Leeds with my partner",
                          "I've been in London since Monday for a training course, it's exhausting")
    assert any("Leeds" in v for v in values)
