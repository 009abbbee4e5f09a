"""A named person as the subject is another person (issue 17, w58): "Anika lives in Rotterdam now" is Anika's
home, not a change of the user's; like "my sister lives in ...", it is marked as about another person. A name
that is a company, a place or a day stays the user's world."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _extracting import statements

from goodmemory.extraction._statements import statement_candidate
from goodmemory.models import Candidate

AT = datetime(2025, 3, 12, 10, tzinfo=UTC)


def _statements(text: str) -> list[Candidate]:
    return statements(text, at=AT)


@pytest.mark.parametrize("text", [
    "Anika lives in Rotterdam now, so we mostly video call.",
    "Tomasz just started at Brindle Foods.",
    "Ines moved to Porto in the spring.",
    "Rafael Ortiz works at Brindle Foods, we met at uni.",
])
def test_a_named_person_as_subject_is_another_person(text: str) -> None:
    got = _statements(text)
    assert got and all(c.metadata.get("other_subject") for c in got)


@pytest.mark.parametrize("text", [
    "Brightwatt raised our tariff again this month.",
    "Tuesday works for me for the dentist.",
    "Anika and I moved to Rotterdam in the spring.",
    "Keziah moved the launch review to 3 October.",                 # a name moving a thing of the user's
    "I moved to Porto in the spring.",
])
def test_a_company_a_day_or_the_user_beside_a_name_is_not_another_person(text: str) -> None:
    assert not any(c.metadata.get("other_subject") for c in _statements(text))


def test_a_name_the_users_memories_hold_stays_the_users_world() -> None:
    # the user's own manager moving on changes the user's manager: not a stranger's news
    text = "Jonas moved to the Lisbon office, so my new manager is Adaeze."
    c = statement_candidate(text, question=None, message_ids=["m0"], timestamp=AT, domain=None, correction=False,
                            secret=False, known=frozenset({"jonas"}))
    assert c is not None and not c.metadata.get("other_subject")
    stranger = statement_candidate(text, question=None, message_ids=["m0"], timestamp=AT, domain=None,
                                   correction=False, secret=False)
    assert stranger is not None and stranger.metadata.get("other_subject")
