"""A job's first days, told without "I", name the new employer (issue 17): "First week at Northwind done!!" read
nearest a bank (the name is one) or nothing, so the old employer stayed current. The sentences are my own."""

from __future__ import annotations

import pytest
from _extracting import keyed

from _memories import active_after, assert_replaced


@pytest.mark.parametrize(("turn", "employer"), [
    ("First week at Northwind done!! So many Slack channels", "Northwind"),
    ("phew, first day at Brightwater Logistics over, everyone's lovely", "Brightwater Logistics"),
    ("Started at Kestrel Health on Monday, still learning the systems", "Kestrel Health"),
])
def test_a_jobs_first_days_name_the_employer(turn: str, employer: str) -> None:
    assert keyed(turn, prefix="profile.employer") == {"profile.employer": employer}


@pytest.mark.parametrize("turn", [
    "First week at Hillcrest Academy went well for Ruby",
    "first day at uni tomorrow, so nervous",
    "First week at the gym and I can barely walk",
])
def test_a_school_a_gym_or_no_name_is_no_employer(turn: str) -> None:
    assert keyed(turn, prefix="profile.employer") == {}


def test_the_new_employer_replaces_the_old() -> None:
    values = active_after("I work at Halden & Co as an auditor, busy season is brutal.",
                          "First week at Northwind done!! How do people keep on top of Slack notifications?")
    assert_replaced(values, "Northwind", "Halden")
