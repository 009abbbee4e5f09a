"""An event the user told ("I spilled coffee on the new rug") is no attribute: no note is kept of it, its turn is
(issue 17, w67). Sentences are this file's own. ``test_a_told_event_leaves_no_note_but_its_turn`` fails before w67
(the sentence was kept as a note that every later context could show); since w68 the same holds for what someone or
something else did ("My neighbour painted her fence green", "The boiler broke down"):
``test_another_persons_event_leaves_no_note`` and the new rows of the first test fail before w68.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from goodmemory import GoodMemory, MemoryKind
from goodmemory._change_words import event_only

T0 = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("said", "told"), [
    ("I spilled coffee on the new rug", True),
    ("We finally got the shed door to close properly", True),
    ("So I lost my keys at the pool again", True),
    ("I read mostly history books", False),  # "read" is a present habit too
    ("I need a new winter coat", False),  # "need" ends in -ed and is no past
    ("I put honey in my tea", False),
    ("My neighbour painted her fence green", True),  # another person's event (w68)
    ("The boiler broke down on Sunday night", True),
    ("Our old toaster finally died", True),
    ("The dentist moved me to the afternoon list", False),  # done to the user: may change the user's world
    ("The budgie is looked after by my aunt", False),  # "is looked after": no past event
    ("My nephew lives in Leeds", False),
    ("I love a long walk on a Sunday", False),
])
def test_event_only_reads_a_past_only_verb_after_its_subject(said: str, told: bool) -> None:
    assert event_only(said) is told


def test_a_told_event_leaves_no_note_but_its_turn(frozen_mem: GoodMemory) -> None:
    frozen_mem.remember([{"role": "user", "content": "I spilled coffee on the new rug."}], user_id="u", at=T0)
    kept = frozen_mem.list(user_id="u")
    assert [r.kind for r in kept] == [MemoryKind.EPISODE]
    hits = frozen_mem.recall("what happened to the rug?", user_id="u").hits
    assert hits and "spilled coffee" in hits[0].memory.text


def test_a_told_event_with_a_family_is_still_kept(frozen_mem: GoodMemory) -> None:
    # an event that says an attribute (a move, a new pet) is read by its family, not dropped as an event
    frozen_mem.remember([{"role": "user", "content": "We adopted a greyhound called Biscuit."}], user_id="u", at=T0)
    assert any("Biscuit" in r.text for r in frozen_mem.list(user_id="u") if r.kind != MemoryKind.EPISODE)


@pytest.mark.parametrize("said", ["My neighbour painted her fence green last weekend.",
                                  "The boiler broke down on Sunday night."])
def test_another_persons_event_leaves_no_note(frozen_mem: GoodMemory, said: str) -> None:
    frozen_mem.remember([{"role": "user", "content": said}], user_id="u", at=T0)
    assert [r.kind for r in frozen_mem.list(user_id="u")] == [MemoryKind.EPISODE]


def test_what_someone_did_for_the_user_is_kept(frozen_mem: GoodMemory) -> None:
    frozen_mem.remember([{"role": "user", "content": "I take lisinopril every morning."}], user_id="u", at=T0)
    frozen_mem.remember([{"role": "user", "content": "The GP added aspirin for my heart."}], user_id="u", at=T0)
    kept = [r.text for r in frozen_mem.list(user_id="u") if r.kind != MemoryKind.EPISODE]
    assert any("aspirin" in t for t in kept) and any("lisinopril" in t for t in kept), kept
