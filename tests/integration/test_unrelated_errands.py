"""Two unrelated errands told at the same time of day are two memories: when something was told ("at
lunchtime", "yesterday") names no thing, so the second never replaces the first (real MiniLM embeddings)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import create_good_memory
from goodmemory.models import MemoryKind, MemoryStatus
from goodmemory.storage.base import MemoryFilter

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("pair", [
    # the second says something was lost or let go: words of a change, of nothing the first named
    ("I returned a parcel at the post office at lunchtime.", "I lost my gloves on the bus at lunchtime."),
    ("I cleaned the gutters yesterday.", "I dropped my phone in the sink yesterday."),
    ("We repainted the fence this afternoon.", "I lost the car keys this afternoon, found them later."),
])
def test_an_errand_told_at_the_same_time_of_day_replaces_no_other(pair: tuple[str, str]) -> None:
    with create_good_memory("sqlite://") as mem:
        for i, text in enumerate(pair):
            mem.remember([{"role": "user", "content": text}], user_id="u", session_id=f"s{i}",
                         at=T0 + timedelta(days=7 * i))
        records = mem.storage.list("u", MemoryFilter(statuses=None))
        # an event told with no time and no family ("I dropped my phone in the sink") keeps no note since w67, only
        # its turn: what is kept must be active, and both turns must stay current
        notes = [r for r in records if r.kind != MemoryKind.EPISODE]
        assert all(r.status == MemoryStatus.ACTIVE for r in notes), \
            [(r.text, r.status, r.metadata.get("slot_reason")) for r in notes]
        turns = [r for r in records if r.kind == MemoryKind.EPISODE and not r.metadata.get("digest")]
        assert len(turns) == 2 and not any(t.metadata.get("outdated") for t in turns), \
            [(t.text, t.metadata.get("outdated")) for t in turns]


@pytest.mark.parametrize("text", [
    "I took the old lawnmower to the tip on Saturday.",
    "I handed in the spare keys at the post office on Saturday.",
    "I finally cleared out the attic on Sunday.",
])
def test_an_errand_is_no_attribute_of_the_user(text: str) -> None:
    """A thing done once at a past time is the user's own note: it resembled an age, an address or a schedule
    closely enough to be filed and shown as core profile."""
    with create_good_memory("sqlite://") as mem:
        mem.remember([{"role": "user", "content": text}], user_id="u", session_id="s0", at=T0)
        notes = [r for r in mem.storage.list("u") if r.kind != MemoryKind.EPISODE]
        assert notes and all(r.key.startswith("fact.note.") for r in notes), \
            [(r.key, r.metadata.get("slot_reason")) for r in notes]


def test_a_change_done_at_a_past_time_still_changes() -> None:
    with create_good_memory("sqlite://") as mem:
        mem.remember([{"role": "user", "content": "Our vet is Hollybank Vets."}], user_id="u", session_id="s0", at=T0)
        mem.remember([{"role": "user", "content": "We switched Biscuit to Fernside Vets last week."}], user_id="u",
                     session_id="s1", at=T0 + timedelta(days=30))
        active = [r.text for r in mem.storage.list("u")
                  if r.kind != MemoryKind.EPISODE and r.status == MemoryStatus.ACTIVE]
        assert any("Fernside" in t for t in active) and not any("Hollybank" in t for t in active), active
