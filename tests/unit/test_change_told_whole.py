"""A change told whole in one sentence, old value and new, when the old one was never a memory (issue 17): "cancelled
Netflix when the price went up, we just have Disney+ now" was kept whole, so the current memory still named Netflix
as if the user had it. The memory's value is what holds now; its text keeps the whole sentence. My own sentences."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from goodmemory import MemoryKind, create_good_memory


def _stored(*turns: str) -> list[tuple[str, str]]:
    mem = create_good_memory("sqlite://")
    mem.remember([{"role": "user", "content": t} for t in turns], user_id="u", at=datetime(2025, 5, 1, tzinfo=UTC))
    return [(r.value, r.text) for r in mem.list(user_id="u") if r.kind != MemoryKind.EPISODE]


@pytest.mark.parametrize(("said", "old", "new"), [
    ("Cancelled Spotify when they put the price up, we only have Tidal now. Any good jazz playlists there?",
     "Spotify", "Tidal"),
    ("We moved the whole team from Trello to Asana last month, how do I set up recurring tasks?", "Trello", "Asana"),
    ("I ditched Evernote and I'm all in on Obsidian these days, what plugins should I get?", "Evernote", "Obsidian"),
    ("we migrated all our docs from Confluence to Notion last week, how do I make a wiki homepage?", "Confluence",
     "Notion"),
])
def test_the_current_value_no_longer_names_what_went(said: str, old: str, new: str) -> None:
    rows = [(v, t) for v, t in _stored(said) if new in v]
    assert rows, _stored(said)
    assert all(old not in v and old in t for v, t in rows), rows


def test_a_sentence_naming_two_current_values_keeps_both() -> None:
    rows = _stored("We have Netflix and Disney+ now, which one has more for kids?")
    assert not rows or any("Netflix" in v and "Disney+" in v for v, _ in rows), rows
