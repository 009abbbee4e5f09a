"""A passive statement with the user's possession as subject gives the user's attribute (issue 17, w58): "the
cottage is insured with X", "our boat is insured by X", "we're insured through X" name the user's insurer as
much as "my home insurance is with X". Another person's possession gives no insurer of the user's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _extracting import keyed

AT = datetime(2025, 3, 12, 10, tzinfo=UTC)


def _insurers(text: str) -> dict[str, str]:
    return keyed(text, prefix="fact.insurance", at=AT, statements=True)


@pytest.mark.parametrize(("text", "key", "value"), [
    ("The cottage is insured with Marram Mutual.", "fact.insurance.home", "Marram Mutual"),
    ("Our flat is insured by Tidewell, the excess is high.", "fact.insurance.home", "Tidewell"),
    ("The motorbike is insured by Gearshift Cover.", "fact.insurance.motorbike", "Gearshift Cover"),
    ("My van's insured through Kestrel Direct.", "fact.insurance.van", "Kestrel Direct"),
    ("We're insured with Halden Life.", "fact.insurance", "Halden Life"),
])
def test_a_passive_statement_about_the_users_possession_names_their_insurer(text: str, key: str, value: str) -> None:
    assert _insurers(text) == {key: value}


@pytest.mark.parametrize("text", [
    "My sister's house is insured with Marram Mutual.",
    "Is the cottage insured with Marram Mutual?",
    "The cottage is insured against flooding.",
    "My partner is insured with Halden Life.",
])
def test_another_persons_possession_a_question_or_no_insurer_gives_none(text: str) -> None:
    assert _insurers(text) == {}
