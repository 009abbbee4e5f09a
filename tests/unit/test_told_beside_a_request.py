"""A value the user gives beside a request is kept (issue 17): news before a dash and a request about it ("The vet is
on the 3rd at 10 - remind me the day before"), a value put "as my <attribute>" by an imperative ("Put 07700 900456 as
my work number, please"), and a fact followed by a hedge on why it is told (", in case it helps with the list you're
making me"). Each was dropped whole: the request's words read the sentence as no statement. This file's own
sentences."""

from __future__ import annotations

import pytest
from _extracting import assert_kept, extract
from _extracting import values as _values

from _memories import active_after


@pytest.mark.parametrize(("text", "kept"), [
    ("The vet is on the 3rd at 10:15 - remind me the day before", "10:15"),
    ("Parents' evening is Thursday at 6.30pm — can you block out my calendar?", "6.30pm"),
    ("Put 07700 900456 as my work number, please.", "07700 900456"),
    ("Use jo.marsh@posteo.de as my contact on the application.", "jo.marsh@posteo.de"),
    ("My shoe size is 43, in case it helps with the gift list you're making me.", "43"),
    ("My blood type is O negative, if that's ever relevant for the forms you help me fill in.", "O negative"),
])
def test_the_value_beside_a_request_is_kept(text: str, kept: str) -> None:
    assert_kept(text, kept)


def test_the_request_after_the_dash_is_still_read() -> None:
    found = extract("The vet is on the 3rd at 10:15 - remind me to bring the vaccination card")
    assert any(c.kind.value == "open_loop" for c in found)


@pytest.mark.parametrize("text", ["Put it as my top priority, please.", "Put that down as my excuse."])
def test_an_imperative_without_a_value_keeps_nothing(text: str) -> None:
    assert _values(text) == []


def test_a_contact_given_in_a_request_is_replaced_by_the_new_one() -> None:
    active = active_after("Use jo.marsh@posteo.de as my contact on the application, please.",
                          "My email is jo.marsh@fastmail.com now, the posteo one is closed.")
    assert any("fastmail" in v for v in active) and not any("posteo.de" in v for v in active), active
