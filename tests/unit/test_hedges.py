"""'kind of' / 'sort of' hedge as adverbs, not as nouns after a determiner: a change told with "same kind of X" is
read and kept (this file's own sentences; issue 17, w69). Fails before w69: the turn was taken as hedged and kept
no statement at all."""

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
