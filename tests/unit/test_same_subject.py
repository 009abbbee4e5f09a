"""A statement "my <attribute> is <value>" replaces the user's earlier one that names the same attribute as its
subject with a value of the same sort, however little the two read alike; not another sort of value ("in" vs "on"),
not a person's attribute, not an addition, and a bare word only with a word of change. This file's own sentences
(issue 17)."""

from __future__ import annotations

import pytest

from _memories import active_after as _active
from goodmemory._subjects import named_subject


@pytest.mark.parametrize(("text", "expected"), [
    ("My usual order's a cortado with an extra shot", ("usual order", "thing")),
    ("Our shared drive is on Nextcloud now", ("shared drive", "on")),
    ("My new locker number is 214", ("locker number", "thing")),
    ("My usual order at the bakery is a cinnamon bun", ("usual order", "thing")),
    ("My shoulder is much better now", ("shoulder", "word")),
    ("My sister is a paramedic", None),  # a person's attributes are many
    ("My van is being resprayed", None),  # no value
    ("I think my usual is fine", None),  # not the sentence's subject
])
def test_named_subject(text: str, expected: tuple[str, str] | None) -> None:
    assert named_subject(text) == expected


@pytest.mark.parametrize(("first", "second", "old", "new"), [
    ("My usual order at the bakery is a cinnamon bun and a filter coffee.",
     "My usual order's a cardamom knot these days.", "cinnamon", "cardamom"),
    ("Our team channel is on Slack, mostly the #ops room.", "Our team channel is on Mattermost now.",
     "Slack", "Mattermost"),
    ("My locker at the pool is number 118.", "My locker's 231 since they renumbered them.", "118", "231"),
])
def test_the_same_attribute_named_as_subject_is_replaced(first: str, second: str, old: str, new: str) -> None:
    active = _active(first, second)
    assert any(new in v for v in active) and not any(old in v for v in active), active


@pytest.mark.parametrize(("first", "second", "kept"), [
    ("My studio is in Leith, above the bike shop.", "My studio is on the second floor, no lift.", "Leith"),
    ("My brother is a plumber in Cork.", "My brother is a huge Munster fan.", "plumber"),
    ("My go-to lunch is a falafel wrap.", "My go-to lunch is also the soup from the van on Fridays.", "falafel"),
    ("My shoulder is stiff in the mornings.", "My shoulder is a pain when I swim.", "stiff"),
])
def test_another_sort_a_person_an_addition_or_no_change_keeps_it(first: str, second: str, kept: str) -> None:
    assert any(kept in v for v in _active(first, second))


@pytest.mark.parametrize(("text", "expected"), [
    ("My goal this season is a sub-20 parkrun", ("goal", "thing")),
    ("Next goal is the Ealing half in September", ("goal", "thing")),
    ("next week is chaos at work", None),
])
def test_a_time_qualifies_the_attribute_and_names_none(text: str, expected: tuple[str, str] | None) -> None:
    assert named_subject(text) == expected


def test_the_next_goal_replaces_the_goal() -> None:
    active = _active("My goal this season is a sub-20 parkrun.", "nailed it!! next goal is the Ealing half in "
                                                                  "September")
    assert any("Ealing" in v for v in active) and not any("sub-20" in v for v in active), active
