"""What the user's own doctor, employer or provider says of the user is kept in the user's words (issue 17): "Dr. Osei
at Harbour Dental says I grind my teeth" was dropped as someone else's words, so the later "I see Dr. Lund at Elm
Street Dental now" had no dentist to replace. Kept as a note of its own, never as a change. My own sentences."""

from __future__ import annotations

import pytest

from _memories import active_after, assert_replaced


@pytest.mark.parametrize(("said", "name"), [
    ("Dr. Osei at Harbour Dental says I grind my teeth at night, is a night guard worth it?", "Dr. Osei"),
    ("Mr Patel at Eastfield Physio says my left knee needs six more sessions.", "Eastfield Physio"),
])
def test_what_the_users_own_people_say_of_them_is_kept(said: str, name: str) -> None:
    assert any(name in v for v in active_after(said))


def test_a_later_change_replaces_it() -> None:
    assert_replaced(active_after(
        "Dr. Osei at Harbour Dental says I grind my teeth at night, is a night guard worth it?",
        "I go to Dr. Lund at Elm Street Dental now, since the spring. Should she check the guard?"),
        "Dr. Lund", "Dr. Osei")


@pytest.mark.parametrize("said", [
    "My sister says the new Ikea in town is huge.",
    "The landlord says we must move out by June, where should we look?",
    "Tom reckons Arsenal will win the league.",
])
def test_words_not_about_the_user_or_changing_their_home_are_not_kept(said: str) -> None:
    assert active_after("We live in Bristol, near the harbour.", said) == active_after("We live in Bristol, near the harbour.")
