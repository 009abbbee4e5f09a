"""A turn that changes a value and then tells how the old one ended keeps no memory of the old one as current
(issue 17): "It's Admiral now. I didn't renew with Direct Line ..." had stored the second sentence as one more
insurance, so the old insurer stayed current; "moved the NEST pot across to X" kept NEST in the new value. The
sentences are my own."""

from __future__ import annotations

from datetime import datetime

import pytest

from _memories import active_after, assert_replaced
from goodmemory._replaced import about_replaced, drop_replaced, tells_how_it_ended
from goodmemory.merge import Earlier


def _old(value: str, key: str = "fact.insurance.aviva") -> Earlier:
    return Earlier(key=key, value=value, at=datetime(2025, 1, 1), family_key=key.rsplit(".", 1)[0], similarity=0.0)


@pytest.mark.parametrize("said", [
    "I didn't renew with Aviva in the end because Churchill's quote was cheaper",
    "the Aviva policy's cancelled",
    "Aviva is over and done with",
])
def test_a_sentence_that_ends_the_replaced_value_tells_how_it_ended(said: str) -> None:
    assert tells_how_it_ended(said, _old("My car insurance is with Aviva, renewal in June"), "It's Churchill now")


@pytest.mark.parametrize("said", [
    "I didn't renew with Aviva, I went with Hastings Direct",   # a value beyond the two: its own statement
    "Aviva were lovely on the phone",                          # names it, says nothing ended
    "my sister cancelled her gym",                             # names nothing of it
])
def test_anything_else_is_not_how_it_ended(said: str) -> None:
    assert not tells_how_it_ended(said, _old("My car insurance is with Aviva, renewal in June"), "It's Churchill now")


def test_the_old_insurer_is_not_current_after_the_change_and_its_end() -> None:
    values = active_after(
        "My car insurance with Aviva is up for renewal and the quote went up £150. Can you help me complain?",
        "Can you help me describe a scrape in a car park for my insurer? It's Churchill now, by the way. "
        "I didn't renew with Aviva in the end because Churchill's quote was much cheaper.")
    assert_replaced(values, "Churchill", "Aviva")


@pytest.mark.parametrize(("said", "kept"), [
    ("Moved the Aegon pot across to PensionBee so it's all in one place",
     "Moved the pot across to PensionBee so it's all in one place"),
    ("Switched my Aegon pension over to PensionBee", "Switched my pension over to PensionBee"),
])
def test_what_was_moved_to_the_new_value_loses_the_old_name(said: str, kept: str) -> None:
    assert drop_replaced(said, _old("My workplace pension is with Aegon", "fact.provider.aegon")) == kept


@pytest.mark.parametrize("said", [
    "Aviva were lovely on the phone",
    "Aviva never answered the phone anyway",
    "the Aviva app was always crashing",
])
def test_a_sentence_that_only_names_the_replaced_value_is_about_it(said: str) -> None:
    assert about_replaced(said, _old("My car insurance is with Aviva, renewal in June"), "It's Churchill now")


@pytest.mark.parametrize("said", [
    "Aviva still covers the van until May",              # says the old value still holds
    "Aviva were cheaper than Hastings Direct",           # a value beyond the two
    "my brother got a quote from Admiral",               # names nothing of it
    "We moved from Aviva to Churchill last week",        # the change itself, not a sentence about the old value
])
def test_a_sentence_with_more_than_the_replaced_value_is_not_only_about_it(said: str) -> None:
    assert not about_replaced(said, _old("My car insurance is with Aviva, renewal in June"), "It's Churchill now")


@pytest.mark.parametrize(("before", "after", "new", "old"), [
    ("Please call me Jojo. Could you suggest a name for my sourdough starter?",
     "Actually, I'd rather you called me Joanna from now on. Jojo sounds like a teenager. What's a good book for a "
     "long flight?", "Joanna", "Jojo"),
    ("I'm a member at PureGym, the one near the station. Any ideas for a 30-minute workout?",
     "Switched to Virgin Active last week. PureGym never had free towels. Which classes should I try first?",
     "Virgin Active", "PureGym"),
])
def test_what_the_turn_says_of_the_value_it_replaced_keeps_no_old_value_current(before: str, after: str, new: str,
                                                                               old: str) -> None:
    assert_replaced(active_after(before, after), new, old)


@pytest.mark.parametrize("said", [
    "It should be jo.brennan@outlook.com",           # an address the old value lacks
    "Stripe at the market stall, Aviva for the van",  # a name, first word of its sentence
])
def test_a_new_address_or_a_name_at_the_start_is_a_value_beyond_the_replaced_one(said: str) -> None:
    assert not about_replaced(said, _old("My car insurance is with Aviva, renewal in June"), "It's Churchill now")
