"""A well-known provider's name says its sort (issue 17): "Lloyds froze my card" and "moved my current account to
Monzo" share nothing once their names are masked, so a change of bank, energy supplier, mobile network, insurer or
notes app named only by the provider stayed beside the old one. The sentences are my own."""

from __future__ import annotations

import pytest

from _memories import active_after, assert_replaced
from goodmemory._brands import brand_sorts
from goodmemory._value_types import change_frame, sorts_of


@pytest.mark.parametrize(("text", "sort"), [
    ("Lloyds froze my card again", "bank"),
    ("switched everything over to monzo last week", "bank"),
    ("we're on British Gas for now", "energy"),
    ("got a sim from giffgaff", "phone_plan"),
    ("I'm covered through Aetna at work", "insurer"),
    ("my drafts all live in Evernote", "notes_app"),
    ("my workplace pension is with NEST", "pension"),
    ("I go to PureGym by the station", "gym"),
])
def test_a_providers_name_says_its_sort(text: str, sort: str) -> None:
    assert sort in brand_sorts(text)
    assert sort in sorts_of(text)


@pytest.mark.parametrize("text", [
    "Three of us went to the match",      # a number that starts a sentence
    "bt i said no",                       # chat's "but"
    "the octopus was delicious",          # an animal, not the supplier
    "my yoga teacher's favourite asana",  # a pose
    "it felt like an eon",
    "a notion I had",
])
def test_a_word_that_is_also_a_name_names_no_provider(text: str) -> None:
    assert brand_sorts(text) == frozenset()


def test_a_name_of_two_sorts_has_both() -> None:
    assert {"broadband", "phone_plan"} <= brand_sorts("Vodafone")


@pytest.mark.parametrize("text", [
    "ported my number over to Smarty, half the price",
    "we ended up going with Cigna through my new job",
])
def test_porting_and_going_with_frame_a_change(text: str) -> None:
    assert change_frame(text)


@pytest.mark.parametrize(("first", "then", "new", "old"), [
    ("Lloyds charged me £15 for a late payment, is that legal?",
     "moved my current account to Nationwide, wages go in there now. how do I set up a budget?", "Nationwide",
     "Lloyds"),
    ("British Gas put my direct debit up to £140, can they just do that?",
     "we switched to OVO in March, any tips on reading the smart meter?", "OVO", "British Gas"),
    ("my Vodafone contract runs out in May and I'm paying £40 a month",
     "ported my number to Smarty last week, £10 for 30GB. do they do eSIMs?", "Smarty", "Vodafone"),
])
def test_a_change_named_only_by_the_provider_replaces_the_old_one(first: str, then: str, new: str, old: str) -> None:
    values = active_after(first, then)
    assert_replaced(values, new, old)


def test_a_provider_of_another_sort_is_not_replaced() -> None:
    values = active_after("Lloyds charged me £15 for a late payment, is that legal?",
                          "we switched to OVO in March, any tips on reading the smart meter?")
    assert any("Lloyds" in v for v in values), values


def test_two_providers_of_one_sort_need_no_resemblance_to_replace() -> None:
    # masked, the two sentences share almost nothing; the names alone say both are notes apps
    values = active_after("My lecture notes are all in OneNote and it keeps freezing on big pages. any tips for "
                          "organising a thesis?",
                          "moved everything out at christmas, living in Logseq now. how do i link my citations?")
    assert_replaced(values, "Logseq", "OneNote")


def test_a_reason_naming_another_provider_of_the_sort_is_no_part_of_the_value() -> None:
    from goodmemory._replaced import drop_other_reason

    assert drop_other_reason("Starling, moved everything over in May cos Lloyds kept blocking my card") == \
        "Starling, moved everything over in May"
    assert drop_other_reason("I moved to Leeds because my job moved") == "I moved to Leeds because my job moved"


def test_the_new_bank_holds_no_old_bank_as_a_reason() -> None:
    values = active_after(
        "how do I set up a standing order with Lloyds for my rent? the app keeps confusing me",
        ["want to sort a monthly budget with pots", "A: Good idea. Which bank are you with at the moment?",
         "Starling, moved everything over in May cos lloyds kept blocking my card abroad"])
    assert any("Starling" in v for v in values), values
    assert not any("lloyds" in v.lower() for v in values), values
