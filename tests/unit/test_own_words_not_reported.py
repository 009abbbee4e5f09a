"""The user's own "I said" is not someone else's words (issue 17): "my old gym shut so I just said screw it and joined
X" had been read as reported speech, and a change in someone else's words is kept only where it replaces something,
so the new gym was never kept."""

from __future__ import annotations

from _memories import active_after


def test_i_said_is_the_users_own_change() -> None:
    values = active_after("I train at Pulse Gym on Kingsway most mornings, can you plan me a leg day",
                          "my old place shut for a refit so I just said forget it and joined Iron Yard on Mill St, "
                          "way better. can we add deadlifts?")
    assert any("Iron Yard" in v for v in values), values


def test_someone_elses_words_stay_theirs() -> None:
    values = active_after("I train at Pulse Gym on Kingsway most mornings",
                          "my brother said Iron Yard is way better, he goes there")
    assert any("Pulse Gym" in v for v in values)
    assert not any(v.startswith("my brother") and "Pulse" in v for v in values)


def test_the_users_conclusion_after_someone_elses_words_is_theirs() -> None:
    values = active_after("I commute to the Leeds office five days a week, 8 till 4",
                          "my manager said it's fine so I'm working from home on Fridays now, can you plan my week")
    assert any("working from home on Fridays" in v for v in values), values
