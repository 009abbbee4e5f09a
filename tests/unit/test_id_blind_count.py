"""The context is packed by a token count that does not depend on the random ids it cites."""

from __future__ import annotations

import random

from goodmemory.context import Entry, id_blind, render
from goodmemory.models import MemoryKind
from goodmemory.tokens import default_token_counter


def _entries(rng: random.Random) -> list[Entry]:
    return [Entry(memory_id=f"{rng.getrandbits(128):032x}", kind=kind, section=section, text=text,
                  date="2025-06-01", source_message_ids=[])
            for kind, section, text in [(MemoryKind.FACT, "facts", "The demo is due 15 July."),
                                        (MemoryKind.PREFERENCE, "preferences", "Prefers code first."),
                                        (MemoryKind.FACT, "facts", "Laptop runs Fedora 41."),
                                        (MemoryKind.EPISODE, "history", "user: the NVIDIA driver broke")]]


def test_the_blind_count_is_one_number_for_any_ids_and_rarely_below_the_real_one() -> None:
    count = default_token_counter().count
    blind = id_blind(count)
    real, seen, under = set(), set(), 0
    for seed in range(300):
        text = render(_entries(random.Random(seed)))
        real.add(count(text))
        seen.add(blind(text))
        under += blind(text) < count(text)
    assert len(real) > 1  # the ids do move the real count
    assert len(seen) == 1
    assert under <= 3  # of 300: the caller re-packs by the real count then


def test_only_cited_prefixes_are_masked() -> None:
    count = default_token_counter().count
    plain = "the build id is deadbeefcafe and [notanid here]"
    assert id_blind(count)(plain) == count(plain)
