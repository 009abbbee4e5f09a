"""A person of the user's life in a role (a manager, a dentist, a landlord) replaced by another: "X's gone over to
the other site, and the new one is Y", "Y took over from X", "X retired, Y is our new GP". The successor is the
role's value now; my own sentences (issue 17)."""

from __future__ import annotations

import pytest

from _memories import active_after, assert_replaced


@pytest.mark.parametrize("news", [
    "so Marcus's gone over to the Leeds office, and the new one is Fatima, she's much calmer.",
    "Marcus left in March and Fatima has taken over, she's great.",
    "Marcus retired, Fatima is the new one now.",
    "Marcus has moved to the Bristol team so I report to Fatima now.",
])
def test_a_successor_in_the_role_replaces_the_one_who_left(news: str) -> None:
    values = active_after("My manager Marcus wants the report by Friday, how do I push back?", news)
    assert_replaced(values, "Fatima", "Marcus")


def test_someone_new_beside_a_role_that_stays_replaces_nothing() -> None:
    values = active_after("My manager Marcus wants the report by Friday.",
                          "Marcus introduced me to Fatima, the new one in accounts.")
    assert any("Marcus" in v for v in values), values


def test_where_the_one_who_left_went_is_no_value_of_the_users() -> None:
    """"Marcus's gone over to the Leeds team so I report to Fatima now": the Leeds team is where Marcus went, not
    the user's team, and no memory keeps Marcus current."""
    values = active_after("My manager Marcus wants a written update every Friday.",
                          "Marcus's gone over to the Leeds team so I report to Fatima now.")
    assert_replaced(values, "Fatima", "Marcus")


@pytest.mark.parametrize("news", [
    "first 1:1 with Fatima on Monday, she's taken over our team. what should I bring up?",
    "I had my first proper catch-up with Fatima today, she took over the department in May. Any tips?",
])
def test_someone_who_took_over_the_users_team_is_their_manager_now(news: str) -> None:
    values = active_after("My manager Marcus wants the report by Friday, how do I push back?",
                          "Marcus is leaving at the end of the month, help me with a card.", news)
    assert_replaced(values, "Fatima", "Marcus")


def test_taking_over_something_else_replaces_no_manager() -> None:
    values = active_after("My manager Marcus wants the report by Friday, how do I push back?",
                          "Fatima took over the school run this term so I get the mornings free.")
    assert any("Marcus" in v for v in values), values
