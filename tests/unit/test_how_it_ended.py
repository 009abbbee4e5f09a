"""A turn that changes a value and then tells how the old one ended keeps no memory of the old one as current
(issue 17): "It's Admiral now. I didn't renew with Direct Line ..." had stored the second sentence as one more
insurance, so the old insurer stayed current; "moved the NEST pot across to X" kept NEST in the new value. The
sentences are my own."""

from __future__ import annotations

from datetime import datetime

import pytest

from _memories import active_after, assert_replaced
from goodmemory._replaced import drop_replaced, tells_how_it_ended
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
