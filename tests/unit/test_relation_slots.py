"""One person said by two words shares one slot (issue 17): "my manager, Dana Whitfield" was relation.manager and
"my new boss, Omar Haddad" relation.boss, so both stayed the user's current manager. The sentences are my own."""

from __future__ import annotations

import pytest
from _extracting import extract

from _memories import active_after, assert_replaced


def _keys(text: str) -> set[str]:
    return {c.key for c in extract(text)}


@pytest.mark.parametrize(("text", "key"), [
    ("My boss Omar Haddad wants the report by Friday.", "relation.manager"),
    ("My mum Carol is visiting next week.", "relation.mother"),
    ("My landlady Mrs Osei is lovely.", "relation.landlord"),
])
def test_two_words_for_one_person_share_a_slot(text: str, key: str) -> None:
    assert key in _keys(text)


def test_a_new_boss_replaces_the_manager() -> None:
    values = active_after("My manager, Dana Whitfield, wants a weekly summary from me. Can you draft a template?",
                          "Can you help me word a leave request? It goes to my new boss, Omar Haddad.")
    assert_replaced(values, "Omar Haddad", "Dana")
