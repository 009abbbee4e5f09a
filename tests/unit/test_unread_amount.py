"""A sum the rules left unread in a sentence they read (issue 17): "I'm a freelance translator in Lyon charging 40 EUR per
hour" gave the occupation and dropped the rate, so a later "the new rate of 55 EUR per hour" had nothing to replace.
The sentence is kept in the user's words too when it holds an amount no memory read from it took. My own sentences."""

from __future__ import annotations

import pytest

from _memories import active_after, assert_holds, assert_replaced


@pytest.mark.parametrize(("said", "amount", "job"), [
    ("I'm a freelance translator in Lyon charging 40 EUR per hour for agency work. Is that fair?", "40 EUR",
     "translator"),
    ("I work as a dog walker in Leeds and make £14 an hour, how do I find more clients?", "£14", "dog walker"),
])
def test_an_amount_the_rules_left_unread_is_kept(said: str, amount: str, job: str) -> None:
    assert_holds(active_after(said), amount, job)


def test_a_sentence_whose_amount_a_rule_read_is_not_kept_twice() -> None:
    values = active_after("My rent is £950 a month for a one bed in Bristol.")
    assert sum("950" in v for v in values) == 1, values


@pytest.mark.parametrize(("before", "after", "new", "old"), [
    ("We've set aside $9,000 for the kitchen redo, is that enough for new cabinets?",
     "Good news, my in-laws are helping out so the kitchen budget is $14,000 now. Can we do quartz?", "14,000", "9,000"),
    ("I'm on £31k as a junior planner, how much should I put in my pension?",
     "My manager agreed to £36k from June after my review! How much more is that a month?", "36k", "31k"),
    ("I charge 30 EUR per hour for tutoring, is that normal?",
     "All my students' parents accepted the new rate of 38 EUR per hour, how do I put it on invoices?", "38 EUR", "30 EUR"),
])
def test_a_sum_another_person_agreed_to_or_beside_their_clause_is_the_users(before: str, after: str, new: str,
                                                                            old: str) -> None:
    assert_replaced(active_after(before, after), new, old)


@pytest.mark.parametrize("after", [
    "My sister's budget for her wedding is $14,000 now, is that realistic?",
    "My brother got a raise to £36k, should he overpay his mortgage?",
    "My neighbour is lovely, and she has a new kitchen budget now, $14,000, for her flat.",
])
def test_another_persons_own_sum_stays_theirs(after: str) -> None:
    assert_holds(active_after("We've set aside $9,000 for the kitchen redo, is that enough for new cabinets?", after),
                 "9,000")
