"""A retraction drops only what the rules read in its own clause, not the rest of its sentence ("scrap the tables,
I'd rather you write plain paragraphs" takes one style back and gives another), and " so I ..." starts a clause of
the user's own after someone else's ("Dana's moved to the Lisbon office so I report to Marek now") (issue 17). Both
new values used to be lost. This file's own sentences."""

from __future__ import annotations

from _extracting import read as _read

from _memories import active_after


def test_the_clause_after_a_retraction_is_read() -> None:
    assert ("preference.communication.format", "prose paragraphs") in \
        _read("Scrap the numbered lists, I'd rather you write proper paragraphs.")


def test_a_retraction_alone_still_keeps_nothing() -> None:
    assert _read("Actually forget the loft conversion plan, that's no longer true.") == []


def test_so_i_starts_the_users_clause() -> None:
    assert ("relation.manager", "Marek") in _read("Dana's moved to the Lisbon office so I report to Marek now.")


def test_the_new_style_replaces_the_old() -> None:
    active = active_after("Always answer me in bullet points please, I skim.",
                          "ok scrap the bullet points, I'd rather you write proper paragraphs.", kinds=["preference"])
    assert "prose paragraphs" in active and "bullet points" not in active, active
