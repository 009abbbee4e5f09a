"""What the user hands over for a document about themselves or their business is theirs (issue 17): "Can you write
me an email signature? Priya Natarajan (she/her), Senior Data Analyst" gave no pronouns, and "Draft a flyer for
my bakery's Easter orders. Call or text 0117 496 0321 to order." no phone number: both are requests, which no
statement is. A pronoun set said of the user ("I use they/them now") is theirs too, and replaces the old one.
Someone else's document keeps nothing. The sentences are my own."""

from __future__ import annotations

import pytest
from _extracting import keyed

from _memories import active_after, assert_replaced


@pytest.mark.parametrize(("turn", "prefix", "value"), [
    ("Can you write me an email signature? Priya Natarajan (she/her), Senior Data Analyst, Northwind Logistics",
     "profile.pronouns", "she/her"),
    ("Make me a speaker bio: Tom Reyes (he/they), product designer, ten years in fintech", "profile.pronouns",
     "he/they"),
    ("Could you draft a flyer for my bakery's Easter orders? Call or text 0117 496 0321 to order.", "contact.phone",
     "0117 496 0321"),
    ("Write me a LinkedIn headline and put my email at the end: sam.k@posteo.de", "contact.email", "sam.k@posteo.de"),
    ("Quick update for the bios, I use they/them now", "profile.pronouns", "they/them"),
    ("my pronouns are she/they, could you update the intro", "profile.pronouns", "she/they"),
])
def test_what_the_user_hands_over_for_their_own_document_is_theirs(turn: str, prefix: str, value: str) -> None:
    assert value in keyed(turn, prefix=prefix).values()


@pytest.mark.parametrize("turn", [
    "Write a bio for my colleague Dan (he/him), he's presenting next week",
    "Draft an invitation for my sister's party, RSVP to her on 07700 900456",
    "Can you write a signature for my boss? Helen Ward (she/her), Head of Finance",
    "What does he/him mean on a profile?",
])
def test_someone_elses_document_or_a_question_keeps_nothing(turn: str) -> None:
    assert keyed(turn, prefix="profile.pronouns") == {}
    assert keyed(turn, prefix="contact.phone") == {}


def test_new_pronouns_replace_the_old() -> None:
    values = active_after("Can you write me a short bio? Alex Moreno (she/her), UX researcher at a bank",
                          "Quick update for future bios, I use they/them now. Could you redo it?")
    assert_replaced(values, "they/them", "she/her")
