"""A new home or wake time told as a change replaces the one the user gave before ("now that we're in Porto ...",
"these days I'm up at 5"); which sentences name those sorts is in test_value_shapes (issue 17). This file's own
sentences."""

from __future__ import annotations

from _memories import active_after


def test_it_replaces_the_home_city() -> None:
    active = active_after("I live in Coventry, in a flat by the ring road.",
                          "Now that we're in Porto the rent is half what it was. Where should I buy a bike?")
    assert any("Porto" in v for v in active) and not any("Coventry" in v for v in active), active


def test_a_new_wake_time_replaces_the_old() -> None:
    active = active_after("I wake up at 6:45 on weekdays.", "these days I'm up at 5 for the early shift")
    assert not any("6:45" in v for v in active) and any("up at 5" in v for v in active), active
