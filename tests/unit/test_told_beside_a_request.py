"""A value the user gives beside a request is kept (issue 17): news before a dash and a request about it ("The vet is
on the 3rd at 10 - remind me the day before"), a value put "as my <attribute>" by an imperative ("Put 07700 900456 as
my work number, please"), and a fact followed by a hedge on why it is told (", in case it helps with the list you're
making me"). Each was dropped whole: the request's words read the sentence as no statement. The values kept are in
test_news_then_question's one table; here, what the request and the value do beside each other. This file's own
sentences."""

from __future__ import annotations

from _extracting import extract

from _memories import active_after


def test_the_request_after_the_dash_is_still_read() -> None:
    found = extract("The vet is on the 3rd at 10:15 - remind me to bring the vaccination card")
    assert any(c.kind.value == "open_loop" for c in found)


def test_a_contact_given_in_a_request_is_replaced_by_the_new_one() -> None:
    active = active_after("Use jo.marsh@posteo.de as my contact on the application, please.",
                          "My email is jo.marsh@fastmail.com now, the posteo one is closed.")
    assert any("fastmail" in v for v in active) and not any("posteo.de" in v for v in active), active
