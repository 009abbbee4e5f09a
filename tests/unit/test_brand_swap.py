"""A provider the user has one of at a time, named anew, replaces the old one without a word of change (issue 17):
"The Virgin Active by the canal has a proper pool, membership started on Monday" after "I go to PureGym near work"
left both gyms current, as did a new broadband or mobile network told by what it does ("Hyperoptic got installed on
Friday"). Not another person's, not a question, not a plan, not one added beside it. The sentences are my own."""

from __future__ import annotations

import pytest

from _memories import active_after, assert_holds, assert_replaced
from goodmemory._brands import brands_in


def test_brands_in_names_each_provider_with_its_sort() -> None:
    assert ("puregym", "gym") in brands_in("I go to PureGym near work")
    assert ("octopus", "energy") in brands_in("our gas is with Octopus")
    assert brands_in("the octopus was delicious") == frozenset()


@pytest.mark.parametrize(("before", "after", "new", "old"), [
    ("I go to PureGym near work, three times a week. Can you plan a leg day?",
     "The Virgin Active by the canal has a proper pool, membership started on Monday. What's a good swim set?",
     "Virgin Active", "PureGym"),
    ("Our broadband is Virgin Media and it drops every evening, any fixes?",
     "Hyperoptic got installed on Friday and it's flying. Which router settings should I change for gaming?",
     "Hyperoptic", "Virgin Media"),
    ("My phone is on EE, the 30GB plan. Is that enough for hotspotting at work?",
     "Got a giffgaff sim at the weekend, kept my number. How do I turn on wifi calling?",
     "giffgaff", "EE"),
])
def test_a_new_provider_of_a_sort_held_once_replaces_the_old(before: str, after: str, new: str, old: str) -> None:
    assert_replaced(active_after(before, after), new, old)


@pytest.mark.parametrize("after", [
    "My sister just joined Virgin Active, is it worth the price?",
    "Is Virgin Active better than PureGym for swimming?",
    "I'm thinking of moving to Virgin Active, are their classes any good?",
    "I also got a Virgin Active pass for the pool on Sundays.",
])
def test_another_persons_a_question_a_plan_or_an_addition_keeps_the_old(after: str) -> None:
    assert_holds(active_after("I go to PureGym near work, three times a week. Can you plan a leg day?", after),
                 "PureGym")


@pytest.mark.parametrize(("text", "name"), [
    ("Sky charged me twice for the sports pack this month, how do I complain?", "sky"),
    ("Octopus sent us a huge bill for March, is that normal for a two bed?", "octopus"),
    ("Three just texted me about roaming charges in Spain.", "three"),
])
def test_a_name_that_starts_a_sentence_and_bills_the_user_is_the_provider(text: str, name: str) -> None:
    assert name in {n for n, _ in brands_in(text)}


@pytest.mark.parametrize("text", [
    "Three of us are going to Spain in May.",
    "Octopus ink pasta, is it worth trying?",
    "Sky blue or navy for the bedroom walls?",
])
def test_a_word_that_starts_a_sentence_is_still_no_name(text: str) -> None:
    assert brands_in(text) == frozenset()


def test_a_supplier_known_from_its_bill_is_replaced_by_the_next() -> None:
    assert_replaced(active_after(
        "Octopus sent me a £180 bill for January, that seems a lot for a one bed flat?",
        "The British Gas engineer fitted our smart meter on Tuesday, how do I read it?"),
        "British Gas", "Octopus")


@pytest.mark.parametrize(("said", "key"), [
    ("Our Scottish Power bill jumped to £190 this month, how do I check the meter?", "fact.provider"),
    ("Our Virgin Media wifi drops every evening around 8", "fact.provider"),
    ("Barclays froze my card again while I was abroad", "fact.bank"),
])
def test_a_statement_naming_a_provider_is_filed_under_the_providers_family(said: str, key: str) -> None:
    from datetime import UTC, datetime

    from goodmemory import MemoryKind, create_good_memory

    mem = create_good_memory("sqlite://")
    mem.remember([{"role": "user", "content": said}], user_id="u", at=datetime(2025, 3, 1, tzinfo=UTC))
    keys = [r.key for r in mem.list(user_id="u") if r.kind != MemoryKind.EPISODE]
    assert keys and all(k.startswith(key) for k in keys), keys


@pytest.mark.parametrize("after", [
    "PureGym keeps emailing me to come back 😂 anyway how do I progress my deadlift?",
    "PureGym rang me twice this week trying to win me back. Anyway, how do I progress my deadlift?",
    "PureGym sent me a 'we miss you' offer to rejoin for £10, tempting but no.",
])
def test_the_old_provider_asking_the_user_back_replaces_nothing(after: str) -> None:
    assert_replaced(active_after("I go to PureGym near work, three times a week. Can you plan a leg day?",
                                 "Signed up at Virgin Active by the canal last week, the pool is lovely.", after),
                    "Virgin Active", "PureGym")
