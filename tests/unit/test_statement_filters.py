"""What the statement path lets through (issue 17, w69; this file's own sentences): "kind of" / "sort of" hedge as
adverbs, not as nouns after a determiner, so a change told with "same kind of X" is kept (before w69 the turn was
taken as hedged and kept nothing); a request to record something of the user's ("Add X to my allergy list") is a
statement, unlike an errand in the imperative (before w69 it was dropped as a request); a hedge in a later clause
("meat maybe once a week") hedges that clause, not the whole sentence (before w69 the diet was dropped)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from goodmemory import GoodMemory
from goodmemory.extraction._sentence_patterns import HEDGE_ANY

T0 = datetime(2025, 5, 20, 9, 0, tzinfo=UTC)  # the frozen_mem clock (tests/conftest.py)


@pytest.mark.parametrize(("said", "hedged"), [
    ("I kind of like the quiz nights.", True),
    ("It's sort of a long way to the depot.", True),
    ("Same kind of job, better hours.", False),
    ("What sort of boiler do we have?", False),
    ("We eat a kind of stew most Sundays.", False),
])
def test_kind_of_hedges_only_as_an_adverb(said: str, hedged: bool) -> None:
    assert bool(HEDGE_ANY.search(said)) is hedged


def test_a_change_with_a_noun_kind_of_is_kept(frozen_mem: GoodMemory) -> None:
    frozen_mem.remember([{"role": "user", "content": "Moved across to Pellham Logistics in May, same sort of "
                          "warehouse work, nicer canteen."}], user_id="u")
    kept = [r.value for r in frozen_mem.list(user_id="u") if r.kind.value != "episode"]
    assert any("Pellham" in v for v in kept), kept


@pytest.mark.parametrize(("said", "kept"), [
    ("Add shellfish to my allergy list, the hives were no joke.", True),  # something of the user's to record
    ("Please note down oat milk on my dietary notes.", True),
    ("Note that my locker at the pool is number 48 now.", True),         # take note of what follows
    ("Add milk and eggs to the shopping list.", False),                   # an errand, nothing of the user's
    ("Put the quarterly review in the team calendar.", False),
])
def test_a_request_to_record_something_of_the_users_is_a_statement(frozen_mem: GoodMemory, said: str,
                                                                   kept: bool) -> None:
    frozen_mem.remember([{"role": "user", "content": said}], user_id="u")
    facts = [r.value for r in frozen_mem.list(user_id="u") if r.kind.value != "episode"]
    assert bool(facts) is kept, facts


@pytest.mark.parametrize(("said", "kept"), [
    ("I'm semi-vegetarian, chicken maybe once a month.", True),  # the hedge is in a later clause
    ("Maybe I'll go vegan next year, not sure.", False),              # the main clause is hedged
    ("I might move to Leeds, the rents are lower there.", False),
    ("Ha, I guess we'll just see how it goes.", False),               # an interjection is no main clause
])
def test_a_hedge_hedges_its_own_clause(frozen_mem: GoodMemory, said: str, kept: bool) -> None:
    frozen_mem.remember([{"role": "user", "content": said}], user_id="u")
    facts = [r.value for r in frozen_mem.list(user_id="u") if r.kind.value != "episode"]
    assert bool(facts) is kept, facts
